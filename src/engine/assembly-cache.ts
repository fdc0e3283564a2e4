/**
 * assembly.ll kept between runs. Printing the linked module (program + runtime) is a large
 * part of a short run's time, and the same program with the same runtime and options prints
 * the same text: the text and each instruction's line are stored under a key made of what
 * determines the module (AssemblyCacheKey) and read back instead of printing again.
 *
 * Where: $TSKLEE_CACHE_DIR (empty = no cache), else $XDG_CACHE_HOME/tsklee, else
 * ~/.cache/tsklee (the subjects' cache's convention), in assembly/. An entry is written
 * atomically (temporary file, then rename), so concurrent runs share the directory safely;
 * past MAX_ENTRIES the least recently used entries go. An entry also records the module's
 * shape (functions, globals, instructions per function): one that does not match the module
 * at hand is ignored, so a key that missed something costs a print, never a wrong file.
 */
import { createHash } from 'node:crypto';
import { mkdirSync, readdirSync, readFileSync, renameSync, statSync, unlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, extname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { threadId } from 'node:worker_threads';
import type { Module } from '../ir/module.js';
import { packageRoot } from '../util/package-root.js';

const MAGIC = 0x4d534154; // "TASM"
const FORMAT = 2;
const MAX_ENTRIES = 64;

/** What makes a module: its bitcode files, how they were linked, and what changed it since. */
export interface AssemblyCacheKey {
  /** Every bitcode file read (program inputs, runtime members), in order. */
  files: readonly string[];
  /** Linking and preparation choices that change the module (runtime choice, function aliases, ...). */
  options: string;
}

/** The cache directory, or null when TSKLEE_CACHE_DIR is set empty. */
export function cacheDir(env: NodeJS.ProcessEnv = process.env): string | null {
  const set = env.TSKLEE_CACHE_DIR;
  if (set !== undefined) return set === '' ? null : set;
  const base = env.XDG_CACHE_HOME !== undefined && env.XDG_CACHE_HOME !== '' ? env.XDG_CACHE_HOME : join(homedir(), '.cache');
  return join(base, 'tsklee');
}

let codeIdentity: string | null = null;

/**
 * tsklee's version and build: package.json's version, and the size and time of the code that
 * prints (the bundle, or in a per-module build the printer's files), so a rebuilt tsklee
 * never reads text an older printer wrote.
 */
function tskleeIdentity(): string {
  if (codeIdentity !== null) return codeIdentity;
  const self = fileURLToPath(import.meta.url);
  const root = packageRoot(import.meta.url);
  const version = (JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { version?: string }).version ?? '?';
  const files = [self];
  const ext = extname(self);
  if (ext !== '.cjs') {
    // per-module build (.js) or sources run directly (.ts): the printer's own files
    const printer = join(dirname(self), '..', 'ir', 'printer');
    for (const f of safeList(printer, ext)) files.push(join(printer, f));
  }
  const stamps = files.map((f) => {
    const s = statSync(f, { throwIfNoEntry: false });
    return s === undefined ? `${f}:-` : `${f}:${s.size}:${s.mtimeMs}`;
  });
  codeIdentity = `${version}\n${stamps.join('\n')}`;
  return codeIdentity;
}

function safeList(dir: string, ext: string): string[] {
  try {
    return readdirSync(dir).filter((f) => f.endsWith(ext)).sort();
  } catch {
    return [];
  }
}

/** The entry's name: a hash of tsklee's identity, the key's options and the files' paths and contents. */
export function cacheEntryName(key: AssemblyCacheKey): string {
  const h = createHash('sha256');
  h.update(`tsklee-assembly ${FORMAT}\n${tskleeIdentity()}\n${key.options}\n`);
  for (const f of key.files) {
    h.update(`${f}\n`);
    h.update(readFileSync(f));
  }
  return h.digest('hex').slice(0, 40);
}

/** Functions, globals and per-function instruction counts: what an entry must match. */
function moduleShape(m: Module): string {
  const parts = [`${m.functions.length}/${m.globals.length}/${m.aliases.length}`];
  for (const f of m.functions) {
    if (f.isDeclaration) continue;
    let n = 0;
    for (const b of f.blocks) n += b.insts.length;
    parts.push(`${f.name}:${n}`);
  }
  return createHash('sha256').update(parts.join('\n')).digest('hex');
}

export interface CachedAssembly {
  text: string;
  /** Line of each instruction, functions with bodies in module order, their instructions in order. */
  lines: Int32Array;
}

/** Reads the entry for `m`, or null (none, damaged, or made for a module of another shape). */
export function readCachedAssembly(dir: string, name: string, m: Module): CachedAssembly | null {
  const path = join(dir, 'assembly', name);
  let buf: Buffer;
  try {
    buf = readFileSync(path);
  } catch {
    return null;
  }
  try {
    if (buf.length < 12 || buf.readUInt32LE(0) !== MAGIC || buf.readUInt32LE(4) !== FORMAT) return null;
    const headerLen = buf.readUInt32LE(8);
    const header = JSON.parse(buf.toString('utf8', 12, 12 + headerLen)) as { shape: string; lines: number; digest: string };
    if (header.shape !== moduleShape(m)) return null;
    const linesAt = 12 + headerLen;
    const textAt = linesAt + header.lines * 4;
    // a torn or damaged write is printed again, never served
    if (digest(buf.subarray(linesAt)) !== header.digest) return null;
    const lines = new Int32Array(header.lines);
    for (let i = 0; i < header.lines; i++) lines[i] = buf.readInt32LE(linesAt + i * 4);
    const text = buf.toString('utf8', textAt);
    touch(path);
    return { text, lines };
  } catch {
    return null; // damaged: printed again and rewritten
  }
}

/** Stores an entry (best effort: a cache that cannot be written only costs the next run a print). */
export function writeCachedAssembly(dir: string, name: string, m: Module, entry: CachedAssembly): void {
  const sub = join(dir, 'assembly');
  try {
    mkdirSync(sub, { recursive: true });
    const lines = Buffer.alloc(entry.lines.length * 4);
    for (let i = 0; i < entry.lines.length; i++) lines.writeInt32LE(entry.lines[i]!, i * 4);
    const body = Buffer.concat([lines, Buffer.from(entry.text, 'utf8')]);
    const header = Buffer.from(JSON.stringify({ shape: moduleShape(m), lines: entry.lines.length, digest: digest(body) }), 'utf8');
    const fixed = Buffer.alloc(12);
    fixed.writeUInt32LE(MAGIC, 0);
    fixed.writeUInt32LE(FORMAT, 4);
    fixed.writeUInt32LE(header.length, 8);
    // own name per process and thread (--jobs workers share the pid)
    const tmp = join(sub, `.${name}.${process.pid}.${threadId}.tmp`);
    writeFileSync(tmp, Buffer.concat([fixed, header, body]));
    renameSync(tmp, join(sub, name));
    evict(sub);
  } catch {
    // read-only or full: no cache
  }
}

function digest(bytes: Uint8Array): string {
  return createHash('sha1').update(bytes).digest('hex');
}

function touch(path: string): void {
  try {
    const now = new Date();
    utimesSync(path, now, now);
  } catch {
    // a read-only cache still serves
  }
}

/** Keeps the MAX_ENTRIES most recently used entries. */
function evict(sub: string): void {
  const entries = readdirSync(sub).filter((f) => !f.startsWith('.'));
  if (entries.length <= MAX_ENTRIES) return;
  const dated = entries.map((f) => ({ f, t: statSync(join(sub, f), { throwIfNoEntry: false })?.mtimeMs ?? 0 }));
  dated.sort((a, b) => a.t - b.t);
  for (const { f } of dated.slice(0, dated.length - MAX_ENTRIES)) {
    try {
      unlinkSync(join(sub, f));
    } catch {
      // another run removed it
    }
  }
}
