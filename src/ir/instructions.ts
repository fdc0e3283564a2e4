import { Value, ValueKind } from './value.js';
import { AttributeList } from './attributes.js';
import { Opcode, AtomicOrdering, SYNC_SCOPE_SYSTEM, TailKind, RMWOp } from './opcodes.js';
import type { Type, FunctionType } from './types.js';
import type { BasicBlock, MDAttachment } from './globals.js';
import type { DILocation, Metadata } from './metadata.js';
import type { ConstantInt } from './constants.js';

/**
 * An instruction. Every Value operand lives in `ops` (so forward references can be patched
 * in one place); basic-block operands live in the subclass (`successors`, phi `blocks`, …).
 * Subclasses give names to operand positions.
 */
export abstract class Instruction extends Value {
  readonly vkind = ValueKind.Instruction;
  abstract readonly opcode: Opcode;
  /** The block this instruction belongs to (set by the reader). */
  parent!: BasicBlock;
  debugLoc: DILocation | null = null;
  /** Metadata attachments other than !dbg. */
  attachments: MDAttachment[] | null = null;
  /** LLVM 19+ debug records (#dbg_value, #dbg_declare, …) placed before this instruction. */
  debugRecords: DebugRecord[] | null = null;
  constructor(
    type: Type,
    public ops: Value[],
  ) {
    super(type);
  }
}

export enum DebugRecordKind {
  Value,
  Declare,
  Assign,
  Label,
}

/** A non-instruction debug record (LLVM 19 format); location/variable/expression are metadata. */
export interface DebugRecord {
  kind: DebugRecordKind;
  location: Metadata | null;
  variable: Metadata | null;
  expression: Metadata | null;
  debugLoc: Metadata | null;
  /** For #dbg_assign: the DIAssignID, address and address expression. */
  assignId?: Metadata | null;
  address?: Metadata | null;
  addressExpression?: Metadata | null;
  /** For #dbg_label: the DILabel. */
  label?: Metadata | null;
}

// ---------------------------------------------------------------- terminators

export class ReturnInst extends Instruction {
  readonly opcode = Opcode.Ret;
  /** The returned value, or undefined for `ret void`. */
  get value(): Value | undefined {
    return this.ops[0];
  }
}

/** `br label %d` (no condition, one successor) or `br i1 %c, label %t, label %f`. */
export class BranchInst extends Instruction {
  readonly opcode = Opcode.Br;
  constructor(
    type: Type,
    ops: Value[],
    public successors: BasicBlock[],
  ) {
    super(type, ops);
  }
  get isConditional(): boolean {
    return this.ops.length === 1;
  }
  get condition(): Value {
    return this.ops[0]!;
  }
}

export interface SwitchCase {
  value: ConstantInt;
  dest: BasicBlock;
}

export class SwitchInst extends Instruction {
  readonly opcode = Opcode.Switch;
  constructor(
    type: Type,
    ops: Value[],
    public defaultDest: BasicBlock,
    public cases: SwitchCase[],
  ) {
    super(type, ops);
  }
  get condition(): Value {
    return this.ops[0]!;
  }
}

export class IndirectBrInst extends Instruction {
  readonly opcode = Opcode.IndirectBr;
  constructor(
    type: Type,
    ops: Value[],
    public destinations: BasicBlock[],
  ) {
    super(type, ops);
  }
  get address(): Value {
    return this.ops[0]!;
  }
}

export class UnreachableInst extends Instruction {
  readonly opcode = Opcode.Unreachable;
}

// ---------------------------------------------------------------- arithmetic

export class UnaryOperator extends Instruction {
  readonly opcode: Opcode;
  constructor(
    opcode: Opcode,
    type: Type,
    ops: Value[],
    public fastMath = 0,
  ) {
    super(type, ops);
    this.opcode = opcode;
  }
}

/** Integer and FP binary operators; `flags` holds Flag bits, `fastMath` FMF bits. */
export class BinaryOperator extends Instruction {
  readonly opcode: Opcode;
  constructor(
    opcode: Opcode,
    type: Type,
    ops: Value[],
    public flags = 0,
    public fastMath = 0,
  ) {
    super(type, ops);
    this.opcode = opcode;
  }
}

export class CastInst extends Instruction {
  readonly opcode: Opcode;
  constructor(
    opcode: Opcode,
    destType: Type,
    ops: Value[],
    public flags = 0,
    public fastMath = 0,
  ) {
    super(destType, ops);
    this.opcode = opcode;
  }
}

export class CmpInst extends Instruction {
  readonly opcode: Opcode.ICmp | Opcode.FCmp;
  constructor(
    opcode: Opcode.ICmp | Opcode.FCmp,
    type: Type,
    ops: Value[],
    public predicate: number,
    public flags = 0,
    public fastMath = 0,
  ) {
    super(type, ops);
    this.opcode = opcode;
  }
}

export class SelectInst extends Instruction {
  readonly opcode = Opcode.Select;
  fastMath = 0;
}

export class FreezeInst extends Instruction {
  readonly opcode = Opcode.Freeze;
}

export class PhiInst extends Instruction {
  readonly opcode = Opcode.Phi;
  fastMath = 0;
  constructor(
    type: Type,
    ops: Value[],
    /** blocks[i] is the predecessor from which ops[i] flows. */
    public blocks: BasicBlock[],
  ) {
    super(type, ops);
  }
}

// ---------------------------------------------------------------- memory

export class AllocaInst extends Instruction {
  readonly opcode = Opcode.Alloca;
  constructor(
    type: Type,
    ops: Value[],
    public allocatedType: Type,
    public align: number,
    public inAlloca = false,
    public swiftError = false,
  ) {
    super(type, ops);
  }
  get arraySize(): Value {
    return this.ops[0]!;
  }
}

export class LoadInst extends Instruction {
  readonly opcode = Opcode.Load;
  constructor(
    type: Type,
    ops: Value[],
    public align: number,
    public isVolatile = false,
    public ordering = AtomicOrdering.NotAtomic,
    public syncScope = SYNC_SCOPE_SYSTEM,
  ) {
    super(type, ops);
  }
  get pointer(): Value {
    return this.ops[0]!;
  }
}

export class StoreInst extends Instruction {
  readonly opcode = Opcode.Store;
  constructor(
    type: Type,
    ops: Value[],
    public align: number,
    public isVolatile = false,
    public ordering = AtomicOrdering.NotAtomic,
    public syncScope = SYNC_SCOPE_SYSTEM,
  ) {
    super(type, ops);
  }
  get value(): Value {
    return this.ops[0]!;
  }
  get pointer(): Value {
    return this.ops[1]!;
  }
}

export class GetElementPtrInst extends Instruction {
  readonly opcode = Opcode.GetElementPtr;
  constructor(
    type: Type,
    ops: Value[],
    public sourceElementType: Type,
    /** Flag.InBounds | Flag.GEPNUSW | Flag.GEPNUW */
    public flags = 0,
  ) {
    super(type, ops);
  }
  get pointer(): Value {
    return this.ops[0]!;
  }
}

export class FenceInst extends Instruction {
  readonly opcode = Opcode.Fence;
  constructor(
    type: Type,
    public ordering: AtomicOrdering,
    public syncScope = SYNC_SCOPE_SYSTEM,
  ) {
    super(type, []);
  }
}

export class AtomicCmpXchgInst extends Instruction {
  readonly opcode = Opcode.AtomicCmpXchg;
  constructor(
    type: Type,
    /** [pointer, expected, new] */
    ops: Value[],
    public successOrdering: AtomicOrdering,
    public failureOrdering: AtomicOrdering,
    public syncScope: number,
    public isVolatile: boolean,
    public weak: boolean,
    public align: number,
  ) {
    super(type, ops);
  }
}

export class AtomicRMWInst extends Instruction {
  readonly opcode = Opcode.AtomicRMW;
  constructor(
    type: Type,
    /** [pointer, value] */
    ops: Value[],
    public operation: RMWOp,
    public ordering: AtomicOrdering,
    public syncScope: number,
    public isVolatile: boolean,
    public align: number,
  ) {
    super(type, ops);
  }
}

// ---------------------------------------------------------------- calls

export interface OperandBundle {
  tag: string;
  inputs: Value[];
}

/** `call`; ops = [...args, callee]. */
export class CallInst extends Instruction {
  readonly opcode = Opcode.Call;
  tailKind = TailKind.None;
  callingConv = 0;
  attributes: AttributeList = AttributeList.EMPTY;
  fastMath = 0;
  bundles: OperandBundle[] | null = null;
  constructor(
    type: Type,
    ops: Value[],
    public functionType: FunctionType,
  ) {
    super(type, ops);
  }
  get callee(): Value {
    return this.ops[this.ops.length - 1]!;
  }
  get argCount(): number {
    return this.ops.length - 1;
  }
  arg(i: number): Value {
    return this.ops[i]!;
  }
}

/** `callbr` (asm goto); ops = [...args, callee]. */
export class CallBrInst extends Instruction {
  readonly opcode = Opcode.CallBr;
  callingConv = 0;
  attributes: AttributeList = AttributeList.EMPTY;
  bundles: OperandBundle[] | null = null;
  constructor(
    type: Type,
    ops: Value[],
    public functionType: FunctionType,
    public defaultDest: BasicBlock,
    public indirectDests: BasicBlock[],
  ) {
    super(type, ops);
  }
  get callee(): Value {
    return this.ops[this.ops.length - 1]!;
  }
}

export class VAArgInst extends Instruction {
  readonly opcode = Opcode.VAArg;
}

// ---------------------------------------------------------------- aggregates and vectors

export class ExtractValueInst extends Instruction {
  readonly opcode = Opcode.ExtractValue;
  constructor(
    type: Type,
    ops: Value[],
    public indices: number[],
  ) {
    super(type, ops);
  }
}

export class InsertValueInst extends Instruction {
  readonly opcode = Opcode.InsertValue;
  constructor(
    type: Type,
    ops: Value[],
    public indices: number[],
  ) {
    super(type, ops);
  }
}

export class ExtractElementInst extends Instruction {
  readonly opcode = Opcode.ExtractElement;
}

export class InsertElementInst extends Instruction {
  readonly opcode = Opcode.InsertElement;
}

/** ops = [v1, v2]; mask[i] = -1 for a poison/undef lane. */
export class ShuffleVectorInst extends Instruction {
  readonly opcode = Opcode.ShuffleVector;
  constructor(
    type: Type,
    ops: Value[],
    public mask: number[],
  ) {
    super(type, ops);
  }
}

/** Successor blocks of a terminator, in LLVM's order. */
export function successors(inst: Instruction): BasicBlock[] {
  switch (inst.opcode) {
    case Opcode.Br:
      return (inst as BranchInst).successors;
    case Opcode.Switch: {
      const s = inst as SwitchInst;
      return [s.defaultDest, ...s.cases.map((c) => c.dest)];
    }
    case Opcode.IndirectBr:
      return (inst as IndirectBrInst).destinations;
    case Opcode.CallBr: {
      const c = inst as CallBrInst;
      return [c.defaultDest, ...c.indirectDests];
    }
    default:
      return [];
  }
}
