/**
 * Splitting (paper 003 §4): a large object read at a symbolic offset is replaced by chunks of
 * `partitionSize` bytes at consecutive concrete addresses, its address symbol moved to the
 * first chunk; the load is then re-executed and forks over the chunks it may hit, each query
 * carrying a chunk-sized array instead of the whole object.
 *
 * Chunks have fixed addresses (they are never merged or split again, as in KLEE-ram). A split
 * is refused when the read that triggers it could straddle two chunks (the digest's T8: it
 * would otherwise end in a spurious out-of-bounds error).
 */
import { builder } from '../expr/builder.js';
import { constantFromBV, type Expr } from '../expr/expr.js';
import { MemoryObject, ObjectKind } from './memory-object.js';
import type { ResolveOracle } from './model.js';
import type { RelocatableMemory } from './relocatable.js';
import { checkRelocationInvariants } from './relocation-invariants.js';

/** Split mo if the model's options allow it; true when it did (the access must be re-executed). */
export function splitOnSymbolicRead(mem: RelocatableMemory, mo: MemoryObject, p: Expr, bytes: number, o: ResolveOracle): boolean {
  const run = mem.run;
  const opts = run.opts;
  const r = mo.reloc;
  const n = opts.partitionSize;
  if (!opts.splitObjects || r === null || r.base === null || r.parts !== null || r.chunks !== null) return false;
  if (mo.size <= opts.splitThreshold || n >= mo.size || run.unsplittable.has(mo)) return false;
  const os = mem.space.stateOf(mo);
  if (os === null || typeof mem.offsetOf(mo, p) === 'number') return false;
  if (bytes > 1) {
    // would this read cross a chunk boundary on some path? (offset mod n > n - bytes)
    const off = builder.sub(p, r.base);
    const straddles = builder.ult(constantFromBV(BigInt(n - bytes), 64), builder.urem(off, constantFromBV(BigInt(n), 64)));
    if (o.mayBeTrue(straddles)) {
      run.unsplittable.add(mo);
      run.stats.splitsRefused++;
      return false;
    }
  }
  const address = run.region.allocate(mo.size);
  const chunks: MemoryObject[] = [];
  const kind = mo.kind === ObjectKind.Stack ? ObjectKind.Stack : ObjectKind.Heap;
  for (let off = 0; off < mo.size; off += n) {
    const at = off;
    chunks.push(new MemoryObject(address + off, Math.min(n, mo.size - off), kind, 8, () => `bytes ${at}.. of split ${mo.allocInfo()}`, mo.name));
  }
  for (let i = 0; i < chunks.length; i++) {
    const c = chunks[i]!;
    c.reloc = { symbol: -1, base: null, parts: null, chunks, splitBase: r.base, context: r.context, partContexts: null };
    const cos = mem.space.bindNew(c);
    const from = i * n;
    for (let j = 0; j < c.size; j++) cos.write8(j, os.read8(from + j));
    cos.readOnly = os.readOnly;
  }
  mem.space.unbind(mo);
  mem.ac.move(r.symbol, address);
  run.stats.splits++;
  run.stats.chunks += chunks.length;
  if (opts.checkInvariants) checkRelocationInvariants(mem);
  return true;
}
