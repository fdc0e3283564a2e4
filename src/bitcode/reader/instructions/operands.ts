/**
 * Decoding state of one function body and the operand readers every instruction decoder uses:
 * value ids relative to the instruction number, value/type pairs for forward references,
 * basic-block ids and type ids.
 */
import type { BitcodeRecord } from '../../cursor.js';
import type { ReaderContext, ValueList } from '../context.js';
import { ValueKind, type Value } from '../../../ir/value.js';
import { TypeKind, PointerType, type Type } from '../../../ir/types.js';
import { MetadataAsValue } from '../../../ir/metadata.js';
import type { BasicBlock, Function } from '../../../ir/globals.js';
import type { Instruction, OperandBundle } from '../../../ir/instructions.js';
import { SYNC_SCOPE_SYSTEM } from '../../../ir/opcodes.js';

/**
 * Everything the instruction decoders share while one FUNCTION_BLOCK is read. The decoders
 * read the current record through `p` (the next operand slot), like LLVM's OpNum.
 */
export class FnState {
  readonly values: ValueList;
  /** Module version ≥ 1: operands are encoded as "instruction number − value id". */
  readonly relative: boolean;
  /** LLVM ≤ 14 bitcode: pointers carry their pointee type. */
  readonly typedPointers: boolean;
  blocks: BasicBlock[] = [];
  /** Value id the next value-producing instruction gets (LLVM's InstNum / NextValueNo). */
  instNum = 0;
  rec!: BitcodeRecord;
  ops: number[] = [];
  /** Next operand slot of `rec`. */
  p = 0;
  /** Set when an operand read since the last reset is a forward-reference placeholder. */
  sawForwardRef = false;
  /** An instruction to insert, without a value number, before the one being decoded (old cmpxchg). */
  unnamedBefore: Instruction | null = null;
  /** Operand bundles waiting for the next call. */
  bundles: OperandBundle[] | null = null;
  private allocaAS = -1;

  constructor(
    readonly ctx: ReaderContext,
    readonly fn: Function,
  ) {
    this.values = ctx.values;
    this.relative = ctx.version >= 1;
    this.typedPointers = ctx.module.typedPointers;
  }

  /** Address space of allocas without one in the record: the data layout's "A<n>", else 0. */
  get allocaAddrSpace(): number {
    if (this.allocaAS < 0) {
      const m = /(?:^|-)A(\d+)(?:-|$)/.exec(this.ctx.module.dataLayout);
      this.allocaAS = m ? Number(m[1]) : 0;
    }
    return this.allocaAS;
  }

  setRecord(rec: BitcodeRecord): void {
    this.rec = rec;
    this.ops = rec.ops;
    this.p = 0;
  }

  /** Throws "invalid <what> record" at the current record. */
  bad(what: string, detail?: string): never {
    this.ctx.error(`invalid ${what} record${detail ? `: ${detail}` : ''} in function @${this.fn.name}`);
  }

  /** Operand `i` of the record as a plain number; fails if the record is too short. */
  op(i: number, what: string): number {
    if (i >= this.ops.length) this.bad(what, 'too few operands');
    return this.ops[i]!;
  }

  /** Operand `i` as a 32-bit unsigned number, as LLVM truncates ids ("(unsigned)Record[i]"). */
  u32(i: number): number {
    const x = this.ops[i]!;
    if (x <= Number.MAX_SAFE_INTEGER) return x >>> 0;
    const b = this.rec.big?.get(i);
    return b === undefined ? 0 : Number(BigInt.asUintN(32, b));
  }

  /** Absolute value id encoded in operand `i` (undoing the relative encoding). */
  valueId(i: number): number {
    const x = this.ops[i]!;
    if (x > Number.MAX_SAFE_INTEGER) return this.relative ? (this.instNum - this.u32(i)) >>> 0 : this.u32(i);
    return this.relative ? (this.instNum - x) >>> 0 : x >>> 0;
  }

  /** Absolute value id encoded as a sign-rotated VBR in operand `i` (phi incoming values). */
  signedValueId(i: number): number {
    const x = this.ops[i]!;
    if (x > Number.MAX_SAFE_INTEGER) {
      const b = this.rec.big?.get(i) ?? 0n;
      const v = b & 1n ? -(b >> 1n) : b >> 1n;
      return Number(BigInt.asUintN(32, this.relative ? BigInt(this.instNum) - v : v));
    }
    const mag = Math.floor(x / 2);
    const v = x % 2 === 1 ? -mag : mag;
    return (this.relative ? this.instNum - v : v) >>> 0;
  }

  /** The type with id `id`. */
  type(id: number): Type {
    return this.ctx.getType(id);
  }

  /** The type whose id is operand `i`. */
  typeAt(i: number, what: string): Type {
    return this.ctx.getType(this.op(i, what));
  }

  /** Basic block number `id` of this function. */
  block(id: number, what: string): BasicBlock {
    const bb = id < this.blocks.length ? this.blocks[id] : undefined;
    if (!bb) this.bad(what, `basic block #${id} out of range`);
    return bb;
  }

  /**
   * Value with absolute id `id` and expected type `type`: a placeholder when it is defined
   * later; a MetadataAsValue when the type is `metadata` (the id is then a metadata id).
   */
  valueById(id: number, type: Type): Value {
    if (type.kind === TypeKind.Metadata) return new MetadataAsValue(this.ctx.md.get(id));
    const v = this.values.get(id, type);
    if (v.vkind === ValueKind.ForwardRef) this.sawForwardRef = true;
    else if (v.type !== type) this.ctx.error(`value #${id} does not have the type its use requires in function @${this.fn.name}`);
    return v;
  }

  /** LLVM's getValueTypePair: a relative value id, followed by a type id for forward references. */
  pair(what: string): Value {
    if (this.p >= this.ops.length) this.bad(what, 'too few operands');
    const id = this.valueId(this.p++);
    if (id < this.instNum) {
      const v = this.values.getDefined(id);
      if (!v) this.bad(what, `value #${id} is not defined`);
      return v;
    }
    if (this.p >= this.ops.length) this.bad(what, 'forward reference without a type');
    return this.valueById(id, this.type(this.ops[this.p++]!));
  }

  /** LLVM's popValue: a relative value id whose type is known from context. */
  value(type: Type, what: string): Value {
    if (this.p >= this.ops.length) this.bad(what, 'too few operands');
    return this.valueById(this.valueId(this.p++), type);
  }

  /** Remaining operands from `p` on. */
  get remaining(): number {
    return this.ops.length - this.p;
  }

  /** Alignment in bytes from its bitcode encoding (log2 + 1, 0 = unspecified). */
  alignment(raw: number, what: string): number {
    if (raw > 33) this.bad(what, `invalid alignment exponent ${raw}`);
    return raw === 0 ? 0 : 2 ** (raw - 1);
  }

  /** Sync scope id: an index into the module's sync-scope table; unknown ids mean "system", as in LLVM. */
  syncScope(raw: number): number {
    return raw <= SYNC_SCOPE_SYSTEM || raw < this.ctx.module.syncScopeNames.length ? raw : SYNC_SCOPE_SYSTEM;
  }

  /** Result pointer type for an object of `pointee` in `addrSpace` (typed for LLVM ≤ 14 bitcode). */
  pointerTo(pointee: Type, addrSpace: number): PointerType {
    return this.typedPointers ? PointerType.typed(pointee, addrSpace) : PointerType.opaque(addrSpace);
  }

  /** Pointee of a typed pointer (old records without explicit types); fails for opaque pointers. */
  pointee(ptrType: Type, what: string): Type {
    const t = ptrType.scalarType();
    if (t.kind !== TypeKind.Pointer || !(t as PointerType).pointee) this.bad(what, 'missing element type');
    return (t as PointerType).pointee!;
  }
}

/** Replaces forward-reference placeholders in an instruction's operands and bundles. */
export function patchInstruction(inst: Instruction, res: Map<Value, Value>, unresolved: (v: Value) => never): void {
  const ops = inst.ops;
  for (let i = 0; i < ops.length; i++) {
    if (ops[i]!.vkind === ValueKind.ForwardRef) ops[i] = res.get(ops[i]!) ?? unresolved(ops[i]!);
  }
  const bundles = (inst as { bundles?: OperandBundle[] | null }).bundles;
  if (bundles) {
    for (const b of bundles) {
      for (let i = 0; i < b.inputs.length; i++) {
        if (b.inputs[i]!.vkind === ValueKind.ForwardRef) b.inputs[i] = res.get(b.inputs[i]!) ?? unresolved(b.inputs[i]!);
      }
    }
  }
}
