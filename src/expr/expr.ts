/**
 * Expression nodes: immutable and hash-consed (structurally equal ⇒ the same object).
 *
 * Every node, whatever its kind, is one runtime class (`ExprNode`) with the same fields, so
 * property loads in traversals stay monomorphic; the public `Expr` type is a discriminated
 * union of per-kind views over it (narrow with `e.kind === ExprKind.X`).
 *
 * This module makes nodes without simplifying; `raw.ts` checks widths around it and
 * `builder.ts` simplifies. `id` is unique per live node and is a good cache key; after a
 * node is collected an equal node built later gets a new id, so id-keyed caches that outlive
 * their expressions should be WeakMaps keyed by the node instead.
 */
import type { UpdateList } from './array.js';
import { normalize, type BV } from './bv.js';
import { finishHash, hashBigInt, mixHash, WeakInternTable, type Probe } from './intern.js';
import { ExprKind, type BinaryKind, type CastKind, kindName, unsupportedKind } from './kinds.js';
import { printKQuery } from './kquery.js';

/** Widths accepted anywhere (LLVM's own limit for integer types). */
export const MAX_WIDTH = 2 ** 23 - 1;

interface ExprCommon {
  /** Unique per live node. */
  readonly id: number;
  /** Width in bits; booleans have width 1. */
  readonly width: number;
  /** Structural 30-bit hash (independent of creation order). */
  readonly hash: number;
  readonly numKids: number;
  kid(i: number): Expr;
  toString(): string;
}

export interface ConstantExpr extends ExprCommon {
  readonly kind: ExprKind.Constant;
  /** The unsigned value. */
  readonly value: bigint;
  /** The unsigned value in the native representation of its width (see bv.ts). */
  readonly bv: BV;
  /** The unsigned value as a number; throws if above 2^53 - 1. */
  toNumber(): number;
}

export interface ReadExpr extends ExprCommon {
  readonly kind: ExprKind.Read;
  readonly updates: UpdateList;
  readonly index: Expr;
}

export interface SelectExpr extends ExprCommon {
  readonly kind: ExprKind.Select;
  readonly cond: Expr;
  readonly trueExpr: Expr;
  readonly falseExpr: Expr;
}

/** `left` is the most significant part. */
export interface ConcatExpr extends ExprCommon {
  readonly kind: ExprKind.Concat;
  readonly left: Expr;
  readonly right: Expr;
}

export interface ExtractExpr extends ExprCommon {
  readonly kind: ExprKind.Extract;
  readonly expr: Expr;
  /** Bit offset of the least significant extracted bit. */
  readonly offset: number;
}

export interface CastExpr extends ExprCommon {
  readonly kind: CastKind;
  readonly expr: Expr;
}

export interface NotExpr extends ExprCommon {
  readonly kind: ExprKind.Not;
  readonly expr: Expr;
}

export interface BinaryExpr extends ExprCommon {
  readonly kind: BinaryKind;
  readonly left: Expr;
  readonly right: Expr;
}

/** A variable bound by a Forall (its `varId` names it; unique per fresh variable). */
export interface BoundVarExpr extends ExprCommon {
  readonly kind: ExprKind.BoundVar;
  readonly varId: number;
}

/** `∀ bound. 1 ≤ bound ≤ upper → body` (unsigned bounds, width 1). */
export interface ForallExpr extends ExprCommon {
  readonly kind: ExprKind.Forall;
  readonly bound: BoundVarExpr;
  /** The count k (same width as the bound variable); it must not mention the bound variable. */
  readonly upper: Expr;
  readonly body: Expr;
}

export type Expr = ConstantExpr | ReadExpr | SelectExpr | ConcatExpr | ExtractExpr | CastExpr | NotExpr | BinaryExpr | BoundVarExpr | ForallExpr;

/** Node flags: the expression contains a Forall; it mentions a bound variable free; it may mention an address symbol. */
const F_QUANT = 1;
const F_BOUND = 2;
const F_ADDR = 4;

let nextId = 1;
const MAX_SAFE_BIG = BigInt(Number.MAX_SAFE_INTEGER);

/** The one runtime class behind every `Expr`. Not exported: build nodes through raw/builder. */
class ExprNode {
  readonly id: number;
  /** Lazily filled by utils.collectArrays. */
  arraysMemo: unknown = undefined;
  /** Lazily filled by the fast solver layer's analysis (a field: a WeakMap lookup per constraint per query costs more). */
  analysisMemo: unknown = undefined;
  /** F_QUANT | F_BOUND, from the kids (set at creation). */
  readonly flags: number;

  constructor(
    readonly kind: ExprKind,
    readonly width: number,
    readonly hash: number,
    readonly a: Expr | null,
    readonly b: Expr | null,
    readonly c: Expr | null,
    /** Constant of width ≤ 32: its value; Extract: the offset; otherwise 0. */
    readonly n: number,
    /** Constant: its value as a bigint (filled lazily when width ≤ 32). */
    public big: bigint | null,
    readonly ul: UpdateList | null,
  ) {
    this.id = nextId++;
    if (kind === ExprKind.BoundVar) this.flags = F_BOUND;
    else if (kind === ExprKind.Forall) this.flags = F_QUANT | ((b as unknown as ExprNode).flags & F_BOUND);
    else {
      let f = 0;
      if (a !== null) f |= (a as unknown as ExprNode).flags;
      if (b !== null) f |= (b as unknown as ExprNode).flags;
      if (c !== null) f |= (c as unknown as ExprNode).flags;
      if (ul !== null && ul.mentionsAddress) f |= F_ADDR;
      this.flags = f;
    }
  }

  get value(): bigint {
    return this.big ?? (this.big = BigInt(this.n));
  }
  get bv(): BV {
    return this.width <= 32 ? this.n : this.big!;
  }
  toNumber(): number {
    if (this.width <= 32) return this.n;
    if (this.big! > MAX_SAFE_BIG) throw new RangeError(`constant ${this.big} exceeds 2^53 - 1`);
    return Number(this.big);
  }
  get left(): Expr {
    return this.a!;
  }
  get right(): Expr {
    return this.b!;
  }
  get expr(): Expr {
    return this.a!;
  }
  get index(): Expr {
    return this.a!;
  }
  get cond(): Expr {
    return this.a!;
  }
  get trueExpr(): Expr {
    return this.b!;
  }
  get falseExpr(): Expr {
    return this.c!;
  }
  get offset(): number {
    return this.n;
  }
  get updates(): UpdateList {
    return this.ul!;
  }
  get varId(): number {
    return this.n;
  }
  get bound(): Expr {
    return this.a!;
  }
  get upper(): Expr {
    return this.b!;
  }
  get body(): Expr {
    return this.c!;
  }
  get numKids(): number {
    return this.c !== null ? 3 : this.b !== null ? 2 : this.a !== null ? 1 : 0;
  }
  kid(i: number): Expr {
    const k = i === 0 ? this.a : i === 1 ? this.b : i === 2 ? this.c : null;
    if (k === null) throw new RangeError(`${kindName(this.kind)} has no kid ${i}`);
    return k;
  }
  toString(): string {
    return printKQuery(this as unknown as Expr);
  }
}

/** Per-expression memo slots for utils and solver layers (kept on the node so they die with it). */
export function memoSlot(e: Expr): { arraysMemo: unknown; analysisMemo: unknown } {
  return e as unknown as ExprNode;
}

/** The expression contains a Forall somewhere (memory and registers never do; path conditions may). */
export function hasQuantifier(e: Expr): boolean {
  return ((e as unknown as ExprNode).flags & F_QUANT) !== 0;
}

/**
 * The expression may depend on an address symbol of the relocatable memory model (a read of
 * an address array, or of an update list that stores one): only such expressions need the
 * model's substitution before the solver sees them.
 */
export function hasAddressSymbol(e: Expr): boolean {
  return ((e as unknown as ExprNode).flags & F_ADDR) !== 0;
}

/** The expression mentions a bound variable outside any Forall binding it (a quantifier body's part). */
export function hasBoundVar(e: Expr): boolean {
  return ((e as unknown as ExprNode).flags & F_BOUND) !== 0;
}

const table = new WeakInternTable<ExprNode>();

/** Number of interning buckets in use (statistics; roughly the number of live nodes). */
export function internedCount(): number {
  return table.size;
}

class NodeProbe implements Probe<ExprNode> {
  kind = ExprKind.Constant;
  width = 0;
  a: Expr | null = null;
  b: Expr | null = null;
  c: Expr | null = null;
  n = 0;
  ul: UpdateList | null = null;
  matches(x: ExprNode): boolean {
    if (x.kind !== this.kind || x.width !== this.width || x.a !== this.a || x.b !== this.b) return false;
    if (x.c !== this.c || x.n !== this.n) return false;
    return this.ul === null || (x.ul!.root === this.ul.root && x.ul!.head === this.ul.head);
  }
}

class ConstProbe implements Probe<ExprNode> {
  width = 0;
  n = 0;
  big = 0n;
  matches(x: ExprNode): boolean {
    if (x.kind !== ExprKind.Constant || x.width !== this.width) return false;
    return this.width <= 32 ? x.n === this.n : x.big === this.big;
  }
}

const nodeProbe = new NodeProbe();
const constProbe = new ConstProbe();

let nextBoundVar = 1;

/** The bound variable `varId` of the given width (interned: the same id and width give the same node). */
export function makeBoundVar(varId: number, width: number): BoundVarExpr {
  checkWidth(width);
  if (!Number.isInteger(varId) || varId < 1) throw new RangeError(`bad bound variable id ${varId}`);
  const h = finishHash(mixHash(mixHash(ExprKind.BoundVar + 0x9e3779b9, width), varId));
  const p = nodeProbe;
  p.kind = ExprKind.BoundVar;
  p.width = width;
  p.a = p.b = p.c = null;
  p.n = varId;
  p.ul = null;
  const found = table.find(h, p);
  if (found !== undefined) return found as unknown as BoundVarExpr;
  const node = new ExprNode(ExprKind.BoundVar, width, h, null, null, null, varId, null, null);
  table.add(h, node);
  if (varId >= nextBoundVar) nextBoundVar = varId + 1;
  return node as unknown as BoundVarExpr;
}

/** A bound variable no expression mentions yet. */
export function freshBoundVar(width: number): BoundVarExpr {
  return makeBoundVar(nextBoundVar++, width);
}

/** Interned non-constant node; widths must already be checked. */
export function makeNode(
  kind: ExprKind,
  width: number,
  a: Expr,
  b: Expr | null,
  c: Expr | null,
  n: number,
  ul: UpdateList | null,
): Expr {
  let h = mixHash(mixHash(kind + 0x9e3779b9, width), a.hash);
  if (b !== null) h = mixHash(h, b.hash);
  if (c !== null) h = mixHash(h, c.hash);
  if (n !== 0) h = mixHash(h, n);
  if (ul !== null) h = mixHash(h, ul.hash);
  h = finishHash(h);
  const p = nodeProbe;
  p.kind = kind;
  p.width = width;
  p.a = a;
  p.b = b;
  p.c = c;
  p.n = n;
  p.ul = ul;
  const found = table.find(h, p);
  p.a = p.b = p.c = null;
  p.ul = null;
  if (found !== undefined) return found as unknown as Expr;
  const node = new ExprNode(kind, width, h, a, b, c, n, null, ul);
  table.add(h, node);
  return node as unknown as Expr;
}

export function checkWidth(w: number): void {
  if (!Number.isInteger(w) || w < 1 || w > MAX_WIDTH) throw new RangeError(`bad expression width ${w}`);
}

/** Small constants (values 0..255) per width, held for the whole run. */
const SMALL_CACHE_LIMIT = 256;
const smallConsts: (ConstantExpr | undefined)[][] = [];

/** Interned constant from a value already in [0, 2^width) (either representation). */
export function constantFromBV(v: BV, width: number): ConstantExpr {
  if (width <= 32) {
    if (typeof v === 'bigint') v = Number(v);
  } else if (typeof v === 'number') v = BigInt(v);
  let small = -1;
  if (typeof v === 'number') {
    if (v < SMALL_CACHE_LIMIT) small = v;
  } else if (v < SMALL_CACHE_LIMIT) small = Number(v);
  let cache: (ConstantExpr | undefined)[] | undefined;
  if (small >= 0) {
    cache = smallConsts[width];
    if (cache === undefined) smallConsts[width] = cache = [];
    const c = cache[small];
    if (c !== undefined) return c;
  }
  let h = mixHash(0x1b873593, width);
  const p = constProbe;
  p.width = width;
  if (typeof v === 'number') {
    h = mixHash(h, v);
    p.n = v;
  } else {
    h = hashBigInt(h, v);
    p.big = v;
  }
  h = finishHash(h);
  let node: ConstantExpr | undefined;
  if (cache === undefined) node = table.find(h, p) as unknown as ConstantExpr | undefined;
  if (node === undefined) {
    const n = typeof v === 'number' ? v : -1;
    const big = typeof v === 'bigint' ? v : null;
    const raw = new ExprNode(ExprKind.Constant, width, h, null, null, null, n, big, null);
    node = raw as unknown as ConstantExpr;
    if (cache !== undefined) cache[small] = node;
    else table.add(h, raw);
  }
  return node;
}

/** Interned constant of the given width; the value is reduced modulo 2^width. */
export function constant(value: number | bigint, width: number): ConstantExpr {
  checkWidth(width);
  return constantFromBV(normalize(value, width), width);
}

export const TRUE: ConstantExpr = constantFromBV(1, 1);
export const FALSE: ConstantExpr = constantFromBV(0, 1);

export function bool(b: boolean): ConstantExpr {
  return b ? TRUE : FALSE;
}

export function isConstant(e: Expr): e is ConstantExpr {
  return e.kind === ExprKind.Constant;
}

export function isTrue(e: Expr): boolean {
  return e === TRUE;
}

export function isFalse(e: Expr): boolean {
  return e === FALSE;
}

/** Any value is an Expr built by this module. */
export function isExpr(x: unknown): x is Expr {
  return x instanceof ExprNode;
}

/** Children of an expression in order (Read: its index only, as in KLEE). */
export function kids(e: Expr): Expr[] {
  switch (e.kind) {
    case ExprKind.Constant:
      return [];
    case ExprKind.Read:
      return [e.index];
    case ExprKind.Select:
      return [e.cond, e.trueExpr, e.falseExpr];
    case ExprKind.Extract:
    case ExprKind.ZExt:
    case ExprKind.SExt:
    case ExprKind.Not:
      return [e.expr];
    case ExprKind.Concat:
      return [e.left, e.right];
    case ExprKind.BoundVar:
      return [];
    case ExprKind.Forall:
      return [e.bound, e.upper, e.body];
    default:
      if (e.kind >= ExprKind.Add && e.kind <= ExprKind.Sle) return [e.left, e.right];
      return unsupportedKind(e as never);
  }
}
