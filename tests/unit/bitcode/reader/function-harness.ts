/**
 * Structural comparison of decoded function bodies with llvm-dis output, independent of the
 * printer: per function, the count of every opcode, the number of blocks and debug records,
 * phi incoming blocks, switch case values, direct callees, alloca and GEP source types.
 */
import type { Module } from '../../../../src/ir/module.js';
import { unquoteName } from '../../../support/llvm-normalize.js';
import type { Function } from '../../../../src/ir/globals.js';
import {
  OPCODE_NAMES,
  Opcode,
  TypeKind,
  type AllocaInst,
  type ArrayType,
  type CallInst,
  type FunctionType,
  type GetElementPtrInst,
  type IntegerType,
  type PhiInst,
  type PointerType,
  type StructType,
  type SwitchInst,
  type Type,
  type Value,
  type VectorType,
} from '../../../../src/ir/index.js';

/** One summary line per fact, so a jest diff shows exactly what differs. */
export type Summary = string[];

const SIMPLE_TYPES: Partial<Record<TypeKind, string>> = {
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
  [TypeKind.Token]: 'token',
  [TypeKind.X86_MMX]: 'x86_mmx',
};

/** Just enough of LLVM's type syntax for what C code produces. */
export function typeText(t: Type): string {
  const simple = SIMPLE_TYPES[t.kind];
  if (simple) return simple;
  switch (t.kind) {
    case TypeKind.Integer:
      return `i${(t as IntegerType).bits}`;
    case TypeKind.Pointer: {
      const p = t as PointerType;
      const as = p.addrSpace ? ` addrspace(${p.addrSpace})` : '';
      return p.pointee ? `${typeText(p.pointee)}${as}*` : `ptr${as}`;
    }
    case TypeKind.Array:
      return `[${(t as ArrayType).length} x ${typeText((t as ArrayType).element)}]`;
    case TypeKind.Vector: {
      const v = t as VectorType;
      return `<${v.scalable ? 'vscale x ' : ''}${v.length} x ${typeText(v.element)}>`;
    }
    case TypeKind.Struct: {
      const s = t as StructType;
      if (s.name !== null) return /^[-\w$.]+$/.test(s.name) ? `%${s.name}` : `%"${s.name}"`;
      if (s.elements.length === 0) return s.packed ? '<{}>' : '{}';
      const body = s.elements.map(typeText).join(', ');
      return s.packed ? `<{ ${body} }>` : `{ ${body} }`;
    }
    case TypeKind.Function: {
      const f = t as FunctionType;
      const params = f.params.map(typeText);
      if (f.varArgs) params.push('...');
      return `${typeText(f.ret)} (${params.join(', ')})`;
    }
    default:
      return `?${t.kind}`;
  }
}

/** Local names as llvm-dis prints them: the name, or the slot number of an unnamed value. */
function localNames(fn: Function): Map<Value, string> {
  const names = new Map<Value, string>();
  let slot = 0;
  for (const a of fn.args) names.set(a, a.name || String(slot++));
  for (const bb of fn.blocks) {
    names.set(bb, bb.name || String(slot++));
    for (const inst of bb.insts) if (inst.type.kind !== TypeKind.Void) names.set(inst, inst.name || String(slot++));
  }
  return names;
}

export function summarizeFunction(fn: Function): Summary {
  const names = localNames(fn);
  const counts = new Map<string, number>();
  const out: Summary = [`blocks ${fn.blocks.length}`];
  let dbg = 0;
  for (const bb of fn.blocks) {
    for (const inst of bb.insts) {
      const mn = OPCODE_NAMES[inst.opcode];
      counts.set(mn, (counts.get(mn) ?? 0) + 1);
      dbg += inst.debugRecords?.length ?? 0;
      switch (inst.opcode) {
        case Opcode.Phi:
          out.push(`phi ${(inst as PhiInst).blocks.map((b) => '%' + names.get(b)).join(' ')}`);
          break;
        case Opcode.Switch:
          out.push(`switch ${(inst as SwitchInst).cases.map((c) => String(c.value.signedValue)).join(' ')}`);
          break;
        case Opcode.Call: {
          const callee = (inst as CallInst).callee;
          out.push(`call ${callee.isGlobalValue() ? '@' + utf8(callee.name) : '-'}`);
          break;
        }
        case Opcode.Alloca:
          out.push(`alloca ${typeText((inst as AllocaInst).allocatedType)}`);
          break;
        case Opcode.GetElementPtr:
          out.push(`gep ${typeText((inst as GetElementPtrInst).sourceElementType)}`);
          break;
      }
    }
  }
  out.push(`debug records ${dbg}`);
  for (const [mn, n] of [...counts].sort()) out.push(`${mn} ${n}`);
  return out;
}

/** The type that starts `s` (up to the first comma at bracket depth 0). */
function leadingType(s: string): string {
  let depth = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s[i]!;
    if (c === '(' || c === '[' || c === '{' || c === '<') depth++;
    else if (c === ')' || c === ']' || c === '}' || c === '>') depth--;
    else if (c === ',' && depth === 0) return s.slice(0, i).trim();
  }
  return s.trim();
}

/** IR names are byte strings; llvm-dis text is UTF-8. */
function utf8(name: string): string {
  return Buffer.from(name, 'latin1').toString('utf8');
}

/** The same summary from llvm-dis text, for each defined function. */
export function summarizeDis(ll: string): Map<string, Summary> {
  const result = new Map<string, Summary>();
  const lines = ll.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const def = /^define .*?@("(?:[^"\\]|\\.)*"|[-\w$.]+)\(/.exec(lines[i]!);
    if (!def) continue;
    const out: Summary = [];
    const counts = new Map<string, number>();
    // The entry block's label is printed only when it has a name.
    let blocks = 0;
    let first = true;
    let dbg = 0;
    for (i++; i < lines.length && lines[i] !== '}'; i++) {
      const line = lines[i]!.replace(/\s+;.*$/, '');
      if (line.trim() === '' || line.startsWith(';')) continue;
      if (first && line.startsWith(' ')) blocks++;
      first = false;
      if (!line.startsWith(' ')) {
        blocks++;
        continue;
      }
      // callbr's (and invoke's) destinations continue on the next line.
      if (/^\s+to label /.test(line)) continue;
      if (/^\s+#dbg_/.test(line)) {
        dbg++;
        continue;
      }
      let body = line.trim().replace(/^%("(?:[^"\\]|\\.)*"|[-\w$.]+) = /, '');
      body = body.replace(/^(tail|musttail|notail) call/, 'call');
      const mn = /^\w+/.exec(body)![0];
      counts.set(mn, (counts.get(mn) ?? 0) + 1);
      const rest = body.slice(mn.length).trim();
      switch (mn) {
        case 'phi': {
          const labels = [...rest.matchAll(/,\s*%("(?:[^"\\]|\\.)*"|[-\w$.]+)\s*\]/g)].map((m) => '%' + unquoteName(m[1]!));
          out.push(`phi ${labels.join(' ')}`);
          break;
        }
        case 'switch': {
          const vals: string[] = [];
          for (i++; !lines[i]!.trim().startsWith(']'); i++) vals.push(/^\s*\S+ (-?\d+|true|false),/.exec(lines[i]!)![1]!);
          out.push(`switch ${vals.map((v) => (v === 'true' ? '-1' : v === 'false' ? '0' : v)).join(' ')}`);
          break;
        }
        case 'call': {
          const m = / @("(?:[^"\\]|\\.)*"|[-\w$.]+)\(/.exec(rest);
          out.push(`call ${m ? '@' + unquoteName(m[1]!) : '-'}`);
          break;
        }
        case 'alloca':
          out.push(`alloca ${leadingType(rest.replace(/^((inalloca|swifterror)\s+)*/, ''))}`);
          break;
        case 'getelementptr':
          out.push(`gep ${leadingType(rest.replace(/^((inbounds|nuw|nusw)\s+)*/, ''))}`);
          break;
      }
    }
    out.unshift(`blocks ${blocks}`);
    out.push(`debug records ${dbg}`);
    for (const [mn, n] of [...counts].sort()) out.push(`${mn} ${n}`);
    result.set(unquoteName(def[1]!), out);
  }
  return result;
}

export function summarizeModule(m: Module): Map<string, Summary> {
  const out = new Map<string, Summary>();
  for (const fn of m.functions) if (!fn.isDeclaration) out.set(utf8(fn.name), summarizeFunction(fn));
  return out;
}
