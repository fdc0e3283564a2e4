/**
 * The relocatable addressing model (Trabish & Rinetzky, ISSTA'20; ../shared/papers/003):
 * heap objects (and stack objects with useLocalSymAddr) get a symbolic base α that the
 * program sees, tied to a hidden concrete address c by an address constraint
 * (address-constraints.ts). The objects stay indexed by c, so resolution, the interpreter's
 * fast path for concrete pointers and error reports work as in KLEE's model; every expression
 * reaches the solver with α replaced by c. Since nothing a path records mentions c, an object
 * can later move: the objects a symbolic pointer resolves to are merged into one segment
 * (segments.ts) and a large object read at a symbolic offset is split into chunks
 * (splitting.ts).
 *
 * Globals, argv/envp and varargs objects keep fixed concrete addresses (the paper supports no
 * symbolic globals), as do chunks of split objects; merging and splitting leave those alone.
 */
import { builder } from '../expr/builder.js';
import { constantFromBV, type Expr } from '../expr/expr.js';
import { ExprKind } from '../expr/kinds.js';
import { AddressConstraints, assertNoAddressSymbol, SymbolTable } from './address-constraints.js';
import { AddressSpace } from './address-space.js';
import { Allocator } from './allocator.js';
import { joinAllocators } from './forking.js';
import { ObjectKind, type MemoryObject } from './memory-object.js';
import type { MemoryModelFactory, PointerValue, ResolveOracle, StateMemory } from './model.js';
import type { ObjectState } from './object-state.js';
import type { PNode } from './pmap.js';
import { resolveAllSymbolic, resolveOneSymbolic } from './resolve.js';
import { relocationRow, RelocationStats } from './relocation-stats.js';
import { SegmentRegion } from './segment-region.js';
import { contextFilteredResolve, mergeOnMultipleResolution, recordResolvedContexts } from './segments.js';
import { splitOnSymbolicRead } from './splitting.js';

export interface RelocatableOptions {
  /** Stack objects get symbolic bases too (KLEE-ram's -use-local-sym-addr). Default false. */
  useLocalSymAddr: boolean;
  /** Merge the objects of a multiple resolution into one segment instead of forking (§3). */
  segmentMerging: boolean;
  /** k of context-based resolution (§3.4); -1 = off. Only with segmentMerging. */
  contextResolve: number;
  /** Reuse a segment's address and array when another state merges the same objects at the same place (§3.5). */
  reuseSegments: boolean;
  /** Split objects larger than splitThreshold read at a symbolic offset (§4). */
  splitObjects: boolean;
  splitThreshold: number;
  /** Chunk size of a split (a multiple of 8). */
  partitionSize: number;
  /** Check the model's invariants after every relocation and on every solver-facing expression (slow). */
  checkInvariants: boolean;
}

export const DEFAULT_RELOCATABLE_OPTIONS: RelocatableOptions = {
  useLocalSymAddr: false,
  segmentMerging: false,
  contextResolve: -1,
  reuseSegments: false,
  splitObjects: false,
  splitThreshold: 300,
  partitionSize: 128,
  checkInvariants: false,
};

/** What every state of one run shares: options, symbols, statistics, the segment region and caches. */
export class RelocatableRun {
  readonly symbols = new SymbolTable();
  readonly stats = new RelocationStats();
  readonly region = new SegmentRegion();
  /** Segment reuse (§3.5): (site, merged symbols) → the segment's address and array. */
  readonly segmentCache = new Map<string, { address: number; array: import('../expr/array.js').ExprArray | null }>();
  /** Context resolution (§3.4): per resolution site, the k-contexts of the objects resolved there. */
  readonly siteContexts = new Map<number, Set<string>>();
  /** Objects a split was refused for (a straddling access was feasible): not asked again. */
  readonly unsplittable = new WeakSet<MemoryObject>();

  constructor(readonly opts: RelocatableOptions) {}
}

export class RelocatableMemory implements StateMemory {
  readonly model = 'relocatable' as const;

  constructor(
    readonly run: RelocatableRun,
    readonly space: AddressSpace = new AddressSpace(),
    readonly allocator: Allocator = new Allocator(),
    readonly ac: AddressConstraints = new AddressConstraints(run.symbols),
    /** Symbols of segment parts freed on this path (copy-on-write: replaced, never mutated once shared). */
    public freedParts: ReadonlySet<number> = new Set(),
  ) {}

  get liveObjects(): number {
    return this.space.size;
  }

  get allocatedBytes(): number {
    return this.allocator.allocatedBytes;
  }

  fork(): RelocatableMemory {
    return new RelocatableMemory(this.run, this.space.fork(), this.allocator.clone(), this.ac.fork(), this.freedParts);
  }

  release(): void {
    this.space.release();
  }

  allocate(size: number, kind: ObjectKind, align: number, site: string | (() => string), context?: readonly number[]): ObjectState | null {
    const mo = this.allocator.allocate(size, kind, align, site);
    if (mo === null) return null;
    if (kind === ObjectKind.Heap || (kind === ObjectKind.Stack && this.run.opts.useLocalSymAddr)) {
      const s = this.run.symbols.create(mo.address);
      mo.reloc = { symbol: s.id, base: s.alpha, parts: null, chunks: null, splitBase: null, context: context ?? null, partContexts: null };
    }
    return this.space.bindNew(mo);
  }

  bindObject(mo: MemoryObject): ObjectState {
    return this.space.bindNew(mo);
  }

  free(mo: MemoryObject, p?: Expr): void {
    const r = mo.reloc;
    if (r?.chunks) {
      for (const c of r.chunks) this.space.markFreed(c);
      return;
    }
    if (r?.parts && p !== undefined) {
      const part = this.partAt(mo, p);
      if (part !== null) {
        const freed = new Set(this.freedParts).add(part);
        this.freedParts = freed;
        if (r.parts.every((x) => freed.has(x.symbol))) this.space.markFreed(mo);
        return;
      }
    }
    this.space.markFreed(mo);
  }

  /** The symbol of the segment part p points at the start of, or null. */
  private partAt(seg: MemoryObject, p: Expr): number | null {
    const a = this.constantAddress(p);
    if (a === null) return null;
    for (const part of seg.reloc!.parts!) if (this.ac.addressOf(part.symbol) === a && !this.freedParts.has(part.symbol)) return part.symbol;
    return null;
  }

  unbind(mo: MemoryObject): void {
    this.space.unbind(mo);
  }

  joinAllocation(other: StateMemory): void {
    joinAllocators(this.allocator, (other as RelocatableMemory).allocator);
  }

  pointerOf(mo: MemoryObject): PointerValue {
    return mo.reloc?.base ?? mo.address;
  }

  stateOf(mo: MemoryObject): ObjectState | null {
    return this.space.stateOf(mo);
  }

  writeableOf(mo: MemoryObject): ObjectState | null {
    return this.space.writeableOf(mo);
  }

  allocationOf(mo: MemoryObject, p: Expr): { size: number; read8(i: number): number | Expr } | null {
    const r = mo.reloc;
    if (r?.chunks) {
      const chunks = r.chunks.map((c) => ({ c, os: this.space.stateOf(c) }));
      const size = chunks.reduce((n, x) => n + x.c.size, 0);
      return {
        size,
        read8: (i) => {
          for (const x of chunks) {
            if (i < x.c.size) return x.os === null ? 0 : x.os.read8(i);
            i -= x.c.size;
          }
          return 0;
        },
      };
    }
    const os = this.space.stateOf(mo);
    if (os === null) return null;
    if (r?.parts) {
      const sym = this.partAt(mo, p);
      const part = r.parts.find((x) => x.symbol === sym);
      if (part !== undefined) return { size: part.size, read8: (i) => os.read8(part.offset + i) };
    }
    return os;
  }

  objectAt(address: number): PNode | null {
    return this.space.resolveOne(address);
  }

  bindingAt(address: number): PNode | null {
    return this.space.find(address);
  }

  bindingAbove(address: number): PNode | null {
    return this.space.next(address);
  }

  bindingBelow(address: number): PNode | null {
    return this.space.prev(address);
  }

  bindings(): readonly PNode[] {
    return this.space.bindings();
  }

  constantAddress(p: Expr): number | null {
    const s = this.ac.substitute(p);
    return s.kind === ExprKind.Constant ? Number(s.value) : null;
  }

  resolveOne(p: Expr, o: ResolveOracle): PNode | null {
    const q = this.ac.substitute(p);
    this.run.stats.resolutions++;
    return resolveOneSymbolic(this.space, q, this.counted(o));
  }

  resolveAll(p: Expr, o: ResolveOracle, maxResolutions = 0, site = -1): PNode[] {
    const q = this.ac.substitute(p);
    const counted = this.counted(o);
    this.run.stats.resolutions++;
    const opts = this.run.opts;
    if (opts.segmentMerging && opts.contextResolve >= 0 && site >= 0) {
      const filtered = contextFilteredResolve(this, q, counted, site);
      if (filtered !== null) return filtered;
    }
    const all = resolveAllSymbolic(this.space, q, counted, maxResolutions);
    if (opts.segmentMerging && opts.contextResolve >= 0 && site >= 0) recordResolvedContexts(this.run, site, all);
    return all;
  }

  /** The oracle, counting the queries resolution sends (Table 4's resolution queries). */
  private counted(o: ResolveOracle): ResolveOracle {
    const stats = this.run.stats;
    return {
      example: (e) => {
        stats.resolutionQueries++;
        return o.example(e);
      },
      mayBeTrue: (e) => {
        stats.resolutionQueries++;
        return o.mayBeTrue(e);
      },
      mustBeTrue: (e) => {
        stats.resolutionQueries++;
        return o.mustBeTrue(e);
      },
    };
  }

  /** The base bounds are stated against: α, or the concrete base of a fixed-address object. */
  private base(mo: MemoryObject): Expr {
    return mo.reloc?.base ?? constantFromBV(BigInt(mo.address), 64);
  }

  pointsInto(mo: MemoryObject, p: Expr): Expr {
    const off = builder.sub(p, this.base(mo));
    if (mo.size === 0) return builder.eq(off, constantFromBV(0n, 64));
    return builder.ult(off, constantFromBV(BigInt(mo.size), 64));
  }

  inBounds(mo: MemoryObject, p: Expr, bytes: number): Expr {
    if (bytes > mo.size) return builder.bool(false);
    return builder.ult(builder.sub(p, this.base(mo)), constantFromBV(BigInt(mo.size - bytes + 1), 64));
  }

  pointsAt(mo: MemoryObject, p: Expr): Expr {
    const r = mo.reloc;
    if (r?.parts) {
      // a segment: p is the start of one of the objects merged into it (free, realloc)
      let e: Expr = builder.bool(false);
      for (const part of r.parts) if (!this.freedParts.has(part.symbol)) e = builder.or(e, builder.eq(p, part.base));
      return e;
    }
    if (r?.chunks) return r.chunks[0] === mo ? builder.eq(p, r.splitBase!) : builder.bool(false);
    return builder.eq(p, this.base(mo));
  }

  offsetOf(mo: MemoryObject, p: Expr): number | Expr {
    const off = builder.sub(p, this.base(mo));
    const s = this.ac.substitute(off);
    return s.kind === ExprKind.Constant ? Number(s.value) : off;
  }

  solverView(e: Expr): Expr {
    const s = this.ac.substitute(e);
    if (this.run.opts.checkInvariants) assertNoAddressSymbol(s, e.toString());
    return s;
  }

  solverConstraints(pc: readonly Expr[]): readonly Expr[] {
    const out = this.ac.substituteAll(pc);
    if (this.run.opts.checkInvariants) for (const c of out) assertNoAddressSymbol(c, 'path condition');
    return out;
  }

  mergeBlocker(other: StateMemory): string | null {
    if (!(other instanceof RelocatableMemory)) return 'memory model';
    // without relocations both paths' address constraints are the allocation's (the same for
    // the objects they share); after one, they may differ: such states are not merged
    return this.ac.movedCount === 0 && other.ac.movedCount === 0 ? null : 'relocated objects';
  }

  onMultipleResolution(nodes: readonly PNode[], p: Expr, o: ResolveOracle, site: number): boolean {
    return mergeOnMultipleResolution(this, nodes, p, this.counted(o), site);
  }

  onSymbolicRead(mo: MemoryObject, p: Expr, bytes: number, o: ResolveOracle): boolean {
    return splitOnSymbolicRead(this, mo, p, bytes, o);
  }

  get wantsAllocationContext(): boolean {
    return this.run.opts.segmentMerging && this.run.opts.contextResolve >= 0;
  }
}

export function relocatableModel(opts: Partial<RelocatableOptions>): MemoryModelFactory & { run: RelocatableRun } {
  const run = new RelocatableRun({ ...DEFAULT_RELOCATABLE_OPTIONS, ...opts });
  return { model: 'relocatable', run, initial: () => new RelocatableMemory(run), statistics: () => relocationRow(run.stats, run.symbols.substitutionMs) };
}
