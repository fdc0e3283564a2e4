/**
 * The UBSan handlers (`__ubsan_handle_*`) a `-fsanitize=…` build calls when a check fails:
 * each ends the path with a program error, with the message and error file KLEE's UBSan
 * runtime (`--ubsan-runtime`) gives (the check's summary, e.g. "signed-integer-overflow",
 * in testN.overflow.err). Unlike KLEE, whose reports point into its runtime's source, the
 * error's location is the program's call of the handler: the line of the undefined
 * behaviour. Used only for declarations: a program that defines a handler runs its own.
 *
 * The handlers' first argument is clang's static data for the check: a source location
 * (file pointer, line, column: 16 bytes), then check-specific fields. Those read here: the
 * type descriptor pointer at 16 (its first two 16-bit words: kind 0 = integer, info bit 0 =
 * signed), type_mismatch's log2 alignment at 24, implicit_conversion's destination type at 24
 * and kind at 32.
 */
import { builder } from '../../expr/builder.js';
import { constantFromBV, TRUE, type Expr } from '../../expr/expr.js';
import type { SpecialHandler } from '../prepare/kinst.js';
import { Termination } from '../errors.js';
import { toExpr, toUNum, type Scalar, type Val } from '../values.js';
import type { Executor } from '../executor.js';
import type { ExecutionState } from '../state.js';

type Report = readonly [message: string, suffix: string];

const OVERFLOW = 'overflow.err';
const PTR = 'ptr.err';
const UB = 'undefined_behavior.err';
const NULLABLE = 'nullable_attribute.err';
const CONVERSION = 'implicit_conversion.err';

function report(ex: Executor, st: ExecutionState, [message, suffix]: Report): void {
  ex.terminateOnError(st, message, Termination.ReportError, undefined, suffix);
}

/** n little-endian bytes at address p + off, or null (the path ended: p is not an object). */
function readBytes(ex: Executor, st: ExecutionState, p: Val, off: number, n: number): number | null {
  let addr = p as Scalar;
  if (typeof addr === 'object') addr = ex.concretize(st, addr, 64, 'ubsan data');
  const at = toUNum(addr, 64) + off;
  const node = st.memory.objectAt(at);
  if (node === null || node.os === null || at - node.mo.address + n > node.os.size) {
    ex.terminateOnError(st, 'invalid ubsan check data passed to a __ubsan_handle_ function', Termination.User);
    return null;
  }
  let v = 0;
  for (let i = n - 1; i >= 0; i--) {
    let b = node.os.read8(at - node.mo.address + i);
    if (typeof b !== 'number') b = Number(ex.toConstant(st, b, 'ubsan data').value);
    v = v * 256 + b;
  }
  return v;
}

/** The type descriptor whose pointer is at data + off: is it an integer type, and signed? */
function typeAt(ex: Executor, st: ExecutionState, data: Val, off: number): { integer: boolean; signed: boolean } | null {
  const td = readBytes(ex, st, data, off, 8);
  if (td === null) return null;
  const kindInfo = readBytes(ex, st, td, 0, 4);
  if (kindInfo === null) return null;
  const kind = kindInfo & 0xffff;
  return { integer: kind === 0, signed: kind === 0 && ((kindInfo >>> 16) & 1) === 1 };
}

/** A handler that always reports the same error. */
function fixed(r: Report): SpecialHandler {
  return (ex, st) => report(ex, st, r);
}

const integerOverflow: SpecialHandler = (ex, st, _ki, args) => {
  const t = typeAt(ex, st, args[0]!, 16);
  if (t !== null) report(ex, st, [t.signed ? 'signed-integer-overflow' : 'unsigned-integer-overflow', OVERFLOW]);
};

const divremOverflow: SpecialHandler = (ex, st, _ki, args) => {
  const t = typeAt(ex, st, args[0]!, 16);
  if (t !== null) report(ex, st, t.integer ? ['integer division overflow', OVERFLOW] : ['float-divide-by-zero', 'div.err']);
};

const implicitConversion: SpecialHandler = (ex, st, _ki, args) => {
  const from = typeAt(ex, st, args[0]!, 16);
  const to = from === null ? null : typeAt(ex, st, args[0]!, 24);
  const kind = to === null ? null : readBytes(ex, st, args[0]!, 32, 1);
  if (from === null || to === null || kind === null) return;
  const byKind: Record<number, string> = {
    0: !from.signed && !to.signed ? 'implicit-unsigned-integer-truncation' : 'implicit-signed-integer-truncation',
    1: 'implicit-unsigned-integer-truncation',
    2: 'implicit-signed-integer-truncation',
    3: 'implicit-integer-sign-change',
    4: 'implicit-signed-integer-truncation-or-sign-change',
  };
  report(ex, st, byKind[kind] !== undefined ? [byKind[kind], CONVERSION] : ['undefined-behavior', UB]);
};

/**
 * One report per feasible case: the cases' conditions (over possibly symbolic handler
 * arguments) are tried in order, each on the states the earlier ones did not take.
 */
function reportCases(ex: Executor, st: ExecutionState, cases: readonly (readonly [Expr, Report])[]): void {
  let rest: ExecutionState | null = st;
  for (const [cond, r] of cases) {
    if (rest === null) return;
    const [hit, other]: [ExecutionState | null, ExecutionState | null] = ex.fork(rest, cond);
    if (hit !== null) report(ex, hit, r);
    rest = other;
  }
}

const isNull = (v: Val): Expr => builder.eq(toExpr(v as Scalar, 64), constantFromBV(0, 64));

const typeMismatch: SpecialHandler = (ex, st, _ki, args) => {
  const logAlign = readBytes(ex, st, args[0]!, 24, 1);
  if (logAlign === null) return;
  const p = toExpr(args[1] as Scalar, 64);
  const low = builder.and(p, constantFromBV((1n << BigInt(Math.min(logAlign, 63))) - 1n, 64));
  reportCases(ex, st, [
    [isNull(args[1]!), ['null-pointer-use', PTR]],
    [builder.ne(low, constantFromBV(0, 64)), ['misaligned-pointer-use', PTR]],
    [TRUE, ['insufficient-object-size', UB]],
  ]);
};

const pointerOverflow: SpecialHandler = (ex, st, _ki, args) => {
  const base = isNull(args[1]!);
  const result = isNull(args[2]!);
  reportCases(ex, st, [
    [builder.and(base, result), ['nullptr-with-offset', PTR]],
    [base, ['nullptr-with-nonzero-offset', PTR]],
    [result, ['nullptr-after-nonzero-offset', PTR]],
    [TRUE, ['pointer-overflow', PTR]],
  ]);
};

const BASE: Record<string, SpecialHandler> = {
  add_overflow: integerOverflow,
  sub_overflow: integerOverflow,
  mul_overflow: integerOverflow,
  negate_overflow: integerOverflow,
  divrem_overflow: divremOverflow,
  shift_out_of_bounds: fixed(['shift out of bounds', OVERFLOW]),
  out_of_bounds: fixed(['out-of-bounds-index', PTR]),
  vla_bound_not_positive: fixed(['non-positive-vla-index', PTR]),
  float_cast_overflow: fixed(['float-cast-overflow', OVERFLOW]),
  load_invalid_value: fixed(['load invalid value', UB]),
  implicit_conversion: implicitConversion,
  invalid_builtin: fixed(['invalid-builtin-use', UB]),
  nonnull_return_v1: fixed(['invalid-null-return', NULLABLE]),
  nullability_return_v1: fixed(['invalid-null-return', NULLABLE]),
  nonnull_arg: fixed(['invalid-null-argument', NULLABLE]),
  nullability_arg: fixed(['invalid-null-argument', NULLABLE]),
  type_mismatch_v1: typeMismatch,
  alignment_assumption: fixed(['alignment-assumption', PTR]),
  pointer_overflow: pointerOverflow,
};

/** Never return even when recoverable: builtin_unreachable and missing_return have no _abort form. */
const NO_ABORT_FORM: Record<string, SpecialHandler> = {
  builtin_unreachable: fixed(['unreachable-call', UB]),
  missing_return: fixed(['missing-return', UB]),
};

/** Every handler under its symbol name, with the `_abort` variants clang calls under -fno-sanitize-recover. */
export const UBSAN_HANDLERS: Record<string, SpecialHandler> = Object.fromEntries([
  ...Object.entries(BASE).flatMap(([k, h]) => [
    [`__ubsan_handle_${k}`, h],
    [`__ubsan_handle_${k}_abort`, h],
  ]),
  ...Object.entries(NO_ABORT_FORM).map(([k, h]) => [`__ubsan_handle_${k}`, h]),
]);
