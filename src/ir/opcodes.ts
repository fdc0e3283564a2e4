/** Instruction opcodes (tsklee's own numbering; names print as LLVM's mnemonics). */
export enum Opcode {
  // terminators
  Ret,
  Br,
  Switch,
  IndirectBr,
  Unreachable,
  CallBr,
  // unary
  FNeg,
  // binary
  Add,
  FAdd,
  Sub,
  FSub,
  Mul,
  FMul,
  UDiv,
  SDiv,
  FDiv,
  URem,
  SRem,
  FRem,
  Shl,
  LShr,
  AShr,
  And,
  Or,
  Xor,
  // memory
  Alloca,
  Load,
  Store,
  GetElementPtr,
  Fence,
  AtomicCmpXchg,
  AtomicRMW,
  // casts
  Trunc,
  ZExt,
  SExt,
  FPToUI,
  FPToSI,
  UIToFP,
  SIToFP,
  FPTrunc,
  FPExt,
  PtrToInt,
  IntToPtr,
  BitCast,
  AddrSpaceCast,
  // other
  ICmp,
  FCmp,
  Phi,
  Call,
  Select,
  VAArg,
  ExtractElement,
  InsertElement,
  ShuffleVector,
  ExtractValue,
  InsertValue,
  Freeze,
}

export const OPCODE_NAMES: Record<Opcode, string> = {
  [Opcode.Ret]: 'ret',
  [Opcode.Br]: 'br',
  [Opcode.Switch]: 'switch',
  [Opcode.IndirectBr]: 'indirectbr',
  [Opcode.Unreachable]: 'unreachable',
  [Opcode.CallBr]: 'callbr',
  [Opcode.FNeg]: 'fneg',
  [Opcode.Add]: 'add',
  [Opcode.FAdd]: 'fadd',
  [Opcode.Sub]: 'sub',
  [Opcode.FSub]: 'fsub',
  [Opcode.Mul]: 'mul',
  [Opcode.FMul]: 'fmul',
  [Opcode.UDiv]: 'udiv',
  [Opcode.SDiv]: 'sdiv',
  [Opcode.FDiv]: 'fdiv',
  [Opcode.URem]: 'urem',
  [Opcode.SRem]: 'srem',
  [Opcode.FRem]: 'frem',
  [Opcode.Shl]: 'shl',
  [Opcode.LShr]: 'lshr',
  [Opcode.AShr]: 'ashr',
  [Opcode.And]: 'and',
  [Opcode.Or]: 'or',
  [Opcode.Xor]: 'xor',
  [Opcode.Alloca]: 'alloca',
  [Opcode.Load]: 'load',
  [Opcode.Store]: 'store',
  [Opcode.GetElementPtr]: 'getelementptr',
  [Opcode.Fence]: 'fence',
  [Opcode.AtomicCmpXchg]: 'cmpxchg',
  [Opcode.AtomicRMW]: 'atomicrmw',
  [Opcode.Trunc]: 'trunc',
  [Opcode.ZExt]: 'zext',
  [Opcode.SExt]: 'sext',
  [Opcode.FPToUI]: 'fptoui',
  [Opcode.FPToSI]: 'fptosi',
  [Opcode.UIToFP]: 'uitofp',
  [Opcode.SIToFP]: 'sitofp',
  [Opcode.FPTrunc]: 'fptrunc',
  [Opcode.FPExt]: 'fpext',
  [Opcode.PtrToInt]: 'ptrtoint',
  [Opcode.IntToPtr]: 'inttoptr',
  [Opcode.BitCast]: 'bitcast',
  [Opcode.AddrSpaceCast]: 'addrspacecast',
  [Opcode.ICmp]: 'icmp',
  [Opcode.FCmp]: 'fcmp',
  [Opcode.Phi]: 'phi',
  [Opcode.Call]: 'call',
  [Opcode.Select]: 'select',
  [Opcode.VAArg]: 'va_arg',
  [Opcode.ExtractElement]: 'extractelement',
  [Opcode.InsertElement]: 'insertelement',
  [Opcode.ShuffleVector]: 'shufflevector',
  [Opcode.ExtractValue]: 'extractvalue',
  [Opcode.InsertValue]: 'insertvalue',
  [Opcode.Freeze]: 'freeze',
};

export function isBinaryOpcode(op: Opcode): boolean {
  return op >= Opcode.Add && op <= Opcode.Xor;
}
export function isCastOpcode(op: Opcode): boolean {
  return op >= Opcode.Trunc && op <= Opcode.AddrSpaceCast;
}
export function isTerminatorOpcode(op: Opcode): boolean {
  return op <= Opcode.CallBr;
}

/** Wrap/exact flags as stored on instructions and constant expressions (tsklee's bits). */
export const enum Flag {
  NUW = 1,
  NSW = 2,
  Exact = 4,
  /** `or disjoint` (LLVM 18+). */
  Disjoint = 8,
  /** `zext nneg` / `uitofp nneg` (LLVM 18+). */
  NonNeg = 16,
  /** GEP flags. */
  InBounds = 32,
  GEPNUSW = 64,
  GEPNUW = 128,
  /** `icmp samesign` (LLVM 20+). */
  SameSign = 256,
}

/** Comparison predicates, numbered as LLVM numbers them (which the bitcode uses too). */
export enum Predicate {
  FCMP_FALSE = 0,
  FCMP_OEQ = 1,
  FCMP_OGT = 2,
  FCMP_OGE = 3,
  FCMP_OLT = 4,
  FCMP_OLE = 5,
  FCMP_ONE = 6,
  FCMP_ORD = 7,
  FCMP_UNO = 8,
  FCMP_UEQ = 9,
  FCMP_UGT = 10,
  FCMP_UGE = 11,
  FCMP_ULT = 12,
  FCMP_ULE = 13,
  FCMP_UNE = 14,
  FCMP_TRUE = 15,
  ICMP_EQ = 32,
  ICMP_NE = 33,
  ICMP_UGT = 34,
  ICMP_UGE = 35,
  ICMP_ULT = 36,
  ICMP_ULE = 37,
  ICMP_SGT = 38,
  ICMP_SGE = 39,
  ICMP_SLT = 40,
  ICMP_SLE = 41,
}

const PREDICATE_NAMES: Record<number, string> = {
  0: 'false',
  1: 'oeq',
  2: 'ogt',
  3: 'oge',
  4: 'olt',
  5: 'ole',
  6: 'one',
  7: 'ord',
  8: 'uno',
  9: 'ueq',
  10: 'ugt',
  11: 'uge',
  12: 'ult',
  13: 'ule',
  14: 'une',
  15: 'true',
  32: 'eq',
  33: 'ne',
  34: 'ugt',
  35: 'uge',
  36: 'ult',
  37: 'ule',
  38: 'sgt',
  39: 'sge',
  40: 'slt',
  41: 'sle',
};

export function predicateName(p: number): string {
  return PREDICATE_NAMES[p] ?? `pred${p}`;
}

/** Atomic orderings, numbered as LLVM's in-memory AtomicOrdering. */
export enum AtomicOrdering {
  NotAtomic = 0,
  Unordered = 1,
  Monotonic = 2,
  Acquire = 4,
  Release = 5,
  AcquireRelease = 6,
  SequentiallyConsistent = 7,
}

export const ORDERING_NAMES: Record<number, string> = {
  0: '',
  1: 'unordered',
  2: 'monotonic',
  4: 'acquire',
  5: 'release',
  6: 'acq_rel',
  7: 'seq_cst',
};

export enum RMWOp {
  Xchg,
  Add,
  Sub,
  And,
  Nand,
  Or,
  Xor,
  Max,
  Min,
  UMax,
  UMin,
  FAdd,
  FSub,
  FMax,
  FMin,
  UIncWrap,
  UDecWrap,
  USubCond,
  USubSat,
}

export const RMW_NAMES: Record<RMWOp, string> = {
  [RMWOp.Xchg]: 'xchg',
  [RMWOp.Add]: 'add',
  [RMWOp.Sub]: 'sub',
  [RMWOp.And]: 'and',
  [RMWOp.Nand]: 'nand',
  [RMWOp.Or]: 'or',
  [RMWOp.Xor]: 'xor',
  [RMWOp.Max]: 'max',
  [RMWOp.Min]: 'min',
  [RMWOp.UMax]: 'umax',
  [RMWOp.UMin]: 'umin',
  [RMWOp.FAdd]: 'fadd',
  [RMWOp.FSub]: 'fsub',
  [RMWOp.FMax]: 'fmax',
  [RMWOp.FMin]: 'fmin',
  [RMWOp.UIncWrap]: 'uinc_wrap',
  [RMWOp.UDecWrap]: 'udec_wrap',
  [RMWOp.USubCond]: 'usub_cond',
  [RMWOp.USubSat]: 'usub_sat',
};

/** Fast-math flags, with LLVM's in-memory bit meanings. */
export const enum FMF {
  AllowReassoc = 1,
  NoNaNs = 2,
  NoInfs = 4,
  NoSignedZeros = 8,
  AllowReciprocal = 16,
  AllowContract = 32,
  ApproxFunc = 64,
}

/** Sync scopes: LLVM's two built-in ones; others are named in the module's sync-scope table. */
export const SYNC_SCOPE_SINGLE_THREAD = 0;
export const SYNC_SCOPE_SYSTEM = 1;

export enum TailKind {
  None,
  Tail,
  MustTail,
  NoTail,
}
