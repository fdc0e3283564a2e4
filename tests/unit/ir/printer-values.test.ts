import {
  ArrayType,
  BFloatType,
  ConstantAggregateZero,
  ConstantArray,
  ConstantData,
  ConstantExpr,
  ConstantFP,
  ConstantInt,
  ConstantPointerNull,
  ConstantStruct,
  ConstantVector,
  DoubleTy,
  FP128Type,
  FloatTy,
  FunctionType,
  GlobalVariable,
  HalfType,
  I1,
  IntegerType,
  I32,
  I64,
  I8,
  Module,
  Opcode,
  PointerType,
  PoisonValue,
  StructType,
  TypeKind,
  UndefValue,
  VectorType,
  VoidType,
  X86FP80Type,
  Flag,
  globalPointerType,
} from '../../../src/ir/index.js';
import { formatFloat, moduleContext, printConstant, printType, escapeString, formatName } from '../../../src/ir/printer/index.js';

const dv = new DataView(new ArrayBuffer(8));
const dbits = (x: number): bigint => {
  dv.setFloat64(0, x);
  return dv.getBigUint64(0);
};
const fbits = (x: number): bigint => {
  dv.setFloat32(0, x);
  return BigInt(dv.getUint32(0));
};

describe('float formatting', () => {
  test.each([
    [0.1, '1.000000e-01'],
    [1e100, '1.000000e+100'],
    [-0.0, '-0.000000e+00'],
    [0, '0.000000e+00'],
    [1.5, '1.500000e+00'],
    [123456, '1.234560e+05'],
    [1234567, '0x4132D68700000000'],
    [3.14, '3.140000e+00'],
    [0.3, '3.000000e-01'],
    [5e-324, '4.940660e-324'],
    [2.5e-310, '2.500000e-310'],
    [1e23, '0x44B52D02C7E14AF6'],
    [123456.7, '0x40FE240B33333333'],
    [1e-300, '1.000000e-300'],
    [Infinity, '0x7FF0000000000000'],
    [-Infinity, '0xFFF0000000000000'],
    [NaN, '0x7FF8000000000000'],
  ])('double %p prints as %s', (x, want) => {
    expect(formatFloat(TypeKind.Double, dbits(x))).toBe(want);
  });

  test('a double whose hex has leading zero digits prints them minimally', () => {
    expect(formatFloat(TypeKind.Double, dbits(1.2345678e-300))).toBe('0x' + dbits(1.2345678e-300).toString(16).toUpperCase());
    expect(formatFloat(TypeKind.Double, dbits(1.2345678e-300)).length).toBeLessThan(18);
  });

  test.each([
    [0.1, '0x3FB99999A0000000'],
    [0.5, '5.000000e-01'],
    [-3.25, '-3.250000e+00'],
    [1e30, '0x46293E5940000000'],
    [1e-45, '0x36A0000000000000'],
  ])('float %p prints as %s', (x, want) => {
    expect(formatFloat(TypeKind.Float, fbits(x))).toBe(want);
  });

  test('float NaNs widen their payload (signalling ones stay signalling)', () => {
    expect(formatFloat(TypeKind.Float, 0x7fc00001n)).toBe('0x7FF8000020000000');
    expect(formatFloat(TypeKind.Float, 0x7f800005n)).toBe('0x7FF00000A0000000');
    expect(formatFloat(TypeKind.Float, 0x7f800000n)).toBe('0x7FF0000000000000');
  });

  test('other types print tagged bit patterns', () => {
    expect(formatFloat(TypeKind.X86_FP80, 0x3fffc000000000000000n)).toBe('0xK3FFFC000000000000000');
    expect(formatFloat(TypeKind.X86_FP80, 0x3ffbcccccccccccccccdn)).toBe('0xK3FFBCCCCCCCCCCCCCCCD');
    expect(formatFloat(TypeKind.FP128, 0x3fff8000000000000000000000000000n)).toBe('0xL00000000000000003FFF800000000000');
    expect(formatFloat(TypeKind.Half, 0x3e00n)).toBe('0xH3E00');
    expect(formatFloat(TypeKind.BFloat, 0x3fc0n)).toBe('0xR3FC0');
    expect(formatFloat(TypeKind.PPC_FP128, (2n << 64n) | 1n)).toBe('0xM00000000000000010000000000000002');
  });
});

describe('names', () => {
  test.each([
    ['x', '%x'],
    ['a.b-c_d', '%a.b-c_d'],
    ['a b', '%"a b"'],
    ['1x', '%"1x"'],
    ['x$y', '%"x$y"'],
    ['q"\\', '%"q\\22\\\\"'],
    ['\x80\x01', '%"\\80\\01"'],
  ])('%p', (name, want) => {
    expect(formatName(name, '%')).toBe(want);
  });
  test('string escapes', () => {
    expect(escapeString('a\\b"c\n\x7f\x80')).toBe('a\\\\b\\22c\\0A\\7F\\80');
  });
});

describe('types', () => {
  test('basic and derived types', () => {
    expect(printType(I32)).toBe('i32');
    expect(printType(PointerType.opaque())).toBe('ptr');
    expect(printType(PointerType.opaque(1))).toBe('ptr addrspace(1)');
    expect(printType(PointerType.typed(I32))).toBe('i32*');
    expect(printType(PointerType.typed(I8, 1))).toBe('i8 addrspace(1)*');
    expect(printType(ArrayType.get(I32, 4))).toBe('[4 x i32]');
    expect(printType(VectorType.get(I32, 4))).toBe('<4 x i32>');
    expect(printType(VectorType.get(I32, 4, true))).toBe('<vscale x 4 x i32>');
    expect(printType(StructType.literal([I32, I8]))).toBe('{ i32, i8 }');
    expect(printType(StructType.literal([I32, I8], true))).toBe('<{ i32, i8 }>');
    expect(printType(StructType.literal([]))).toBe('{}');
    expect(printType(FunctionType.get(I32, [PointerType.opaque()], true))).toBe('i32 (ptr, ...)');
    expect(printType(FunctionType.get(VoidType, [], false))).toBe('void ()');
    expect(printType(PointerType.typed(FunctionType.get(VoidType, [I32], false)))).toBe('void (i32)*');
    for (const [t, s] of [
      [X86FP80Type, 'x86_fp80'],
      [FP128Type, 'fp128'],
      [HalfType, 'half'],
      [BFloatType, 'bfloat'],
    ] as const) {
      expect(printType(t)).toBe(s);
    }
  });

  test('identified structs: names quoted, anonymous ones numbered in use order', () => {
    const m = new Module();
    const named = StructType.named('struct.a b');
    named.setBody([I32], false);
    const anon1 = StructType.named('');
    anon1.setBody([I8], false);
    const anon2 = StructType.named('');
    anon2.setBody([anon1, PointerType.opaque()], false);
    const g = new GlobalVariable('g', anon2, 0, globalPointerType(anon2, 0, false));
    const h = new GlobalVariable('h', named, 0, globalPointerType(named, 0, false));
    m.globals.push(g, h);
    m.structTypes.push(named, anon1, anon2);
    const ctx = moduleContext(m);
    expect(printType(named, ctx)).toBe('%"struct.a b"');
    expect(printType(anon2, ctx)).toBe('%0');
    expect(printType(anon1, ctx)).toBe('%1');
  });
});

describe('constants', () => {
  const ctx = moduleContext(new Module(), 19);
  test('integers', () => {
    expect(printConstant(new ConstantInt(I1, 1n), ctx)).toBe('true');
    expect(printConstant(new ConstantInt(I1, 0n), ctx)).toBe('false');
    expect(printConstant(new ConstantInt(I8, 255n), ctx)).toBe('-1');
    expect(printConstant(new ConstantInt(I64, (1n << 63n) + 5n), ctx)).toBe('-9223372036854775803');
    expect(printConstant(new ConstantInt(IntegerType.get(128), 1n << 100n), ctx)).toBe('1267650600228229401496703205376');
  });
  test('simple constants', () => {
    expect(printConstant(new ConstantPointerNull(PointerType.opaque()), ctx)).toBe('null');
    expect(printConstant(new ConstantAggregateZero(ArrayType.get(I32, 2)), ctx)).toBe('zeroinitializer');
    expect(printConstant(new UndefValue(I32), ctx)).toBe('undef');
    expect(printConstant(new PoisonValue(I32), ctx)).toBe('poison');
    expect(printConstant(new ConstantFP(DoubleTy, dbits(2)), ctx)).toBe('2.000000e+00');
    expect(printConstant(new ConstantFP(VectorType.get(FloatTy, 4), fbits(1)), ctx)).toBe('splat (float 1.000000e+00)');
  });
  test('aggregates and data', () => {
    const one = new ConstantInt(I32, 1n);
    const two = new ConstantInt(I32, 2n);
    expect(printConstant(new ConstantArray(ArrayType.get(I32, 2), [one, two]), ctx)).toBe('[i32 1, i32 2]');
    expect(printConstant(new ConstantVector(VectorType.get(I32, 2), [one, two]), ctx)).toBe('<i32 1, i32 2>');
    const st = StructType.literal([I32, PointerType.opaque()]);
    const g = new GlobalVariable('g', I32, 0, PointerType.opaque());
    expect(printConstant(new ConstantStruct(st, [one, g]), ctx)).toBe('{ i32 1, ptr @g }');
    const pst = StructType.literal([I32], true);
    expect(printConstant(new ConstantStruct(pst, [one]), ctx)).toBe('<{ i32 1 }>');
    const str = new ConstantData(ArrayType.get(I8, 4), [0x25n, 0x64n, 0x0an, 0n]);
    expect(printConstant(str, ctx)).toBe('c"%d\\0A\\00"');
    const ints = new ConstantData(ArrayType.get(I32, 3), [1n, 0xffffffffn, 3n]);
    expect(printConstant(ints, ctx)).toBe('[i32 1, i32 -1, i32 3]');
    const fl = new ConstantData(VectorType.get(DoubleTy, 2), [dbits(1), dbits(0.1)]);
    expect(printConstant(fl, ctx)).toBe('<double 1.000000e+00, double 1.000000e-01>');
    const bytes = new ConstantData(VectorType.get(I8, 2), [1n, 2n]);
    expect(printConstant(bytes, ctx)).toBe('<i8 1, i8 2>');
  });
  test('constant expressions', () => {
    const s = new GlobalVariable('s', ArrayType.get(I8, 4), 0, PointerType.opaque());
    const gep = new ConstantExpr(PointerType.opaque(), Opcode.GetElementPtr, [s, new ConstantInt(I64, 0n), new ConstantInt(I64, 1n)], Flag.InBounds, 0, {
      sourceElementType: ArrayType.get(I8, 4),
      inRangeIndex: -1,
    });
    expect(printConstant(gep, ctx)).toBe('getelementptr inbounds ([4 x i8], ptr @s, i64 0, i64 1)');
    const p2i = new ConstantExpr(I64, Opcode.PtrToInt, [s]);
    expect(printConstant(p2i, ctx)).toBe('ptrtoint (ptr @s to i64)');
    const add = new ConstantExpr(I64, Opcode.Add, [p2i, new ConstantInt(I64, 8n)], Flag.NSW);
    expect(printConstant(add, ctx)).toBe('add nsw (i64 ptrtoint (ptr @s to i64), i64 8)');
    const typed = PointerType.typed(ArrayType.get(I8, 4));
    const s14 = new GlobalVariable('s', ArrayType.get(I8, 4), 0, typed);
    const gep14 = new ConstantExpr(PointerType.typed(I8), Opcode.GetElementPtr, [s14, new ConstantInt(I64, 0n), new ConstantInt(I64, 0n)], Flag.InBounds, 0, {
      sourceElementType: ArrayType.get(I8, 4),
      inRangeIndex: -1,
    });
    expect(printConstant(gep14, ctx)).toBe('getelementptr inbounds ([4 x i8], [4 x i8]* @s, i64 0, i64 0)');
  });
});
