/**
 * The fast solver's search for the constraints interval reasoning cannot decide: a
 * depth-first walk over the values of the variables they read (each variable's values come
 * from its simple constraints), pruning a branch as soon as sound bounds (fast-bounds.ts)
 * show some constraint false, and checking complete assignments exactly with the evaluator.
 * Exact when it finishes; gives up (undefined) when it exceeds its budget of node visits.
 */
import { dagLargerThan, dagSize, Evaluator, type Expr, type ExprArray } from '../../expr/index.js';
import { BoundsEvaluator, type ByteRange } from './fast-bounds.js';
import { elementsOf } from './element-set.js';
import type { Variable } from './fast-analysis.js';
import type { IntervalSet } from './fast-intervals.js';

export interface SearchVar {
  v: Variable;
  set: IntervalSet;
}

/**
 * Completes `model` (bytes of the variables in `vars` are overwritten) so that every
 * expression in `exprs` holds; null when no assignment of `vars` from their sets does,
 * undefined when the budget ran out first.
 */
export function search(exprs: readonly Expr[], vars: readonly SearchVar[], model: Map<ExprArray, Uint8Array>, budget: number): boolean | null | undefined {
  const ranges = new Map<ExprArray, (ByteRange | undefined)[]>();
  for (const x of vars) {
    let r = ranges.get(x.v.array);
    if (r === undefined) ranges.set(x.v.array, (r = []));
    setRange(r, x, undefined);
  }
  if (vars.length === 0) return allTrue(exprs, model) ? true : null;
  const readers = vars.map((x) => exprs.filter((e) => reads(e, x.v)));
  // a leaf's cost, past the budget only as far as needed to see it is (a merged path condition
  // can have a million nodes, and a split question searches up to 64 cases of it)
  let leafCost = 0;
  for (const e of exprs) {
    if (dagLargerThan(e, budget)) {
      leafCost = budget + 1;
      break;
    }
    leafCost += dagSize(e);
    if (leafCost > budget) break;
  }
  let spent = 0;
  let depth = 0;
  const iters: Iterator<bigint>[] = [vars[0]!.set.values()];
  for (;;) {
    const x = vars[depth]!;
    const next = iters[depth]!.next();
    if (next.done === true) {
      setRange(ranges.get(x.v.array)!, x, undefined);
      iters.pop();
      if (--depth < 0) return null;
      continue;
    }
    const value = next.value;
    writeVar(model, x.v, value);
    setRange(ranges.get(x.v.array)!, x, value);
    if (depth === vars.length - 1) {
      spent += leafCost;
      if (allTrue(exprs, model)) return true;
    } else {
      const b = new BoundsEvaluator(ranges);
      let pruned = false;
      // the others had these bounds at the parent already, where none was false
      for (const e of readers[depth]!) {
        if (b.isFalse(e)) {
          pruned = true;
          break;
        }
      }
      spent += b.visited;
      if (!pruned) {
        depth++;
        iters.push(vars[depth]!.set.values());
      }
    }
    if (spent > budget) return undefined;
  }
}

function reads(e: Expr, v: Variable): boolean {
  const idx = elementsOf(e).bytes.get(v.array);
  if (idx === undefined) return false;
  for (let k = 0; k < v.length; k++) if (idx.has(v.start + k)) return true;
  return false;
}

function allTrue(exprs: readonly Expr[], model: Map<ExprArray, Uint8Array>): boolean {
  const ev = new Evaluator(model);
  for (const e of exprs) if (!ev.isTrue(e)) return false;
  return true;
}

/** Byte ranges of a variable: its value's bytes once chosen, else what its set allows. */
function setRange(r: (ByteRange | undefined)[], x: SearchVar, value: bigint | undefined): void {
  const { start, length } = x.v;
  if (value !== undefined) {
    for (let k = 0; k < length; k++) {
      const byte = Number((value >> BigInt(8 * k)) & 0xffn);
      r[start + k] = { lo: byte, hi: byte };
    }
    return;
  }
  if (length === 1) {
    r[start] = { lo: Number(x.set.min()), hi: Number(x.set.max()) };
    return;
  }
  for (let k = 0; k < length - 1; k++) r[start + k] = { lo: 0, hi: 255 };
  const top = BigInt(8 * (length - 1)); // the most significant byte follows the value's range
  r[start + length - 1] = { lo: Number(x.set.min() >> top), hi: Number(x.set.max() >> top) };
}

export function writeVar(m: Map<ExprArray, Uint8Array>, v: Variable, value: bigint): void {
  const buf = m.get(v.array)!;
  if (v.length === 1) {
    buf[v.start] = Number(value);
    return;
  }
  for (let k = 0; k < v.length; k++) {
    buf[v.start + k] = Number(value & 0xffn);
    value >>= 8n;
  }
}
