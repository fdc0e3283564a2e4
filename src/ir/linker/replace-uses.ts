/**
 * Rewriting every use of some values (typically global declarations) to other values,
 * across instruction operands, operand bundles, constant aggregates and expressions,
 * global initializers, aliasees, ifunc resolvers, personality/prefix/prologue data and
 * metadata (ValueAsMetadata, reachable from named metadata, attachments, debug locations
 * and debug records).
 */
import { ConstantExpr, type BlockAddress, type Constant, type DSOLocalEquivalent, type NoCFIValue } from '../constants.js';
import type { Function, GlobalValue, MDAttachment } from '../globals.js';
import type { Instruction } from '../instructions.js';
import { Metadata, MDKind, type DILocation, type MetadataAsValue, type ValueAsMetadata } from '../metadata.js';
import type { Module } from '../module.js';
import { Opcode } from '../opcodes.js';
import { TypeKind, type PointerType } from '../types.js';
import { ValueKind, type Value } from '../value.js';
import { withBody } from '../lazy-body.js';

/**
 * Replaces every use of each key of `replacements` by its value in `modules`. Values of the
 * map are not themselves replaced. When a replacement's type differs from the replaced
 * value's (typed pointers: `[0 x i32]*` declaration, `[10 x i32]*` definition), uses get
 * a constant cast of the replacement to the old type, as LLVM's linker does.
 */
export function replaceGlobalUses(modules: Module | readonly Module[], replacements: ReadonlyMap<Value, Value>): void {
  if (replacements.size === 0) return;
  const r = new UseRewriter(replacements);
  for (const m of Array.isArray(modules) ? (modules as readonly Module[]) : [modules as Module]) r.module(m);
}

class UseRewriter {
  /** Constant aggregates and expressions visited, and what their uses become. */
  private readonly rewritten = new Map<Value, Value>();
  private readonly seenMetadata = new Set<Metadata>();
  private readonly casts = new Map<Value, Value>();

  constructor(private readonly map: ReadonlyMap<Value, Value>) {}

  module(m: Module): void {
    for (const g of m.globals) {
      if (g.initializer) g.initializer = this.value(g.initializer) as Constant;
      this.attachments(g.attachments);
    }
    for (const a of m.aliases) {
      if (a.aliasee) a.aliasee = this.value(a.aliasee) as Constant;
      this.attachments(a.attachments);
    }
    for (const i of m.ifuncs) {
      if (i.resolver) i.resolver = this.value(i.resolver) as Constant;
      this.attachments(i.attachments);
    }
    for (const f of m.functions) this.function(f);
    for (const nmd of m.namedMetadata) for (const md of nmd.ops) this.metadata(md);
  }

  private function(f: Function): void {
    if (f.personality) f.personality = this.value(f.personality) as Constant;
    if (f.prefix) f.prefix = this.value(f.prefix) as Constant;
    if (f.prologue) f.prologue = this.value(f.prologue) as Constant;
    // a body not decoded yet (and its attachments, which come with it) is rewritten when it is
    withBody(f, (fn) => {
      this.attachments(fn.attachments);
      for (const bb of fn.blocks) for (const inst of bb.insts) this.instruction(inst);
    });
  }

  private instruction(inst: Instruction): void {
    const ops = inst.ops;
    for (let i = 0; i < ops.length; i++) ops[i] = this.value(ops[i]!);
    const bundles = (inst as { bundles?: { inputs: Value[] }[] | null }).bundles;
    if (bundles) for (const b of bundles) for (let i = 0; i < b.inputs.length; i++) b.inputs[i] = this.value(b.inputs[i]!);
    if (inst.debugLoc) this.metadata(inst.debugLoc);
    if (inst.attachments) this.attachments(inst.attachments);
    if (inst.debugRecords) {
      for (const rec of inst.debugRecords) {
        for (const md of Object.values(rec)) if (md instanceof Metadata) this.metadata(md);
      }
    }
  }

  private attachments(list: readonly MDAttachment[]): void {
    for (const a of list) this.metadata(a.node);
  }

  /** The value to use instead of `v`; rewrites inside `v` when it is a constant aggregate or expression. */
  private value(v: Value): Value {
    const rep = this.map.get(v);
    if (rep !== undefined) return this.adapt(v, rep);
    switch (v.vkind) {
      case ValueKind.ConstantArray:
      case ValueKind.ConstantStruct:
      case ValueKind.ConstantVector: {
        if (this.rewritten.has(v)) return this.rewritten.get(v)!;
        this.rewritten.set(v, v);
        const elements = (v as unknown as { elements: Value[] }).elements;
        for (let i = 0; i < elements.length; i++) elements[i] = this.value(elements[i]!);
        return v;
      }
      case ValueKind.ConstantExpr: {
        if (this.rewritten.has(v)) return this.rewritten.get(v)!;
        this.rewritten.set(v, v);
        const e = v as ConstantExpr;
        const rep = e.opcode === Opcode.BitCast ? this.map.get(e.ops[0]!) : undefined;
        if (rep !== undefined) {
          // Fold the cast as LLVM does: bitcast of the replacement, or the replacement itself.
          if (rep.type === e.type) {
            this.rewritten.set(v, rep);
            return rep;
          }
          e.ops[0] = rep;
          return v;
        }
        for (let i = 0; i < e.ops.length; i++) e.ops[i] = this.value(e.ops[i]!);
        return v;
      }
      case ValueKind.BlockAddress: {
        const ba = v as BlockAddress;
        const fn = this.map.get(ba.fn);
        if (fn !== undefined && fn.vkind === ValueKind.Function) {
          ba.fn = fn as Function;
          ba.block = ba.fn.blocks[ba.blockIndex] ?? null;
        }
        return v;
      }
      case ValueKind.DSOLocalEquivalent:
      case ValueKind.NoCFIValue: {
        const holder = v as DSOLocalEquivalent | NoCFIValue;
        const g = this.map.get(holder.global);
        if (g !== undefined && g.isGlobalValue()) holder.global = g as GlobalValue;
        return v;
      }
      case ValueKind.MetadataAsValue:
        this.metadata((v as MetadataAsValue).md);
        return v;
      default:
        return v;
    }
  }

  /** `rep` as a value of `old`'s type (a cast when typed pointers make them differ). */
  private adapt(old: Value, rep: Value): Value {
    if (old.type === rep.type) return rep;
    let cast = this.casts.get(old);
    if (cast === undefined) {
      const sameSpace =
        old.type.kind !== TypeKind.Pointer ||
        rep.type.kind !== TypeKind.Pointer ||
        (old.type as PointerType).addrSpace === (rep.type as PointerType).addrSpace;
      cast = new ConstantExpr(old.type, sameSpace ? Opcode.BitCast : Opcode.AddrSpaceCast, [rep]);
      this.casts.set(old, cast);
    }
    return cast;
  }

  private metadata(root: Metadata): void {
    const stack: Metadata[] = [root];
    while (stack.length > 0) {
      const md = stack.pop()!;
      if (this.seenMetadata.has(md)) continue;
      this.seenMetadata.add(md);
      switch (md.mdkind) {
        case MDKind.Value: {
          const vam = md as ValueAsMetadata;
          vam.value = this.value(vam.value);
          break;
        }
        case MDKind.String:
        case MDKind.Expression:
          break;
        case MDKind.Location: {
          // The most numerous kind: a fast path.
          const loc = md as DILocation;
          if (loc.scope) stack.push(loc.scope);
          if (loc.inlinedAt) stack.push(loc.inlinedAt);
          break;
        }
        default:
          pushMetadataOperands(md, stack);
      }
    }
  }
}

/**
 * Pushes the operands of a metadata node. Node classes differ in which fields hold
 * operands; every Metadata-valued field, array element, or raw-record reference is one.
 */
export function pushMetadataOperands(md: Metadata, stack: Metadata[]): void {
  for (const field of Object.values(md)) {
    if (field instanceof Metadata) {
      stack.push(field);
    } else if (Array.isArray(field)) {
      for (const x of field) if (x instanceof Metadata) stack.push(x);
    } else if (field !== null && typeof field === 'object' && 'refs' in field) {
      for (const x of (field as { refs: unknown[] }).refs) if (x instanceof Metadata) stack.push(x);
    }
  }
}
