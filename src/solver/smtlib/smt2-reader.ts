/**
 * Reads back a query file written by --write-smt2s (logging-solver.ts, printed by
 * expr/smtlib.ts) as expressions: the arrays it declares and its assertions, so a logged
 * query can be asked again of any layer (scripts/fast-vs-z3-logs.mjs replays them through
 * the fast solver and z3). It reads the QF_ABV subset tsklee prints — declare-fun of byte
 * arrays, let, define-fun, select/store, the bit-vector operators, ite — not SMT-LIB2 at
 * large; anything else is an Smt2ReadError naming it.
 *
 * Width-1 terms are one thing in tsklee (a Bool and a 1-bit vector), so `(ite b #b1 #b0)` and
 * `(= t #b1)`, the printer's conversions between the two, read back as b and t.
 */
import { builder as b } from '../../expr/builder.js';
import { ExprArray, UpdateList } from '../../expr/array.js';
import { constant, type Expr } from '../../expr/expr.js';
import { parseSExprs, show, type SExpr } from './sexpr.js';

export class Smt2ReadError extends Error {}

export interface Smt2Query {
  /** Every array declared, in order (each of the size the file's `; tsklee arrays:` line gives). */
  arrays: ExprArray[];
  assertions: Expr[];
  /** The arrays the file asks values of (get-value), in order. */
  getValue: ExprArray[];
}

type Term = Expr | UpdateList;

const BINARY: Record<string, (l: Expr, r: Expr) => Expr> = {
  bvadd: b.add,
  bvsub: b.sub,
  bvmul: b.mul,
  bvudiv: b.udiv,
  bvsdiv: b.sdiv,
  bvurem: b.urem,
  bvsrem: b.srem,
  bvand: b.and,
  bvor: b.or,
  bvxor: b.xor,
  bvshl: b.shl,
  bvlshr: b.lshr,
  bvashr: b.ashr,
  bvult: b.ult,
  bvule: b.ule,
  bvugt: b.ugt,
  bvuge: b.uge,
  bvslt: b.slt,
  bvsle: b.sle,
  bvsgt: b.sgt,
  bvsge: b.sge,
};

/** Array sizes from the `; tsklee arrays: NAME:SIZE …` comment line, by name. */
export function arraySizes(text: string): Map<string, number> {
  const sizes = new Map<string, number>();
  const m = /^; tsklee arrays:(.*)$/m.exec(text);
  if (m !== null) {
    for (const item of m[1]!.trim().split(/\s+/)) {
      const at = item.lastIndexOf(':');
      if (at > 0) sizes.set(item.slice(0, at), Number(item.slice(at + 1)));
    }
  }
  return sizes;
}

/**
 * The query in `text`. `sizeOf` gives a declared array's size when the file does not (files
 * written before the arrays line); by default the largest constant index read, plus one.
 */
export function readSmt2Query(text: string, sizeOf?: (name: string) => number | undefined): Smt2Query {
  const sizes = arraySizes(text);
  const forms = parseSExprs(text);
  const arrays = new Map<string, ExprArray>();
  const defs = new Map<string, Term>();
  const assertions: Expr[] = [];
  const getValue: ExprArray[] = [];
  const declared: string[] = [];
  for (const f of forms) {
    if (!Array.isArray(f) || f.length === 0) throw new Smt2ReadError(`unexpected top-level form ${show(f)}`);
    if (f[0] === 'declare-fun' && typeof f[1] === 'string') declared.push(f[1]);
  }
  const guessed = declared.some((n) => !sizes.has(n)) ? constantIndexSizes(forms) : new Map<string, number>();
  for (const n of declared) {
    const size = sizes.get(n) ?? sizeOf?.(n) ?? guessed.get(n) ?? 1;
    arrays.set(n, new ExprArray(n, size));
  }
  const reader = new TermReader(arrays, defs);
  for (const f of forms as SExpr[][]) {
    switch (f[0]) {
      case 'set-logic':
      case 'set-option':
      case 'declare-fun':
      case 'check-sat':
      case 'exit':
        break;
      case 'define-fun':
        defs.set(String(f[1]), reader.term(f[4]!));
        break;
      case 'assert':
        assertions.push(reader.expr(f[1]!));
        break;
      case 'get-value':
        for (const sel of f[1] as SExpr[]) {
          const a = Array.isArray(sel) && typeof sel[1] === 'string' ? arrays.get(sel[1]) : undefined;
          if (a !== undefined && !getValue.includes(a)) getValue.push(a);
        }
        break;
      default:
        throw new Smt2ReadError(`unsupported command ${show(f[0]!)}`);
    }
  }
  return { arrays: [...arrays.values()], assertions, getValue };
}

/** For files without sizes: each array's largest constant select index + 1. */
function constantIndexSizes(forms: SExpr[]): Map<string, number> {
  const out = new Map<string, number>();
  const visit = (e: SExpr): void => {
    if (!Array.isArray(e)) return;
    if (e[0] === 'select' && typeof e[1] === 'string' && typeof e[2] === 'string' && /^#[xb]/.test(e[2])) {
      const i = Number(e[2].startsWith('#x') ? BigInt(`0x${e[2].slice(2)}`) : BigInt(`0b${e[2].slice(2)}`));
      out.set(e[1], Math.max(out.get(e[1]) ?? 1, i + 1));
    }
    for (const c of e) visit(c);
  };
  for (const f of forms) visit(f);
  return out;
}

class TermReader {
  private readonly scopes: Map<string, Term>[] = [];

  constructor(
    private readonly arrays: ReadonlyMap<string, ExprArray>,
    private readonly defs: ReadonlyMap<string, Term>,
  ) {}

  expr(e: SExpr): Expr {
    const t = this.term(e);
    if (t instanceof UpdateList) throw new Smt2ReadError(`an array where a value is expected: ${show(e).slice(0, 80)}`);
    return t;
  }

  private array(e: SExpr): UpdateList {
    const t = this.term(e);
    if (!(t instanceof UpdateList)) throw new Smt2ReadError(`a value where an array is expected: ${show(e).slice(0, 80)}`);
    return t;
  }

  term(e: SExpr): Term {
    if (typeof e === 'string') return this.atom(e);
    const head = e[0]!;
    if (Array.isArray(head)) return this.indexed(head, e.slice(1));
    const args = e.slice(1);
    switch (head) {
      case 'let': {
        const scope = new Map<string, Term>();
        for (const bnd of args[0] as SExpr[][]) scope.set(String(bnd[0]), this.term(bnd[1]!));
        this.scopes.push(scope);
        try {
          return this.term(args[1]!);
        } finally {
          this.scopes.pop();
        }
      }
      case '_':
        if (typeof args[0] === 'string' && args[0].startsWith('bv')) return constant(BigInt(args[0].slice(2)), Number(args[1]));
        break;
      case 'select':
        return b.read(this.array(args[0]!), this.expr(args[1]!));
      case 'store':
        return this.array(args[0]!).extend(this.expr(args[1]!), this.expr(args[2]!));
      case 'ite':
        return b.select(this.expr(args[0]!), this.expr(args[1]!), this.expr(args[2]!));
      case 'not':
        return b.not(this.expr(args[0]!));
      case 'bvnot':
        return b.not(this.expr(args[0]!));
      case '=':
        return this.chain(args, b.eq);
      case 'distinct':
        if (args.length === 2) return b.ne(this.expr(args[0]!), this.expr(args[1]!));
        break;
      case 'and':
        return this.fold(args, b.and);
      case 'or':
        return this.fold(args, b.or);
      case 'xor':
        return this.fold(args, b.xor);
      case '=>':
        return b.or(b.not(this.expr(args[0]!)), this.expr(args[1]!));
      case 'concat':
        return this.fold(args, b.concat);
      default: {
        const op = BINARY[head];
        if (op !== undefined && args.length === 2) return op(this.expr(args[0]!), this.expr(args[1]!));
      }
    }
    throw new Smt2ReadError(`unsupported term ${show(e).slice(0, 80)}`);
  }

  private indexed(head: SExpr[], args: SExpr[]): Expr {
    const x = this.expr(args[0]!);
    const [, name, i, j] = head;
    if (name === 'extract') return b.extract(x, Number(j), Number(i) - Number(j) + 1);
    if (name === 'zero_extend') return b.zext(x, x.width + Number(i));
    if (name === 'sign_extend') return b.sext(x, x.width + Number(i));
    throw new Smt2ReadError(`unsupported operator ${show(head)}`);
  }

  private atom(s: string): Term {
    if (s === 'true') return b.bool(true);
    if (s === 'false') return b.bool(false);
    if (s.startsWith('#x')) return constant(BigInt(`0x${s.slice(2)}`), (s.length - 2) * 4);
    if (s.startsWith('#b')) return constant(BigInt(`0b${s.slice(2)}`), s.length - 2);
    for (let k = this.scopes.length - 1; k >= 0; k--) {
      const t = this.scopes[k]!.get(s);
      if (t !== undefined) return t;
    }
    const d = this.defs.get(s);
    if (d !== undefined) return d;
    const a = this.arrays.get(s);
    if (a !== undefined) return new UpdateList(a);
    throw new Smt2ReadError(`unknown symbol ${s}`);
  }

  private fold(args: SExpr[], op: (l: Expr, r: Expr) => Expr): Expr {
    let acc = this.expr(args[0]!);
    for (let i = 1; i < args.length; i++) acc = op(acc, this.expr(args[i]!));
    return acc;
  }

  /** `(= a b c)`: a = b ∧ b = c. */
  private chain(args: SExpr[], op: (l: Expr, r: Expr) => Expr): Expr {
    const xs = args.map((a) => this.expr(a));
    let acc: Expr = b.bool(true);
    for (let i = 1; i < xs.length; i++) acc = b.and(acc, op(xs[i - 1]!, xs[i]!));
    return acc;
  }
}
