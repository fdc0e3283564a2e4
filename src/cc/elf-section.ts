/**
 * Reads one section of an ELF64 little-endian file (an object, executable or shared library):
 * enough to get back the `.llvm_bc` section `tsklee cc` adds to each object, which the
 * linker concatenates into the linked file.
 */
import { readFileSync } from 'node:fs';

/** The bytes of section `name`, undefined when the file has no such section; throws on a non-ELF64 file. */
export function readElfSection(path: string, name: string): Uint8Array | undefined {
  const buf = readFileSync(path);
  const bad = (what: string): Error => new Error(`${path}: ${what}`);
  if (buf.length < 64 || buf.readUInt32BE(0) !== 0x7f454c46) throw bad('not an ELF file');
  if (buf[4] !== 2 || buf[5] !== 1) throw bad('not a 64-bit little-endian ELF file');
  const shoff = Number(buf.readBigUInt64LE(0x28));
  const shentsize = buf.readUInt16LE(0x3a);
  const shnum = buf.readUInt16LE(0x3c);
  const shstrndx = buf.readUInt16LE(0x3e);
  if (shoff === 0 || shnum === 0) return undefined;
  if (shoff + shnum * shentsize > buf.length || shstrndx >= shnum) throw bad('truncated section header table');
  const header = (i: number): { nameOff: number; offset: number; size: number; type: number } => {
    const h = shoff + i * shentsize;
    return { nameOff: buf.readUInt32LE(h), type: buf.readUInt32LE(h + 4), offset: Number(buf.readBigUInt64LE(h + 0x18)), size: Number(buf.readBigUInt64LE(h + 0x20)) };
  };
  const strtab = header(shstrndx);
  for (let i = 0; i < shnum; i++) {
    const s = header(i);
    const start = strtab.offset + s.nameOff;
    const end = buf.indexOf(0, start);
    if (end < 0 || buf.toString('latin1', start, end) !== name) continue;
    const SHT_NOBITS = 8;
    if (s.type === SHT_NOBITS) return new Uint8Array(0);
    if (s.offset + s.size > buf.length) throw bad(`section ${name} runs past the end of the file`);
    return new Uint8Array(buf.subarray(s.offset, s.offset + s.size));
  }
  return undefined;
}
