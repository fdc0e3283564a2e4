/**
 * MemIO.write of aggregates leaves padding bytes as they were (src/engine/mem-io.ts), with
 * the padding masks it keeps per type: the same type written twice, nested aggregates, and
 * arrays without padding (written whole).
 */
import { describe, expect, it } from '@jest/globals';
import { MemIO } from '../../../src/engine/mem-io.js';
import { ObjectState } from '../../../src/memory/index.js';
import { DataLayout } from '../../../src/ir/datalayout.js';
import { ArrayType, I16, I32, I64, I8, StructType } from '../../../src/ir/types.js';

const DL = 'e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128';

function filled(size: number): ObjectState {
  const os = new ObjectState(size, 0);
  for (let i = 0; i < size; i++) os.write8(i, 0xee);
  return os;
}

function bytes(os: ObjectState, n: number): number[] {
  return Array.from({ length: n }, (_, i) => os.read8(i) as number);
}

describe('MemIO.write padding', () => {
  const io = new MemIO(DataLayout.parse(DL));

  it('keeps the padding of { i8, i32 } on every write of the type', () => {
    const t = StructType.literal([I8, I32]);
    for (const v of [1, 2]) {
      const os = filled(8);
      io.write(os, 0, t, [v, 0x04030201]);
      expect(bytes(os, 8)).toEqual([v, 0xee, 0xee, 0xee, 1, 2, 3, 4]);
    }
  });

  it('keeps the padding of nested aggregates: [2 x { i16, i8 }] inside { i8, [2 x { i16, i8 }], i64 }', () => {
    const inner = StructType.literal([I16, I8]);
    const arr = ArrayType.get(inner, 2);
    const outer = StructType.literal([I8, arr, I64]);
    const os = filled(24);
    io.write(os, 0, outer, [7, [[0x0201, 3], [0x0504, 6]], 9]);
    expect(bytes(os, 24)).toEqual([
      7, 0xee, // i8, padding to the array's 2-byte alignment
      1, 2, 3, 0xee, // { i16, i8 } and its padding byte
      4, 5, 6, 0xee,
      0xee, 0xee, 0xee, 0xee, 0xee, 0xee, // padding to the i64
      9, 0, 0, 0, 0, 0, 0, 0,
    ]);
  });

  it('writes every byte of an array without padding', () => {
    const t = ArrayType.get(I8, 5);
    const os = filled(6);
    io.write(os, 0, t, [1, 2, 3, 4, 5]);
    expect(bytes(os, 6)).toEqual([1, 2, 3, 4, 5, 0xee]);
    const packed = StructType.literal([I8, I32], true);
    const os2 = filled(5);
    io.write(os2, 0, packed, [1, 0x05040302]);
    expect(bytes(os2, 5)).toEqual([1, 2, 3, 4, 5]);
  });
});
