/**
 * The path condition: a persistent set of width-1 constraints with KLEE's simplifications
 * (ConstraintManager in lib/Expr/Constraints.cpp).
 *
 *  - `add(e)` first simplifies e under the current constraints (`simplify`), then adds it:
 *    a constant true is dropped, a constant false makes the set infeasible (add returns false
 *    and leaves the set unchanged), a conjunction is split into its conjuncts (finer
 *    independence), and — with `rewriteEqualities` (KLEE's --rewrite-equalities, default
 *    true) — an equality `c == x` with c constant substitutes c for x in every constraint
 *    already in the set; a constraint that changes is re-added (it may split, fold, or be an
 *    equality itself).
 *  - `simplify(e)` substitutes, as KLEE's `simplifyExpr`: for each constraint `c == x` (c
 *    constant) x ↦ c, for each `¬x` x ↦ false, and every other constraint ↦ true; the result
 *    is rebuilt with the simplifying builder (constant folding). The engine should simplify
 *    branch conditions and query expressions with it.
 *  - `fork()` is O(1): the two sets share their arrays copy-on-write.
 *  - While every constraint is simple and about one byte, the set also keeps what each byte
 *    may take (byte-sets.ts) and attaches it to its list for the fast solver layer.
 */
import { builder, ExprKind, FALSE, TRUE, type Expr } from '../../expr/index.js';
import { attachByteSets, ByteSets } from './byte-sets.js';
import { replaceExprs } from './replace.js';

export interface ConstraintSetOptions {
  /** KLEE's --rewrite-equalities (default true). */
  rewriteEqualities?: boolean;
}

const NO_CONSTRAINTS: readonly Expr[] = [];

export class ConstraintSet implements Iterable<Expr> {
  private cs: Expr[] = [];
  /** cs may be seen by someone else (a fork, a caller of toArray): copy before writing. */
  private shared = false;
  /** What simplify substitutes; shared with forks (never mutated once built). */
  private simp: Substitution | null = null;
  private readonly rewrite: boolean;
  /** What each constrained byte may take; null once a constraint is not simple (shared with forks, immutable). */
  private byteSets: ByteSets | null = ByteSets.EMPTY;

  constructor(opts: ConstraintSetOptions = {}, initial: Iterable<Expr> = NO_CONSTRAINTS) {
    this.rewrite = opts.rewriteEqualities ?? true;
    for (const e of initial) {
      if (!this.add(e)) throw new Error(`ConstraintSet: initial constraint ${e.toString()} is infeasible`);
    }
  }

  get size(): number {
    return this.cs.length;
  }

  get rewriteEqualities(): boolean {
    return this.rewrite;
  }

  /** The constraints (do not mutate; valid until the next add, and after it). */
  toArray(): readonly Expr[] {
    this.shared = true;
    return this.cs;
  }

  [Symbol.iterator](): Iterator<Expr> {
    return this.toArray()[Symbol.iterator]();
  }

  /** An independent copy; O(1) (copy-on-write). */
  fork(): ConstraintSet {
    const c = new ConstraintSet({ rewriteEqualities: this.rewrite });
    c.cs = this.cs;
    c.simp = this.simp;
    c.byteSets = this.byteSets;
    c.shared = this.shared = true;
    return c;
  }

  /**
   * The first `n` constraints of this set, then `e` as one constraint, not simplified (the
   * merge core's prefix ∧ (suffixA ∨ suffixB): each side was simplified under the prefix
   * already, and simplifying a growing disjunction at every merge would cost its size).
   */
  prefixThen(n: number, e: Expr | null): ConstraintSet {
    const c = new ConstraintSet({ rewriteEqualities: this.rewrite });
    c.cs = this.cs.slice(0, n);
    if (e !== null && e !== TRUE) {
      if (e.width !== 1) throw new RangeError(`ConstraintSet.prefixThen: constraint of width ${e.width}`);
      c.cs.push(e);
    }
    c.byteSets = null;
    return c;
  }

  /** e with what the constraints force substituted in (see the module comment). */
  simplify(e: Expr): Expr {
    if (e.kind === ExprKind.Constant || this.cs.length === 0) return e;
    // A fork simplifies its condition twice under one substitution (the query, then the add).
    const s = this.substitution();
    if (s.lastIn === e) return s.lastOut!;
    const r = replaceExprs(e, s);
    s.lastIn = e;
    s.lastOut = r;
    return r;
  }

  /**
   * Adds a constraint (width 1). Returns false, leaving the set unchanged, when it (or a
   * constraint it rewrites) simplifies to false: the path is infeasible.
   */
  add(e: Expr): boolean {
    if (e.width !== 1) throw new RangeError(`ConstraintSet.add: constraint of width ${e.width}`);
    const before = this.cs.length;
    const x = this.simplify(e);
    if (x === TRUE) return true;
    if (x === FALSE) return false;
    if (x.kind !== ExprKind.And && !(this.rewrite && x.kind === ExprKind.Eq && x.left.kind === ExprKind.Constant)) {
      // one plain constraint (most branches): what Work does for it, without its set-up
      if (this.shared) {
        this.cs = this.cs.slice();
        this.shared = false;
      }
      this.cs.push(x);
      if (this.simp !== null) this.simp = this.simp.extend(this.cs, before);
      if (this.byteSets !== null) {
        this.byteSets = this.byteSets.with(x);
        if (this.byteSets !== null) attachByteSets(this.cs, this.byteSets);
      }
      return true;
    }
    const w = new Work(this.cs, this.shared, this.rewrite);
    if (!w.add(x)) {
      if (!this.shared) this.cs.length = before; // undo pushes made in place
      return false;
    }
    if (w.rewrote) this.simp = null;
    else if (w.touched && this.simp !== null) this.simp = this.simp.extend(w.list, before);
    // conjunctions and rewritten equalities: the list is no longer extended one constraint at a time
    if (w.touched) this.byteSets = null;
    this.cs = w.list;
    this.shared = !w.owned;
    return true;
  }

  private substitution(): Substitution {
    return (this.simp ??= Substitution.of(this.cs));
  }
}

/** What the substitution maps for constraint c: c == x (c constant) maps x, ¬x maps x, any other c maps c. */
function entryKey(c: Expr): Expr {
  if (c.kind === ExprKind.Eq && c.left.kind === ExprKind.Constant) return c.right;
  if (c.kind === ExprKind.Not) return c.expr;
  return c;
}

/** What entryKey(c) maps to. */
function entryValue(c: Expr): Expr {
  if (c.kind === ExprKind.Eq && c.left.kind === ExprKind.Constant) return c.left;
  if (c.kind === ExprKind.Not) return FALSE;
  return TRUE;
}

/** Entries of the substitution for one constraint; the first constraint to map an expression wins. */
function addEntry(m: Map<Expr, Expr>, c: Expr, has: (e: Expr) => boolean): void {
  const k = entryKey(c);
  if (!has(k)) m.set(k, entryValue(c));
}

/** Constraints added after the last full build are kept in a small side list, up to this many. */
const MAX_DELTA = 32;

/** One entry of a Substitution's delta; entries are shared by the substitutions extending it. */
interface DeltaNode {
  readonly key: Expr;
  readonly value: Expr;
  readonly next: DeltaNode | null;
}

/**
 * simplify's map (see the module comment), built incrementally: a state adding a constraint
 * after a fork must not rebuild the map of its whole path (O(n) per branch, O(n²) per path).
 * A large immutable base shared by the states of a subtree, plus a short persistent list of
 * the entries added since (extending it allocates only the new entries; a lookup compares
 * at most MAX_DELTA keys), folded into a new base when it grows past MAX_DELTA.
 */
class Substitution implements ReadonlyMap<Expr, Expr> {
  /** The last expression simplified under this (immutable) substitution, and its result. */
  lastIn: Expr | null = null;
  lastOut: Expr | null = null;

  private constructor(
    private readonly base: ReadonlyMap<Expr, Expr>,
    /** Newest first. */
    private readonly delta: DeltaNode | null,
    private readonly deltaSize: number,
  ) {}

  static of(cs: readonly Expr[]): Substitution {
    const m = new Map<Expr, Expr>();
    for (const c of cs) addEntry(m, c, (e) => m.has(e));
    return new Substitution(m, null, 0);
  }

  /** This substitution with the entries of list[from..] (constraints just appended). */
  extend(list: readonly Expr[], from: number): Substitution {
    if (this.deltaSize + list.length - from > MAX_DELTA) {
      const m = new Map(this.base);
      for (const [k, v] of this.deltaEntries()) m.set(k, v);
      for (let i = from; i < list.length; i++) addEntry(m, list[i]!, (e) => m.has(e));
      return new Substitution(m, null, 0);
    }
    let d = this.delta;
    let n = this.deltaSize;
    for (let i = from; i < list.length; i++) {
      const key = entryKey(list[i]!);
      if (this.base.has(key) || hasKey(d, key)) continue;
      d = { key, value: entryValue(list[i]!), next: d };
      n++;
    }
    return new Substitution(this.base, d, n);
  }

  /** The delta's entries, oldest first. */
  private deltaEntries(): [Expr, Expr][] {
    const out: [Expr, Expr][] = [];
    for (let d = this.delta; d !== null; d = d.next) out.push([d.key, d.value]);
    return out.reverse();
  }

  get size(): number {
    return this.base.size + this.deltaSize;
  }
  get(e: Expr): Expr | undefined {
    if (this.deltaSize === 0) return this.base.get(e);
    const v = this.base.get(e);
    if (v !== undefined) return v;
    for (let d = this.delta; d !== null; d = d.next) if (d.key === e) return d.value;
    return undefined;
  }
  has(e: Expr): boolean {
    return this.get(e) !== undefined;
  }
  *entries(): MapIterator<[Expr, Expr]> {
    yield* this.base.entries();
    yield* this.deltaEntries();
  }
  keys(): MapIterator<Expr> {
    return [...this.entries()].map(([k]) => k)[Symbol.iterator]() as MapIterator<Expr>;
  }
  values(): MapIterator<Expr> {
    return [...this.entries()].map(([, v]) => v)[Symbol.iterator]() as MapIterator<Expr>;
  }
  [Symbol.iterator](): MapIterator<[Expr, Expr]> {
    return this.entries();
  }
  forEach(f: (value: Expr, key: Expr, map: ReadonlyMap<Expr, Expr>) => void): void {
    for (const [k, v] of this.entries()) f(v, k, this);
  }
}

function hasKey(d: DeltaNode | null, key: Expr): boolean {
  for (; d !== null; d = d.next) if (d.key === key) return true;
  return false;
}

/** One add in progress: fails without touching the set it started from. */
class Work {
  /** Something was added or rewritten. */
  touched = false;
  /** A constraint already in the set was rewritten (an equality substituted into it). */
  rewrote = false;
  constructor(
    public list: Expr[],
    private shared: boolean,
    private readonly rewrite: boolean,
  ) {}

  get owned(): boolean {
    return !this.shared;
  }

  private push(e: Expr): void {
    this.touched = true;
    if (this.shared) {
      this.list = this.list.slice();
      this.shared = false;
    }
    this.list.push(e);
  }

  add(e: Expr): boolean {
    // iterative over conjunctions; equalities recurse through rewriting
    const todo: Expr[] = [e];
    while (todo.length > 0) {
      const x = todo.pop()!;
      if (x === TRUE) continue;
      if (x === FALSE) return false;
      if (x.kind === ExprKind.And && x.width === 1) {
        todo.push(x.right, x.left);
        continue;
      }
      if (this.rewrite && x.kind === ExprKind.Eq && x.left.kind === ExprKind.Constant) {
        if (!this.rewriteAll(x.right, x.left)) return false;
      }
      this.push(x);
    }
    return true;
  }

  /** Substitutes `to` for `from` in every constraint, re-adding those that change. */
  private rewriteAll(from: Expr, to: Expr): boolean {
    const map = new Map<Expr, Expr>([[from, to]]);
    const old = this.list;
    let changed: Expr[] | null = null;
    const keep: Expr[] = [];
    for (const c of old) {
      const r = replaceExprs(c, map);
      if (r === c) keep.push(c);
      else (changed ??= []).push(r);
    }
    if (changed === null) return true;
    this.touched = true;
    this.rewrote = true;
    this.list = keep;
    this.shared = false;
    for (const r of changed) if (!this.add(r)) return false;
    return true;
  }
}

/** A conjunction of the constraints (TRUE when empty). */
export function conjunction(cs: Iterable<Expr>): Expr {
  let acc: Expr = TRUE;
  for (const c of cs) acc = builder.and(acc, c);
  return acc;
}
