/**
 * Expr → Z3 AST through the C API of one wasm instance (one reference-counted context).
 *
 * Sorts: width-1 expressions are Bool terms; every other width is a bit-vector. Where a
 * width-1 value is needed as a bit-vector (Concat, Extract, ZExt/SExt, arithmetic, shifts,
 * unsigned/signed comparisons) it becomes `ite(b, #b1, #b0)`; a width-1 result of a
 * bit-vector operator becomes Bool again with `= #b1` (the same conventions as smtlib.ts).
 *
 * Semantics need no encoding work: bv.ts (and so evaluate.ts) chose SMT-LIB's total
 * semantics, which z3 implements — x udiv 0 = all ones, x urem 0 = x, sdiv/srem by 0 as
 * SMT-LIB defines them via udiv/urem, shl/lshr by ≥ width = 0, ashr by ≥ width = sign fill.
 * The differential tests check this against evaluate() on thousands of random expressions.
 *
 * Arrays: a symbolic array is an uninterpreted constant `name!id` of sort
 * (Array (_ BitVec 32) (_ BitVec 8)); an update list is a chain of `store`s, translated once
 * per update node, so lists sharing a prefix share its translation. A constant array is a
 * lambda over its index (see constantArray: it needs no side assertions, reads past its end
 * give 0 as in evaluate.ts, and it was by far the fastest encoding measured). With
 * `constantArrays: 'store-chain'` it is instead a chain of stores over a fresh array, as
 * KLEE's STPBuilder hands constant arrays to STP (paper 002's baseline; see storeChainArray).
 *
 * Quantifiers: a bound variable is a bit-vector constant `i!N`, abstracted by
 * `Z3_mk_forall_const` in its Forall (`∀ i. 1 ≤ i ∧ i ≤ k → body`, no patterns: z3's MBQI).
 *
 * Caching: translated ASTs are kept per Expr id and per update node id, each holding one
 * z3 reference. Ids are never reused, so an entry is never wrong, only possibly dead;
 * `trim()` (called between queries) evicts once the cache passes its bound: each map keeps
 * two generations (util/generational-map.ts), a translation used since the last trim moves
 * to the young one, and the old one is released. (It used to drop everything, so the next
 * query translated its whole path condition again.)
 *
 * Reference counting: in a `_rc` context, a fresh AST is only protected until the next API
 * call that returns an object, so every AST a later call needs is either cached (inc_ref'd)
 * or consumed by the very next call.
 */
import { ExprKind, UpdateNode, walkDag, type Expr, type ExprArray, type Vertex } from '../../expr/index.js';
import type { Z3Export, Z3Exports, Z3Instance } from './z3-module.js';
import { GenerationalMap } from '../../util/generational-map.js';

/** How a constant array reaches z3 (--z3-constant-arrays). */
export type ConstantArrayEncoding = 'lambda' | 'store-chain';

export interface Z3BuilderOptions {
  /** Cached translations kept across queries (at most; `trim()` evicts the least recently used). Default 200 000. */
  cacheLimit?: number;
  /** 'lambda' (default, constantArray) or 'store-chain' (storeChainArray: KLEE's STP encoding, the paper's baseline). */
  constantArrays?: ConstantArrayEncoding;
}

const DEFAULT_CACHE_LIMIT = 200_000;

export class Z3Builder {
  readonly ctx: number;
  private readonly z: Z3Exports;
  private readonly cacheLimit: number;
  private readonly constantArrays: ConstantArrayEncoding;

  /** Expr id → AST in its natural sort (Bool for width 1). */
  private readonly exprs: GenerationalMap<number, number>;
  /** Expr id (width 1) → the same value as a 1-bit vector. */
  private readonly bits: GenerationalMap<number, number>;
  /** UpdateNode id → the array after that write. */
  private readonly updates: GenerationalMap<number, number>;
  /** Root arrays → their AST (a constant, or the constant-array term). */
  private readonly roots: GenerationalMap<ExprArray, number>;
  /** Translations found in the cache (vertices not translated again). */
  cacheHits = 0;

  private readonly sorts: number[] = [];
  private readonly arraySort: number;
  private readonly trueAst: number;
  private readonly falseAst: number;
  private readonly bit1: number;
  private readonly bit0: number;
  /** 8-bit constants 0..255, built on demand (constant arrays use many). */
  private readonly bytes: number[] = [];
  /** Two words for n-ary and/or arguments. */
  private readonly args: number;
  private bound = 0;
  /** Expressions and array writes translated (not found in the cache): KLEE's query constructs. */
  constructs = 0;

  constructor(
    readonly inst: Z3Instance,
    ctx: number,
    opts: Z3BuilderOptions = {},
  ) {
    this.ctx = ctx;
    this.z = inst.z;
    this.cacheLimit = opts.cacheLimit ?? DEFAULT_CACHE_LIMIT;
    this.constantArrays = opts.constantArrays ?? 'lambda';
    const cache = <K>(): GenerationalMap<K, number> => new GenerationalMap<K, number>({ capacity: Math.max(1, this.cacheLimit), manual: true, onEvict: (ast) => this.z.Z3_dec_ref(ctx, ast) });
    this.exprs = cache();
    this.bits = cache();
    this.updates = cache();
    this.roots = cache();
    this.args = this.z.malloc(8);
    this.arraySort = this.keep(this.z.Z3_mk_array_sort(ctx, this.sort(32), this.sort(8)));
    this.trueAst = this.keep(this.z.Z3_mk_true(ctx));
    this.falseAst = this.keep(this.z.Z3_mk_false(ctx));
    this.bit1 = this.keep(this.z.Z3_mk_unsigned_int(ctx, 1, this.sort(1)));
    this.bit0 = this.keep(this.z.Z3_mk_unsigned_int(ctx, 0, this.sort(1)));
  }

  /** Number of cached translations. */
  get cacheSize(): number {
    return this.exprs.size + this.bits.size + this.updates.size + this.roots.size;
  }

  /** The Bool term of a width-1 expression. */
  bool(e: Expr): number {
    if (e.width !== 1) throw new RangeError(`z3: a width-${e.width} expression used as a condition`);
    return this.natural(e);
  }

  /** The term of an expression in its natural sort (Bool for width 1, bit-vector otherwise). */
  natural(e: Expr): number {
    const known = this.exprs.get(e.id);
    if (known !== undefined) return known;
    this.translate(e);
    return this.exprs.get(e.id)!;
  }

  /** The uninterpreted constant of a symbolic array (for reading models). */
  arrayConstant(a: ExprArray): number {
    if (a.constantValues !== null) throw new Error(`z3: ${a.name} is a constant array`);
    return this.root(a);
  }

  /** A bit-vector numeral (width > 1) or a Bool constant (width 1); not yet referenced. */
  private constant(value: bigint, width: number): number {
    if (width === 1) return value === 0n ? this.falseAst : this.trueAst;
    const z = this.z;
    if (width <= 32) return this.check(z.Z3_mk_unsigned_int(this.ctx, Number(value), this.sort(width)));
    const s = this.inst.allocString(value.toString());
    try {
      return this.check(z.Z3_mk_numeral(this.ctx, s, this.sort(width)));
    } finally {
      this.inst.free(s);
    }
  }

  /** Translations evicted so far. */
  get evicted(): number {
    return this.exprs.evicted + this.bits.evicted + this.updates.evicted + this.roots.evicted;
  }

  /**
   * Once the translations used or made since the last eviction pass half the bound, evicts
   * the others (so at most the bound stays cached); call between queries.
   */
  trim(): void {
    if (this.exprs.youngSize + this.bits.youngSize + this.updates.youngSize + this.roots.youngSize <= this.cacheLimit / 2) return;
    this.exprs.rotate();
    this.bits.rotate();
    this.updates.rotate();
    this.roots.rotate();
  }

  // ---- translation ----

  private translate(root: Expr): void {
    walkDag([root], {
      prune: (v) => {
        const known = v instanceof UpdateNode ? this.updates.has(v.id) : this.exprs.has(v.id);
        if (known) this.cacheHits++;
        return known;
      },
      post: (v) => this.post(v),
    });
  }

  private post(v: Vertex): void {
    this.constructs++;
    if (v instanceof UpdateNode) {
      this.updates.set(v.id, this.keep(this.store(v)));
    } else {
      this.exprs.set(v.id, this.keep(this.build(v)));
    }
  }

  private store(u: UpdateNode): number {
    const arr = u.next === null ? this.root(u.root) : this.updates.get(u.next.id)!;
    return this.check(this.z.Z3_mk_store(this.ctx, arr, this.natural(u.index), this.natural(u.value)));
  }

  /** The AST of e, its operands already translated. */
  private build(e: Expr): number {
    const z = this.z;
    const c = this.ctx;
    switch (e.kind) {
      case ExprKind.Constant:
        return this.constant(e.value, e.width);
      case ExprKind.Read: {
        const h = e.updates.head;
        const arr = h === null ? this.root(e.updates.root) : this.updates.get(h.id)!;
        return this.check(z.Z3_mk_select(c, arr, this.nat(e.index)));
      }
      case ExprKind.Select:
        return this.check(z.Z3_mk_ite(c, this.nat(e.cond), this.nat(e.trueExpr), this.nat(e.falseExpr)));
      case ExprKind.BoundVar:
        return this.namedConst(`i!${e.varId}`, this.sort(e.width));
      case ExprKind.Forall: {
        const i = this.nat(e.bound);
        const one = this.keep(this.constant(1n, e.bound.width));
        const lo = this.keep(this.check(z.Z3_mk_bvule(c, one, i)));
        const hi = this.keep(this.check(z.Z3_mk_bvule(c, i, this.bv(e.upper))));
        this.inst.writeU32(this.args, lo);
        this.inst.writeU32(this.args + 4, hi);
        const range = this.keep(this.check(z.Z3_mk_and(c, 2, this.args)));
        const body = this.keep(this.check(z.Z3_mk_implies(c, range, this.nat(e.body))));
        try {
          this.inst.writeU32(this.args, z.Z3_to_app(c, i));
          return this.check(z.Z3_mk_forall_const(c, 0, 1, this.args, 0, 0, body));
        } finally {
          for (const t of [one, lo, hi, range, body]) z.Z3_dec_ref(c, t);
        }
      }
      case ExprKind.Concat:
        return this.check(z.Z3_mk_concat(c, this.bv(e.left), this.bv(e.right)));
      case ExprKind.Extract: {
        const t = this.check(z.Z3_mk_extract(c, e.offset + e.width - 1, e.offset, this.bv(e.expr)));
        return e.width === 1 ? this.check(z.Z3_mk_eq(c, t, this.bit1)) : t;
      }
      case ExprKind.ZExt:
        return this.check(z.Z3_mk_zero_ext(c, e.width - e.expr.width, this.bv(e.expr)));
      case ExprKind.SExt:
        return this.check(z.Z3_mk_sign_ext(c, e.width - e.expr.width, this.bv(e.expr)));
      case ExprKind.Not:
        return this.check(e.width === 1 ? z.Z3_mk_not(c, this.nat(e.expr)) : z.Z3_mk_bvnot(c, this.nat(e.expr)));
      case ExprKind.And:
      case ExprKind.Or:
        if (e.width === 1) {
          this.inst.writeU32(this.args, this.nat(e.left));
          this.inst.writeU32(this.args + 4, this.nat(e.right));
          const mk = e.kind === ExprKind.And ? z.Z3_mk_and : z.Z3_mk_or;
          return this.check(mk(c, 2, this.args));
        }
        return this.check((e.kind === ExprKind.And ? z.Z3_mk_bvand : z.Z3_mk_bvor)(c, this.nat(e.left), this.nat(e.right)));
      case ExprKind.Xor:
        return this.check((e.width === 1 ? z.Z3_mk_xor : z.Z3_mk_bvxor)(c, this.nat(e.left), this.nat(e.right)));
      case ExprKind.Eq:
        return this.check(z.Z3_mk_eq(c, this.nat(e.left), this.nat(e.right)));
      case ExprKind.Ne:
        return this.check(z.Z3_mk_not(c, this.check(z.Z3_mk_eq(c, this.nat(e.left), this.nat(e.right)))));
      case ExprKind.Ult:
      case ExprKind.Ule:
      case ExprKind.Slt:
      case ExprKind.Sle:
        return this.check(z[BV_OPS[e.kind]!](c, this.bv(e.left), this.bv(e.right)));
      default: {
        const op = BV_OPS[e.kind];
        if (op === undefined) throw new Error(`z3: unsupported expression kind ${ExprKind[e.kind]}`);
        const t = this.check(z[op](c, this.bv(e.left), this.bv(e.right)));
        // a 1-bit arithmetic result back to Bool
        return e.width === 1 ? this.check(z.Z3_mk_eq(c, t, this.bit1)) : t;
      }
    }
  }

  /** An already translated operand in its natural sort. */
  private nat(e: Expr): number {
    return this.exprs.get(e.id)!;
  }

  /** An already translated operand as a bit-vector. */
  private bv(e: Expr): number {
    const t = this.exprs.get(e.id)!;
    if (e.width !== 1) return t;
    let b = this.bits.get(e.id);
    if (b === undefined) {
      b = this.keep(this.check(this.z.Z3_mk_ite(this.ctx, t, this.bit1, this.bit0)));
      this.bits.set(e.id, b);
    }
    return b;
  }

  private root(a: ExprArray): number {
    let t = this.roots.get(a);
    if (t !== undefined) return t;
    if (a.constantValues === null) t = this.symbolicArray(a);
    else t = this.constantArrays === 'store-chain' ? this.storeChainArray(a, a.constantValues) : this.constantArray(a.constantValues);
    this.roots.set(a, t);
    return t;
  }

  /** A fresh reference to the constant of that name and sort. */
  private namedConst(text: string, sort: number): number {
    const name = this.inst.allocString(text);
    try {
      return this.check(this.z.Z3_mk_const(this.ctx, this.z.Z3_mk_string_symbol(this.ctx, name), sort));
    } finally {
      this.inst.free(name);
    }
  }

  private symbolicArray(a: ExprArray): number {
    // names only need to be unique: the id makes them so (and keeps z3 from merging arrays)
    const name = this.inst.allocString(`${a.name}!${a.id}`);
    try {
      const sym = this.z.Z3_mk_string_symbol(this.ctx, name);
      return this.keep(this.check(this.z.Z3_mk_const(this.ctx, sym, this.arraySort)));
    } finally {
      this.inst.free(name);
    }
  }

  /**
   * `lambda x. tree(x)`: a binary decision tree over the bits of x picking the byte, 0 past
   * the end (so reads past the end agree with evaluate()). z3 beta-reduces each select,
   * so a read at a symbolic index bit-blasts into a small mux, with or without stores on
   * top. Measured (256 / 4096 bytes, symbolic index): 40–75 / 155–220 ms per query, against
   * 220–315 / 1600–2500 ms for KLEE's per-element assertions and 10–70 s (or an out-of-memory
   * abort) for a store chain over a constant array.
   */
  private constantArray(values: Uint8Array): number {
    const z = this.z;
    const c = this.ctx;
    const n = values.length;
    let bits = 0;
    while (bits < 32 && 2 ** bits < n) bits++;
    const x = this.boundIndex();
    const temps: number[] = [];
    const tmp = (ast: number): number => {
      temps.push(this.keep(this.check(ast)));
      return ast;
    };
    try {
      const bit: number[] = [];
      for (let k = 0; k < bits; k++) bit.push(tmp(z.Z3_mk_eq(c, tmp(z.Z3_mk_extract(c, k, k, x)), this.bit1)));
      // bytes [lo, lo + 2^level); equal halves collapse (zero-filled tables stay small)
      const tree = (lo: number, level: number): number => {
        if (level === 0) return this.byte(lo < n ? values[lo]! : 0);
        if (lo >= n) return this.byte(0);
        const half = 2 ** (level - 1);
        const low = tree(lo, level - 1);
        const high = tree(lo + half, level - 1);
        return low === high ? low : tmp(z.Z3_mk_ite(c, bit[level - 1]!, high, low));
      };
      let body = tree(0, bits);
      if (bits < 32) {
        const inRange = tmp(z.Z3_mk_bvult(c, x, tmp(z.Z3_mk_unsigned_int(c, 2 ** bits, this.sort(32)))));
        body = tmp(z.Z3_mk_ite(c, inRange, body, this.byte(0)));
      }
      this.inst.writeU32(this.args, z.Z3_to_app(c, x));
      return this.keep(this.check(z.Z3_mk_lambda_const(c, 1, this.args, body)));
    } finally {
      for (const t of temps) z.Z3_dec_ref(c, t);
    }
  }

  /**
   * KLEE's STP encoding of a constant array (STPBuilder::getInitialArray): a fresh array
   * with one store per byte, zeros included. Wrapped as `lambda x. ite(x < n, select(chain,
   * x), 0)` only so that reads past the end give 0 as in evaluate.ts (KLEE never reads
   * there); in range, z3 reasons over the store chain.
   */
  private storeChainArray(a: ExprArray, values: Uint8Array): number {
    const z = this.z;
    const c = this.ctx;
    const temps: number[] = [];
    const tmp = (ast: number): number => {
      temps.push(this.keep(this.check(ast)));
      return ast;
    };
    try {
      let chain = tmp(this.namedConst(`${a.name}!const!${a.id}`, this.arraySort));
      for (let i = 0; i < values.length; i++) {
        const at = tmp(z.Z3_mk_unsigned_int(c, i, this.sort(32)));
        chain = tmp(z.Z3_mk_store(c, chain, at, this.byte(values[i]!)));
      }
      const x = this.boundIndex();
      const inRange = tmp(z.Z3_mk_bvult(c, x, tmp(z.Z3_mk_unsigned_int(c, values.length, this.sort(32)))));
      const body = tmp(z.Z3_mk_ite(c, inRange, tmp(z.Z3_mk_select(c, chain, x)), this.byte(0)));
      this.inst.writeU32(this.args, z.Z3_to_app(c, x));
      return this.keep(this.check(z.Z3_mk_lambda_const(c, 1, this.args, body)));
    } finally {
      for (const t of temps) z.Z3_dec_ref(c, t);
    }
  }

  /** The constant the constant-array lambdas abstract over. */
  private boundIndex(): number {
    if (this.bound === 0) {
      const name = this.inst.allocString('idx!');
      try {
        this.bound = this.keep(this.check(this.z.Z3_mk_const(this.ctx, this.z.Z3_mk_string_symbol(this.ctx, name), this.sort(32))));
      } finally {
        this.inst.free(name);
      }
    }
    return this.bound;
  }

  private byte(v: number): number {
    let t = this.bytes[v];
    if (t === undefined) this.bytes[v] = t = this.keep(this.check(this.z.Z3_mk_unsigned_int(this.ctx, v, this.sort(8))));
    return t;
  }

  sort(width: number): number {
    let s = this.sorts[width];
    if (s === undefined) this.sorts[width] = s = this.keep(this.check(this.z.Z3_mk_bv_sort(this.ctx, width)));
    return s;
  }

  /** Takes a reference on an AST (sorts are ASTs too). */
  private keep(ast: number): number {
    this.z.Z3_inc_ref(this.ctx, ast);
    return ast;
  }

  /** A null result means z3 rejected the call (a sort error here is a bug of this file). */
  private check(ast: number): number {
    if (ast === 0) {
      const code = this.z.Z3_get_error_code(this.ctx);
      throw new Error(`z3 API error ${code}: ${this.inst.string(this.z.Z3_get_error_msg(this.ctx, code))}`);
    }
    return ast;
  }
}

/** Bit-vector operators (operands as bit-vectors; width-1 results turned back into Bool). */
const BV_OPS: Partial<Record<ExprKind, Z3Export>> = {
  [ExprKind.Add]: 'Z3_mk_bvadd',
  [ExprKind.Sub]: 'Z3_mk_bvsub',
  [ExprKind.Mul]: 'Z3_mk_bvmul',
  [ExprKind.UDiv]: 'Z3_mk_bvudiv',
  [ExprKind.SDiv]: 'Z3_mk_bvsdiv',
  [ExprKind.URem]: 'Z3_mk_bvurem',
  [ExprKind.SRem]: 'Z3_mk_bvsrem',
  [ExprKind.And]: 'Z3_mk_bvand',
  [ExprKind.Or]: 'Z3_mk_bvor',
  [ExprKind.Xor]: 'Z3_mk_bvxor',
  [ExprKind.Shl]: 'Z3_mk_bvshl',
  [ExprKind.LShr]: 'Z3_mk_bvlshr',
  [ExprKind.AShr]: 'Z3_mk_bvashr',
  [ExprKind.Ult]: 'Z3_mk_bvult',
  [ExprKind.Ule]: 'Z3_mk_bvule',
  [ExprKind.Slt]: 'Z3_mk_bvslt',
  [ExprKind.Sle]: 'Z3_mk_bvsle',
};
