/**
 * Loading programs: bitcode files and `ar` archives of bitcode in, one linked module out
 * (re-exported by the library entry, ./index.ts).
 */
import { readFileSync } from 'node:fs';
import { readBitcodeArchive, readBitcodeModule } from './bitcode/index.js';
import { isArArchive, isThinArchive } from './bitcode/archive.js';
import { DataLayout, DataLayoutError } from './ir/datalayout.js';
import { linkModules, type LinkOptions } from './ir/linker.js';
import type { Module } from './ir/module.js';

/** A problem with an input that is not malformed bitcode (e.g. an unsupported target). */
export class InputError extends Error {
  constructor(
    readonly file: string,
    message: string,
  ) {
    super(message);
    this.name = 'InputError';
  }
}

export interface LoadOptions extends LinkOptions {
  /** Reject modules not built for x86-64 (default true: tsklee executes x86-64 semantics). */
  requireX86_64?: boolean;
  /**
   * Decode function bodies on first use (ir/lazy-body.ts). Only for modules whose kept
   * functions the caller materializes: the runtime, whose live part pruneUnreferenced decodes.
   */
  lazyBodies?: boolean;
}

/**
 * Reads bitcode files and archives of bitcode and links everything into one module (every
 * bitcode member of an archive is included). Throws BitcodeError (malformed input, with `file` set),
 * InputError, DataLayoutError (with the file in the message), LinkError, or the
 * filesystem's error (ENOENT, …).
 */
export function loadModule(paths: readonly string[], opts: LoadOptions = {}): Module {
  const modules: Module[] = [];
  for (const path of paths) {
    const buf = readInput(path);
    if (isArArchive(buf) || isThinArchive(buf)) {
      const members = readBitcodeArchive(buf, path, { lazyBodies: opts.lazyBodies });
      if (members.length === 0) throw new InputError(path, 'archive has no bitcode members');
      for (const m of members) modules.push(checkModule(m, opts));
    } else {
      modules.push(checkModule(readBitcodeModule(buf, path, { lazyBodies: opts.lazyBodies }), opts));
    }
  }
  return linkModules(modules, opts);
}

/** The file's bytes; a filesystem error always carries the path (EISDIR does not by itself). */
function readInput(path: string): Uint8Array {
  try {
    return readFileSync(path);
  } catch (e) {
    const err = e as NodeJS.ErrnoException;
    if (err.path === undefined) err.path = path;
    throw err;
  }
}

/** Rejects what tsklee cannot use although it decodes fine. */
function checkModule(m: Module, opts: LoadOptions): Module {
  const file = m.source;
  if ((opts.requireX86_64 ?? true) && m.targetTriple !== '' && !/^x86_64[-_]/.test(m.targetTriple)) {
    throw new InputError(file, `unsupported target '${m.targetTriple}' (tsklee supports x86_64 only)`);
  }
  try {
    DataLayout.parse(m.dataLayout);
  } catch (e) {
    if (e instanceof DataLayoutError) throw new DataLayoutError(`${file}: ${e.message}`);
    throw e;
  }
  return m;
}
