/**
 * Query count estimation's counting (paper 001 §3.2, Eq. 3–4), on an abstract control-flow
 * graph whose blocks carry the queries they issue: per block, Qt (the estimated number of
 * queries from the block's entry on, every query counted) and Qadd(v) for every variable v
 * (only the queries that depend on v), with each branch side weighted by β and loops unrolled
 * T times (their trip count, else κ).
 *
 * Computed by dynamic programming over the blocks in reverse loop-contiguous topological order
 * (cfg.ts), never by enumerating paths. Inside a loop, a block's count is affine in X, the
 * count at the loop header one iteration later; the header then closes the recurrence
 * q_j(H) = C + P·q_{j+1}(H) with q_T(H) = q(exit) (after the last iteration the path goes
 * straight out, as in the paper's worked example) in closed form:
 *   q_0(H) = C·(1 + P + … + P^(T−1)) + P^T·q(exit),
 * and X is replaced by q_1(H) in the loop's blocks: a location inside a loop is counted as if
 * in the first iteration. Values are clamped below 1e300 so that products of large counts
 * stay comparable (α·Qt < Qadd still decides).
 */
import { FunctionCfg, type Loop } from './cfg.js';

const CAP = 1e300;

function clamp(x: number): number {
  return x > CAP ? CAP : x;
}

/** Qt and the sparse Qadd per variable id. */
export class Counts {
  constructor(
    public qt = 0,
    readonly add = new Map<number, number>(),
  ) {}

  static site(weight: number, deps: Iterable<number>): Counts {
    const c = new Counts(weight);
    for (const v of deps) c.add.set(v, weight);
    return c;
  }

  copy(): Counts {
    return new Counts(this.qt, new Map(this.add));
  }

  /** this += k·o */
  addScaled(o: Counts, k: number): this {
    if (k === 0) return this;
    this.qt = clamp(this.qt + k * o.qt);
    for (const [v, x] of o.add) this.add.set(v, clamp((this.add.get(v) ?? 0) + k * x));
    return this;
  }

  /** this += o, per variable the larger of the two (a call's parameters carrying one variable count once). */
  maxInto(v: number, x: number): void {
    if (x > (this.add.get(v) ?? 0)) this.add.set(v, clamp(x));
  }

  get(v: number): number {
    return this.add.get(v) ?? 0;
  }
}

/** A count affine in the next-iteration header counts of enclosing loops: base + Σ coef_L · X_L. */
class Affine {
  constructor(
    readonly base: Counts,
    readonly coef: Map<Loop, number>,
  ) {}

  static of(c: Counts): Affine {
    return new Affine(c, new Map());
  }

  addScaled(o: Affine, k: number): this {
    this.base.addScaled(o.base, k);
    for (const [l, x] of o.coef) this.coef.set(l, clamp((this.coef.get(l) ?? 0) + k * x));
    return this;
  }
}

export interface CountParams {
  /** Probability weight of each side of a branch (the paper's β). */
  beta: number;
  /** Trip count of each loop (the paper's κ when unknown). */
  tripCount: (loop: Loop) => number;
}

export interface BlockCounts {
  /** Counts at each block's entry (its own queries included). */
  entry: Counts[];
  /** Counts of what follows each block (its successors, weighted), without its own queries. */
  after: Counts[];
}

/**
 * Counts for a graph given each block's own queries (`local`, in Counts form). Blocks with
 * several successors weight each by β; one successor passes its count on unweighted.
 */
export function computeCounts(cfg: FunctionCfg, local: readonly Counts[], params: CountParams): BlockCounts {
  const n = cfg.size;
  const value: (Affine | undefined)[] = new Array<Affine | undefined>(n);
  const after: (Affine | undefined)[] = new Array<Affine | undefined>(n);
  const order = Array.from({ length: n }, (_, b) => b).sort((x, y) => cfg.topoRank[y]! - cfg.topoRank[x]!);
  const headerOf = new Map<number, Loop>();
  for (const l of cfg.loops) headerOf.set(l.header, l);
  const { beta } = params;
  const edgeValue = (from: number, to: number): Affine | null => {
    if (cfg.isBackEdge(from, to)) {
      const l = headerOf.get(to);
      // a back edge to a natural loop's header: the next iteration; irreducible retreating edges count nothing
      if (l !== undefined && l.blocks.has(from)) return new Affine(new Counts(), new Map([[l, 1]]));
      return null;
    }
    return value[to] ?? null;
  };
  for (const b of order) {
    const succ = cfg.succ[b]!;
    const w = succ.length > 1 ? beta : 1;
    const aft = Affine.of(new Counts());
    for (const s of succ) {
      const v = edgeValue(b, s);
      if (v !== null) aft.addScaled(v, w);
    }
    after[b] = aft;
    const loop = headerOf.get(b);
    if (loop === undefined) {
      value[b] = Affine.of(local[b]!.copy()).addScaled(aft, 1);
      continue;
    }
    // a loop header: close the recurrence, then put the header's later iterations into the body
    const c = Affine.of(local[b]!.copy()).addScaled(aft, 1);
    const p = c.coef.get(loop) ?? 0;
    c.coef.delete(loop);
    const exit = loopExitValue(cfg, loop, value);
    const t = Math.max(1, params.tripCount(loop));
    const q0 = geometric(c, p, t, exit);
    const q1 = geometric(c, p, t - 1, exit);
    value[b] = q0;
    for (const x of loop.blocks) {
      if (x === b) {
        // the header's `after` is read at mid-block positions: the next iteration is q1
        substitute(after[b]!, loop, q1);
        continue;
      }
      substitute(value[x]!, loop, q1);
      substitute(after[x]!, loop, q1);
    }
  }
  return {
    entry: value.map((v) => (v === undefined ? new Counts() : v.base)),
    after: after.map((v) => (v === undefined ? new Counts() : v.base)),
  };
}

/** C·(1 + P + … + P^(t−1)) + P^t·exit. */
function geometric(c: Affine, p: number, t: number, exit: Affine): Affine {
  let g = 0;
  let pk = 1;
  for (let i = 0; i < t; i++) {
    g = clamp(g + pk);
    pk = clamp(pk * p);
  }
  const r = new Affine(new Counts(), new Map());
  r.addScaled(c, g);
  r.addScaled(exit, pk);
  return r;
}

function substitute(v: Affine, loop: Loop, x: Affine): void {
  const k = v.coef.get(loop);
  if (k === undefined) return;
  v.coef.delete(loop);
  v.addScaled(x, k);
}

/** Where the path goes after a loop's last iteration: the header's exit, else the first exit found. */
function loopExitValue(cfg: FunctionCfg, loop: Loop, value: (Affine | undefined)[]): Affine {
  const pick = (b: number): Affine | null => {
    for (const s of cfg.succ[b]!) if (!loop.blocks.has(s) && value[s] !== undefined) return value[s]!;
    return null;
  };
  const fromHeader = pick(loop.header);
  if (fromHeader !== null) return fromHeader;
  const inOrder = [...loop.blocks].sort((x, y) => cfg.topoRank[x]! - cfg.topoRank[y]!);
  for (const b of inOrder) {
    const v = pick(b);
    if (v !== null) return v;
  }
  return Affine.of(new Counts());
}
