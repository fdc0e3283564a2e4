/**
 * The ILP solver of the pre-check: HiGHS (the `highs` npm package, HiGHS compiled to
 * WebAssembly; chosen over glpk.js/yalps/javascript-lp-solver as the best-maintained MIP
 * solver on npm, and measured here: ~100–250 ms to load, ~3 ms per small MIP with a fresh
 * model, ~0.5 ms per re-run of a kept model; with presolve off a MIP took 35 ms).
 *
 * HiGHS computes in floating point with tolerances, so its answers are hints:
 *  - "feasible" is believed only for an integer point that satisfies the system exactly
 *    (LinearSystem.satisfiedBy) — and a wrong "feasible" only costs a backend call anyway;
 *  - "infeasible" is believed only with a proof checked in exact arithmetic: the LP
 *    relaxation's Farkas ray (LinearSystem.verifyFarkas), or bound propagation, at the
 *    root or at every leaf of a small branching on the LP's fractional variables.
 * An infeasibility HiGHS claims but that cannot be proven this way is `unknown`.
 */
import { createRequire } from 'node:module';
import type { Highs, Model } from 'highs';
import { LinearSystem } from './linear-system.js';

export type Feasibility = 'infeasible' | 'feasible' | 'unknown';

const MODEL_OPTIMAL = 7;
const MODEL_INFEASIBLE = 8;
/**
 * Largest coefficient or bound handed to HiGHS (its `large_matrix_value` is 1e15 and doubles
 * are exact to 2^53): systems with bigger numbers (64-bit arithmetic) stay with the exact
 * propagation alone.
 */
const MAX_MAGNITUDE = 2n ** 48n;
/** Branch-and-prove limits (nodes per proof). */
const MAX_NODES = 32;
const MAX_DEPTH = 8;

export interface IlpCounters {
  /** HiGHS runs. */
  runs: number;
  /** Milliseconds in HiGHS (model building and runs). */
  timeMs: number;
  /** Infeasibility claims of HiGHS, and those proven exactly. */
  claims: number;
  proven: number;
}

let loading: Promise<Highs> | null = null;

/** Loads the HiGHS module once per process. */
async function loadHighs(): Promise<Highs> {
  // required (not imported): the CLI bundle is CommonJS and keeps highs in node_modules
  loading ??= (createRequire(import.meta.url)('highs') as (o?: object) => Promise<Highs>)({});
  return loading;
}

export class HighsIlp {
  readonly counters: IlpCounters = { runs: 0, timeMs: 0, claims: 0, proven: 0 };
  /** HiGHS's time limit per MIP run in milliseconds (the pre-check's budget, --ilp-precheck-time). */
  timeLimitMs = 200;

  // private: the package's declarations must not mention the highs types (users need not have them)
  private constructor(private readonly highs: Highs) {}

  static async create(): Promise<HighsIlp> {
    return new HighsIlp(await loadHighs());
  }

  /** Whether the system has an integer solution, with 'infeasible' proven exactly. */
  feasibility(sys: LinearSystem): Feasibility {
    if (sys.numVars === 0) return sys.satisfiedBy([]) ? 'feasible' : 'infeasible';
    if (!fitsDoubles(sys)) return 'unknown';
    const start = performance.now();
    let model: Model;
    try {
      model = this.highs.createModel(this.modelData(sys));
    } catch {
      this.counters.timeMs += performance.now() - start;
      return 'unknown'; // HiGHS refused the model: the pre-check just does not answer
    }
    try {
      model.options.set({ output_flag: false, time_limit: this.timeLimitMs / 1000, mip_max_nodes: 2000 });
      this.counters.runs++;
      model.run();
      const status = model.getModelStatus();
      if (status === MODEL_OPTIMAL) {
        const x = Array.from(model.getSolution().colValue, (v) => BigInt(Math.round(v)));
        return sys.satisfiedBy(x) ? 'feasible' : 'unknown';
      }
      if (status !== MODEL_INFEASIBLE) return 'unknown';
      this.counters.claims++;
      model.clearIntegrality();
      const nodes = { n: 0 };
      const proven = this.prove(model, sys, 0, nodes);
      if (proven) this.counters.proven++;
      return proven ? 'infeasible' : 'unknown';
    } finally {
      model.dispose();
      this.counters.timeMs += performance.now() - start;
    }
  }

  /** Proves that `sys` (its bounds as given) has no integer point, on the LP relaxation `model`. */
  private prove(model: Model, sys: LinearSystem, depth: number, nodes: { n: number }): boolean {
    const s = sys.clone();
    if (!s.propagate()) return true;
    if (++nodes.n > MAX_NODES) return false;
    model.changeColsBounds(
      { kind: 'range', from: 0, to: s.numVars - 1 },
      s.lo.map(Number),
      s.hi.map(Number),
    );
    this.counters.runs++;
    model.run();
    const status = model.getModelStatus();
    if (status === MODEL_INFEASIBLE) {
      const ray = model.getDualRay();
      return ray !== undefined && s.verifyFarkas(ray.values);
    }
    if (status !== MODEL_OPTIMAL || depth >= MAX_DEPTH) return false;
    const x = model.getSolution().colValue;
    let branch = -1;
    for (let v = 0; v < x.length; v++) {
      if (Math.abs(x[v]! - Math.round(x[v]!)) > 1e-6 && s.lo[v]! < s.hi[v]!) {
        branch = v;
        break;
      }
    }
    if (branch < 0) return false; // an integral LP point: most likely feasible
    const f = BigInt(Math.floor(x[branch]!));
    const left = s.clone();
    left.hi[branch] = f < left.lo[branch]! ? left.lo[branch]! : f;
    const right = s.clone();
    right.lo[branch] = f + 1n;
    if (right.lo[branch]! > right.hi[branch]!) return false;
    return this.prove(model, left, depth + 1, nodes) && this.prove(model, right, depth + 1, nodes);
  }

  private modelData(sys: LinearSystem): Parameters<Highs['createModel']>[0] {
    const starts = [0];
    const indices: number[] = [];
    const values: number[] = [];
    for (const r of sys.rows) {
      for (let k = 0; k < r.vars.length; k++) {
        indices.push(r.vars[k]!);
        values.push(Number(r.coefs[k]!));
      }
      starts.push(indices.length);
    }
    const n = sys.numVars;
    return {
      numCols: n,
      numRows: sys.rows.length,
      colCost: new Array<number>(n).fill(0),
      colLower: sys.lo.map(Number),
      colUpper: sys.hi.map(Number),
      rowLower: sys.rows.map((r) => (r.lo === null ? -Infinity : Number(r.lo))),
      rowUpper: sys.rows.map((r) => (r.hi === null ? Infinity : Number(r.hi))),
      matrix: { format: 'csr', numRows: sys.rows.length, numCols: n, starts, indices, values },
      integrality: new Array<0 | 1>(n).fill(1),
    } as unknown as Parameters<Highs['createModel']>[0];
  }
}

function small(v: bigint | null): boolean {
  return v === null || (v < MAX_MAGNITUDE && v > -MAX_MAGNITUDE);
}

/** Whether every number of the system is safely representable for HiGHS. */
function fitsDoubles(sys: LinearSystem): boolean {
  for (let v = 0; v < sys.numVars; v++) if (!small(sys.lo[v]!) || !small(sys.hi[v]!)) return false;
  for (const r of sys.rows) {
    if (!small(r.lo) || !small(r.hi)) return false;
    for (const a of r.coefs) if (!small(a)) return false;
  }
  return true;
}
