/**
 * KLEE's `.ktest` test-case format, byte for byte (version 3, what KLEE writes today).
 *
 * Layout, all integers unsigned 32-bit big-endian:
 *
 *   magic      5 bytes  "KTEST" ("BOUT\n" is the pre-KTEST magic; still accepted on read)
 *   version    u32      1..3 (KLEE refuses anything newer than 3)
 *   numArgs    u32      then numArgs × (u32 length + bytes)   — argv, no NUL terminators
 *   symArgvs   u32      only when version >= 2
 *   symArgvLen u32      only when version >= 2
 *   numObjects u32      then numObjects × (u32 nameLength + name bytes, u32 size + bytes)
 *
 * KLEE always writes version 3 whatever the object says; so does encodeKTest. Like KLEE's
 * reader, decodeKTest ignores bytes after the last object.
 */
import { closeSync, openSync, readFileSync, renameSync, unlinkSync, writeSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';

export const KTEST_VERSION = 3;
export const KTEST_MAGIC = 'KTEST';
/** The magic of the format's first incarnation (".bout" files), read for compatibility. */
export const BOUT_MAGIC = 'BOUT\n';

/**
 * Exit status of a natively compiled program linked with runtime/replay (libtskleeRuntest)
 * when its inputs do not match the .ktest (wrong name or size, out of objects, bad file, a
 * failed klee_assume/klee_range). Chosen to be unlike the usual 0/1/2 and signal codes.
 */
export const REPLAY_ERROR_EXIT_CODE = 90;

export interface KTestObject {
  name: string;
  bytes: Uint8Array;
}

export interface KTest {
  version: number;
  /** argv of the program under test; KLEE puts the bitcode path first. */
  args: string[];
  symArgvs: number;
  symArgvLen: number;
  objects: KTestObject[];
}

/** A file that is not a readable .ktest. The message is one line and names the file when known. */
export class KTestError extends Error {
  constructor(
    /** What is wrong, without the file name. */
    readonly detail: string,
    readonly file?: string,
  ) {
    super(file !== undefined ? `${file}: ${detail}` : detail);
    this.name = 'KTestError';
  }
}

const utf8 = new TextEncoder();
const utf8Decoder = new TextDecoder('utf-8');

/**
 * A run writes the same argument and object names into thousands of tests; encoding them
 * once each saves most of encodeKTest's time (TextEncoder calls are not cheap). Bounded so a
 * long-lived library user cannot grow it without limit.
 */
const encodedStrings = new Map<string, Uint8Array>();
const MAX_ENCODED_STRINGS = 4096;

function encodedString(s: string): Uint8Array {
  let b = encodedStrings.get(s);
  if (b === undefined) {
    b = utf8.encode(s);
    if (encodedStrings.size >= MAX_ENCODED_STRINGS) encodedStrings.clear();
    encodedStrings.set(s, b);
  }
  return b;
}

function checkU32(v: number, what: string): number {
  if (!Number.isInteger(v) || v < 0 || v > 0xffffffff) throw new KTestError(`${what} ${v} does not fit in 32 bits`);
  return v;
}

const MAGIC_BYTES = utf8.encode(KTEST_MAGIC);

/** Writes v big-endian at out[pos] (v checked to fit in 32 bits); returns the next position. */
function putU32(out: Uint8Array, pos: number, v: number, what: string): number {
  checkU32(v, what);
  out[pos] = v >>> 24;
  out[pos + 1] = (v >>> 16) & 0xff;
  out[pos + 2] = (v >>> 8) & 0xff;
  out[pos + 3] = v & 0xff;
  return pos + 4;
}

/**
 * The bytes of `t` as KLEE's kTest_toFile writes them: in the start of `into` when given and
 * large enough (a view of it is returned), else in a new array. Plain loops and no closures: it runs
 * once per test, so V8 optimizes it early in a run, and a small function is optimized in a
 * fraction of the time (the closure-and-DataView version took ~40 ms of compiler time, twice).
 */
export function encodeKTest(t: KTest, into?: Uint8Array): Uint8Array {
  // the strings' encodings come from encodedString's cache: looked up again below rather than
  // kept in arrays (one test's garbage fewer)
  let size = MAGIC_BYTES.length + 4 + 4 + 8 + 4;
  for (let i = 0; i < t.args.length; i++) size += 4 + encodedString(t.args[i]!).length;
  for (let i = 0; i < t.objects.length; i++) size += 4 + encodedString(t.objects[i]!.name).length + 4 + t.objects[i]!.bytes.length;
  const out = into !== undefined && into.length >= size ? into.subarray(0, size) : new Uint8Array(size);
  let pos = putBytes(out, 0, MAGIC_BYTES);
  pos = putU32(out, pos, KTEST_VERSION, 'version');
  pos = putU32(out, pos, t.args.length, 'argument count');
  for (let i = 0; i < t.args.length; i++) {
    const arg = encodedString(t.args[i]!);
    pos = putU32(out, pos, arg.length, 'argument length');
    pos = putBytes(out, pos, arg);
  }
  pos = putU32(out, pos, t.symArgvs, 'symArgvs');
  pos = putU32(out, pos, t.symArgvLen, 'symArgvLen');
  pos = putU32(out, pos, t.objects.length, 'object count');
  for (let i = 0; i < t.objects.length; i++) {
    const name = encodedString(t.objects[i]!.name);
    const bytes = t.objects[i]!.bytes;
    pos = putU32(out, pos, name.length, 'object name length');
    pos = putBytes(out, pos, name);
    pos = putU32(out, pos, bytes.length, 'object size');
    pos = putBytes(out, pos, bytes);
  }
  return out;
}

/** Copies b to out[pos]; returns the next position. A loop for the usual few bytes (set() is a call into the runtime). */
function putBytes(out: Uint8Array, pos: number, b: Uint8Array): number {
  const n = b.length;
  if (n > 64) out.set(b, pos);
  else for (let i = 0; i < n; i++) out[pos + i] = b[i]!;
  return pos + n;
}

/** Parses a .ktest; throws KTestError (bad magic, unsupported version, truncated). */
export function decodeKTest(buf: Uint8Array, fileName?: string): KTest {
  const view = new DataView(buf.buffer, buf.byteOffset, buf.byteLength);
  let pos = 0;
  const fail = (msg: string): never => {
    throw new KTestError(msg, fileName);
  };
  const need = (n: number, what: string): void => {
    if (pos + n > buf.length) fail(`truncated .ktest: ${what} at byte ${pos} needs ${n} bytes, ${buf.length - pos} left`);
  };
  const u32 = (what: string): number => {
    need(4, what);
    const v = view.getUint32(pos, false);
    pos += 4;
    return v;
  };
  const take = (n: number, what: string): Uint8Array => {
    need(n, what);
    const b = new Uint8Array(buf.subarray(pos, pos + n)); // a copy, and a plain Uint8Array even from a Buffer
    pos += n;
    return b;
  };

  if (buf.length < 5) fail(`not a .ktest file (${buf.length} bytes, too short for the header)`);
  const magic = String.fromCharCode(...buf.subarray(0, 5));
  if (magic !== KTEST_MAGIC && magic !== BOUT_MAGIC) fail(`not a .ktest file (bad magic ${JSON.stringify(magic)}, expected "KTEST")`);
  pos = 5;
  const version = u32('version');
  if (version > KTEST_VERSION) fail(`unsupported .ktest version ${version} (this reader knows versions up to ${KTEST_VERSION})`);

  const numArgs = u32('argument count');
  const args: string[] = [];
  for (let i = 0; i < numArgs; i++) {
    const len = u32(`length of argument ${i}`);
    args.push(utf8Decoder.decode(take(len, `argument ${i}`)));
  }
  let symArgvs = 0;
  let symArgvLen = 0;
  if (version >= 2) {
    symArgvs = u32('symArgvs');
    symArgvLen = u32('symArgvLen');
  }
  const numObjects = u32('object count');
  const objects: KTestObject[] = [];
  for (let i = 0; i < numObjects; i++) {
    const nameLen = u32(`name length of object ${i}`);
    const name = utf8Decoder.decode(take(nameLen, `name of object ${i}`));
    const size = u32(`size of object ${i}`);
    objects.push({ name, bytes: take(size, `bytes of object ${i} ('${name}')`) });
  }
  return { version, args, symArgvs, symArgvLen, objects };
}

/**
 * Writes `data` to `path` through a temporary file in the same directory and a rename, so
 * readers (and a crash of tsklee) see either no file or the whole file, never half of one.
 * No fsync: it would cost milliseconds per test, and only a power loss could defeat the rename.
 */
export function writeFileAtomic(path: string, data: Uint8Array | string): void {
  const tmp = join(dirname(path), `.${basename(path)}.${process.pid}.tmp`);
  let fd: number | undefined;
  try {
    fd = openSync(tmp, 'w', 0o644);
    const bytes = typeof data === 'string' ? utf8.encode(data) : data;
    let off = 0;
    while (off < bytes.length) off += writeSync(fd, bytes, off, bytes.length - off);
    closeSync(fd);
    fd = undefined;
    renameSync(tmp, path);
  } catch (e) {
    if (fd !== undefined) {
      try {
        closeSync(fd);
      } catch {
        // already failing; the original error is the one to report
      }
    }
    try {
      unlinkSync(tmp);
    } catch {
      // the temporary file may not exist
    }
    throw e;
  }
}

/** Encodes and writes a .ktest atomically (see writeFileAtomic). */
export function writeKTestFile(path: string, t: KTest): void {
  writeFileAtomic(path, encodeKTest(t));
}

/** Reads and decodes a .ktest; filesystem errors pass through, format errors are KTestErrors naming `path`. */
export function readKTestFile(path: string): KTest {
  let buf: Uint8Array;
  try {
    buf = readFileSync(path);
  } catch (e) {
    // EISDIR and a few others come without the path; callers report it.
    const err = e as NodeJS.ErrnoException;
    if (err.path === undefined) err.path = path;
    throw err;
  }
  return decodeKTest(buf, path);
}
