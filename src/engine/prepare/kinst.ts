/**
 * The prepared form of a module (KLEE's KModule / KFunction / KInstruction): what the
 * interpreter's hot loop reads instead of the IR.
 *
 * Each function gets a flat register file: [constants…, arguments…, instruction results…].
 * A frame's registers start as a copy of the function's `template`, which already holds every
 * constant operand evaluated (global and function addresses are known before preparation),
 * so every operand is a register index and the loop never looks anything up by name.
 */
import type { Function, Instruction, Type, Value } from '../../ir/index.js';
import type { Val } from '../values.js';
import type { ExecutionState } from '../state.js';
import type { Executor } from '../executor.js';

/** Dispatch codes. Integer ops on widths ≤ 32 have their own codes (numbers, no bigint). */
export enum Op {
  Nop,
  Ret,
  Br,
  CondBr,
  Switch,
  IndirectBr,
  Unreachable,
  // integer arithmetic on widths ≤ 32 (w = width, mask in imm)
  Add32,
  Sub32,
  Mul32,
  And32,
  Or32,
  Xor32,
  Shl32,
  LShr32,
  AShr32,
  UDiv32,
  SDiv32,
  URem32,
  SRem32,
  // integer arithmetic on widths > 32 (aux: the ExprKind)
  Add64,
  Sub64,
  IntBinWide,
  ICmp32,
  ICmpWide,
  FBin,
  FNeg,
  FCmp,
  Trunc,
  ZExt,
  SExt,
  FPToUI,
  FPToSI,
  UIToFP,
  SIToFP,
  FPTrunc,
  FPExt,
  BitCast,
  /** The value unchanged (ptrtoint/inttoptr to i64, addrspacecast, freeze). */
  Copy,
  /** ptrtoint/inttoptr between different widths. */
  IntResize,
  Alloca,
  Load,
  Store,
  GEP,
  CmpXchg,
  AtomicRMW,
  Select,
  CallDirect,
  CallSpecial,
  CallExternal,
  CallIndirect,
  CallAsm,
  VAArg,
  ExtractElement,
  InsertElement,
  ShuffleVector,
  ExtractValue,
  InsertValue,
  /** Element-wise operation on vectors (aux: the scalar IR opcode). */
  VecOp,
  /** Not supported: executing it ends the state with an exec error (aux: the message). */
  Unsupported,
  /**
   * An instruction that may see or make poison from an over-wide shift (prepare/poison.ts):
   * aux is its PoisonInfo, whose `inner` is the instruction as prepared (exec-poison.ts).
   */
  Poison,
  /** A load always taken through the general path (--make-concrete-symbolic rewrites Load to it). */
  LoadSlow,
  /** A conditional branch always taken through the general path (--write-paths, --replay-path). */
  CondBrSlow,
}

/** A special function or intrinsic implemented by the engine. */
export type SpecialHandler = (ex: Executor, st: ExecutionState, ki: KInst, args: Val[]) => void;

/** A control-flow edge: where execution resumes, and the phi copies it implies. */
export class Edge {
  /** The phis of the edge (counted as executed instructions); phiDst may hold more copies after them (poison shadows, prepare/poison.ts). */
  readonly phiCount: number;

  constructor(
    /** Index in the function's instructions of the first non-phi instruction of the target. */
    readonly pc: number,
    /** Phi destinations and their sources for this edge (parallel copy). */
    public phiDst: Int32Array,
    public phiSrc: Int32Array,
    /** Index of the target block (coverage, messages). */
    readonly block: number,
    /** Number of the edge in its module (KModule.edgeCount): the index of its count in Executor.edgeTaken. */
    readonly id: number,
  ) {
    this.phiCount = phiDst.length;
  }
}

export class KInst {
  op: Op = Op.Nop;
  /** Result register, or -1. */
  dest = -1;
  a = -1;
  b = -1;
  c = -1;
  /** Main width: the integer width of the operation, or bytes accessed by a load/store. */
  w = 0;
  /** Secondary width (the source width of a cast, …). */
  w2 = 0;
  /** An immediate: a mask, a predicate, a constant GEP offset, … */
  imm = 0;
  /** Argument / index registers (calls, GEP indices). */
  args: Int32Array | null = null;
  /** Op-specific payload. */
  aux: unknown = null;
  /** Source location (file '' when unknown). */
  file = '';
  line = 0;
  /** Global instruction number (coverage). */
  gid = 0;
  /** An over-wide shift here yields poison, reported where it is observed (prepare/poison.ts), instead of an error at once. */
  poisonShift = false;

  constructor(
    readonly inst: Instruction,
    readonly kf: KFunction,
    /** Position in kf.insts. */
    readonly index: number,
  ) {}

  get type(): Type {
    return this.inst.type;
  }
}

export class KFunction {
  /** Prepared instructions in block order, phis excluded (they run on the edges). */
  insts: KInst[] = [];
  /** Registers of the frame, and their initial values (constants filled in). */
  numRegs = 0;
  template: Val[] = [];
  /** Register of argument 0 (the others follow). */
  argBase = 0;
  /** pc of the first instruction. */
  entryPc = 0;
  /** The first pc of each block (by block index). */
  blockPc: number[] = [];
  /** Phi instructions per block index (for instruction counting on edges). */
  blockPhis: number[] = [];
  /** Address of the function (function pointers). */
  address = 0;
  /** The type of each register (null for constants, which never differ between states). */
  regTypes: (Type | null)[] = [];
  /** Per parameter, the type of a byval parameter (the callee gets a copy), or null if none has one. */
  byval: (Type | null)[] | null = null;
  /** The register of every argument and instruction result (phis included); static analyses read it. */
  slots: Map<Value, number> = new Map();

  /** The same map, read-only (state merging's analyses). */
  get regOf(): ReadonlyMap<Value, number> {
    return this.slots;
  }

  constructor(readonly fn: Function) {}

  get name(): string {
    return this.fn.name;
  }

  get isDeclaration(): boolean {
    return this.fn.isDeclaration;
  }
}

/** What a call instruction's callee resolves to. */
export interface CallTarget {
  name: string;
  kf: KFunction | null;
  handler: SpecialHandler | null;
}
