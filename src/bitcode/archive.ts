/**
 * Reader for Unix `ar` archives (System V / GNU and BSD variants), used to load
 * libraries of bitcode files.
 *
 * Layout: the global magic "!<arch>\n", then members, each a 60-byte header
 *   name[16] date[12] uid[6] gid[6] mode[8] size[10] "`\n"
 * followed by `size` bytes of data and a '\n' pad byte if needed to reach an
 * even offset.  Names:
 *   "foo.bc/"      GNU short name (terminated by '/')
 *   "/123"         GNU long name: offset into the "//" member (entries end with "/\n")
 *   "/", "/SYM64/" GNU symbol tables (skipped)
 *   "//"           GNU long-name table (consumed, not returned)
 *   "#1/20"        BSD long name: the first 20 data bytes hold the name
 *   "__.SYMDEF*"   BSD symbol tables (skipped)
 */
import { BitcodeError } from './errors.js';

const MAGIC = '!<arch>\n';
const THIN_MAGIC = '!<thin>\n';
const HEADER_SIZE = 60;

export interface ArchiveMember {
  name: string;
  /** Member contents (a view into the archive buffer, no copy). */
  data: Uint8Array;
}

function ascii(buf: Uint8Array, start: number, end: number): string {
  let s = '';
  for (let i = start; i < end; i++) s += String.fromCharCode(buf[i]);
  return s;
}

function startsWith(buf: Uint8Array, magic: string): boolean {
  if (buf.length < magic.length) return false;
  for (let i = 0; i < magic.length; i++) if (buf[i] !== magic.charCodeAt(i)) return false;
  return true;
}

export function isArArchive(buf: Uint8Array): boolean {
  return startsWith(buf, MAGIC);
}

/** True for llvm-ar / GNU "thin" archives (members stored outside the archive), which are not supported. */
export function isThinArchive(buf: Uint8Array): boolean {
  return startsWith(buf, THIN_MAGIC);
}

function decodeName(bytes: Uint8Array): string {
  return new TextDecoder('utf-8').decode(bytes);
}

function parseDecimal(field: string, what: string, at: number): number {
  const t = field.trim();
  if (!/^[0-9]+$/.test(t)) throw new BitcodeError(`malformed archive: invalid ${what} field "${field}"`, at * 8);
  const v = Number(t);
  if (!Number.isSafeInteger(v)) throw new BitcodeError(`malformed archive: ${what} field too large`, at * 8);
  return v;
}

function isSymbolTable(name: string): boolean {
  return (
    name === '/' ||
    name === '/SYM64/' ||
    name === '__.SYMDEF' ||
    name === '__.SYMDEF SORTED' ||
    name === '__.SYMDEF_64' ||
    name === '__.SYMDEF_64 SORTED' ||
    /^\/<[A-Z]+>\/$/.test(name) // COFF "/<ECSYMBOLS>/" and similar
  );
}

/** Returns the members of an `ar` archive, in order, without symbol tables. */
export function readArArchive(buf: Uint8Array): ArchiveMember[] {
  if (isThinArchive(buf)) {
    throw new BitcodeError('thin archives are not supported (members are stored outside the archive)', 0);
  }
  if (!isArArchive(buf)) throw new BitcodeError('not an ar archive (bad magic)', 0);
  const members: ArchiveMember[] = [];
  let longNames: Uint8Array | undefined;
  let pos = MAGIC.length;
  while (pos < buf.length) {
    // Tolerate a final pad byte.
    if (pos + 1 === buf.length && buf[pos] === 0x0a) break;
    if (buf.length - pos < HEADER_SIZE) throw new BitcodeError('malformed archive: truncated member header', pos * 8);
    if (buf[pos + 58] !== 0x60 || buf[pos + 59] !== 0x0a) {
      throw new BitcodeError('malformed archive: bad member header terminator', (pos + 58) * 8);
    }
    const rawName = ascii(buf, pos, pos + 16);
    const size = parseDecimal(ascii(buf, pos + 48, pos + 58), 'size', pos + 48);
    let dataStart = pos + HEADER_SIZE;
    const dataEnd = dataStart + size;
    if (dataEnd > buf.length) {
      throw new BitcodeError(`malformed archive: member "${rawName.trim()}" extends past the end of the file`, pos * 8);
    }
    let name: string;
    const trimmed = rawName.replace(/ +$/, '');
    if (trimmed.startsWith('#1/')) {
      // BSD: name stored at the start of the data.
      const nameLen = parseDecimal(trimmed.slice(3), 'BSD name length', pos);
      if (nameLen > size) throw new BitcodeError('malformed archive: BSD name longer than its member', pos * 8);
      name = decodeName(buf.subarray(dataStart, dataStart + nameLen)).replace(/\0+$/, '');
      dataStart += nameLen;
    } else if (trimmed === '//') {
      longNames = buf.subarray(dataStart, dataEnd);
      name = '//';
    } else if (/^\/[0-9]+$/.test(trimmed)) {
      if (longNames === undefined) {
        throw new BitcodeError('malformed archive: long member name without a "//" name table', pos * 8);
      }
      const off = Number(trimmed.slice(1));
      if (off >= longNames.length) throw new BitcodeError('malformed archive: long name offset out of range', pos * 8);
      let e = off;
      while (e < longNames.length && longNames[e] !== 0x0a && longNames[e] !== 0) e++;
      name = decodeName(longNames.subarray(off, e));
      if (name.endsWith('/')) name = name.slice(0, -1);
    } else if (trimmed === '/' || trimmed === '/SYM64/' || /^\/<[A-Z]+>\/$/.test(trimmed)) {
      name = trimmed;
    } else if (trimmed.endsWith('/')) {
      name = trimmed.slice(0, -1);
    } else {
      name = trimmed;
    }
    if (name !== '//' && !isSymbolTable(name)) {
      members.push({ name, data: buf.subarray(dataStart, dataEnd) });
    }
    pos = dataEnd + (dataEnd % 2);
  }
  return members;
}
