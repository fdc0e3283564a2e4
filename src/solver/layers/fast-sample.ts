/**
 * Random sampling for the questions the fast solver's exhaustive search cannot get into:
 * constraints whose DAG alone is larger than the search's budget, so that it cannot check a
 * single complete assignment. These are the outputs of hashes and checksums (md5sum's digest,
 * cksum's CRC), where every input byte reaches every output bit: interval bounds prune
 * nothing, and the backend must invert the function, which it usually cannot do within its
 * time limit, even when a branch such as "this digest byte is below 16" holds for one input in
 * sixteen. A few hundred random inputs find such a model in a fraction of that time.
 *
 * Sound for satisfiable answers only: an assignment counts when the evaluator, exact on every
 * constraint, says all of them hold; running out of samples decides nothing (the caller asks
 * the next layer). The generator is seeded, so a run asks the same questions and gets the same
 * answers every time.
 */
import { dagSize, Evaluator, type Expr, type ExprArray } from '../../expr/index.js';
import { writeVar, type SearchVar } from './fast-search.js';

/** A seeded 32-bit generator (mulberry32): reproducible runs. */
export class SampleSource {
  private a: number;

  constructor(seed = 0x7ab1e5) {
    this.a = seed >>> 0;
  }

  next32(): number {
    this.a = (this.a + 0x6d2b79f5) >>> 0;
    let t = this.a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return (t ^ (t >>> 14)) >>> 0;
  }

  /** A value in [0, n) for n ≥ 1 (modulo bias is harmless for sampling). */
  below(n: bigint): bigint {
    if (n <= 0x1_0000_0000n) return BigInt(this.next32()) % n;
    let r = 0n;
    for (let bits = 0n; 1n << bits < n; bits += 32n) r = (r << 32n) | BigInt(this.next32());
    return r % n;
  }
}

/**
 * Runs of adjacent bytes of one array inside one aligned 8-byte window: the words a program
 * most likely reads them as (a 64-bit time, a 32-bit size). Single bytes are left out.
 */
function wordWindows(vars: readonly SearchVar[]): SearchVar[][] {
  const out: SearchVar[][] = [];
  let run: SearchVar[] = [];
  for (const x of vars) {
    const last = run[run.length - 1];
    const joins = last !== undefined && x.v.length === 1 && last.v.array === x.v.array && last.v.start + 1 === x.v.start && Math.floor(x.v.start / 8) === Math.floor(last.v.start / 8);
    if (!joins) {
      if (run.length > 1) out.push(run);
      run = x.v.length === 1 ? [x] : [];
    } else run.push(x);
  }
  if (run.length > 1) out.push(run);
  return out;
}

/**
 * A value of a random magnitude for a window's little-endian word: a bit length drawn
 * uniformly, a value of that length, negated half the time. Uniform bytes almost never make
 * a word where programs keep their values: a symbolic file's 64-bit time must give a year
 * that fits an int (|t| < 2^56: one uniform draw in 128) before anything about that year can
 * hold. A byte its set does not allow keeps its uniform draw.
 */
function drawWord(w: readonly SearchVar[], model: Map<ExprArray, Uint8Array>, rng: SampleSource): void {
  const width = BigInt(w.length * 8);
  const bits = rng.below(width + 1n);
  let v = bits === 0n ? 0n : rng.below(1n << bits);
  if ((rng.next32() & 1) === 0) v = (-v) & ((1n << width) - 1n);
  for (const x of w) {
    const b = v & 0xffn;
    v >>= 8n;
    if (x.set.has(b)) writeVar(model, x.v, b);
  }
}

/** The sum of the constraints' DAG sizes: what checking one complete assignment costs. */
export function leafCost(exprs: readonly Expr[]): number {
  let cost = 0;
  for (const e of exprs) cost += dagSize(e);
  return cost;
}

/**
 * Draws up to `samples` assignments of `vars` (each from its set) into `model` and checks
 * `exprs` on each: true with the satisfying assignment left in `model`, undefined when none
 * of them satisfied every constraint.
 */
export function sample(exprs: readonly Expr[], vars: readonly SearchVar[], model: Map<ExprArray, Uint8Array>, samples: number, rng: SampleSource): true | undefined {
  const sizes = vars.map((x) => x.set.size());
  const windows = wordWindows(vars);
  for (let n = 0; n < samples; n++) {
    for (let i = 0; i < vars.length; i++) writeVar(model, vars[i]!.v, vars[i]!.set.nth(rng.below(sizes[i]!)));
    // half the time, the words the bytes make get values of a random magnitude instead
    if ((rng.next32() & 1) === 0) for (const w of windows) drawWord(w, model, rng);
    // a fresh evaluator per assignment: its memo holds the values of the previous one
    const ev = new Evaluator(model);
    let ok = true;
    for (const e of exprs) {
      if (!ev.isTrue(e)) {
        ok = false;
        break;
      }
    }
    if (ok) return true;
  }
  return undefined;
}
