/**
 * SMT-LIB2 printer (QF_ABV).
 *
 * Conventions:
 *  - Arrays are `(Array (_ BitVec 32) (_ BitVec 8))` constants; a Read is `select` over the
 *    update list printed as nested `store`s (oldest write innermost).
 *  - Every width-1 expression is a Bool term. Where a width-1 value is needed as a bit-vector
 *    (Concat, Extract, ZExt/SExt, arithmetic/shift/unsigned-signed comparison operands) it is
 *    wrapped as `(ite b #b1 #b0)`; width-1 results of bit-vector operators are turned back
 *    into Bool with `(= ... #b1)`. Not/And/Or/Xor/Eq/Select on width 1 use the Bool operators.
 *  - Constant arrays are declared and pinned byte by byte with assertions (pure QF_ABV, no
 *    `(as const ...)`).
 *  - Subterms used more than once are shared: by `let` inside each assertion (default), or by
 *    global `define-fun`s (sharing: 'define-fun', shares across assertions too). Either way the
 *    text is linear in the size of the DAG.
 *  - A Forall prints as `(forall ((i!N (_ BitVec w))) (=> (and (bvule 1 i!N) (bvule i!N k)) body))`;
 *    subterms mentioning the bound variable are never shared (a binding outside the forall
 *    could not see it). A script with a quantifier gets logic ABV instead of QF_ABV.
 */
import { RANGE_WIDTH, DOMAIN_WIDTH, UpdateNode, type ExprArray } from './array.js';
import { hasBoundVar, hasQuantifier, type ConstantExpr, type Expr } from './expr.js';
import { ExprKind, unsupportedKind } from './kinds.js';
import { successors, walkDag, type Vertex } from './traverse.js';

export interface SmtLibOptions {
  /** Default 'QF_ABV'. */
  logic?: string;
  /** Default 'let'. */
  sharing?: 'let' | 'define-fun';
  /** Emit (check-sat); default true. */
  checkSat?: boolean;
  /** Emit (get-value ...) for every byte of these arrays (and :produce-models). */
  getValue?: readonly ExprArray[];
}

export interface SmtLibScript {
  text: string;
  /** The SMT-LIB symbol of each array mentioned. */
  arrayNames: ReadonlyMap<ExprArray, string>;
}

export const ARRAY_SORT = `(Array (_ BitVec ${DOMAIN_WIDTH}) (_ BitVec ${RANGE_WIDTH}))`;

export function smtSort(width: number): string {
  return width === 1 ? 'Bool' : `(_ BitVec ${width})`;
}

/** A bit-vector literal of the given width (never Bool). */
export function bvLiteral(value: bigint, width: number): string {
  if (width % 4 === 0) return `#x${value.toString(16).padStart(width / 4, '0')}`;
  if (width <= 64) return `#b${value.toString(2).padStart(width, '0')}`;
  return `(_ bv${value} ${width})`;
}

function constText(e: ConstantExpr): string {
  if (e.width === 1) return e.bv === 1 ? 'true' : 'false';
  return bvLiteral(e.value, e.width);
}

const BV_OPS: Partial<Record<ExprKind, string>> = {
  [ExprKind.Add]: 'bvadd',
  [ExprKind.Sub]: 'bvsub',
  [ExprKind.Mul]: 'bvmul',
  [ExprKind.UDiv]: 'bvudiv',
  [ExprKind.SDiv]: 'bvsdiv',
  [ExprKind.URem]: 'bvurem',
  [ExprKind.SRem]: 'bvsrem',
  [ExprKind.And]: 'bvand',
  [ExprKind.Or]: 'bvor',
  [ExprKind.Xor]: 'bvxor',
  [ExprKind.Shl]: 'bvshl',
  [ExprKind.LShr]: 'bvlshr',
  [ExprKind.AShr]: 'bvashr',
  [ExprKind.Ult]: 'bvult',
  [ExprKind.Ule]: 'bvule',
  [ExprKind.Slt]: 'bvslt',
  [ExprKind.Sle]: 'bvsle',
};

const RESERVED = new Set(
  (
    'true false not and or xor ite let forall exists distinct select store concat extract par as ' +
    'assert check-sat declare-fun define-fun set-logic set-option get-value push pop exit ' +
    'zero_extend sign_extend repeat rotate_left rotate_right BitVec Array Bool NUMERAL DECIMAL STRING'
  ).split(' '),
);

/** Assigns each array a unique, valid, non-reserved SMT-LIB symbol. */
export class ArrayNamer {
  readonly names = new Map<ExprArray, string>();
  private readonly used = new Set<string>();

  name(a: ExprArray): string {
    let n = this.names.get(a);
    if (n !== undefined) return n;
    let base = a.name.replace(/[^A-Za-z0-9_.-]/g, '_');
    if (base === '' || /^[0-9]/.test(base)) base = `a_${base}`;
    if (RESERVED.has(base) || base.startsWith('bv')) base = `${base}_`;
    n = base;
    for (let i = 1; this.used.has(n); i++) n = `${base}_${i}`;
    this.used.add(n);
    this.names.set(a, n);
    return n;
  }
}

/** Constants print inline; subterms of a quantifier body that mention its variable too. */
function isConstantVertex(v: Vertex): boolean {
  return !(v instanceof UpdateNode) && (v.kind === ExprKind.Constant || hasBoundVar(v));
}

function boundName(varId: number): string {
  return `i!${varId}`;
}

/** Prints terms over one ArrayNamer; let/define-fun names are `t!N` (no array name has '!'). */
class TermPrinter {
  private nextVar = 0;
  constructor(readonly namer: ArrayNamer) {}

  /** Natural-sort text of each vertex, or the name it is bound to. */
  private readonly refs = new Map<Vertex, string>();

  private ref(v: Vertex): string {
    if (v instanceof UpdateNode) return this.refs.get(v)!;
    return v.kind === ExprKind.Constant ? constText(v) : this.refs.get(v)!;
  }

  private bv(e: Expr): string {
    if (e.width !== 1) return this.ref(e);
    if (e.kind === ExprKind.Constant) return e.bv === 1 ? '#b1' : '#b0';
    return `(ite ${this.ref(e)} #b1 #b0)`;
  }

  /** Text of v, its successors already printed. */
  private build(v: Vertex): string {
    if (v instanceof UpdateNode) {
      const arr = v.next === null ? this.namer.name(v.root) : this.ref(v.next);
      return `(store ${arr} ${this.ref(v.index)} ${this.ref(v.value)})`;
    }
    switch (v.kind) {
      case ExprKind.Constant:
        return constText(v);
      case ExprKind.Read: {
        const h = v.updates.head;
        return `(select ${h === null ? this.namer.name(v.updates.root) : this.ref(h)} ${this.ref(v.index)})`;
      }
      case ExprKind.Select:
        return `(ite ${this.ref(v.cond)} ${this.ref(v.trueExpr)} ${this.ref(v.falseExpr)})`;
      case ExprKind.BoundVar:
        return boundName(v.varId);
      case ExprKind.Forall: {
        const i = boundName(v.bound.varId);
        const w = v.bound.width;
        const range = `(and (bvule ${bvLiteral(1n, w)} ${i}) (bvule ${i} ${this.bv(v.upper)}))`;
        return `(forall ((${i} ${smtSort(w)})) (=> ${range} ${this.ref(v.body)}))`;
      }
      case ExprKind.Concat:
        return `(concat ${this.bv(v.left)} ${this.bv(v.right)})`;
      case ExprKind.Extract: {
        const t = `((_ extract ${v.offset + v.width - 1} ${v.offset}) ${this.bv(v.expr)})`;
        return v.width === 1 ? `(= ${t} #b1)` : t;
      }
      case ExprKind.ZExt:
        return `((_ zero_extend ${v.width - v.expr.width}) ${this.bv(v.expr)})`;
      case ExprKind.SExt:
        return `((_ sign_extend ${v.width - v.expr.width}) ${this.bv(v.expr)})`;
      case ExprKind.Not:
        return v.width === 1 ? `(not ${this.ref(v.expr)})` : `(bvnot ${this.ref(v.expr)})`;
      case ExprKind.Eq:
        return `(= ${this.ref(v.left)} ${this.ref(v.right)})`;
      case ExprKind.Ne:
        return `(not (= ${this.ref(v.left)} ${this.ref(v.right)}))`;
      case ExprKind.And:
      case ExprKind.Or:
      case ExprKind.Xor:
        if (v.width === 1) {
          const op = v.kind === ExprKind.And ? 'and' : v.kind === ExprKind.Or ? 'or' : 'xor';
          return `(${op} ${this.ref(v.left)} ${this.ref(v.right)})`;
        }
        return `(${BV_OPS[v.kind]} ${this.ref(v.left)} ${this.ref(v.right)})`;
      default: {
        const op = BV_OPS[v.kind];
        if (op === undefined) return unsupportedKind(v as never);
        const t = `(${op} ${this.bv(v.left)} ${this.bv(v.right)})`;
        return v.width === 1 && v.kind < ExprKind.Eq ? `(= ${t} #b1)` : t;
      }
    }
  }

  private fresh(): string {
    return `t!${this.nextVar++}`;
  }

  private sortOf(v: Vertex): string {
    return v instanceof UpdateNode ? ARRAY_SORT : smtSort(v.width);
  }

  /** One term with `let`-bound shared subterms. */
  letTerm(root: Expr): string {
    if (root.kind === ExprKind.Constant) return constText(root);
    const count = new Map<Vertex, number>();
    const order: Vertex[] = [];
    walkDag([root], { edge: (c) => void count.set(c, (count.get(c) ?? 0) + 1), post: (v) => void order.push(v) });
    const isShared = (v: Vertex): boolean => (count.get(v) ?? 0) > 1 && !isConstantVertex(v);
    // depth: highest binding level a vertex's text refers to; shared vertices bind one level above it
    const depth = new Map<Vertex, number>();
    const levels: string[][] = [];
    const succ: Vertex[] = [];
    for (const v of order) {
      let d = 0;
      succ.length = 0;
      successors(v, succ);
      for (const c of succ) d = Math.max(d, depth.get(c) ?? 0);
      const text = this.build(v);
      if (isShared(v)) {
        const name = this.fresh();
        (levels[d] ??= []).push(`(${name} ${text})`);
        this.refs.set(v, name);
        depth.set(v, d + 1);
      } else {
        this.refs.set(v, text);
        depth.set(v, d);
      }
    }
    let body = this.refs.get(root)!;
    for (let i = levels.length - 1; i >= 0; i--) {
      const l = levels[i];
      if (l !== undefined) body = `(let (${l.join(' ')}) ${body})`;
    }
    this.refs.clear();
    return body;
  }

  /** Terms for all roots, with every shared subterm defined once by `define-fun`. */
  defineFunTerms(roots: readonly Expr[], defs: string[]): string[] {
    const count = new Map<Vertex, number>();
    const order: Vertex[] = [];
    for (const r of roots) count.set(r, (count.get(r) ?? 0) + 1);
    walkDag(roots, { edge: (c) => void count.set(c, (count.get(c) ?? 0) + 1), post: (v) => void order.push(v) });
    for (const v of order) {
      const text = this.build(v);
      if ((count.get(v) ?? 0) > 1 && !isConstantVertex(v)) {
        const name = this.fresh();
        defs.push(`(define-fun ${name} () ${this.sortOf(v)} ${text})`);
        this.refs.set(v, name);
      } else {
        this.refs.set(v, text);
      }
    }
    const out = roots.map((r) => this.ref(r));
    this.refs.clear();
    return out;
  }
}

/** One expression as an SMT-LIB2 term (Bool when width 1), shared subterms `let`-bound. */
export function smtLibTerm(e: Expr, namer: ArrayNamer = new ArrayNamer()): string {
  return new TermPrinter(namer).letTerm(e);
}

/** Arrays mentioned by the expressions, in order of first appearance. */
function arraysInOrder(roots: readonly Expr[]): ExprArray[] {
  const seen = new Set<ExprArray>();
  walkDag(roots, {
    post: (v) => {
      if (v instanceof UpdateNode) seen.add(v.root);
      else if (v.kind === ExprKind.Read) seen.add(v.updates.root);
    },
  });
  return [...seen];
}

/** A complete script asserting every expression (each of width 1). */
export function toSmtLib2(assertions: readonly Expr[], opts: SmtLibOptions = {}): SmtLibScript {
  for (const a of assertions) {
    if (a.width !== 1) throw new RangeError(`assertion of width ${a.width}: ${a.toString()}`);
  }
  const namer = new ArrayNamer();
  const printer = new TermPrinter(namer);
  const lines: string[] = [];
  const getValue = opts.getValue ?? [];
  if (getValue.length > 0) lines.push('(set-option :produce-models true)');
  lines.push(`(set-logic ${opts.logic ?? (assertions.some(hasQuantifier) ? 'ABV' : 'QF_ABV')})`);
  const arrays = arraysInOrder(assertions);
  for (const a of getValue) if (!arrays.includes(a)) arrays.push(a);
  for (const a of arrays) lines.push(`(declare-fun ${namer.name(a)} () ${ARRAY_SORT})`);
  for (const a of arrays) {
    const cv = a.constantValues;
    if (cv === null) continue;
    const n = namer.name(a);
    for (let i = 0; i < cv.length; i++) {
      lines.push(`(assert (= (select ${n} ${bvLiteral(BigInt(i), DOMAIN_WIDTH)}) ${bvLiteral(BigInt(cv[i]!), RANGE_WIDTH)}))`);
    }
  }
  if (opts.sharing === 'define-fun') {
    const defs: string[] = [];
    const terms = printer.defineFunTerms(assertions, defs);
    lines.push(...defs);
    for (const t of terms) lines.push(`(assert ${t})`);
  } else {
    for (const a of assertions) lines.push(`(assert ${printer.letTerm(a)})`);
  }
  if (opts.checkSat ?? true) lines.push('(check-sat)');
  for (const a of getValue) {
    if (a.size === 0) continue;
    const n = namer.name(a);
    const sel: string[] = [];
    for (let i = 0; i < a.size; i++) sel.push(`(select ${n} ${bvLiteral(BigInt(i), DOMAIN_WIDTH)})`);
    lines.push(`(get-value (${sel.join(' ')}))`);
  }
  return { text: lines.join('\n') + '\n', arrayNames: namer.names };
}
