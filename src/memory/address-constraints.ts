/**
 * Address symbols and address constraints of the relocatable addressing model (paper 003 §2;
 * digest §2.3).
 *
 * An address symbol α is the 8 bytes of a fresh array `addr_N` read as one 64-bit value; only
 * α flows into registers, memory and the path condition. Each symbol has one address
 * constraint α = c with c a concrete address (the map is flattened: merging and splitting
 * rewrite c, never chain α = α' + o).
 *
 * Allocation never changes an existing symbol's c, so the c given at allocation is kept once
 * per run (`SymbolTable`), and a state keeps only what its relocations changed (an overlay,
 * copy-on-write between forks). A relocation gives the state a new epoch; substitutions are
 * memoised per epoch, so states that share an epoch share the work.
 */
import { ExprArray, UpdateList, type UpdateNode } from '../expr/array.js';
import { builder } from '../expr/builder.js';
import { constantFromBV, hasAddressSymbol, TRUE, type Expr } from '../expr/expr.js';
import { ExprKind } from '../expr/kinds.js';
import { collectArrays } from '../expr/utils.js';
import type { Vertex } from '../expr/index.js';
import { replaceExprs, type Substitution } from '../solver/layers/replace.js';
import { nowMs } from '../util/clock.js';

/** One address symbol: α and its 8 byte reads (what substitution looks for). */
interface SymbolInfo {
  readonly id: number;
  readonly alpha: Expr;
  /** Concrete address given at allocation. */
  readonly initial: number;
}

/** Every address symbol of a run, with the concrete address each got at allocation. */
export class SymbolTable {
  private readonly symbols: SymbolInfo[] = [];
  /** α and each byte read of α → (symbol, byte; -1 for α itself). */
  readonly nodes = new Map<Expr, { symbol: number; byte: number }>();
  /** Time spent substituting (ms), for statistics. */
  substitutionMs = 0;

  /** A fresh symbol whose address constraint starts as α = c. */
  create(c: number): SymbolInfo {
    const id = this.symbols.length;
    const arr = new ExprArray(`addr_${id + 1}`, 8);
    arr.addressSymbol = true;
    const ul = new UpdateList(arr, null);
    let alpha: Expr | null = null;
    for (let i = 0; i < 8; i++) {
      const b = builder.read(ul, constantFromBV(i, 32));
      this.nodes.set(b, { symbol: id, byte: i });
      alpha = alpha === null ? b : builder.concat(b, alpha);
    }
    this.nodes.set(alpha!, { symbol: id, byte: -1 });
    const s: SymbolInfo = { id, alpha: alpha!, initial: c };
    this.symbols.push(s);
    return s;
  }

  initial(symbol: number): number {
    return this.symbols[symbol]!.initial;
  }

  get count(): number {
    return this.symbols.length;
  }
}

/** One state's address constraints: the symbols its relocations moved (others keep their initial c). */
export class AddressConstraints implements Substitution {
  /** Changes since a new epoch starts are never seen by states of the old one. */
  epoch: object = {};
  private shared = false;
  /** Substitutions of this epoch, of whole expressions and of their parts (replaceExprs keeps them). */
  memo: Map<Vertex, Vertex>;
  private pcIn: readonly Expr[] | null = null;
  private pcOut: readonly Expr[] = [];
  private pcEpoch: object | null = null;

  constructor(
    readonly table: SymbolTable,
    private moved: Map<number, number> = new Map(),
    memo?: Map<Vertex, Vertex>,
  ) {
    this.memo = memo ?? new Map();
  }

  fork(): AddressConstraints {
    this.shared = true;
    const c = new AddressConstraints(this.table, this.moved, this.memo);
    c.shared = true;
    c.epoch = this.epoch;
    return c;
  }

  /** α's current concrete address. */
  addressOf(symbol: number): number {
    return this.moved.get(symbol) ?? this.table.initial(symbol);
  }

  /** Relocate: α = c from now on (a new epoch: memoised substitutions no longer hold). */
  move(symbol: number, c: number): void {
    if (this.shared) {
      this.moved = new Map(this.moved);
      this.shared = false;
    }
    this.moved.set(symbol, c);
    this.epoch = {};
    this.memo = new Map();
  }

  get movedCount(): number {
    return this.moved.size;
  }

  // ---- Substitution (what replaceExprs looks up)
  readonly addressSymbolsOnly = true;

  get size(): number {
    return this.table.nodes.size;
  }

  has(e: Expr): boolean {
    return this.table.nodes.has(e);
  }

  get(e: Expr): Expr | undefined {
    const n = this.table.nodes.get(e);
    if (n === undefined) return undefined;
    const c = this.addressOf(n.symbol);
    if (n.byte < 0) return constantFromBV(BigInt(c), 64);
    return constantFromBV(Number((BigInt(c) >> BigInt(8 * n.byte)) & 0xffn), 8);
  }

  /** e with every address symbol replaced by its concrete address (the solver's view). */
  substitute(e: Expr): Expr {
    if (!hasAddressSymbol(e)) return e;
    const nodes = this.table.nodes;
    // fast paths: α, C + α
    const n = nodes.get(e);
    if (n !== undefined) return this.get(e)!;
    if (e.kind === ExprKind.Add && e.left.kind === ExprKind.Constant && nodes.get(e.right)?.byte === -1) {
      return builder.add(e.left, this.get(e.right)!);
    }
    let r = this.memo.get(e) as Expr | undefined;
    if (r !== undefined) return r;
    const t0 = nowMs();
    r = replaceExprs(e, this, foldConstantList);
    this.table.substitutionMs += nowMs() - t0;
    this.memo.set(e, r);
    return r;
  }

  /** The path condition's solver copy (memoised per path condition and epoch; constraints that become true dropped). */
  substituteAll(pc: readonly Expr[]): readonly Expr[] {
    if (pc === this.pcIn && this.pcEpoch === this.epoch) return this.pcOut;
    let out: Expr[] | null = null;
    for (let i = 0; i < pc.length; i++) {
      const c = pc[i]!;
      const s = this.substitute(c);
      if (s !== c && out === null) out = pc.slice(0, i);
      if (out !== null && s !== TRUE) out.push(s);
    }
    this.pcIn = pc;
    this.pcEpoch = this.epoch;
    this.pcOut = out ?? pc;
    return this.pcOut;
  }
}

/** Constant arrays made from a constant array and constant writes, by the writes' head (run-wide: update nodes are interned). */
const folded = new WeakMap<UpdateNode, ExprArray>();

/**
 * A constant array with writes of constants at constant indices, as one constant array. Once
 * its address symbols are substituted, an array of pointers is such a list; as one constant
 * array the solver gets the query the forking model would send (z3 found the write chains
 * far harder: one program went from 0.5 s to minutes).
 */
function foldConstantList(ul: UpdateList): UpdateList {
  const head = ul.head;
  const root = ul.root;
  if (head === null || root.constantValues === null) return ul;
  let arr = folded.get(head);
  if (arr === undefined) {
    for (let n: UpdateNode | null = head; n !== null; n = n.next) {
      if (n.index.kind !== ExprKind.Constant || n.value.kind !== ExprKind.Constant) return ul;
    }
    const bytes = root.constantValues.slice();
    const writes: UpdateNode[] = [];
    for (let n: UpdateNode | null = head; n !== null; n = n.next) writes.push(n);
    for (let i = writes.length - 1; i >= 0; i--) {
      const w = writes[i]!;
      const at = Number((w.index as { value: bigint }).value);
      if (at < bytes.length) bytes[at] = Number((w.value as { value: bigint }).value);
      else return ul;
    }
    arr = new ExprArray(root.name, root.size, bytes);
    arr.access = root.access;
    folded.set(head, arr);
  }
  return new UpdateList(arr, null);
}

/** Invariant check (debug): no address symbol is left in what the solver gets. */
export function assertNoAddressSymbol(e: Expr, what: string): void {
  if (!hasAddressSymbol(e)) return;
  for (const a of collectArrays(e)) {
    if (a.addressSymbol) throw new Error(`relocatable addressing: address symbol ${a.name} would reach the solver (${what})`);
  }
}
