/**
 * Typed values ↔ the bytes of an object (little-endian, x86-64 layouts). Loads and stores of
 * any first-class type go through here unless the interpreter's concrete fast path applies.
 *
 * A value becomes a list of bytes, each a number (concrete) or an 8-bit expression; reading
 * reassembles them, giving a concrete value when every byte is concrete.
 */
import type { DataLayout } from '../ir/datalayout.js';
import { TypeKind, type ArrayType, type IntegerType, type StructType, type Type, type VectorType } from '../ir/types.js';
import { builder } from '../expr/builder.js';
import { constantFromBV, type Expr } from '../expr/expr.js';
import { ExprKind } from '../expr/kinds.js';
import { MAX_OPTIMIZED_SIZE, valueChoice } from './array-values.js';
import type { ObjectState } from '../memory/object-state.js';
import {
  fromExpr,
  intFrom,
  toExpr,
  toUBig,
  wideNorm,
  type Scalar,
  type Val,
} from './values.js';
import { bitsToFp, fpToBits } from './scalar.js';
import { f80FromBytes, f80ToBytes } from './fp80.js';
import { f128FromBytes, f128ToBytes } from './fp128.js';
import { FP128, X86_FP80 } from './wide-float.js';

export type Byte = number | Expr;

const scratch = new Uint8Array(16);

export class MemIO {
  /** --optimize-array=value: symbolic-index reads of all-concrete objects become value choices (array-values.ts). */
  arrayValueChoice = false;

  /** Per aggregate type, its padding bytes (null: none), for write(). */
  readonly paddingMasks = new Map<Type, Uint8Array | null>();

  constructor(readonly dl: DataLayout) {}

  storeSize(t: Type): number {
    return this.dl.typeStoreSize(t);
  }

  /** The bytes of `v` (of type t) into out[off…]. */
  toBytes(t: Type, v: Val, out: Byte[], off: number): void {
    switch (t.kind) {
      case TypeKind.Integer:
        this.intToBytes((t as IntegerType).bits, v as Scalar, out, off);
        return;
      case TypeKind.Pointer:
        this.intToBytes(64, v as Scalar, out, off);
        return;
      case TypeKind.Float:
      case TypeKind.Double:
      case TypeKind.Half:
      case TypeKind.BFloat: {
        const bits = this.dl.typeSizeInBits(t);
        if (typeof v === 'object') this.intToBytes(bits, v as Expr, out, off);
        else this.intToBytes(bits, fpToBits(t.kind, v as number), out, off);
        return;
      }
      case TypeKind.X86_FP80:
        if (typeof v === 'object') this.intToBytes(80, v as Expr, out, off);
        else f80ToBytes(X86_FP80.fromReg(v as number | bigint), out, off);
        return;
      case TypeKind.FP128:
        if (typeof v === 'object') this.intToBytes(128, v as Expr, out, off);
        else f128ToBytes(FP128.fromReg(v as number | bigint), out, off);
        return;
      case TypeKind.Vector: {
        const vt = t as VectorType;
        const vals = v as Val[];
        const eb = this.dl.typeSizeInBits(vt.element);
        if (eb % 8 !== 0) {
          this.intToBytes(eb * vt.length, packBits(vals, eb), out, off);
          return;
        }
        for (let i = 0; i < vt.length; i++) this.toBytes(vt.element, vals[i]!, out, off + (i * eb) / 8);
        return;
      }
      case TypeKind.Array: {
        const at = t as ArrayType;
        const stride = this.dl.typeAllocSize(at.element);
        const vals = v as Val[];
        for (let i = 0; i < at.length; i++) this.toBytes(at.element, vals[i]!, out, off + i * stride);
        return;
      }
      case TypeKind.Struct: {
        const st = t as StructType;
        const layout = this.dl.structLayout(st);
        const vals = v as Val[];
        // padding bytes: leave whatever the caller put there (zeros for fresh lists)
        for (let i = 0; i < st.elements.length; i++) this.toBytes(st.elements[i]!, vals[i]!, out, off + layout.offsets[i]!);
        return;
      }
      default:
        throw new Error(`cannot store a value of type ${TypeKind[t.kind]}`);
    }
  }

  /** Integer of width w → its storeSize bytes. */
  intToBytes(w: number, v: Scalar, out: Byte[], off: number): void {
    const n = Math.ceil(w / 8);
    if (typeof v === 'object') {
      const e = v.width === n * 8 ? v : builder.zext(v, n * 8);
      for (let i = 0; i < n; i++) {
        const b = builder.extract(e, 8 * i, 8);
        out[off + i] = b.kind === ExprKind.Constant ? (b.bv as number) : b;
      }
      return;
    }
    if (typeof v === 'number') {
      if (w <= 32) {
        for (let i = 0; i < n; i++) out[off + i] = (v >>> (8 * i)) & 0xff;
        return;
      }
      if (n <= 8) {
        const lo = v >>> 0;
        const hi = Math.floor(v / 0x1_0000_0000) >>> 0;
        for (let i = 0; i < n; i++) out[off + i] = i < 4 ? (lo >>> (8 * i)) & 0xff : (hi >>> (8 * (i - 4))) & 0xff;
        return;
      }
    }
    let u = toUBig(v, w);
    for (let i = 0; i < n; i++) {
      out[off + i] = Number(u & 0xffn);
      u >>= 8n;
    }
  }

  /** The value of type t whose bytes are get(off…). */
  fromBytes(t: Type, get: (i: number) => Byte, off: number): Val {
    switch (t.kind) {
      case TypeKind.Integer:
        return this.intFromBytes((t as IntegerType).bits, get, off);
      case TypeKind.Pointer:
        return this.intFromBytes(64, get, off);
      case TypeKind.Float:
      case TypeKind.Double:
      case TypeKind.Half:
      case TypeKind.BFloat: {
        const bits = this.dl.typeSizeInBits(t);
        const v = this.intFromBytes(bits, get, off);
        return typeof v === 'object' ? v : bitsToFp(t.kind, v);
      }
      case TypeKind.X86_FP80:
      case TypeKind.FP128: {
        const n = t.kind === TypeKind.X86_FP80 ? 10 : 16;
        for (let i = 0; i < n; i++) {
          const b = get(off + i);
          if (typeof b !== 'number') {
            // registers of these types hold the unsigned pattern when concrete
            const v = this.intFromBytes(n * 8, get, off);
            return typeof v === 'object' ? v : BigInt.asUintN(n * 8, BigInt(v));
          }
          scratch[i] = b;
        }
        return n === 10 ? f80FromBytes(scratch, 0) : f128FromBytes(scratch, 0);
      }
      case TypeKind.Vector: {
        const vt = t as VectorType;
        const eb = this.dl.typeSizeInBits(vt.element);
        if (eb % 8 !== 0) return unpackBits(this.intFromBytes(eb * vt.length, get, off), eb, vt.length);
        const out: Val[] = [];
        for (let i = 0; i < vt.length; i++) out.push(this.fromBytes(vt.element, get, off + (i * eb) / 8));
        return out;
      }
      case TypeKind.Array: {
        const at = t as ArrayType;
        const stride = this.dl.typeAllocSize(at.element);
        const out: Val[] = [];
        for (let i = 0; i < at.length; i++) out.push(this.fromBytes(at.element, get, off + i * stride));
        return out;
      }
      case TypeKind.Struct: {
        const st = t as StructType;
        const layout = this.dl.structLayout(st);
        return st.elements.map((e, i) => this.fromBytes(e, get, off + layout.offsets[i]!));
      }
      default:
        throw new Error(`cannot load a value of type ${TypeKind[t.kind]}`);
    }
  }

  intFromBytes(w: number, get: (i: number) => Byte, off: number): Scalar {
    const n = Math.ceil(w / 8);
    let symbolic = false;
    for (let i = 0; i < n; i++) {
      if (typeof get(off + i) !== 'number') {
        symbolic = true;
        break;
      }
    }
    if (symbolic) {
      let e: Expr | null = null;
      for (let i = n - 1; i >= 0; i--) {
        const b = get(off + i);
        const be = typeof b === 'number' ? constantFromBV(b, 8) : b;
        e = e === null ? be : builder.concat(e, be);
      }
      return fromExpr(w === n * 8 ? e! : builder.extract(e!, 0, w));
    }
    if (n <= 4) {
      let v = 0;
      for (let i = n - 1; i >= 0; i--) v = v * 256 + (get(off + i) as number);
      return w === 32 ? v : v & (2 ** w - 1);
    }
    if (n <= 8) {
      let lo = 0;
      let hi = 0;
      for (let i = 3; i >= 0; i--) lo = lo * 256 + (get(off + i) as number);
      for (let i = n - 1; i >= 4; i--) hi = hi * 256 + (get(off + i) as number);
      if (n === 8 && w === 64) {
        const shi = hi | 0;
        // numbers only for |v| ≤ 2^53 − 1 (values.ts): −2^53 (shi = −2^21, lo = 0) is a bigint
        if (shi > -0x200000 && shi < 0x200000) return shi * 0x1_0000_0000 + lo;
        return wideNorm((BigInt(hi) << 32n) | BigInt(lo), 64);
      }
      return intFrom((BigInt(hi) << 32n) | BigInt(lo), w);
    }
    let u = 0n;
    for (let i = n - 1; i >= 0; i--) u = (u << 8n) | BigInt(get(off + i) as number);
    return intFrom(u, w);
  }

  /** Store v (type t) at a constant offset. */
  write(os: ObjectState, off: number, t: Type, v: Val): void {
    const n = this.dl.typeStoreSize(t);
    const bytes: Byte[] = new Array<Byte>(n).fill(0);
    this.toBytes(t, v, bytes, 0);
    if (t.kind === TypeKind.Struct || t.kind === TypeKind.Array) {
      // padding keeps its old contents
      const mask = paddingMask(this, t, n);
      if (mask !== null) {
        for (let i = 0; i < n; i++) if (mask[i] === 0) os.write8(off + i, bytes[i]!);
        return;
      }
    }
    for (let i = 0; i < n; i++) os.write8(off + i, bytes[i]!);
  }

  /** Load a value of type t at a constant offset. */
  read(os: ObjectState, off: number, t: Type): Val {
    return this.fromBytes(t, (i) => os.read8(i), off);
  }

  /** Store at a symbolic 32-bit offset (object-relative). */
  writeSym(os: ObjectState, off: Expr, t: Type, v: Val): void {
    const n = this.dl.typeStoreSize(t);
    os.recordSymbolicAccess(n);
    const bytes: Byte[] = new Array<Byte>(n).fill(0);
    this.toBytes(t, v, bytes, 0);
    for (let i = 0; i < n; i++) {
      const b = bytes[i]!;
      os.write8Sym(builder.add(off, constantFromBV(i, 32)), typeof b === 'number' ? constantFromBV(b, 8) : b);
    }
  }

  /** Load at a symbolic 32-bit offset. */
  readSym(os: ObjectState, off: Expr, t: Type): Val {
    os.recordSymbolicAccess(this.dl.typeStoreSize(t));
    const flat = os.bytes;
    if (this.arrayValueChoice && os.nonConcrete === 0 && flat !== null && os.size <= MAX_OPTIMIZED_SIZE) {
      return this.fromBytes(t, (i) => valueChoice(flat, builder.add(off, constantFromBV(i, 32))), 0);
    }
    return this.fromBytes(t, (i) => os.read8Sym(builder.add(off, constantFromBV(i, 32))), 0);
  }
}

/** Aggregates up to this store size keep their padding mask in MemIO.paddingMasks. */
const MAX_CACHED_MASK = 64 * 1024;

/**
 * For aggregates: which of the n bytes are padding (not written by a store of the type), or
 * null when none is. Global initialisers store every aggregate, and an array of scalars (most
 * of them) has no padding: the answer is kept per type rather than found byte by byte again.
 */
function paddingMask(io: MemIO, t: Type, n: number): Uint8Array | null {
  const cached = io.paddingMasks.get(t);
  if (cached !== undefined) return cached;
  const mask = computePadding(io, t, n);
  if (n <= MAX_CACHED_MASK) io.paddingMasks.set(t, mask);
  return mask;
}

/** Padding bytes (1) of t within its n bytes, or null: every byte a scalar of t covers is 0. */
function computePadding(io: MemIO, t: Type, n: number): Uint8Array | null {
  if (t.kind !== TypeKind.Struct && t.kind !== TypeKind.Array) return null;
  const mask = new Uint8Array(n).fill(1);
  // each element covers its store size at its offset, minus its own padding
  const cover = (ty: Type, off: number): void => {
    const size = io.dl.typeStoreSize(ty);
    const inner = paddingMask(io, ty, size);
    for (let i = 0; i < size && off + i < n; i++) if (inner === null || inner[i] === 0) mask[off + i] = 0;
  };
  if (t.kind === TypeKind.Struct) {
    const st = t as StructType;
    const l = io.dl.structLayout(st);
    st.elements.forEach((e, i) => cover(e, l.offsets[i]!));
  } else {
    const at = t as ArrayType;
    const stride = io.dl.typeAllocSize(at.element);
    const elementSize = io.dl.typeStoreSize(at.element);
    // elements without padding, back to back: nothing to find byte by byte
    if (stride === elementSize && at.length * stride >= n && paddingMask(io, at.element, elementSize) === null) return null;
    for (let i = 0; i < at.length && i * stride < n; i++) cover(at.element, i * stride);
  }
  return mask.includes(1) ? mask : null;
}

/** Elements of eb bits (eb not a multiple of 8) packed into one integer, element 0 lowest. */
function packBits(vals: readonly Val[], eb: number): Scalar {
  const w = eb * vals.length;
  if (vals.some((v) => typeof v === 'object')) {
    let e: Expr | null = null;
    for (let i = vals.length - 1; i >= 0; i--) {
      const x = toExpr(vals[i] as Scalar, eb);
      e = e === null ? x : builder.concat(e, x);
    }
    return fromExpr(e!);
  }
  let u = 0n;
  for (let i = vals.length - 1; i >= 0; i--) u = (u << BigInt(eb)) | toUBig(vals[i] as number | bigint, eb);
  return intFrom(u, w);
}

function unpackBits(v: Scalar, eb: number, count: number): Val[] {
  const out: Val[] = [];
  if (typeof v === 'object') {
    for (let i = 0; i < count; i++) out.push(fromExpr(builder.extract(v, i * eb, eb)));
    return out;
  }
  let u = toUBig(v, eb * count);
  for (let i = 0; i < count; i++) {
    out.push(intFrom(u & ((1n << BigInt(eb)) - 1n), eb));
    u >>= BigInt(eb);
  }
  return out;
}
