/**
 * Identifier and string escaping as llvm-dis does it. Strings are byte strings (one JS char per
 * byte), so every char code is in [0, 255].
 */

const HEX = '0123456789ABCDEF';

function hexByte(c: number): string {
  return '\\' + HEX[(c >> 4) & 15]! + HEX[c & 15]!;
}

/** Escapes a byte string for use inside "…": printable ASCII stays, `\` doubles, the rest is `\XX`. */
export function escapeString(s: string): string {
  let plain = true;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c < 0x20 || c > 0x7e || c === 0x22 || c === 0x5c) {
      plain = false;
      break;
    }
  }
  if (plain) return s;
  let out = '';
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c === 0x5c) out += '\\\\';
    else if (c >= 0x20 && c <= 0x7e && c !== 0x22) out += s[i];
    else out += hexByte(c);
  }
  return out;
}

function isAlnum(c: number): boolean {
  return (c >= 0x30 && c <= 0x39) || (c >= 0x41 && c <= 0x5a) || (c >= 0x61 && c <= 0x7a);
}

function isDigit(c: number): boolean {
  return c >= 0x30 && c <= 0x39;
}

/** True when the name can be written bare: [-a-zA-Z._0-9]+ not starting with a digit. */
function isBareName(name: string): boolean {
  if (name.length === 0 || isDigit(name.charCodeAt(0))) return false;
  for (let i = 0; i < name.length; i++) {
    const c = name.charCodeAt(i);
    if (!isAlnum(c) && c !== 0x2d && c !== 0x2e && c !== 0x5f) return false;
  }
  return true;
}

/** The name without sigil, quoted and escaped when needed (`foo`, `"a b"`, `"1x"`). */
export function formatNameBody(name: string): string {
  return isBareName(name) ? name : `"${escapeString(name)}"`;
}

/** `%name`, `@name`, `$name` (comdats) or a bare label name, quoted when needed. */
export function formatName(name: string, sigil: '%' | '@' | '$' | ''): string {
  return sigil + formatNameBody(name);
}

/** A metadata kind or named-metadata name: `dbg`, `llvm.loop`, escaping with `\XX`. */
export function formatMetadataIdentifier(name: string): string {
  if (name.length === 0) return '<empty name> ';
  let out = '';
  for (let i = 0; i < name.length; i++) {
    const c = name.charCodeAt(i);
    const ok =
      c === 0x2d || c === 0x24 || c === 0x2e || c === 0x5f || (i === 0 ? isAlpha(c) : isAlnum(c));
    out += ok ? name[i] : hexByte(c);
  }
  return out;
}

function isAlpha(c: number): boolean {
  return (c >= 0x41 && c <= 0x5a) || (c >= 0x61 && c <= 0x7a);
}
