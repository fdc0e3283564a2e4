/** Attribute printing (`noundef`, `align 8`, `byval(%struct.s)`, `memory(read)`, `"key"="value"`). */
import type { Attribute } from '../attributes.js';
import { escapeString } from './names.js';
import type { TypePrinter } from './types.js';
import type { PrintContext } from './context.js';
import type { Module } from '../module.js';
import type { CallBrInst, CallInst } from '../instructions.js';
import { Opcode } from '../opcodes.js';

const MOD_REF = ['none', 'read', 'write', 'readwrite'];
const NOT_PRESENT = 0xffffffffn;

/** `memory(...)` from LLVM's encoding: two bits (ref, mod) per location kind. */
function formatMemory(data: bigint, llvmVersion: number): string {
  const locations = llvmVersion >= 20 ? ['argmem', 'inaccessiblemem', 'errnomem'] : ['argmem', 'inaccessiblemem'];
  const otherIndex = locations.length;
  const mr = (i: number): number => Number((data >> BigInt(2 * i)) & 3n);
  const other = mr(otherIndex);
  let all = 0;
  for (let i = 0; i <= otherIndex; i++) all |= mr(i);
  const parts: string[] = [];
  if (other !== 0 || all === other) parts.push(MOD_REF[other]!);
  for (let i = 0; i < locations.length; i++) {
    const v = mr(i);
    if (v !== other) parts.push(`${locations[i]}: ${MOD_REF[v]}`);
  }
  return `memory(${parts.join(', ')})`;
}

const FP_CLASSES: [number, string][] = [
  [0x3ff, 'all'],
  [0x3, 'nan'],
  [0x1, 'snan'],
  [0x2, 'qnan'],
  [0x204, 'inf'],
  [0x4, 'ninf'],
  [0x200, 'pinf'],
  [0x60, 'zero'],
  [0x20, 'nzero'],
  [0x40, 'pzero'],
  [0x90, 'sub'],
  [0x10, 'nsub'],
  [0x80, 'psub'],
  [0x108, 'norm'],
  [0x8, 'nnorm'],
  [0x100, 'pnorm'],
];

function formatNoFPClass(mask: number): string {
  const parts: string[] = [];
  let rest = mask;
  for (const [bits, name] of FP_CLASSES) {
    if ((rest & bits) === bits) {
      parts.push(name);
      rest &= ~bits;
    }
  }
  if (rest) parts.push(`0x${rest.toString(16)}`);
  return `nofpclass(${parts.join(' ')})`;
}

const ALLOC_KINDS = ['alloc', 'realloc', 'free', 'uninitialized', 'zeroed', 'aligned'];

function formatAllocKind(v: number): string {
  const parts = ALLOC_KINDS.filter((_, i) => (v & (1 << i)) !== 0);
  return `allockind("${parts.join(',')}")`;
}

/** One attribute as llvm-dis prints it; `inGroup` selects the `attributes #N = { … }` spelling. */
export function formatAttribute(a: Attribute, types: TypePrinter, llvmVersion: number, inGroup = false): string {
  if (a.isString || a.str !== undefined) {
    const v = a.str ?? '';
    return v ? `"${escapeString(a.kind)}"="${escapeString(v)}"` : `"${escapeString(a.kind)}"`;
  }
  if (a.type !== undefined) return a.type ? `${a.kind}(${types.print(a.type)})` : a.kind;
  if (a.ranges) {
    if (a.kind === 'range' && a.ranges.length === 1) return `range(i${a.bitWidth ?? 64} ${a.ranges[0]![0]}, ${a.ranges[0]![1]})`;
    return `${a.kind}(${a.ranges.map(([lo, hi]) => `(${lo}, ${hi})`).join(', ')})`;
  }
  const n = a.int;
  if (n === undefined) return a.kind;
  switch (a.kind) {
    case 'align':
      return inGroup ? `align=${n}` : `align ${n}`;
    case 'alignstack':
    case 'dereferenceable':
    case 'dereferenceable_or_null':
      return inGroup ? `${a.kind}=${n}` : `${a.kind}(${n})`;
    case 'allocsize': {
      const elem = n >> 32n;
      const count = n & NOT_PRESENT;
      return count === NOT_PRESENT ? `allocsize(${elem})` : `allocsize(${elem},${count})`;
    }
    case 'vscale_range':
      return `vscale_range(${n >> 32n},${n & NOT_PRESENT})`;
    case 'uwtable':
      return n === 1n ? 'uwtable(sync)' : 'uwtable';
    case 'memory':
      return formatMemory(n, llvmVersion);
    case 'nofpclass':
      return formatNoFPClass(Number(n & 0x3ffn));
    case 'allockind':
      return formatAllocKind(Number(n & 0xffn));
    default:
      return `${a.kind}(${n})`;
  }
}

/** A space-separated attribute set. */
export function formatAttributeSet(
  attrs: readonly Attribute[],
  types: TypePrinter,
  llvmVersion: number,
  inGroup = false,
): string {
  let out = '';
  for (let i = 0; i < attrs.length; i++) {
    if (i) out += ' ';
    out += formatAttribute(attrs[i]!, types, llvmVersion, inGroup);
  }
  return out;
}

const groupRefs = new WeakMap<PrintContext, WeakMap<readonly Attribute[], string>>();

function refsOf(ctx: PrintContext): WeakMap<readonly Attribute[], string> {
  let refs = groupRefs.get(ctx);
  if (!refs) groupRefs.set(ctx, (refs = new WeakMap()));
  return refs;
}

/** ` #N` for a function attribute set, numbering it if it is new. */
function groupRef(ctx: PrintContext, attrs: readonly Attribute[], create: boolean): string {
  const refs = refsOf(ctx);
  let ref = refs.get(attrs);
  if (ref === undefined) {
    const key = formatAttributeSet(attrs, ctx.types, ctx.llvmVersion, true);
    let n = ctx.attrGroups.get(key);
    if (n === undefined && create) ctx.attrGroups.set(key, (n = ctx.attrGroups.size));
    ref = n === undefined ? ` #<${formatAttributeSet(attrs, ctx.types, ctx.llvmVersion)}>` : ` #${n}`;
    refs.set(attrs, ref);
  }
  return ref;
}

/**
 * Numbers attribute groups as LLVM does: global variables' attributes, functions' function
 * attributes, then call sites' function attributes, function by function.
 */
export function collectAttributeGroups(ctx: PrintContext, m: Module): void {
  const add = (attrs: readonly Attribute[]): void => {
    if (attrs.length !== 0) groupRef(ctx, attrs, true);
  };
  for (const g of m.globals) add(g.attributes.fn);
  for (const f of m.functions) add(f.attributes.fn);
  for (const f of m.functions) {
    for (const bb of f.blocks) {
      for (const inst of bb.insts) {
        if (inst.opcode === Opcode.Call || inst.opcode === Opcode.CallBr) add((inst as CallInst | CallBrInst).attributes.fn);
      }
    }
  }
}

/** ` #N` for a function attribute set ('' when empty). */
export function attributeGroupRef(ctx: PrintContext, attrs: readonly Attribute[]): string {
  return attrs.length === 0 ? '' : groupRef(ctx, attrs, false);
}
