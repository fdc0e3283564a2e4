/**
 * Function bodies decoded on first use. tsklee's runtime (posix.bc, libc members) holds far
 * more code than a program reaches, and most of it is dropped after linking
 * (engine/prepare/prune.ts); a body is only decoded when the pruning walk reaches its function.
 *
 * Until then the function is a definition (`hasBody`) with no blocks. What the linker does to
 * bodies (type unification, replacing declarations by definitions, sync-scope renumbering) is
 * queued on the function through `withBody` and applied, in order, right after its body is
 * decoded, so a body decoded late ends up as the one decoded eagerly would have.
 */
import type { Function } from './globals.js';

interface LazyBody {
  decode: () => void;
  walks: ((fn: Function) => void)[];
}

const pending = new WeakMap<Function, LazyBody>();

/** Marks fn's body as not decoded yet: `decode` fills fn.blocks (and its attachments). */
export function deferBody(fn: Function, decode: () => void): void {
  pending.set(fn, { decode, walks: [] });
}

export function isBodyPending(fn: Function): boolean {
  return pending.has(fn);
}

/** Runs `walk` over fn's body now, or right after the body is decoded. */
export function withBody(fn: Function, walk: (fn: Function) => void): void {
  const lazy = pending.get(fn);
  if (lazy === undefined) walk(fn);
  else lazy.walks.push(walk);
}

/** Decodes fn's body if it is pending, then applies the queued walks. */
export function materialize(fn: Function): void {
  const lazy = pending.get(fn);
  if (lazy === undefined) return;
  pending.delete(fn);
  lazy.decode();
  for (const walk of lazy.walks) walk(fn);
}
