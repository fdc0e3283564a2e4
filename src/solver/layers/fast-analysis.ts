/**
 * What the fast solver layer knows about one constraint: when it speaks about a single
 * "variable" — consecutive bytes of one symbolic array read at constant indices, taken as
 * one little-endian number — the exact set of values of that variable satisfying it.
 *
 * Recognised (exactly) by interval reasoning:
 *   atom    := cmp(c, term) | cmp(term, c)      cmp ∈ Eq Ult Ule Slt Sle, c constant
 *   term    := var | zext(term) | sext(term) | c + term | c - term
 *   var     := Read(a, i) | Concat(Read(a, i+k-1), …, Read(a, i))   (no writes, a symbolic)
 *   formula := atom | Not formula | And/Or of formulas | c == formula (width 1)
 * with every atom about the same variable. Any other constraint that reads exactly one byte
 * gets its set by evaluating it at all 256 values. Anything else is "complex": the layer may
 * still decide it by enumerating the few values its bytes can take.
 */
import { ExprKind, dagLargerThan, evaluateBool, memoSlot, type Expr, type ExprArray, type ReadExpr } from '../../expr/index.js';
import { elementsOf } from './element-set.js';
import { IntervalSet, maxOf } from './fast-intervals.js';

/** `length` consecutive bytes of `array` from `start`, as one little-endian number. */
export interface Variable {
  readonly array: ExprArray;
  readonly start: number;
  readonly length: number;
}

export type Analysis =
  /** A constraint about one variable: it holds exactly when the variable is in `set`. */
  | { readonly kind: 'simple'; readonly v: Variable; readonly set: IntervalSet }
  /** Something else, reading `bytes` (a constant-index byte list) of symbolic arrays. */
  | { readonly kind: 'complex'; readonly bytes: readonly ByteRef[] }
  /** Beyond this layer (symbolic indices, bytes past an array's end, …). */
  | { readonly kind: 'unsupported' };

export interface ByteRef {
  readonly array: ExprArray;
  readonly index: number;
}

/** A one-byte constraint is evaluated at all 256 values only when its DAG is at most this big. */
const BYTE_SET_MAX_NODES = 4096;

/** Variables wider than this are left to the next layer (their sets need not be enumerated, but keep bigint math bounded). */
const MAX_VAR_BYTES = 8;

/** The analysis of a width-1 constraint (memoised per node). */
export function analyze(e: Expr): Analysis {
  const slot = memoSlot(e);
  let a = slot.analysisMemo as Analysis | undefined;
  if (a === undefined) {
    a = compute(e);
    slot.analysisMemo = a;
  }
  return a;
}

const UNSUPPORTED: Analysis = { kind: 'unsupported' };

function compute(e: Expr): Analysis {
  const es = elementsOf(e);
  if (es.whole.size > 0) return UNSUPPORTED;
  const bytes: ByteRef[] = [];
  for (const [array, idx] of es.bytes) {
    if (array.isConstant()) continue; // its bytes are fixed: nothing to choose
    for (const index of idx) {
      if (index >= array.size) return UNSUPPORTED; // the model cannot hold it
      bytes.push({ array, index });
    }
  }
  const f = formula(e);
  if (f !== null) return { kind: 'simple', v: f.v, set: f.set };
  // 256 evaluations of a huge DAG (csmith's safe arithmetic over one symbolic byte: 10^5
  // nodes) took minutes with no time check in between; such a constraint is searched like a
  // complex one, whose search counts node visits against its budget
  if (bytes.length === 1 && !dagLargerThan(e, BYTE_SET_MAX_NODES)) {
    return { kind: 'simple', v: { array: bytes[0]!.array, start: bytes[0]!.index, length: 1 }, set: byteSet(e, bytes[0]!) };
  }
  return { kind: 'complex', bytes };
}

/** The values of one byte under which e holds, by evaluation. */
function byteSet(e: Expr, b: ByteRef): IntervalSet {
  const flags = new Uint8Array(256);
  const buf = new Uint8Array(b.array.size);
  const assignment = new Map([[b.array, buf]]);
  for (let v = 0; v < 256; v++) {
    buf[b.index] = v;
    flags[v] = evaluateBool(e, assignment) ? 1 : 0;
  }
  return IntervalSet.fromFlags(flags);
}

interface VarSet {
  v: Variable;
  set: IntervalSet;
}

function sameVar(a: Variable, b: Variable): boolean {
  return a.array === b.array && a.start === b.start && a.length === b.length;
}

/** A width-1 expression as a set of one variable's values, or null. */
/** Deepest connective nesting formula() follows (a merged path condition can be an Or chain of thousands: complex). */
const MAX_FORMULA_DEPTH = 256;

function formula(e: Expr, depth = 0): VarSet | null {
  if (depth > MAX_FORMULA_DEPTH) return null;
  switch (e.kind) {
    case ExprKind.Not: {
      const x = formula(e.expr, depth + 1);
      return x === null ? null : { v: x.v, set: x.set.complement() };
    }
    case ExprKind.And:
    case ExprKind.Or: {
      if (e.width !== 1) return null;
      const l = formula(e.left, depth + 1);
      if (l === null) return null;
      const r = formula(e.right, depth + 1);
      if (r === null || !sameVar(l.v, r.v)) return null;
      return { v: l.v, set: e.kind === ExprKind.And ? l.set.intersect(r.set) : l.set.union(r.set) };
    }
    case ExprKind.Eq:
      if (e.left.width === 1) {
        if (e.left.kind !== ExprKind.Constant) return null;
        const x = formula(e.right, depth + 1);
        if (x === null) return null;
        return e.left.bv === 1 ? x : { v: x.v, set: x.set.complement() };
      }
      return atom(e);
    case ExprKind.Ult:
    case ExprKind.Ule:
    case ExprKind.Slt:
    case ExprKind.Sle:
      return atom(e);
    default:
      return null;
  }
}

/** cmp(c, t) or cmp(t, c): the values of t satisfying it, pulled back to t's variable. */
function atom(e: Expr & { left: Expr; right: Expr }): VarSet | null {
  const l = e.left;
  const r = e.right;
  let c: bigint;
  let t: Expr;
  const constLeft = l.kind === ExprKind.Constant;
  if (constLeft && r.kind !== ExprKind.Constant) {
    c = l.value;
    t = r;
  } else if (!constLeft && r.kind === ExprKind.Constant) {
    c = r.value;
    t = l;
  } else return null;
  const w = t.width;
  const smin = -(1n << BigInt(w - 1));
  const smax = (1n << BigInt(w - 1)) - 1n;
  const sc = c > smax ? c - (1n << BigInt(w)) : c; // c as a signed value
  let s: IntervalSet;
  switch (e.kind) {
    case ExprKind.Eq:
      s = IntervalSet.range(w, c, c);
      break;
    case ExprKind.Ult: // c < t | t < c
      s = constLeft ? (c === maxOf(w) ? IntervalSet.empty(w) : IntervalSet.range(w, c + 1n, maxOf(w))) : c === 0n ? IntervalSet.empty(w) : IntervalSet.range(w, 0n, c - 1n);
      break;
    case ExprKind.Ule:
      s = constLeft ? IntervalSet.range(w, c, maxOf(w)) : IntervalSet.range(w, 0n, c);
      break;
    case ExprKind.Slt:
      s = constLeft ? IntervalSet.signedRange(w, sc + 1n, smax) : IntervalSet.signedRange(w, smin, sc - 1n);
      break;
    case ExprKind.Sle:
      s = constLeft ? IntervalSet.signedRange(w, sc, smax) : IntervalSet.signedRange(w, smin, sc);
      break;
    default:
      return null;
  }
  return pullBack(t, s);
}

/** The variable values v with t(v) ∈ s, for t built from one variable by term's rules. */
function pullBack(t: Expr, s: IntervalSet): VarSet | null {
  for (;;) {
    switch (t.kind) {
      case ExprKind.Read:
      case ExprKind.Concat: {
        const v = variableOf(t);
        return v === null ? null : { v, set: s };
      }
      case ExprKind.ZExt:
        s = s.truncateTo(t.expr.width);
        t = t.expr;
        break;
      case ExprKind.SExt: {
        // x ↦ x when x's sign bit is clear, x + (2^w - 2^wx) when set
        const wx = t.expr.width;
        const half = 1n << BigInt(wx - 1);
        const top = (1n << BigInt(t.width)) - half; // first value of the negative image
        const low = s.intersect(IntervalSet.range(t.width, 0n, half - 1n)).withWidth(wx);
        const high = s.intersect(IntervalSet.range(t.width, top, maxOf(t.width))).shift(-(top - half)).truncateTo(wx);
        s = low.union(high);
        t = t.expr;
        break;
      }
      case ExprKind.Add: // c + x ∈ s  ⇔  x ∈ s - c
        if (t.left.kind !== ExprKind.Constant) return null;
        s = s.shift(-t.left.value);
        t = t.right;
        break;
      case ExprKind.Sub: // c - x ∈ s  ⇔  x ∈ c - s
        if (t.left.kind !== ExprKind.Constant) return null;
        s = s.reflect(t.left.value);
        t = t.right;
        break;
      default:
        return null;
    }
  }
}

/** A Read, or a Concat of Reads of consecutive bytes (most significant = highest index). */
function variableOf(t: Expr): Variable | null {
  const leaves: ReadExpr[] = [];
  const stack: Expr[] = [t];
  while (stack.length > 0) {
    const x = stack.pop()!;
    if (x.kind === ExprKind.Concat) stack.push(x.right, x.left);
    else if (x.kind === ExprKind.Read) leaves.push(x);
    else return null;
    if (leaves.length > MAX_VAR_BYTES) return null;
  }
  // leaves are most significant first
  const first = leaves[leaves.length - 1]!;
  const array = first.updates.root;
  if (!array.isSymbolic()) return null;
  let start = -1;
  for (let k = 0; k < leaves.length; k++) {
    const r = leaves[leaves.length - 1 - k]!;
    if (r.updates.root !== array || r.updates.head !== null || r.index.kind !== ExprKind.Constant) return null;
    const i = r.index.toNumber();
    if (k === 0) start = i;
    else if (i !== start + k) return null;
    if (i >= array.size) return null;
  }
  return { array, start, length: leaves.length };
}
