import type { Type } from './types.js';

/** Discriminates every kind of Value; switch on `vkind` rather than using instanceof on hot paths. */
export enum ValueKind {
  Argument,
  BasicBlock,
  Instruction,
  // global values
  Function,
  GlobalVariable,
  GlobalAlias,
  GlobalIFunc,
  // constants
  ConstantInt,
  ConstantFP,
  ConstantPointerNull,
  ConstantAggregateZero,
  Undef,
  Poison,
  ConstantArray,
  ConstantStruct,
  ConstantVector,
  ConstantData,
  ConstantExpr,
  BlockAddress,
  DSOLocalEquivalent,
  NoCFIValue,
  ConstantTokenNone,
  ConstantTargetNone,
  // other
  InlineAsm,
  MetadataAsValue,
  /** A reference to a value not decoded yet; never survives decoding. */
  ForwardRef,
}

let nextValueId = 1;

export abstract class Value {
  abstract readonly vkind: ValueKind;
  /** Unique per value object; usable as a cache key. */
  readonly valueId = nextValueId++;
  /** The name without sigil ('' when unnamed). */
  name = '';
  constructor(public type: Type) {}

  isConstant(): boolean {
    return this.vkind >= ValueKind.Function && this.vkind <= ValueKind.ConstantTargetNone;
  }
  isGlobalValue(): boolean {
    return this.vkind >= ValueKind.Function && this.vkind <= ValueKind.GlobalIFunc;
  }
}

/** Placeholder for a forward reference in a function or constants block. */
export class ForwardRef extends Value {
  readonly vkind = ValueKind.ForwardRef;
  constructor(
    type: Type,
    readonly slot: number,
  ) {
    super(type);
  }
}
