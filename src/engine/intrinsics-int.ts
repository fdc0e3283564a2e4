/**
 * Integer intrinsics of any width, concrete or symbolic: overflow arithmetic, saturation,
 * funnel shifts, byte/bit reversal, bit counts, abs/min/max and vector reductions. Each is
 * computed with expressions (the builder folds constants, so concrete inputs give concrete
 * results).
 */
import { builder } from '../expr/builder.js';
import { constantFromBV, type Expr } from '../expr/expr.js';
import { allOnes } from '../expr/bv.js';
import type { SpecialHandler } from './prepare/kinst.js';
import { fromExpr, toExpr, type Scalar, type Val } from './values.js';
import { intWidth } from './scalar.js';
import { TypeKind, type Type, type VectorType } from '../ir/types.js';

const b = builder;

function c(v: number | bigint, w: number): Expr {
  return constantFromBV(w <= 32 ? Number(BigInt.asUintN(w, BigInt(v))) : BigInt.asUintN(w, BigInt(v)), w);
}

function intMin(w: number): Expr {
  return c(1n << BigInt(w - 1), w);
}

function intMax(w: number): Expr {
  return c((1n << BigInt(w - 1)) - 1n, w);
}

function isNeg(x: Expr): Expr {
  return b.slt(x, c(0, x.width));
}

/** Element width of an integer or integer-vector type. */
function elemWidth(t: Type): number {
  return intWidth(t.kind === TypeKind.Vector ? (t as VectorType).element : t);
}

/** Apply a scalar function element-wise when the operands are vectors. */
function lift(args: Val[], f: (xs: Scalar[]) => Val): Val {
  if (Array.isArray(args[0])) {
    const n = (args[0] as Val[]).length;
    const out: Val[] = [];
    for (let i = 0; i < n; i++) out.push(f(args.map((a) => (Array.isArray(a) ? (a[i] as Scalar) : (a as Scalar)))));
    return out;
  }
  return f(args as Scalar[]);
}

type Op2 = (x: Expr, y: Expr, w: number) => Expr;

function binary(op: Op2): SpecialHandler {
  return (ex, st, ki, args) => {
    const w = elemWidth(ki.inst.ops[0]!.type);
    ex.bindLocal(st, ki, lift([args[0]!, args[1]!], ([x, y]) => fromExpr(op(toExpr(x!, w), toExpr(y!, w), w))));
  };
}

function unary(op: (x: Expr, w: number) => Expr): SpecialHandler {
  return (ex, st, ki, args) => {
    const w = elemWidth(ki.inst.ops[0]!.type);
    ex.bindLocal(st, ki, lift([args[0]!], ([x]) => fromExpr(op(toExpr(x!, w), w))));
  };
}

/** *.with.overflow: { result, overflowed } */
function withOverflow(op: (x: Expr, y: Expr, w: number) => [Expr, Expr]): SpecialHandler {
  return (ex, st, ki, args) => {
    const w = elemWidth(ki.inst.ops[0]!.type);
    if (Array.isArray(args[0])) {
      const xs = args[0] as Val[];
      const ys = args[1] as Val[];
      const rs: Val[] = [];
      const os: Val[] = [];
      xs.forEach((x, i) => {
        const [r, o] = op(toExpr(x as Scalar, w), toExpr(ys[i] as Scalar, w), w);
        rs.push(fromExpr(r));
        os.push(fromExpr(o));
      });
      ex.bindLocal(st, ki, [rs, os]);
      return;
    }
    const [r, o] = op(toExpr(args[0] as Scalar, w), toExpr(args[1] as Scalar, w), w);
    ex.bindLocal(st, ki, [fromExpr(r), fromExpr(o)]);
  };
}

const sadd = (x: Expr, y: Expr): [Expr, Expr] => {
  const r = b.add(x, y);
  // overflow iff x and y have the same sign and r's sign differs
  return [r, isNeg(b.and(b.xor(x, r), b.xor(y, r)))];
};
const uadd = (x: Expr, y: Expr): [Expr, Expr] => {
  const r = b.add(x, y);
  return [r, b.ult(r, x)];
};
const ssub = (x: Expr, y: Expr): [Expr, Expr] => {
  const r = b.sub(x, y);
  return [r, isNeg(b.and(b.xor(x, y), b.xor(x, r)))];
};
const usub = (x: Expr, y: Expr): [Expr, Expr] => [b.sub(x, y), b.ult(x, y)];
const smul = (x: Expr, y: Expr, w: number): [Expr, Expr] => {
  const wide = b.mul(b.sext(x, 2 * w), b.sext(y, 2 * w));
  const r = b.extract(wide, 0, w);
  return [r, b.ne(b.sext(r, 2 * w), wide)];
};
const umul = (x: Expr, y: Expr, w: number): [Expr, Expr] => {
  const wide = b.mul(b.zext(x, 2 * w), b.zext(y, 2 * w));
  return [b.extract(wide, 0, w), b.ne(b.extract(wide, w, w), c(0, w))];
};

const shiftAmount = (y: Expr, w: number): Expr => b.urem(y, c(w, w));

const fsh = (left: boolean) => (x: Expr, y: Expr, z: Expr, w: number): Expr => {
  const s = shiftAmount(z, w);
  const zero = b.eq(s, c(0, w));
  const inv = b.sub(c(w, w), s);
  const r = left ? b.or(b.shl(x, s), b.lshr(y, inv)) : b.or(b.lshr(y, s), b.shl(x, inv));
  return b.select(zero, left ? x : y, r);
};

function ternary(op: (x: Expr, y: Expr, z: Expr, w: number) => Expr): SpecialHandler {
  return (ex, st, ki, args) => {
    const w = elemWidth(ki.inst.ops[0]!.type);
    ex.bindLocal(st, ki, lift([args[0]!, args[1]!, args[2]!], ([x, y, z]) => fromExpr(op(toExpr(x!, w), toExpr(y!, w), toExpr(z!, w), w))));
  };
}

function bswap(x: Expr, w: number): Expr {
  let r: Expr | null = null;
  for (let i = 0; i < w / 8; i++) {
    const byte = b.extract(x, i * 8, 8);
    r = r === null ? byte : b.concat(r, byte);
  }
  return r!;
}

function bitreverse(x: Expr, w: number): Expr {
  let r: Expr | null = null;
  for (let i = 0; i < w; i++) {
    const bit = b.extract(x, i, 1);
    r = r === null ? bit : b.concat(r, bit);
  }
  return r!;
}

function ctpop(x: Expr, w: number): Expr {
  if (x.kind === 0) {
    let v = x.value;
    let n = 0;
    while (v !== 0n) {
      n += Number(v & 1n);
      v >>= 1n;
    }
    return c(n, w);
  }
  let r: Expr = c(0, w);
  for (let i = 0; i < w; i++) r = b.add(r, b.zext(b.extract(x, i, 1), w));
  return r;
}

/** Count leading zeros: bits from the top until the first one (w for zero). */
function ctlz(x: Expr, w: number): Expr {
  if (x.kind === 0) {
    const v = x.value;
    return c(v === 0n ? w : w - v.toString(2).length, w);
  }
  let r: Expr = c(w, w);
  for (let i = 0; i < w; i++) r = b.select(b.eq(b.extract(x, i, 1), c(1, 1)), c(w - 1 - i, w), r);
  return r;
}

function cttz(x: Expr, w: number): Expr {
  if (x.kind === 0) {
    let v = x.value;
    if (v === 0n) return c(w, w);
    let n = 0;
    while ((v & 1n) === 0n) {
      v >>= 1n;
      n++;
    }
    return c(n, w);
  }
  let r: Expr = c(w, w);
  for (let i = w - 1; i >= 0; i--) r = b.select(b.eq(b.extract(x, i, 1), c(1, 1)), c(i, w), r);
  return r;
}

function satAdd(signed: boolean, sub: boolean): Op2 {
  return (x, y, w) => {
    const [r, o] = signed ? (sub ? ssub(x, y) : sadd(x, y)) : sub ? usub(x, y) : uadd(x, y);
    const bound = signed ? b.select(isNeg(x), intMin(w), intMax(w)) : sub ? c(0, w) : constantFromBV(allOnes(w), w);
    return b.select(o, bound, r);
  };
}

function satShl(signed: boolean): Op2 {
  return (x, y, w) => {
    const r = b.shl(x, y);
    const back = signed ? b.ashr(r, y) : b.lshr(r, y);
    const bound = signed ? b.select(isNeg(x), intMin(w), intMax(w)) : constantFromBV(allOnes(w), w);
    return b.select(b.or(b.ne(back, x), b.uge(y, c(w, w))), bound, r);
  };
}

/** vector.reduce.{add,mul,and,or,xor,smax,smin,umax,umin} */
function reduce(op: Op2): SpecialHandler {
  return (ex, st, ki, args) => {
    const w = elemWidth(ki.inst.ops[0]!.type);
    const xs = args[0] as Val[];
    let r = toExpr(xs[0] as Scalar, w);
    for (let i = 1; i < xs.length; i++) r = op(r, toExpr(xs[i] as Scalar, w), w);
    ex.bindLocal(st, ki, fromExpr(r));
  };
}

const smax: Op2 = (x, y) => b.select(b.sgt(x, y), x, y);
const smin: Op2 = (x, y) => b.select(b.slt(x, y), x, y);
const umax: Op2 = (x, y) => b.select(b.ugt(x, y), x, y);
const umin: Op2 = (x, y) => b.select(b.ult(x, y), x, y);

/** Integer intrinsics by base name (the part before the type suffix). */
export const INT_INTRINSICS: Record<string, SpecialHandler> = {
  'llvm.sadd.with.overflow': withOverflow(sadd),
  'llvm.uadd.with.overflow': withOverflow(uadd),
  'llvm.ssub.with.overflow': withOverflow(ssub),
  'llvm.usub.with.overflow': withOverflow(usub),
  'llvm.smul.with.overflow': withOverflow(smul),
  'llvm.umul.with.overflow': withOverflow(umul),
  'llvm.sadd.sat': binary(satAdd(true, false)),
  'llvm.uadd.sat': binary(satAdd(false, false)),
  'llvm.ssub.sat': binary(satAdd(true, true)),
  'llvm.usub.sat': binary(satAdd(false, true)),
  'llvm.sshl.sat': binary(satShl(true)),
  'llvm.ushl.sat': binary(satShl(false)),
  'llvm.fshl': ternary(fsh(true)),
  'llvm.fshr': ternary(fsh(false)),
  'llvm.bswap': unary(bswap),
  'llvm.bitreverse': unary(bitreverse),
  'llvm.ctpop': unary(ctpop),
  'llvm.ctlz': unary(ctlz),
  'llvm.cttz': unary(cttz),
  'llvm.abs': unary((x, w) => b.select(isNeg(x), b.sub(c(0, w), x), x)),
  'llvm.smax': binary(smax),
  'llvm.smin': binary(smin),
  'llvm.umax': binary(umax),
  'llvm.umin': binary(umin),
  'llvm.vector.reduce.add': reduce((x, y) => b.add(x, y)),
  'llvm.vector.reduce.mul': reduce((x, y) => b.mul(x, y)),
  'llvm.vector.reduce.and': reduce((x, y) => b.and(x, y)),
  'llvm.vector.reduce.or': reduce((x, y) => b.or(x, y)),
  'llvm.vector.reduce.xor': reduce((x, y) => b.xor(x, y)),
  'llvm.vector.reduce.smax': reduce(smax),
  'llvm.vector.reduce.smin': reduce(smin),
  'llvm.vector.reduce.umax': reduce(umax),
  'llvm.vector.reduce.umin': reduce(umin),
};
