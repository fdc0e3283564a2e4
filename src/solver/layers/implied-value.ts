/**
 * Implied values (KLEE's lib/Core/ImpliedValue.cpp): given that `e` equals the constant
 * `value`, the reads whose values that forces. The engine can write them back into memory
 * (implied-value concretization) so later reads of those bytes are concrete.
 *
 * The rules are KLEE's: a Read is forced to the value; Concat splits the value; ZExt/SExt
 * pass the truncated value to their operand (when the value is in the extension's image —
 * KLEE asserts it); Add/Sub/Xor with a constant left operand are inverted; Not inverts the
 * bits; a boolean And that is true (Or that is false) forces both sides; `c == x` true forces
 * x = c, and for booleans `c == x` false forces x = ¬c; a Select with distinct constant arms
 * forces its condition. Everything else (Extract, Mul, divisions, shifts, comparisons) implies
 * nothing here, as in KLEE.
 */
import { builder, ExprKind, FALSE, TRUE, type ConstantExpr, type Expr, type ReadExpr } from '../../expr/index.js';

export interface ImpliedValue {
  read: ReadExpr;
  value: ConstantExpr;
}

/** The reads forced by `e == value` (value has e's width). Throws if a rule finds a contradiction. */
export function getImpliedValues(e: Expr, value: ConstantExpr): ImpliedValue[] {
  if (e.width !== value.width) throw new RangeError(`getImpliedValues: widths ${e.width} and ${value.width} differ`);
  const out: ImpliedValue[] = [];
  const todo: [Expr, ConstantExpr][] = [[e, value]];
  const c = (x: Expr): ConstantExpr => x as ConstantExpr; // results of builder ops on constants
  while (todo.length > 0) {
    const [x, v] = todo.pop()!;
    switch (x.kind) {
      case ExprKind.Constant:
        if (x !== v) throw new Error(`implied value: ${x.toString()} cannot equal ${v.toString()}`);
        break;
      case ExprKind.Read:
        out.push({ read: x, value: v });
        break;
      case ExprKind.Select:
        if (x.trueExpr.kind === ExprKind.Constant && x.falseExpr.kind === ExprKind.Constant && x.trueExpr !== x.falseExpr) {
          if (v === x.trueExpr) todo.push([x.cond, TRUE]);
          else if (v === x.falseExpr) todo.push([x.cond, FALSE]);
          else throw new Error(`implied value: select cannot equal ${v.toString()}`);
        }
        break;
      case ExprKind.Concat: {
        const rw = x.right.width;
        todo.push([x.left, c(builder.extract(v, rw, x.left.width))], [x.right, c(builder.extract(v, 0, rw))]);
        break;
      }
      case ExprKind.ZExt:
      case ExprKind.SExt: {
        const t = c(builder.extract(v, 0, x.expr.width));
        const back = x.kind === ExprKind.ZExt ? builder.zext(t, x.width) : builder.sext(t, x.width);
        if (back !== v) throw new Error(`implied value: ${v.toString()} is not an extension`);
        todo.push([x.expr, t]);
        break;
      }
      case ExprKind.Add:
        if (x.left.kind === ExprKind.Constant) todo.push([x.right, c(builder.sub(v, x.left))]);
        break;
      case ExprKind.Sub:
        if (x.left.kind === ExprKind.Constant) todo.push([x.right, c(builder.sub(x.left, v))]);
        break;
      case ExprKind.Xor:
        if (x.left.kind === ExprKind.Constant) todo.push([x.right, c(builder.xor(v, x.left))]);
        break;
      case ExprKind.Not:
        todo.push([x.expr, c(builder.not(v))]);
        break;
      case ExprKind.And:
        if (x.width === 1 && v === TRUE) todo.push([x.left, TRUE], [x.right, TRUE]);
        break;
      case ExprKind.Or:
        if (x.width === 1 && v === FALSE) todo.push([x.left, FALSE], [x.right, FALSE]);
        break;
      case ExprKind.Eq:
        if (x.left.kind === ExprKind.Constant) {
          if (v === TRUE) todo.push([x.right, x.left]);
          else if (x.left.width === 1) todo.push([x.right, c(builder.not(x.left))]);
        }
        break;
      default:
        break; // Extract, Mul, divisions, shifts, comparisons: nothing, as KLEE
    }
  }
  return out;
}

/**
 * The implied values that name one byte of an array without writes at a constant index —
 * the ones an engine can write back into an object (KLEE's doImpliedValueConcretization
 * only uses constant-index reads).
 */
export function concreteImpliedBytes(e: Expr, value: ConstantExpr): { array: ReadExpr['updates']['root']; index: number; value: number }[] {
  const out: { array: ReadExpr['updates']['root']; index: number; value: number }[] = [];
  for (const iv of getImpliedValues(e, value)) {
    const r = iv.read;
    if (r.index.kind !== ExprKind.Constant || r.updates.head !== null) continue;
    out.push({ array: r.updates.root, index: r.index.toNumber(), value: iv.value.toNumber() });
  }
  return out;
}
