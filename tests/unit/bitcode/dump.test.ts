import { dumpBitstream, walkBitstream } from '../../../src/bitcode/dump.js';
import { BitcodeError } from '../../../src/bitcode/errors.js';
import { BitWriter } from '../../support/bitwriter.js';

const chars = (s: string): number[] => [...s].map((c) => c.charCodeAt(0));

function sample(): Uint8Array {
  const w = new BitWriter();
  w.magic();
  w.enterBlock(13, 5);
  w.unabbrevRecord(1, chars('LLVM'));
  w.endBlock();
  w.enterBlock(8, 3);
  w.enterBlock(0, 2);
  w.setBID(9);
  w.unabbrevRecord(2, chars('MY_BLOCK'));
  w.unabbrevRecord(3, [7, ...chars('MY_RECORD')]);
  w.endBlock();
  w.enterBlock(9, 4);
  w.unabbrevRecord(7, [1, 2n ** 64n - 1n, 3]);
  const a = w.defineAbbrev([{ lit: 5 }, 'blob']);
  w.abbrevRecord(a, [5], new Uint8Array([0x41, 0x00, 0x5c, 0x22, 0xff]));
  w.endBlock();
  w.unabbrevRecord(2, [1, 2, 3, 4, 5, 6]);
  w.endBlock();
  return w.finish();
}

describe('dumpBitstream', () => {
  test('format', () => {
    expect(dumpBitstream(sample(), { offsets: false })).toBe(
      [
        'BLOCK 13 IDENTIFICATION_BLOCK width=5 words=3',
        '  RECORD 1 abbrev=3 nops=4 [76 76 86 77] "LLVM"',
        'END 13',
        'BLOCK 8 MODULE_BLOCK width=3 words=23',
        '  BLOCK 0 BLOCKINFO_BLOCK width=2 words=9',
        '    RECORD 1 abbrev=3 nops=1 [9]',
        '    RECORD 2 abbrev=3 nops=8 [77 89 95 66 76 79 67 75] "MY_BLOCK"',
        '    RECORD 3 abbrev=3 nops=10 [7 77 89 95 82 69 67 79 82 68]',
        '  END 0',
        '  BLOCK 9 MY_BLOCK width=4 words=8',
        '    RECORD 7 MY_RECORD abbrev=3 nops=3 [1 18446744073709551615 3]',
        '    RECORD 5 abbrev=4 nops=0 blob=5 "A\\x00\\x5c\\x22\\xff"',
        '  END 9',
        '  RECORD 2 abbrev=3 nops=6 [1 2 3 4 5 6]',
        'END 8',
        '',
      ].join('\n'),
    );
  });

  test('offsets and operand truncation', () => {
    const text = dumpBitstream(sample(), { maxOps: 2, maxBlobBytes: 1 });
    const lines = text.split('\n');
    expect(lines[0]).toBe('@0x00000004 BLOCK 13 IDENTIFICATION_BLOCK width=5 words=3');
    expect(lines[1]).toMatch(/^@0x0000000c {3}RECORD 1 abbrev=3 nops=4 \[76 76 \.\.\.\(2 more\)\] "LLVM"$/);
    expect(text).toContain('blob=5 "A..."');
  });

  test('walkBitstream positions point at the entries', () => {
    const nodes = walkBitstream(sample());
    expect(nodes.map((n) => n.bitPos)).toEqual([32, 32 + 5 * 32]);
  });

  test('malformed input throws BitcodeError', () => {
    const buf = sample();
    expect(() => dumpBitstream(buf.subarray(0, buf.length - 4))).toThrow(BitcodeError);
    expect(() => dumpBitstream(new Uint8Array([1, 2, 3, 4]))).toThrow(/bad magic/);
  });
});
