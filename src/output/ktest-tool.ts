/**
 * Printing a .ktest the way KLEE's `ktest-tool` (Python 3 version) does, so output can be
 * compared line by line:
 *
 *   ktest file : 'klee-last/test000001.ktest'     Python repr of the path
 *   args       : ['get_sign.bc']                  Python repr of the argument list
 *   num objects: 1
 *   object 0: name: 'a'                           the name inside plain quotes
 *   object 0: size: 4
 *   object 0: data: b'\x00\x00\x00\x80'           Python repr of the bytes
 *   object 0: hex : 0x00000080
 *   object 0: int : -2147483648                   only for sizes 1, 2, 4, 8 (little-endian)
 *   object 0: uint: 2147483648
 *   object 0: text: ....                          printable ASCII, '.' for anything else
 *
 * The object index is right-aligned to the width of the largest index. With trimZeros the
 * data, hex and text lines show the bytes without trailing zeros (int/uint never are).
 */
import type { KTest } from './ktest.js';

const hex2 = (b: number): string => b.toString(16).padStart(2, '0');

/** Python's repr() of a bytes object: b'...' (or b"..." when that avoids escaping). */
export function pyBytesRepr(b: Uint8Array): string {
  const hasSingle = b.includes(0x27);
  const quote = hasSingle && !b.includes(0x22) ? '"' : "'";
  let s = 'b' + quote;
  for (const c of b) {
    if (c === 0x5c) s += '\\\\';
    else if (c === quote.charCodeAt(0)) s += '\\' + quote;
    else if (c === 0x09) s += '\\t';
    else if (c === 0x0a) s += '\\n';
    else if (c === 0x0d) s += '\\r';
    else if (c < 0x20 || c >= 0x7f) s += '\\x' + hex2(c);
    else s += String.fromCharCode(c);
  }
  return s + quote;
}

/** Whether Python's str.isprintable() keeps this code point as is (close enough: C0, DEL, C1, NBSP, SHY, surrogates escaped). */
function pyPrintable(cp: number): boolean {
  if (cp < 0x20 || (cp >= 0x7f && cp <= 0xa0) || cp === 0xad) return false;
  if (cp >= 0xd800 && cp <= 0xdfff) return false;
  if (cp === 0x2028 || cp === 0x2029 || cp === 0xfeff) return false;
  return true;
}

/** Python's repr() of a str: '...' (or "..." when that avoids escaping). */
export function pyStrRepr(str: string): string {
  const quote = str.includes("'") && !str.includes('"') ? '"' : "'";
  let s = quote;
  for (const ch of str) {
    const cp = ch.codePointAt(0) ?? 0;
    if (ch === '\\') s += '\\\\';
    else if (ch === quote) s += '\\' + quote;
    else if (ch === '\t') s += '\\t';
    else if (ch === '\n') s += '\\n';
    else if (ch === '\r') s += '\\r';
    else if (pyPrintable(cp)) s += ch;
    else if (cp < 0x100) s += '\\x' + hex2(cp);
    else if (cp < 0x10000) s += '\\u' + cp.toString(16).padStart(4, '0');
    else s += '\\U' + cp.toString(16).padStart(8, '0');
  }
  return s + quote;
}

/** Python's repr() of a list of str. */
export function pyListRepr(items: readonly string[]): string {
  return `[${items.map(pyStrRepr).join(', ')}]`;
}

/** The bytes as text: digits, letters, punctuation and space as themselves, '.' for the rest. */
export function ktestText(b: Uint8Array): string {
  let s = '';
  for (const c of b) s += c >= 0x20 && c <= 0x7e ? String.fromCharCode(c) : '.';
  return s;
}

/** Signed and unsigned little-endian values of an object of 1, 2, 4 or 8 bytes; undefined otherwise. */
export function ktestInts(b: Uint8Array): { int: bigint; uint: bigint } | undefined {
  if (b.length !== 1 && b.length !== 2 && b.length !== 4 && b.length !== 8) return undefined;
  let uint = 0n;
  for (let i = b.length - 1; i >= 0; i--) uint = (uint << 8n) | BigInt(b[i]);
  const bits = BigInt(b.length * 8);
  return { int: BigInt.asIntN(Number(bits), uint), uint };
}

function trimTrailingZeros(b: Uint8Array): Uint8Array {
  let end = b.length;
  while (end > 0 && b[end - 1] === 0) end--;
  return b.subarray(0, end);
}

export interface KTestToolOptions {
  trimZeros?: boolean;
}

/** The text ktest-tool prints for one file (every line ends with a newline). */
export function formatKTestTool(path: string, t: KTest, opts: KTestToolOptions = {}): string {
  const width = String(Math.max(1, t.objects.length - 1)).length;
  let s = `ktest file : ${pyStrRepr(path)}\n`;
  s += `args       : ${pyListRepr(t.args)}\n`;
  s += `num objects: ${t.objects.length}\n`;
  t.objects.forEach((o, i) => {
    const p = `object ${String(i).padStart(width, ' ')}: `;
    const blob = opts.trimZeros ? trimTrailingZeros(o.bytes) : o.bytes;
    s += `${p}name: '${o.name}'\n`;
    s += `${p}size: ${o.bytes.length}\n`;
    s += `${p}data: ${pyBytesRepr(blob)}\n`;
    s += `${p}hex : 0x${Array.from(blob, hex2).join('')}\n`;
    const ints = ktestInts(o.bytes);
    if (ints !== undefined) {
      s += `${p}int : ${ints.int}\n`;
      s += `${p}uint: ${ints.uint}\n`;
    }
    s += `${p}text: ${ktestText(blob)}\n`;
  });
  return s;
}

export interface KTestJsonObject {
  name: string;
  size: number;
  hex: string;
  int?: bigint;
  uint?: bigint;
  text: string;
}

export interface KTestJson {
  file: string;
  version: number;
  args: string[];
  symArgvs: number;
  symArgvLen: number;
  objects: KTestJsonObject[];
}

/** The JSON form of one test (int/uint only for sizes 1, 2, 4, 8). */
export function ktestToJson(path: string, t: KTest, opts: KTestToolOptions = {}): KTestJson {
  return {
    file: path,
    version: t.version,
    args: t.args,
    symArgvs: t.symArgvs,
    symArgvLen: t.symArgvLen,
    objects: t.objects.map((o) => {
      const blob = opts.trimZeros ? trimTrailingZeros(o.bytes) : o.bytes;
      const ints = ktestInts(o.bytes);
      return {
        name: o.name,
        size: o.bytes.length,
        hex: Array.from(blob, hex2).join(''),
        ...(ints !== undefined ? { int: ints.int, uint: ints.uint } : {}),
        text: ktestText(blob),
      };
    }),
  };
}

/**
 * JSON text in which bigints are written as plain JSON numbers with all their digits (an
 * 8-byte value does not fit in a double; parsers that keep big numbers get it exactly).
 */
export function stringifyWithBigInts(value: unknown, indent = 2): string {
  const marks: string[] = [];
  const text = JSON.stringify(
    value,
    (_k, v: unknown) => {
      if (typeof v !== 'bigint') return v;
      marks.push(v.toString());
      return `\u0000bigint${marks.length - 1}\u0000`;
    },
    indent,
  );
  return text.replace(/"\\u0000bigint(\d+)\\u0000"/g, (_m, i: string) => marks[Number(i)]);
}
