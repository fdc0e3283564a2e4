/**
 * The pre-check's analysis of one query (paper 002, Algorithm 3): linearise the constraints
 * (linearize.ts), bound every index by exact propagation, narrow each read term to the
 * values the array holds over its index's interval (§3.3: from the concrete contents, the
 * constant writes on top, and the access type: only element starts congruent to the
 * index's proven residue modulo M(a)), propagate again, and finally ask the ILP solver
 * whether the whole system is feasible. Infeasible (proven) means UNSAT; otherwise the
 * index intervals go down to the array encoding.
 *
 * Nested reads (a read inside an index, as in next[st][cls[c]]) are handled by iterating:
 * the inner read's term narrows, propagation narrows the outer index, and so on.
 */
import { ExprKind, type Expr } from '../../expr/index.js';
import type { Interval } from '../arrays/lowering.js';
import { residue } from '../arrays/low-bits.js';
import { Linearizer, type ReadTerm } from './linearize.js';
import type { HighsIlp } from './highs-ilp.js';

export interface PrecheckResult {
  unsat: boolean;
  /** How UNSAT was shown: 'propagation' (exact) or 'ilp' (HiGHS, proven exactly). */
  by: 'propagation' | 'ilp' | null;
  /** Read index expression → its interval (implied by the analysed formulas). */
  intervals: Map<Expr, Interval>;
  /** What the analysis cost (the pre-check's budget and profile). */
  cost: AnalysisCost;
}

export interface AnalysisCost {
  /** Linearised size: variables, rows, non-zero coefficients, read terms. */
  vars: number;
  rows: number;
  nonzeros: number;
  reads: number;
  /** 'run': HiGHS asked; 'over-size': skipped, the system exceeds maxSize; 'none': not needed (decided before, no reads, or no ILP). */
  ilp: 'run' | 'over-size' | 'none';
  /** Milliseconds linearising and propagating, and in HiGHS. */
  analysisMs: number;
  ilpMs: number;
}

export interface AnalysisOptions {
  /** Largest linearised system (variables + non-zeros) handed to the ILP; bigger ones get propagation only. */
  maxSize?: number;
}

const MAX_ROUNDS = 4;
/** Element starts decoded per read term before giving up on narrowing it. */
const MAX_STARTS = 1 << 16;
const U32_MAX = 0xffff_ffffn;

/**
 * Analyses constraints (and `extra`, if given); `ilp` null: propagation only. `indices`:
 * more read index expressions whose intervals are wanted (reads of a question that is not
 * itself analysed).
 */
export function analyse(constraints: readonly Expr[], extra: Expr | null, ilp: HighsIlp | null, indices: readonly Expr[] = [], opts: AnalysisOptions = {}): PrecheckResult {
  const start = performance.now();
  const cost: AnalysisCost = { vars: 0, rows: 0, nonzeros: 0, reads: 0, ilp: 'none', analysisMs: 0, ilpMs: 0 };
  const r = analyseSystem(constraints, extra, ilp, indices, opts.maxSize ?? Infinity, cost);
  cost.analysisMs = performance.now() - start - cost.ilpMs;
  return r;
}

function analyseSystem(constraints: readonly Expr[], extra: Expr | null, ilp: HighsIlp | null, indices: readonly Expr[], maxSize: number, cost: AnalysisCost): PrecheckResult {
  const l = new Linearizer();
  for (const c of constraints) l.addConstraint(c);
  if (extra !== null) l.addConstraint(extra);
  for (const i of indices) l.indexVar(i);
  const sys = l.sys;
  cost.vars = sys.numVars;
  cost.rows = sys.rows.length;
  for (const row of sys.rows) cost.nonzeros += row.vars.length;
  cost.reads = l.readTerms.length;
  const unsat = (by: 'propagation' | 'ilp'): PrecheckResult => ({ unsat: true, by, intervals: new Map(), cost });
  if (!sys.propagate()) return unsat('propagation');
  for (let round = 0; round < MAX_ROUNDS; round++) {
    let changed = false;
    for (const t of l.readTerms) {
      const r = readInterval(t, sys.lo[t.indexVar]!, sys.hi[t.indexVar]!);
      if (r === null) continue;
      if (r.lo > sys.lo[t.value]!) {
        sys.lo[t.value] = r.lo;
        changed = true;
      }
      if (r.hi < sys.hi[t.value]!) {
        sys.hi[t.value] = r.hi;
        changed = true;
      }
      if (sys.lo[t.value]! > sys.hi[t.value]!) return unsat('propagation');
    }
    if (!changed) break;
    if (!sys.propagate()) return unsat('propagation');
  }
  if (ilp !== null && l.readTerms.length > 0) {
    if (cost.vars + cost.nonzeros > maxSize) {
      cost.ilp = 'over-size';
    } else {
      cost.ilp = 'run';
      const t0 = performance.now();
      const f = ilp.feasibility(sys);
      cost.ilpMs = performance.now() - t0;
      if (f === 'infeasible') return unsat('ilp');
    }
  }
  const intervals = new Map<Expr, Interval>();
  for (const [index, v] of l.indexVars) {
    const lo = sys.lo[v]! < 0n ? 0n : sys.lo[v]!;
    const hi = sys.hi[v]! > U32_MAX ? U32_MAX : sys.hi[v]!;
    intervals.set(index, { lo, hi });
  }
  return { unsat: false, by: null, intervals, cost };
}

/**
 * The values a read term can take when its (lowest byte's) index is in [lo, hi]: null when
 * nothing narrower than its width can be said (a symbolic array, a write at a symbolic
 * index or of a symbolic value, too many starts).
 */
export function readInterval(t: ReadTerm, lo: bigint, hi: bigint): Interval | null {
  const ul = t.updates;
  const root = ul.root;
  const values = root.constantValues;
  if (values === null) return null;
  const overlay = new Map<number, number>();
  for (let n = ul.head; n !== null; n = n.next) {
    if (n.index.kind !== ExprKind.Constant || n.value.kind !== ExprKind.Constant) return null;
    const at = Number(n.index.value);
    if (!overlay.has(at)) overlay.set(at, Number(n.value.value));
  }
  const size = BigInt(root.size);
  const first = lo < 0n ? 0n : lo;
  const last = hi < size - 1n ? hi : size - 1n;
  const m = root.access?.modulus ?? 1;
  const off = m > 1 ? residue(t.index, m) : null;
  const step = off === null ? 1 : m;
  let j = Number(first);
  if (off !== null) j += (((off - j) % m) + m) % m;
  if (last >= first && (Number(last) - j) / step > MAX_STARTS) return null;
  const byte = (p: number): number => overlay.get(p) ?? (p < root.size ? values[p]! : 0);
  let min = -1n;
  let max = -1n;
  const note = (v: bigint): void => {
    if (min < 0n || v < min) min = v;
    if (v > max) max = v;
  };
  for (; j <= Number(last); j += step) {
    let v = 0n;
    for (let k = t.bytes - 1; k >= 0; k--) v = (v << 8n) | BigInt(byte(j + k));
    note(v);
  }
  if (hi >= size) note(0n); // past the end a constant array reads 0
  if (min < 0n) return { lo: 0n, hi: 0n }; // no start in range but the past-the-end zeros
  return { lo: min, hi: max };
}
