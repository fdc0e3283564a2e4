/**
 * Op.Poison (prepare/poison.ts): an instruction that may read or make the poison of an
 * over-wide shift. Before running the instruction itself (PoisonInfo.inner):
 *   1. its observed operands must not be poison: where their shadow may be true the state
 *      forks and that side reports "overshift error" (as KLEE's overshift check would have,
 *      but only where the C program's behaviour depends on the value);
 *   2. the result's shadow is written: the operands' poison (for a select, the condition's
 *      and the chosen side's), and for a shift, whether its amount is ≥ the width.
 * Shadows are 0, 1 or a width-1 expression.
 */
import { builder } from '../expr/builder.js';
import { TRUE, type Expr } from '../expr/expr.js';
import { Predicate } from '../ir/opcodes.js';
import type { Executor } from './executor.js';
import type { ExecutionState } from './state.js';
import type { KInst } from './prepare/kinst.js';
import type { PoisonInfo } from './prepare/poison.js';
import { checkError } from './exec-arith.js';
import { execSlow } from './dispatch.js';
import { Msg } from './errors.js';
import { icmp } from './scalar.js';
import { fromExpr, toExpr, type Scalar, type Val } from './values.js';

type Shadow = number | Expr;

function or(a: Shadow, b: Shadow): Shadow {
  if (a === 0 || b === 1) return b;
  if (b === 0 || a === 1) return a;
  return fromExpr(builder.or(a as Expr, b as Expr)) as Shadow;
}

/** Whether a shift amount (a scalar, or a vector of them) may be ≥ the width w. */
function overWide(amount: Val, w: number): Shadow {
  if (Array.isArray(amount)) return amount.reduce<Shadow>((acc, a) => or(acc, overWide(a, w)), 0);
  return icmp(Predicate.ICMP_UGE, w, amount as Scalar, w) as Shadow;
}

function selectShadow(regs: Val[], p: PoisonInfo, cond: Val): Shadow {
  const c = regs[p.props[0]!] as Shadow;
  const a = regs[p.props[1]!] as Shadow;
  const b = regs[p.props[2]!] as Shadow;
  if (typeof cond !== 'object') return or(c, cond !== 0 ? a : b);
  if (a === b) return or(c, a);
  return or(c, fromExpr(builder.select(cond as Expr, toExpr(a as Scalar, 1), toExpr(b as Scalar, 1))) as Shadow);
}

export function execPoison(ex: Executor, st: ExecutionState, ki: KInst): void {
  const p = ki.aux as PoisonInfo;
  const inner = p.inner;
  let regs = st.top.regs;
  let bad: Shadow = 0;
  for (const r of p.sinks) bad = or(bad, regs[r] as Shadow);
  let target: ExecutionState | null = st;
  if (bad !== 0) {
    target = checkError(ex, st, bad === 1 ? TRUE : (bad as Expr), Msg.overshift, 'overshift.err');
    if (target === null) return;
    regs = target.top.regs;
  }
  if (p.dest >= 0) {
    let q: Shadow = 0;
    if (p.select) q = selectShadow(regs, p, regs[inner.a]!);
    else for (const r of p.props) q = or(q, regs[r] as Shadow);
    if (p.shift) q = or(q, overWide(regs[inner.b]!, inner.w > 0 ? inner.w : shiftWidth(inner)));
    target.thawTop().regs[p.dest] = q;
  }
  execSlow(ex, target, inner);
}

/** The element width of a vector shift (VecOp keeps no width in w). */
function shiftWidth(ki: KInst): number {
  const t = ki.inst.type as unknown as { element?: { bits: number }; bits?: number };
  return t.element?.bits ?? t.bits ?? 64;
}
