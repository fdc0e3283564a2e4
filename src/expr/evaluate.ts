/**
 * Concrete evaluation of expressions under an assignment of bytes to arrays.
 *
 * Semantics are bv.ts's (SMT-LIB's where LLVM leaves a choice: division by zero, shifts by
 * ≥ width), so an expression evaluated under a solver's model has the value the solver gave it.
 * A symbolic array missing from the assignment reads as zeros, as do bytes past the end of
 * an assigned buffer or of a constant array. Reads are lazy (only the writes up to the first
 * match are evaluated) and Select evaluates only the chosen arm. Iterative, so depth is not
 * limited by the JS stack.
 *
 * A Forall is evaluated exactly by expansion: its body under each value 1..k of the bound
 * variable (k its bound's value), stopping at the first false instance. Expansions beyond
 * MAX_FORALL_EXPANSION instances throw (a model with an unconstrained huge k; the quantified
 * solver layer checks a model's quantifier-free part, which bounds k, first).
 */
import type { ExprArray, UpdateNode } from './array.js';
import { foldBinary, foldConcat, foldExtract, foldNot, foldSExt, foldZExt, toBigInt, type BV } from './bv.js';
import { constantFromBV, type ConstantExpr, type Expr } from './expr.js';
import { ExprKind, unsupportedKind } from './kinds.js';

/** Concrete contents of arrays (a `.ktest`'s objects, a solver's model). */
export type Assignment = ReadonlyMap<ExprArray, Uint8Array>;

/** Most instances of one Forall the evaluator expands. */
export const MAX_FORALL_EXPANSION = 1 << 22;

/**
 * Evaluates expressions under one assignment, memoising every subexpression's value for the
 * evaluator's lifetime (so evaluating a whole constraint set shares work).
 */
export class Evaluator {
  private readonly memo = new Map<Expr, BV>();
  // Explicit frame stack: expression, stage, and the write being examined (Reads).
  private readonly frames: Expr[] = [];
  private readonly stages: number[] = [];
  private readonly cursors: (UpdateNode | null)[] = [];

  /** Values of the bound variables in scope (a Forall's body is evaluated by a child evaluator). */
  private bindings: Map<number, BV> | null = null;

  constructor(readonly assignment: Assignment) {}

  /** The value in its width's native representation (number ≤ 32 bits, bigint above). */
  valueOf(e: Expr): BV {
    if (e.kind === ExprKind.Constant) return e.bv;
    const known = this.memo.get(e);
    if (known !== undefined) return known;
    this.run(e);
    return this.memo.get(e)!;
  }

  evaluate(e: Expr): bigint {
    return toBigInt(this.valueOf(e));
  }

  /** For width-1 expressions. */
  isTrue(e: Expr): boolean {
    return this.valueOf(e) === 1;
  }

  private val(e: Expr): BV | undefined {
    return e.kind === ExprKind.Constant ? e.bv : this.memo.get(e);
  }

  /** Pushes e if its value is unknown; returns whether it did. */
  private need(e: Expr): boolean {
    if (this.val(e) !== undefined) return false;
    this.frames.push(e);
    this.stages.push(0);
    this.cursors.push(null);
    return true;
  }

  private run(root: Expr): void {
    const { frames, stages, cursors, memo } = this;
    this.need(root);
    while (frames.length > 0) {
      const top = frames.length - 1;
      const e = frames[top]!;
      const stage = stages[top]!;
      if (memo.has(e)) {
        frames.pop(); // pushed twice (a shared descendant finished first)
        stages.pop();
        cursors.pop();
        continue;
      }
      let result: BV | undefined;
      switch (e.kind) {
        case ExprKind.Constant:
          result = e.bv;
          break;
        case ExprKind.Read:
          result = this.stepRead(e, top, stage);
          break;
        case ExprKind.BoundVar: {
          const b = this.bindings?.get(e.varId);
          if (b === undefined) throw new Error(`evaluate: bound variable i${e.varId} outside its Forall`);
          result = b;
          break;
        }
        case ExprKind.Forall:
          if (stage === 0) {
            stages[top] = 1;
            if (this.need(e.upper)) continue;
          }
          result = this.expand(e.bound.varId, e.bound.width, toBigInt(this.val(e.upper)!), e.body);
          break;
        case ExprKind.Select:
          if (stage === 0) {
            stages[top] = 1;
            if (this.need(e.cond)) continue;
          }
          {
            const arm = this.val(e.cond) === 1 ? e.trueExpr : e.falseExpr;
            if (stage < 2) {
              stages[top] = 2;
              if (this.need(arm)) continue;
            }
            result = this.val(arm)!;
          }
          break;
        default: {
          if (stage === 0) {
            stages[top] = 1;
            let pushed = false;
            for (let i = e.numKids - 1; i >= 0; i--) pushed = this.need(e.kid(i)) || pushed;
            if (pushed) continue;
          }
          result = this.compute(e);
        }
      }
      if (result === undefined) continue; // a Read pushed more work
      memo.set(e, result);
      frames.pop();
      stages.pop();
      cursors.pop();
    }
  }

  /** A fresh evaluator of the same assignment with bound variable `varId` (of `width`) at j, and this one's bindings. */
  bind(varId: number, width: number, j: number | bigint): Evaluator {
    const child = new Evaluator(this.assignment);
    child.bindings = new Map(this.bindings ?? []);
    child.bindings.set(varId, width <= 32 ? Number(j) : BigInt(j));
    return child;
  }

  /** 1 when body holds for every value 1..k of the bound variable, else 0. */
  private expand(varId: number, width: number, k: bigint, body: Expr): BV {
    if (k > BigInt(MAX_FORALL_EXPANSION)) throw new Error(`evaluate: Forall over ${k} instances (more than ${MAX_FORALL_EXPANSION})`);
    const n = Number(k);
    for (let j = 1; j <= n; j++) if (!this.bind(varId, width, j).isTrue(body)) return 0;
    return 1;
  }

  /** Stage 0: evaluate index; 1: scan writes from the cursor; 2: the matching write's value is ready. */
  private stepRead(e: Expr & { kind: ExprKind.Read }, top: number, stage: number): BV | undefined {
    const { stages, cursors } = this;
    if (stage === 0) {
      stages[top] = 1;
      cursors[top] = e.updates.head;
      if (this.need(e.index)) return undefined;
    }
    const idx = this.val(e.index) as number;
    let n: UpdateNode | null = cursors[top] ?? null;
    if (stage === 2) return this.val(n!.value);
    for (; n !== null; n = n.next) {
      const ni = this.val(n.index);
      if (ni === undefined) {
        cursors[top] = n;
        this.need(n.index);
        return undefined;
      }
      if (ni === idx) {
        cursors[top] = n;
        stages[top] = 2;
        if (this.need(n.value)) return undefined;
        return this.val(n.value);
      }
    }
    const root = e.updates.root;
    const bytes = root.constantValues ?? this.assignment.get(root);
    return bytes !== undefined && idx < bytes.length ? bytes[idx]! : 0;
  }

  private compute(e: Expr): BV {
    switch (e.kind) {
      case ExprKind.Concat:
        return foldConcat(this.val(e.left)!, e.left.width, this.val(e.right)!, e.right.width);
      case ExprKind.Extract:
        return foldExtract(this.val(e.expr)!, e.expr.width, e.offset, e.width);
      case ExprKind.ZExt:
        return foldZExt(this.val(e.expr)!, e.width);
      case ExprKind.SExt:
        return foldSExt(this.val(e.expr)!, e.expr.width, e.width);
      case ExprKind.Not:
        return foldNot(e.width, this.val(e.expr)!);
      case ExprKind.Constant:
      case ExprKind.Read:
      case ExprKind.Select:
      case ExprKind.BoundVar:
      case ExprKind.Forall:
        throw new Error('unreachable');
      default:
        if (e.kind >= ExprKind.Add && e.kind <= ExprKind.Sle) {
          return foldBinary(e.kind, e.left.width, this.val(e.left)!, this.val(e.right)!);
        }
        return unsupportedKind(e as never);
    }
  }
}

/** Value of e under the assignment (fresh memo per call). */
export function evaluate(e: Expr, assignment: Assignment): bigint {
  return new Evaluator(assignment).evaluate(e);
}

/** Value of e in its width's native representation (number ≤ 32 bits, bigint above). */
export function evaluateBV(e: Expr, assignment: Assignment): BV {
  return new Evaluator(assignment).valueOf(e);
}

/** Truth of a width-1 expression. */
export function evaluateBool(e: Expr, assignment: Assignment): boolean {
  if (e.width !== 1) throw new RangeError(`evaluateBool of a width-${e.width} expression`);
  return new Evaluator(assignment).isTrue(e);
}

/** The value of e as a constant expression. */
export function evaluateExpr(e: Expr, assignment: Assignment): ConstantExpr {
  return constantFromBV(new Evaluator(assignment).valueOf(e), e.width);
}
