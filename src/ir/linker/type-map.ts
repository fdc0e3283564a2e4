/**
 * Identified struct types shared between modules. Each module has its own type objects, so
 * a struct declared in a header is a different %struct.s in every module; like LLVM's IR
 * mover, the linker maps a later module's struct onto an earlier module's struct of the
 * same name (or the same name without a `.N` suffix) when their bodies agree, and rewrites
 * every type reference of the later module accordingly.
 */
import type { ConstantExpr, InlineAsm } from '../constants.js';
import type { Attribute, AttributeList } from '../attributes.js';
import type { Function } from '../globals.js';
import type { AllocaInst, CallBrInst, CallInst, GetElementPtrInst, Instruction } from '../instructions.js';
import { Metadata, MDKind, type ValueAsMetadata } from '../metadata.js';
import type { Module } from '../module.js';
import { Opcode } from '../opcodes.js';
import {
  ArrayType,
  FunctionType,
  PointerType,
  StructType,
  TypeKind,
  VectorType,
  type Type,
} from '../types.js';
import { ValueKind, type Value } from '../value.js';
import { withBody } from '../lazy-body.js';
import { pushMetadataOperands } from './replace-uses.js';
import { typesEquivalent } from './type-equiv.js';

/**
 * Maps each module's identified structs onto equal ones of earlier modules and drops the
 * mapped ones from its `structTypes`. An opaque struct that meets a definition takes its body.
 */
export function unifyStructTypes(modules: readonly Module[]): void {
  const pool = new Map<string, StructType>();
  for (const m of modules) {
    const map = new Map<StructType, StructType>();
    for (const s of m.structTypes) {
      const target = s.name ? findTarget(pool, s.name, s) : undefined;
      if (target) map.set(s, target);
    }
    if (map.size > 0) {
      const mapper = new TypeMapper(map);
      for (const [from, to] of map) {
        if (to.isOpaque && !from.isOpaque) to.setBody(from.elements.map((e) => mapper.type(e)), from.packed);
      }
      m.structTypes = m.structTypes.filter((s) => !map.has(s));
      for (const s of m.structTypes) {
        if (s.hasBody) s.setBody(s.elements.map((e) => mapper.type(e)), s.packed);
      }
      mapper.module(m);
    }
    for (const s of m.structTypes) if (s.name && !pool.has(s.name)) pool.set(s.name, s);
  }
}

function findTarget(pool: ReadonlyMap<string, StructType>, name: string, s: StructType): StructType | undefined {
  const base = name.replace(/\.\d+$/, '');
  for (const candidate of [pool.get(name), pool.get(base)]) {
    if (candidate && candidate !== s && typesEquivalent(candidate, s)) return candidate;
  }
  return undefined;
}

/** Rewrites type references through a struct mapping, rebuilding the composite types that contain mapped structs. */
class TypeMapper {
  private readonly cache = new Map<Type, Type>();
  private readonly seen = new Set<Value>();
  private readonly seenMetadata = new Set<Metadata>();
  private readonly seenAttributes = new Set<AttributeList>();

  constructor(private readonly map: ReadonlyMap<StructType, StructType>) {}

  type(t: Type): Type {
    let r = this.cache.get(t);
    if (r === undefined) {
      r = this.compute(t);
      this.cache.set(t, r);
    }
    return r;
  }

  private compute(t: Type): Type {
    switch (t.kind) {
      case TypeKind.Struct: {
        const s = t as StructType;
        if (!s.isLiteral) return this.map.get(s) ?? s;
        const elements = s.elements.map((e) => this.type(e));
        return elements.every((e, i) => e === s.elements[i]) ? s : StructType.literal(elements, s.packed);
      }
      case TypeKind.Pointer: {
        const p = t as PointerType;
        if (p.pointee === null) return p;
        const pointee = this.type(p.pointee);
        return pointee === p.pointee ? p : PointerType.typed(pointee, p.addrSpace);
      }
      case TypeKind.Array: {
        const a = t as ArrayType;
        const e = this.type(a.element);
        return e === a.element ? a : ArrayType.get(e, a.length);
      }
      case TypeKind.Vector: {
        const v = t as VectorType;
        const e = this.type(v.element);
        return e === v.element ? v : VectorType.get(e, v.length, v.scalable);
      }
      case TypeKind.Function: {
        const f = t as FunctionType;
        const ret = this.type(f.ret);
        const params = f.params.map((p) => this.type(p));
        return ret === f.ret && params.every((p, i) => p === f.params[i]) ? f : FunctionType.get(ret, params, f.varArgs);
      }
      default:
        return t;
    }
  }

  module(m: Module): void {
    for (const g of [...m.globals, ...m.aliases, ...m.ifuncs]) {
      this.value(g);
      g.valueType = this.type(g.valueType);
      this.attachments(g.attachments);
    }
    for (const g of m.globals) {
      if (g.initializer) this.value(g.initializer);
      this.attributes(g.attributes);
    }
    for (const a of m.aliases) if (a.aliasee) this.value(a.aliasee);
    for (const i of m.ifuncs) if (i.resolver) this.value(i.resolver);
    for (const f of m.functions) this.function(f);
    for (const nmd of m.namedMetadata) for (const md of nmd.ops) this.metadata(md);
  }

  private function(f: Function): void {
    this.value(f);
    const ft = this.type(f.functionType) as FunctionType;
    // The function type is fixed at construction; a linked module is the one place it changes.
    (f as { functionType: FunctionType }).functionType = ft;
    f.valueType = ft;
    for (const a of f.args) a.type = this.type(a.type);
    this.attributes(f.attributes);
    for (const c of [f.personality, f.prefix, f.prologue]) if (c) this.value(c);
    // a body not decoded yet (and its attachments, which come with it) is remapped when it is
    withBody(f, (fn) => {
      this.attachments(fn.attachments);
      for (const bb of fn.blocks) for (const inst of bb.insts) this.instruction(inst);
    });
  }

  private instruction(inst: Instruction): void {
    inst.type = this.type(inst.type);
    for (const op of inst.ops) this.value(op);
    switch (inst.opcode) {
      case Opcode.Alloca: {
        const a = inst as AllocaInst;
        a.allocatedType = this.type(a.allocatedType);
        break;
      }
      case Opcode.GetElementPtr: {
        const g = inst as GetElementPtrInst;
        g.sourceElementType = this.type(g.sourceElementType);
        break;
      }
      case Opcode.Call:
      case Opcode.CallBr: {
        const c = inst as CallInst | CallBrInst;
        c.functionType = this.type(c.functionType) as FunctionType;
        this.attributes(c.attributes);
        for (const b of c.bundles ?? []) for (const v of b.inputs) this.value(v);
        break;
      }
      default:
        break;
    }
    if (inst.debugRecords) {
      for (const rec of inst.debugRecords) for (const md of Object.values(rec)) if (md instanceof Metadata) this.metadata(md);
    }
  }

  private attributes(list: AttributeList): void {
    if (this.seenAttributes.has(list)) return;
    this.seenAttributes.add(list);
    const fix = (attrs: readonly Attribute[]): void => {
      for (const a of attrs) if (a.type) a.type = this.type(a.type);
    };
    fix(list.fn);
    fix(list.ret);
    for (const p of list.params) fix(p);
  }

  private attachments(list: readonly { node: Metadata }[]): void {
    for (const a of list) this.metadata(a.node);
  }

  /** Retypes a value and, for constants, what they contain (globals are handled by `module`). */
  private value(v: Value): void {
    if (this.seen.has(v) || v.vkind === ValueKind.Argument || v.vkind === ValueKind.BasicBlock || v.vkind === ValueKind.Instruction) return;
    this.seen.add(v);
    v.type = this.type(v.type);
    switch (v.vkind) {
      case ValueKind.ConstantArray:
      case ValueKind.ConstantStruct:
      case ValueKind.ConstantVector:
        for (const e of (v as unknown as { elements: Value[] }).elements) this.value(e);
        break;
      case ValueKind.ConstantExpr: {
        const e = v as ConstantExpr;
        if (e.gep) e.gep.sourceElementType = this.type(e.gep.sourceElementType);
        for (const op of e.ops) this.value(op);
        break;
      }
      case ValueKind.InlineAsm: {
        const asm = v as InlineAsm;
        (asm as { fnType: FunctionType }).fnType = this.type(asm.fnType) as FunctionType;
        break;
      }
      case ValueKind.MetadataAsValue:
        this.metadata((v as unknown as { md: Metadata }).md);
        break;
      default:
        break;
    }
  }

  private metadata(root: Metadata): void {
    const stack: Metadata[] = [root];
    while (stack.length > 0) {
      const md = stack.pop()!;
      if (this.seenMetadata.has(md)) continue;
      this.seenMetadata.add(md);
      if (md.mdkind === MDKind.Value) {
        this.value((md as ValueAsMetadata).value);
        continue;
      }
      // Locations lead only to scopes, which hold no values.
      if (md.mdkind !== MDKind.String && md.mdkind !== MDKind.Expression && md.mdkind !== MDKind.Location) pushMetadataOperands(md, stack);
    }
  }
}
