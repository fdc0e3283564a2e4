/**
 * Corrupted function bodies must fail with a BitcodeError (never a raw TypeError/RangeError,
 * which readBitcodeModule would wrap with a `cause`), and never hang: bits are flipped inside
 * the FUNCTION_BLOCKs of clang-built modules.
 */
import { readFileSync } from 'node:fs';
import { readBitcodeModule } from '../../../../src/bitcode/index.js';
import { BitcodeError } from '../../../../src/bitcode/errors.js';
import { EntryKind } from '../../../../src/bitcode/cursor.js';
import { openBitcodeCursor } from '../../../../src/bitcode/wrapper.js';
import { BlockId } from '../../../../src/bitcode/reader/ids.js';
import { ensureFixturesBuilt, listFixtures } from '../../../support/fixtures.js';

/** Byte ranges of the module's FUNCTION_BLOCKs. */
function functionBlockRanges(buf: Uint8Array): [number, number][] {
  const cursor = openBitcodeCursor(buf);
  const ranges: [number, number][] = [];
  for (;;) {
    const top = cursor.advance();
    if (top.kind === EntryKind.EndBlock) return ranges;
    if (top.kind !== EntryKind.SubBlock || top.id !== BlockId.Module) {
      if (top.kind === EntryKind.SubBlock) cursor.skipBlock();
      continue;
    }
    cursor.enterSubBlock(BlockId.Module);
    for (;;) {
      const e = cursor.advance();
      if (e.kind === EntryKind.EndBlock) break;
      if (e.kind === EntryKind.Record) {
        cursor.skipRecord(e.id);
        continue;
      }
      const start = cursor.bitPos;
      cursor.skipBlock();
      if (e.id === BlockId.Function) ranges.push([Math.floor(start / 8), Math.floor(cursor.bitPos / 8)]);
    }
  }
}

/** Deterministic PRNG (xorshift32). */
function rng(seed: number): () => number {
  let x = seed >>> 0 || 1;
  return () => {
    x ^= x << 13;
    x >>>= 0;
    x ^= x >>> 17;
    x ^= x << 5;
    x >>>= 0;
    return x / 0x100000000;
  };
}

const PICKS = ['long_function', 'tokenizer', 'atomics_std', 'vector_shuffle', 'computed_goto', 'switch_sparse'];
const fixtures = listFixtures().filter((f) => PICKS.includes(f.name) && (f.clang === 14 || f.clang === 19));

beforeAll(async () => {
  await ensureFixturesBuilt();
}, 15 * 60 * 1000);

test.each(fixtures)('$name clang$clang $mode: corrupted bodies fail cleanly', (f) => {
  const orig = new Uint8Array(readFileSync(f.bcPath));
  const ranges = functionBlockRanges(orig);
  expect(ranges.length).toBeGreaterThan(0);
  const rand = rng(f.clang * 1000 + f.name.length + (f.mode === 'O2' ? 7 : 0));
  let decoded = 0;
  for (let iter = 0; iter < 150; iter++) {
    const buf = orig.slice();
    const [lo, hi] = ranges[Math.floor(rand() * ranges.length)]!;
    const flips = 1 + Math.floor(rand() * 3);
    for (let k = 0; k < flips; k++) buf[lo + Math.floor(rand() * (hi - lo))]! ^= 1 << Math.floor(rand() * 8);
    const t0 = performance.now();
    try {
      readBitcodeModule(buf, 'fuzzed.bc');
      decoded++;
    } catch (e) {
      expect(e).toBeInstanceOf(BitcodeError);
      const cause = (e as BitcodeError).cause as Error | undefined;
      if (cause) throw new Error(`raw error escaped the decoder: ${cause.stack}`);
    }
    expect(performance.now() - t0).toBeLessThan(5000);
  }
  // Some flips (names, alignments, flags) leave a valid module; most must be caught.
  expect(decoded).toBeLessThan(150);
});

test('a body cut short is a BitcodeError', async () => {
  await ensureFixturesBuilt();
  const f = fixtures[0]!;
  const orig = new Uint8Array(readFileSync(f.bcPath));
  const [lo, hi] = functionBlockRanges(orig)[0]!;
  for (const cut of [lo + 8, Math.floor((lo + hi) / 2), hi - 4]) {
    expect(() => readBitcodeModule(orig.slice(0, cut), 'cut.bc')).toThrow(BitcodeError);
  }
});
