/**
 * Corrupted metadata must fail cleanly: random bit flips inside the METADATA blocks of real
 * clang bitcode either still decode or raise a BitcodeError (never a TypeError, RangeError or hang).
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { EntryKind, type BitstreamCursor } from '../../../../src/bitcode/cursor.js';
import { BitcodeError } from '../../../../src/bitcode/errors.js';
import { BlockId } from '../../../../src/bitcode/reader/ids.js';
import { openBitcodeCursor } from '../../../../src/bitcode/wrapper.js';
import { walkBitcode } from './metadata-harness.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../..');
const BUILD = path.join(ROOT, 'fixtures/dis/build');
const FILES = ['hash_table.clang19.O2.bc', 'structs_nested.clang14.O0.bc', 'bitfields.clang16.O2.bc'];

/** Bit ranges [start, end) of the contents of every METADATA block. */
function metadataRanges(buf: Uint8Array): [number, number][] {
  const out: [number, number][] = [];
  const walk = (cursor: BitstreamCursor): void => {
    for (;;) {
      const e = cursor.advance();
      if (e.kind === EntryKind.EndBlock) return;
      if (e.kind === EntryKind.Record) {
        cursor.skipRecord(e.id);
        continue;
      }
      if (e.id === BlockId.Metadata) {
        cursor.enterSubBlock(e.id);
        out.push([cursor.blockStartBit, cursor.blockEndBit]);
        walk(cursor);
      } else if (e.id === BlockId.Module || e.id === BlockId.Function) {
        cursor.enterSubBlock(e.id);
        walk(cursor);
      } else {
        cursor.skipBlock();
      }
    }
  };
  walk(openBitcodeCursor(buf));
  return out;
}

/** xorshift32: reproducible corruption. */
function rng(seed: number): () => number {
  let x = seed >>> 0 || 1;
  return () => {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    return (x >>> 0) / 2 ** 32;
  };
}

test.each(FILES)('bit flips in the metadata of %s fail cleanly', (file) => {
  const p = path.join(BUILD, file);
  if (!fs.existsSync(p)) execFileSync('node', [path.join(ROOT, 'scripts/build-fixtures.mjs')], { stdio: 'ignore' });
  const original = new Uint8Array(fs.readFileSync(p));
  walkBitcode(original, file);
  const ranges = metadataRanges(original);
  expect(ranges.length).toBeGreaterThan(1);
  const random = rng(file.length * 7919);
  let failures = 0;
  for (let trial = 0; trial < 300; trial++) {
    const buf = original.slice();
    const [start, end] = ranges[Math.floor(random() * ranges.length)]!;
    for (let k = 1 + Math.floor(random() * 4); k > 0; k--) {
      const bit = start + Math.floor(random() * (end - start));
      buf[bit >> 3]! ^= 1 << (bit & 7);
    }
    try {
      walkBitcode(buf, file);
    } catch (e) {
      if (!(e instanceof BitcodeError)) throw new Error(`trial ${trial}: ${String(e)}\n${(e as Error).stack}`);
      failures++;
    }
  }
  expect(failures).toBeGreaterThan(0);
});
