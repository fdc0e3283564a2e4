/**
 * Entry points of the bitcode reader: one module from a .bc buffer, the bitcode members of
 * an `ar` archive, or either from a file. Every failure is a BitcodeError naming the file.
 */
import { readFileSync } from 'node:fs';
import { BitcodeError, withFile } from './errors.js';
import { EntryKind, type BitstreamCursor } from './cursor.js';
import { isBitcode, openBitcodeCursor } from './wrapper.js';
import { isArArchive, isThinArchive, readArArchive } from './archive.js';
import { BlockId } from './reader/ids.js';
import { ReaderContext } from './reader/context.js';
import { readModuleBlock } from './reader/module-reader.js';
import { readIdentificationBlock, readStrtabBlock } from './reader/symtab-reader.js';
import { Module } from '../ir/module.js';

export { BitcodeError } from './errors.js';

export interface ReadOptions {
  /**
   * Decode function bodies on first use (ir/lazy-body.ts: `materialize`) instead of now. The
   * caller must materialize every function it keeps; a malformed body then throws there.
   */
  lazyBodies?: boolean;
}

/** Decodes the (single) module of a raw or wrapped bitcode buffer. */
export function readBitcodeModule(buf: Uint8Array, fileName: string, opts: ReadOptions = {}): Module {
  let ctx: ReaderContext | undefined;
  try {
    const cursor = openBitcodeCursor(buf);
    const module = new Module();
    module.source = fileName;
    ctx = new ReaderContext(fileName, module);
    ctx.lazyBodies = opts.lazyBodies === true;
    readTopLevel(ctx, cursor);
    return module;
  } catch (e) {
    throw asBitcodeError(e, fileName, ctx?.bitPos ?? -1);
  }
}

/** Decodes every bitcode member of an `ar` archive (other members are ignored). */
export function readBitcodeArchive(buf: Uint8Array, fileName: string, opts: ReadOptions = {}): Module[] {
  let members;
  try {
    members = readArArchive(buf);
  } catch (e) {
    throw asBitcodeError(e, fileName, -1);
  }
  return members.filter((m) => isBitcode(m.data)).map((m) => readBitcodeModule(m.data, `${fileName}(${m.name})`, opts));
}

/** Reads a .bc file (one module) or an archive of them. */
export function readBitcodeFile(path: string): Module[] {
  let buf: Uint8Array;
  try {
    buf = new Uint8Array(readFileSync(path));
  } catch (e) {
    const err = new BitcodeError(`cannot read file: ${(e as Error).message}`);
    err.file = path;
    throw err;
  }
  if (isArArchive(buf) || isThinArchive(buf)) return readBitcodeArchive(buf, path);
  return [readBitcodeModule(buf, path)];
}

/**
 * Top level: [IDENTIFICATION] MODULE STRTAB [SYMTAB]. The string table follows the module
 * although the module needs it, so the top level is scanned first and the module read last.
 */
function readTopLevel(ctx: ReaderContext, cursor: BitstreamCursor): void {
  const totalBytes = cursor.reader.totalBits / 8;
  let modulePos = -1;
  for (;;) {
    const pos = cursor.bitPos;
    // Some tools pad the stream (LLVM stops when no block could fit any more).
    if (pos / 8 + 8 >= totalBytes) break;
    ctx.bitPos = pos;
    const e = cursor.advance();
    if (e.kind === EntryKind.EndBlock) break;
    if (e.kind !== EntryKind.SubBlock) ctx.error('expected a block at top level');
    switch (e.id) {
      case BlockId.Identification:
        if (modulePos >= 0) cursor.skipBlock();
        else readIdentificationBlock(ctx, cursor);
        break;
      case BlockId.Module:
        if (modulePos >= 0) ctx.error('bitcode files with more than one module are not supported');
        modulePos = pos;
        cursor.skipBlock();
        break;
      case BlockId.Strtab:
        if (modulePos >= 0 && !ctx.strtab) ctx.strtab = readStrtabBlock(ctx, cursor);
        else cursor.skipBlock();
        break;
      default:
        cursor.skipBlock(); // SYMTAB and anything unknown
        break;
    }
  }
  if (modulePos < 0) ctx.error('bitcode file without a module');
  cursor.seekTopLevel(modulePos);
  cursor.advance();
  readModuleBlock(ctx, cursor);
}

function asBitcodeError(e: unknown, fileName: string, bitPos: number): BitcodeError {
  return withFile(e, { file: fileName, bitPos });
}
