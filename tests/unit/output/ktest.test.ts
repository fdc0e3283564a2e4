/** The .ktest format: a hand-built golden file, round trips, old versions, bad files, atomic writes. */
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  decodeKTest,
  encodeKTest,
  KTestError,
  readKTestFile,
  writeFileAtomic,
  writeKTestFile,
  type KTest,
} from '../../../src/output/ktest.js';

/** Big-endian u32. */
const u32 = (v: number): number[] => [(v >>> 24) & 0xff, (v >>> 16) & 0xff, (v >>> 8) & 0xff, v & 0xff];
const ascii = (s: string): number[] => Array.from(s, (c) => c.charCodeAt(0));

const SAMPLE: KTest = {
  version: 3,
  args: ['prog.bc', '-v'],
  symArgvs: 0,
  symArgvLen: 0,
  objects: [
    { name: 'x', bytes: new Uint8Array([1, 0, 0, 0]) },
    { name: 'buf', bytes: new Uint8Array([0x41, 0x42, 0x00]) },
  ],
};

// The bytes kTest_toFile writes for SAMPLE, spelled out field by field.
const SAMPLE_BYTES = new Uint8Array([
  ...ascii('KTEST'),
  ...u32(3), // version
  ...u32(2), // numArgs
  ...u32(7),
  ...ascii('prog.bc'),
  ...u32(2),
  ...ascii('-v'),
  ...u32(0), // symArgvs
  ...u32(0), // symArgvLen
  ...u32(2), // numObjects
  ...u32(1),
  ...ascii('x'),
  ...u32(4),
  1,
  0,
  0,
  0,
  ...u32(3),
  ...ascii('buf'),
  ...u32(3),
  0x41,
  0x42,
  0x00,
]);

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'tsklee-ktest-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe('encodeKTest', () => {
  test('writes the golden bytes', () => {
    expect(Array.from(encodeKTest(SAMPLE))).toEqual(Array.from(SAMPLE_BYTES));
  });

  test('always writes version 3, as KLEE does', () => {
    const bytes = encodeKTest({ ...SAMPLE, version: 1 });
    expect(Array.from(bytes.subarray(5, 9))).toEqual(u32(3));
    expect(bytes).toHaveLength(SAMPLE_BYTES.length);
  });

  test('rejects counts that do not fit in 32 bits', () => {
    expect(() => encodeKTest({ ...SAMPLE, symArgvs: -1 })).toThrow(KTestError);
    expect(() => encodeKTest({ ...SAMPLE, symArgvLen: 2 ** 32 })).toThrow(/32 bits/);
  });
});

describe('decodeKTest', () => {
  test('reads the golden bytes', () => {
    expect(decodeKTest(SAMPLE_BYTES)).toEqual(SAMPLE);
  });

  test('round-trips empty, large, binary and UTF-8 content', () => {
    const big = new Uint8Array(70000).map((_, i) => (i * 31) & 0xff);
    const t: KTest = {
      version: 3,
      args: [],
      symArgvs: 2,
      symArgvLen: 9,
      objects: [
        { name: '', bytes: new Uint8Array() },
        { name: 'naïve ☃', bytes: big },
        { name: 'model_version', bytes: new Uint8Array([1, 0, 0, 0]) },
      ],
    };
    expect(decodeKTest(encodeKTest(t))).toEqual(t);
  });

  test('reads the old BOUT magic and version 1 (no symArgv fields)', () => {
    const v1 = new Uint8Array([...ascii('BOUT\n'), ...u32(1), ...u32(1), ...u32(1), ...ascii('p'), ...u32(1), ...u32(1), ...ascii('a'), ...u32(1), 7]);
    expect(decodeKTest(v1)).toEqual({ version: 1, args: ['p'], symArgvs: 0, symArgvLen: 0, objects: [{ name: 'a', bytes: new Uint8Array([7]) }] });
  });

  test('ignores bytes after the last object, like KLEE', () => {
    const padded = new Uint8Array([...SAMPLE_BYTES, 0xff, 0xff]);
    expect(decodeKTest(padded)).toEqual(SAMPLE);
  });

  test('bad magic', () => {
    const bad = SAMPLE_BYTES.slice();
    bad[0] = 0x4c;
    expect(() => decodeKTest(bad, 'a.ktest')).toThrow(/^a\.ktest: not a \.ktest file \(bad magic "LTEST", expected "KTEST"\)$/);
  });

  test('unsupported version', () => {
    const v4 = SAMPLE_BYTES.slice();
    v4.set(u32(4), 5);
    expect(() => decodeKTest(v4, 'b.ktest')).toThrow('b.ktest: unsupported .ktest version 4 (this reader knows versions up to 3)');
  });

  test('every truncation is a one-line KTestError naming the file', () => {
    for (let n = 0; n < SAMPLE_BYTES.length; n++) {
      let err: unknown;
      try {
        decodeKTest(SAMPLE_BYTES.subarray(0, n), 't.ktest');
      } catch (e) {
        err = e;
      }
      expect(err).toBeInstanceOf(KTestError);
      const e = err as KTestError;
      expect(e.message.startsWith('t.ktest: ')).toBe(true);
      expect(e.file).toBe('t.ktest');
      expect(e.message).not.toContain('\n');
      if (n >= 9) expect(e.detail).toMatch(/^truncated \.ktest: .* at byte \d+ needs \d+ bytes, \d+ left$/);
    }
  });

  test('a huge declared size is reported as truncation, not an allocation', () => {
    const bytes = new Uint8Array([...ascii('KTEST'), ...u32(3), ...u32(0), ...u32(0), ...u32(0), ...u32(1), ...u32(1), ...ascii('x'), ...u32(0xffffffff)]);
    expect(() => decodeKTest(bytes)).toThrow(/truncated \.ktest: bytes of object 0 \('x'\)/);
  });
});

describe('files', () => {
  test('writeKTestFile then readKTestFile', () => {
    const p = join(dir, 'test000001.ktest');
    writeKTestFile(p, SAMPLE);
    expect(Array.from(readFileSync(p))).toEqual(Array.from(SAMPLE_BYTES));
    expect(readKTestFile(p)).toEqual(SAMPLE);
    expect(readdirSync(dir)).toEqual(['test000001.ktest']);
  });

  test('readKTestFile names the file in format errors and passes filesystem errors through', () => {
    const p = join(dir, 'junk.ktest');
    writeFileSync(p, 'hello world');
    expect(() => readKTestFile(p)).toThrow(`${p}: not a .ktest file`);
    expect(() => readKTestFile(join(dir, 'missing.ktest'))).toThrow(expect.objectContaining({ code: 'ENOENT' }));
  });

  test('a failed write leaves neither a partial file nor a temporary one', () => {
    // The target is a directory, so the final rename fails after the data was written.
    const target = join(dir, 'test000002.ktest');
    mkdirSync(target);
    expect(() => writeKTestFile(target, SAMPLE)).toThrow();
    expect(readdirSync(dir)).toEqual(['test000002.ktest']);
    expect(readdirSync(target)).toEqual([]);
  });

  test('an encoding error writes nothing', () => {
    const target = join(dir, 'test000003.ktest');
    expect(() => writeKTestFile(target, { ...SAMPLE, symArgvs: -5 })).toThrow(KTestError);
    expect(readdirSync(dir)).toEqual([]);
  });

  test('writeFileAtomic replaces an existing file whole', () => {
    const p = join(dir, 'f');
    writeFileAtomic(p, 'a much longer first version');
    writeFileAtomic(p, 'short');
    expect(readFileSync(p, 'utf8')).toBe('short');
    expect(readdirSync(dir)).toEqual(['f']);
  });
});
