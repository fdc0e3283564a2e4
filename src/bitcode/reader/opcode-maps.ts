/**
 * Bitcode encodings of opcodes, flags, orderings and fast-math flags, mapped to tsklee's IR
 * numbering. Shared by the instruction decoder and the constant-expression decoder.
 */
import { AtomicOrdering, FMF, Flag, Opcode, RMWOp } from '../../ir/opcodes.js';

const INT_BINOPS: readonly Opcode[] = [
  Opcode.Add,
  Opcode.Sub,
  Opcode.Mul,
  Opcode.UDiv,
  Opcode.SDiv,
  Opcode.URem,
  Opcode.SRem,
  Opcode.Shl,
  Opcode.LShr,
  Opcode.AShr,
  Opcode.And,
  Opcode.Or,
  Opcode.Xor,
];

// -1: the operation has no floating-point form.
const FP_BINOPS: readonly (Opcode | -1)[] = [Opcode.FAdd, Opcode.FSub, Opcode.FMul, -1, Opcode.FDiv, -1, Opcode.FRem, -1, -1, -1, -1, -1, -1];

/** BINOP code → opcode; the FP form when the operands are floating point. -1 if invalid. */
export function decodeBinopCode(code: number, isFP: boolean): Opcode | -1 {
  if (!(code >= 0 && code < INT_BINOPS.length)) return -1;
  return isFP ? FP_BINOPS[code]! : INT_BINOPS[code]!;
}

/** UNOP code → opcode (only fneg exists, and only for FP operands). -1 if invalid. */
export function decodeUnopCode(code: number, isFP: boolean): Opcode | -1 {
  return code === 0 && isFP ? Opcode.FNeg : -1;
}

const CASTS: readonly Opcode[] = [
  Opcode.Trunc,
  Opcode.ZExt,
  Opcode.SExt,
  Opcode.FPToUI,
  Opcode.FPToSI,
  Opcode.UIToFP,
  Opcode.SIToFP,
  Opcode.FPTrunc,
  Opcode.FPExt,
  Opcode.PtrToInt,
  Opcode.IntToPtr,
  Opcode.BitCast,
  Opcode.AddrSpaceCast,
];

/** CAST code → opcode, -1 if invalid. */
export function decodeCastCode(code: number): Opcode | -1 {
  return code >= 0 && code < CASTS.length ? CASTS[code]! : -1;
}

/**
 * The optional flags word of an integer binary operator → Flag bits: nuw (bit 0) / nsw (bit 1)
 * on add/sub/mul/shl, exact (bit 0) on divisions and right shifts, disjoint (bit 0) on or.
 */
export function decodeBinopFlags(op: Opcode, raw: number): number {
  switch (op) {
    case Opcode.Add:
    case Opcode.Sub:
    case Opcode.Mul:
    case Opcode.Shl:
      return (raw & 1 ? Flag.NUW : 0) | (raw & 2 ? Flag.NSW : 0);
    case Opcode.UDiv:
    case Opcode.SDiv:
    case Opcode.LShr:
    case Opcode.AShr:
      return raw & 1 ? Flag.Exact : 0;
    case Opcode.Or:
      return raw & 1 ? Flag.Disjoint : 0;
    default:
      return 0;
  }
}

/** The optional flags word of a cast → Flag bits: nneg on zext/uitofp, nuw/nsw on trunc. */
export function decodeCastFlags(op: Opcode, raw: number): number {
  switch (op) {
    case Opcode.ZExt:
    case Opcode.UIToFP:
      return raw & 1 ? Flag.NonNeg : 0;
    case Opcode.Trunc:
      return (raw & 1 ? Flag.NUW : 0) | (raw & 2 ? Flag.NSW : 0);
    default:
      return 0;
  }
}

/** Fast-math flags carried by a cast's flags word (uitofp shares it with nneg in bit 0). */
export function decodeCastFastMath(op: Opcode, raw: number): number {
  switch (op) {
    case Opcode.FPTrunc:
    case Opcode.FPExt:
    case Opcode.SIToFP:
      return decodeFastMath(raw);
    case Opcode.UIToFP:
      return decodeFastMath(Math.floor(raw / 2));
    default:
      return 0;
  }
}

/** GEP flags word: bit 0 inbounds (which implies nusw), bit 1 nusw, bit 2 nuw. */
export function decodeGEPFlags(raw: number): number {
  return (raw & 1 ? Flag.InBounds | Flag.GEPNUSW : 0) | (raw & 2 ? Flag.GEPNUSW : 0) | (raw & 4 ? Flag.GEPNUW : 0);
}

const FMF_ALL = FMF.AllowReassoc | FMF.NoNaNs | FMF.NoInfs | FMF.NoSignedZeros | FMF.AllowReciprocal | FMF.AllowContract | FMF.ApproxFunc;

/**
 * Bitcode fast-math word → FMF bits. Bits 1..6 (nnan, ninf, nsz, arcp, contract, afn) line up
 * with the in-memory bits; bit 7 is reassoc and bit 0 the legacy "unsafe algebra" (= fast).
 */
export function decodeFastMath(raw: number): number {
  if (raw & 1) return FMF_ALL;
  return (raw & 0x7e) | (raw & 0x80 ? FMF.AllowReassoc : 0);
}

const ORDERINGS: readonly AtomicOrdering[] = [
  AtomicOrdering.NotAtomic,
  AtomicOrdering.Unordered,
  AtomicOrdering.Monotonic,
  AtomicOrdering.Acquire,
  AtomicOrdering.Release,
  AtomicOrdering.AcquireRelease,
  AtomicOrdering.SequentiallyConsistent,
];

/** Bitcode ordering (0 notatomic … 6 seq_cst) → AtomicOrdering; unknown values mean seq_cst, as in LLVM. */
export function decodeOrdering(raw: number): AtomicOrdering {
  return raw >= 0 && raw < ORDERINGS.length ? ORDERINGS[raw]! : AtomicOrdering.SequentiallyConsistent;
}

/** Bitcode atomicrmw operation → RMWOp (the numbering is the same); -1 if unknown. */
export function decodeRMWOp(raw: number): RMWOp | -1 {
  return raw >= 0 && raw <= RMWOp.USubSat ? (raw as RMWOp) : -1;
}
