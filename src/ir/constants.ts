import { Value, ValueKind } from './value.js';
import type { Type, FunctionType } from './types.js';
import type { Opcode } from './opcodes.js';
import type { BasicBlock, Function, GlobalValue } from './globals.js';

/** Base of every constant, including global values. */
export abstract class Constant extends Value {}

/** An integer constant; `value` is the unsigned bit pattern in [0, 2^bits). */
export class ConstantInt extends Constant {
  readonly vkind = ValueKind.ConstantInt;
  constructor(
    type: Type,
    readonly value: bigint,
  ) {
    super(type);
  }
  /** Bit width of the integer (or of the vector element for splats). */
  get bits(): number {
    return (this.type.scalarType() as unknown as { bits: number }).bits;
  }
  /** The value read as a two's-complement signed integer. */
  get signedValue(): bigint {
    return BigInt.asIntN(this.bits, this.value);
  }
}

/** A floating-point constant as its raw IEEE (or x87 80-bit) bit pattern. */
export class ConstantFP extends Constant {
  readonly vkind = ValueKind.ConstantFP;
  constructor(
    type: Type,
    readonly bits: bigint,
  ) {
    super(type);
  }
}

export class ConstantPointerNull extends Constant {
  readonly vkind = ValueKind.ConstantPointerNull;
}

export class ConstantAggregateZero extends Constant {
  readonly vkind = ValueKind.ConstantAggregateZero;
}

export class UndefValue extends Constant {
  readonly vkind = ValueKind.Undef;
}

export class PoisonValue extends Constant {
  readonly vkind = ValueKind.Poison;
}

export class ConstantTokenNone extends Constant {
  readonly vkind = ValueKind.ConstantTokenNone;
}

export class ConstantTargetNone extends Constant {
  readonly vkind = ValueKind.ConstantTargetNone;
}

export class ConstantArray extends Constant {
  readonly vkind = ValueKind.ConstantArray;
  constructor(
    type: Type,
    public elements: Value[],
  ) {
    super(type);
  }
}

export class ConstantStruct extends Constant {
  readonly vkind = ValueKind.ConstantStruct;
  constructor(
    type: Type,
    public elements: Value[],
  ) {
    super(type);
  }
}

export class ConstantVector extends Constant {
  readonly vkind = ValueKind.ConstantVector;
  constructor(
    type: Type,
    public elements: Value[],
  ) {
    super(type);
  }
}

/**
 * An array or vector of simple elements (integers or floats) stored compactly: `elements`
 * holds each element's raw bit pattern (unsigned). `isString` records that it came from a
 * STRING/CSTRING record, which matters only for printing.
 */
export class ConstantData extends Constant {
  readonly vkind = ValueKind.ConstantData;
  constructor(
    type: Type,
    readonly elements: readonly bigint[],
  ) {
    super(type);
  }
}

/** GEP source-element type and flags for constant GEP expressions. */
export interface ConstantGEPInfo {
  sourceElementType: Type;
  /** Index of the operand with an inrange marker (LLVM ≤ 18), or -1. */
  inRangeIndex: number;
  /** inrange(lo, hi) bounds (LLVM 19+), when present. */
  inRange?: [bigint, bigint];
}

/** A constant expression: an instruction opcode applied to constants. */
export class ConstantExpr extends Constant {
  readonly vkind = ValueKind.ConstantExpr;
  constructor(
    type: Type,
    readonly opcode: Opcode,
    public ops: Value[],
    /** Wrap/exact/inbounds flags, with the same bit meaning as on the instruction. */
    readonly flags = 0,
    /** Comparison predicate for icmp/fcmp expressions. */
    readonly predicate = 0,
    readonly gep?: ConstantGEPInfo,
  ) {
    super(type);
  }
}

export class BlockAddress extends Constant {
  readonly vkind = ValueKind.BlockAddress;
  constructor(
    type: Type,
    public fn: Function,
    /** Resolved after the function body is decoded; `blockIndex` is the index in the body. */
    public block: BasicBlock | null,
    readonly blockIndex: number,
  ) {
    super(type);
  }
}

export class DSOLocalEquivalent extends Constant {
  readonly vkind = ValueKind.DSOLocalEquivalent;
  constructor(
    type: Type,
    public global: GlobalValue,
  ) {
    super(type);
  }
}

export class NoCFIValue extends Constant {
  readonly vkind = ValueKind.NoCFIValue;
  constructor(
    type: Type,
    public global: GlobalValue,
  ) {
    super(type);
  }
}

export enum AsmDialect {
  ATT = 0,
  Intel = 1,
}

/** Inline assembly used as a callee. tsklee records it; the engine decides what it can do. */
export class InlineAsm extends Value {
  readonly vkind = ValueKind.InlineAsm;
  constructor(
    type: Type,
    readonly fnType: FunctionType,
    readonly asm: string,
    readonly constraints: string,
    readonly sideEffects: boolean,
    readonly alignStack: boolean,
    readonly dialect: AsmDialect,
    readonly canThrow: boolean,
  ) {
    super(type);
  }
}
