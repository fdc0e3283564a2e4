/** Type printing, and the module walk that orders/numbers identified struct types like LLVM's TypeFinder. */
import {
  TypeKind,
  type Type,
  type ArrayType,
  type FunctionType,
  type IntegerType,
  type PointerType,
  type StructType,
  type TargetExtType,
  type VectorType,
} from '../types.js';
import { ValueKind, type Value } from '../value.js';
import { MDKind, type Metadata, type DIArgList, type MetadataAsValue, type ValueAsMetadata } from '../metadata.js';
import type { ConstantExpr } from '../constants.js';
import type { Module } from '../module.js';
import type { AttributeList } from '../attributes.js';
import type { CallInst, CallBrInst, GetElementPtrInst, AllocaInst, Instruction } from '../instructions.js';
import { Opcode } from '../opcodes.js';
import { escapeString, formatName } from './names.js';
import { constantOperands, mdOperands } from './walk.js';

const SIMPLE_NAMES: Partial<Record<TypeKind, string>> = {
  [TypeKind.Void]: 'void',
  [TypeKind.Half]: 'half',
  [TypeKind.BFloat]: 'bfloat',
  [TypeKind.Float]: 'float',
  [TypeKind.Double]: 'double',
  [TypeKind.X86_FP80]: 'x86_fp80',
  [TypeKind.FP128]: 'fp128',
  [TypeKind.PPC_FP128]: 'ppc_fp128',
  [TypeKind.Label]: 'label',
  [TypeKind.Metadata]: 'metadata',
  [TypeKind.X86_MMX]: 'x86_mmx',
  [TypeKind.X86_AMX]: 'x86_amx',
  [TypeKind.Token]: 'token',
};

/** Prints types; identified structs without a name get the numbers assigned by `numberStructs`. */
export class TypePrinter {
  private readonly cache = new Map<number, string>();
  private readonly numbers = new Map<StructType, number>();

  /** Gives unnamed identified structs the numbers `%0`, `%1`, … in the given order. */
  numberStructs(structs: readonly StructType[]): void {
    for (const s of structs) if (!s.isLiteral && !s.name) this.numbers.set(s, this.numbers.size);
  }

  print(t: Type): string {
    const cached = this.cache.get(t.typeId);
    if (cached !== undefined) return cached;
    const s = this.compute(t);
    this.cache.set(t.typeId, s);
    return s;
  }

  /** The body of a struct: `{ i32, ptr }`, `<{ i8 }>`, `{}` or `opaque`. */
  structBody(s: StructType): string {
    if (!s.hasBody) return 'opaque';
    const inner = s.elements.length === 0 ? '{}' : `{ ${s.elements.map((e) => this.print(e)).join(', ')} }`;
    return s.packed ? `<${inner}>` : inner;
  }

  private compute(t: Type): string {
    const simple = SIMPLE_NAMES[t.kind];
    if (simple !== undefined) return simple;
    switch (t.kind) {
      case TypeKind.Integer:
        return `i${(t as IntegerType).bits}`;
      case TypeKind.Function: {
        const f = t as FunctionType;
        const parts = f.params.map((p) => this.print(p));
        if (f.varArgs) parts.push('...');
        return `${this.print(f.ret)} (${parts.join(', ')})`;
      }
      case TypeKind.Struct: {
        const s = t as StructType;
        if (s.isLiteral) return this.structBody(s);
        if (s.name) return formatName(s.name, '%');
        const n = this.numbers.get(s);
        return n !== undefined ? `%${n}` : `%"type ${s.typeId}"`;
      }
      case TypeKind.Pointer: {
        const p = t as PointerType;
        const as = p.addrSpace ? ` addrspace(${p.addrSpace})` : '';
        return p.pointee ? `${this.print(p.pointee)}${as}*` : `ptr${as}`;
      }
      case TypeKind.Array: {
        const a = t as ArrayType;
        return `[${a.length} x ${this.print(a.element)}]`;
      }
      case TypeKind.Vector: {
        const v = t as VectorType;
        return `<${v.scalable ? 'vscale x ' : ''}${v.length} x ${this.print(v.element)}>`;
      }
      case TypeKind.TargetExt: {
        const x = t as TargetExtType;
        const parts = [`"${escapeString(x.name)}"`, ...x.typeParams.map((p) => this.print(p)), ...x.intParams.map(String)];
        return `target(${parts.join(', ')})`;
      }
      default:
        return `<type kind ${t.kind}>`;
    }
  }
}

function subtypes(t: Type): readonly Type[] {
  switch (t.kind) {
    case TypeKind.Function: {
      const f = t as FunctionType;
      return [f.ret, ...f.params];
    }
    case TypeKind.Struct:
      return (t as StructType).elements;
    case TypeKind.Array:
      return [(t as ArrayType).element];
    case TypeKind.Vector:
      return [(t as VectorType).element];
    case TypeKind.Pointer: {
      const p = (t as PointerType).pointee;
      return p ? [p] : [];
    }
    case TypeKind.TargetExt:
      return (t as TargetExtType).typeParams;
    default:
      return [];
  }
}

/**
 * Identified struct types used by the module, in the order LLVM's TypeFinder meets them
 * (globals, aliases, ifuncs, functions and their bodies, named metadata). This order decides
 * the numbering of unnamed structs and the order of type definitions in the module header.
 */
export function findStructTypes(m: Module): StructType[] {
  const seenTypes = new Set<Type>();
  const seenValues = new Set<Value>();
  const seenMD = new Set<Metadata>();
  const found: StructType[] = [];

  const addType = (root: Type): void => {
    if (seenTypes.has(root)) return;
    seenTypes.add(root);
    const work: Type[] = [root];
    while (work.length > 0) {
      const t = work.pop()!;
      if (t.kind === TypeKind.Struct && !(t as StructType).isLiteral) found.push(t as StructType);
      const subs = subtypes(t);
      for (let i = subs.length - 1; i >= 0; i--) {
        const s = subs[i]!;
        if (!seenTypes.has(s)) {
          seenTypes.add(s);
          work.push(s);
        }
      }
    }
  };

  const addMD = (md: Metadata | null): void => {
    if (!md || seenMD.has(md)) return;
    seenMD.add(md);
    if (md.mdkind === MDKind.ArgList) {
      for (const a of (md as DIArgList).args) if (a.mdkind === MDKind.Value) addValue((a as ValueAsMetadata).value);
      return;
    }
    for (const op of mdOperands(md)) {
      if (!op) continue;
      if (op.mdkind === MDKind.Value) {
        if (!(op as ValueAsMetadata).local) addValue((op as ValueAsMetadata).value);
      } else {
        addMD(op);
      }
    }
  };

  const addValue = (v: Value): void => {
    if (v.vkind === ValueKind.MetadataAsValue) {
      const md = (v as MetadataAsValue).md;
      if (md.mdkind === MDKind.Value) addValue((md as ValueAsMetadata).value);
      else addMD(md);
      return;
    }
    if (!v.isConstant() || v.isGlobalValue() || seenValues.has(v)) return;
    seenValues.add(v);
    addType(v.type);
    if (v.vkind === ValueKind.ConstantExpr) {
      const gep = (v as ConstantExpr).gep;
      if (gep) addType(gep.sourceElementType);
    }
    for (const op of constantOperands(v)) addValue(op);
  };

  const addAttrs = (list: AttributeList): void => {
    for (const set of [list.fn, list.ret, ...list.params]) for (const a of set) if (a.type) addType(a.type);
  };

  for (const g of m.globals) {
    addType(g.valueType);
    if (g.initializer) addValue(g.initializer);
  }
  for (const a of m.aliases) {
    addType(a.valueType);
    if (a.aliasee) addValue(a.aliasee);
  }
  for (const i of m.ifuncs) addType(i.valueType);
  for (const f of m.functions) {
    addType(f.functionType);
    addAttrs(f.attributes);
    for (const c of [f.prefix, f.prologue, f.personality]) if (c) addValue(c);
    for (const bb of f.blocks) {
      for (const inst of bb.insts) addInstruction(inst, addType, addValue, addMD, addAttrs);
    }
  }
  for (const nmd of m.namedMetadata) for (const op of nmd.ops) addMD(op);
  return found;
}

function addInstruction(
  inst: Instruction,
  addType: (t: Type) => void,
  addValue: (v: Value) => void,
  addMD: (md: Metadata | null) => void,
  addAttrs: (l: AttributeList) => void,
): void {
  addType(inst.type);
  for (const op of inst.ops) if (op.vkind !== ValueKind.Instruction) addValue(op);
  switch (inst.opcode) {
    case Opcode.GetElementPtr:
      addType((inst as GetElementPtrInst).sourceElementType);
      break;
    case Opcode.Alloca:
      addType((inst as AllocaInst).allocatedType);
      break;
    case Opcode.Call:
    case Opcode.CallBr:
      addAttrs((inst as CallInst | CallBrInst).attributes);
      break;
    default:
      break;
  }
  if (inst.attachments) for (const a of inst.attachments) addMD(a.node);
  if (inst.debugRecords) {
    for (const r of inst.debugRecords) {
      addMD(r.variable);
      addMD(r.expression);
      if (r.location?.mdkind === MDKind.Value) addValue((r.location as ValueAsMetadata).value);
    }
  }
}
