/**
 * Dynamically segmented memory (paper 003 §3): when a symbolic pointer may hit several
 * objects, those objects (only those: segments are per path) are copied into one new object,
 * the segment, and each merged object's address symbol is moved to its place in it. The
 * access is then re-executed and resolves to the segment alone: no fork, an array read instead.
 *
 * Layout: objects in concrete-address order, each at a 16-aligned offset (KLEE-ram's). A
 * segment merged again is flattened: its parts move, and so does its own symbol (the path
 * condition may mention it through a bounds check).
 *
 * Context resolution (§3.4) and segment reuse (§3.5) live here too.
 */
import type { Expr } from '../expr/expr.js';
import { MemoryObject, ObjectKind, type SegmentPart } from './memory-object.js';
import type { ResolveOracle } from './model.js';
import type { PNode } from './pmap.js';
import type { RelocatableMemory, RelocatableRun } from './relocatable.js';
import { resolveAllSymbolic } from './resolve.js';
import { checkRelocationInvariants } from './relocation-invariants.js';

const align16 = (n: number): number => Math.ceil(n / 16) * 16;

/** The k-context of an object (its allocation site and k call sites above), or null when unknown. */
export function contextKey(mo: MemoryObject, k: number): string | null {
  const c = mo.reloc?.context;
  if (c === null || c === undefined) return null;
  return c.slice(0, k + 1).join(',');
}

/** The k-contexts an object stands for (a segment: its parts'). */
function contextsOf(mo: MemoryObject, k: number): readonly string[] {
  const parts = mo.reloc?.partContexts;
  if (parts !== null && parts !== undefined) return parts;
  const own = contextKey(mo, k);
  return own === null ? [] : [own];
}

/** Remember the contexts of objects resolved at a site. */
export function recordResolvedContexts(run: RelocatableRun, site: number, nodes: readonly PNode[]): void {
  let set = run.siteContexts.get(site);
  if (set === undefined) run.siteContexts.set(site, (set = new Set()));
  for (const n of nodes) for (const c of contextsOf(n.mo, run.opts.contextResolve)) set.add(c);
}

/**
 * Resolution at a site that resolved before: only objects of a context recorded there are
 * asked about (the rest cost no query). Null when the site is new, or fewer than two objects
 * match (then the caller resolves against every object: a single match could leave paths
 * into other objects unexplored, and merging checks completeness only for a segment).
 */
export function contextFilteredResolve(mem: RelocatableMemory, q: Expr, o: ResolveOracle, site: number): PNode[] | null {
  const run = mem.run;
  const set = run.siteContexts.get(site);
  if (set === undefined) return null;
  const k = run.opts.contextResolve;
  const skip = (n: PNode): boolean => !contextsOf(n.mo, k).some((c) => set.has(c));
  const out = resolveAllSymbolic(mem.space, q, o, 0, skip);
  if (out.length < 2) {
    run.stats.contextFallbacks++;
    return null;
  }
  run.stats.contextHits++;
  pendingCompleteness.add(mem);
  return out;
}

/** States whose last resolution was context-filtered: the merge that follows checks completeness. */
const pendingCompleteness = new WeakSet<RelocatableMemory>();

/**
 * Merge the objects a pointer may hit into one segment. False (the engine forks as KLEE does)
 * when merging is off or an object cannot move (fixed address, chunk of a split object).
 */
export function mergeOnMultipleResolution(mem: RelocatableMemory, nodes: readonly PNode[], p: Expr, o: ResolveOracle, site: number): boolean {
  const run = mem.run;
  const filtered = pendingCompleteness.has(mem);
  pendingCompleteness.delete(mem);
  if (!run.opts.segmentMerging || nodes.length < 2) return false;
  if (nodes.some((n) => n.mo.reloc?.base === null || n.mo.reloc?.base === undefined || n.os === null)) return false;
  const seg = mergeObjects(mem, [...nodes].sort((a, b) => a.mo.address - b.mo.address), site);
  if (filtered && !o.mustBeTrue(mem.pointsInto(seg, p))) {
    // the recorded contexts missed an object the pointer may hit: resolve against all of them
    run.stats.contextFallbacks++;
    const q = mem.ac.substitute(p);
    const all = resolveAllSymbolic(mem.space, q, o, 0);
    recordResolvedContexts(run, site, all);
    if (all.length > 1 && all.every((n) => n.mo.reloc?.base)) mergeObjects(mem, [...all].sort((a, b) => a.mo.address - b.mo.address), site);
  } else if (run.opts.contextResolve >= 0) recordResolvedContexts(run, site, [{ mo: seg } as PNode]);
  return true;
}

function mergeObjects(mem: RelocatableMemory, nodes: readonly PNode[], site: number): MemoryObject {
  const run = mem.run;
  const parts: SegmentPart[] = [];
  const moved: { symbol: number; offset: number }[] = [];
  const sources: { os: NonNullable<PNode['os']>; offset: number }[] = [];
  let size = 0;
  const contexts: string[] = [];
  for (const n of nodes) {
    const r = n.mo.reloc!;
    sources.push({ os: n.os!, offset: size });
    moved.push({ symbol: r.symbol, offset: size });
    if (r.parts !== null) for (const x of r.parts) parts.push({ ...x, offset: size + x.offset });
    else parts.push({ symbol: r.symbol, base: r.base!, offset: size, size: n.mo.size });
    const k = run.opts.contextResolve;
    if (k >= 0) contexts.push(...contextsOf(n.mo, k));
    size = align16(size + n.mo.size);
  }
  const key = `${site}:${parts.map((x) => `${x.symbol}@${x.offset}`).join(',')}`;
  const cached = run.opts.reuseSegments ? run.segmentCache.get(key) : undefined;
  const address = cached?.address ?? run.region.allocate(size);
  const sym = run.symbols.create(address);
  const seg = new MemoryObject(address, size, ObjectKind.Heap, 16, () => `segment of ${nodes.map((n) => `MO${n.mo.id}`).join(', ')}`, 'segment');
  seg.reloc = { symbol: sym.id, base: sym.alpha, parts, chunks: null, splitBase: null, context: null, partContexts: contexts.length > 0 ? [...new Set(contexts)] : null };
  const os = mem.space.bindNew(seg);
  const init = cached?.array?.constantValues ?? null;
  if (init !== null) {
    // the other state's segment array: the same contents give the same update list, so the same queries
    os.initFromArray(cached!.array!);
    run.stats.reusedSegments++;
  }
  for (const s of sources) {
    for (let i = 0; i < s.os.size; i++) {
      const v = s.os.read8(i);
      if (init === null || typeof v !== 'number' || v !== init[s.offset + i]) os.write8(s.offset + i, v);
    }
  }
  const ul = os.flush();
  if (run.opts.reuseSegments && cached === undefined) run.segmentCache.set(key, { address, array: ul.root });
  for (const n of nodes) mem.space.unbind(n.mo);
  for (const part of parts) mem.ac.move(part.symbol, address + part.offset);
  for (const m of moved) mem.ac.move(m.symbol, address + m.offset);
  run.stats.merges++;
  run.stats.segmentBytes += size;
  run.stats.maxSegmentSize = Math.max(run.stats.maxSegmentSize, size);
  if (run.opts.checkInvariants) checkRelocationInvariants(mem);
  return seg;
}
