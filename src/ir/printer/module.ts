/** Whole-module printing: header, types, comdats, globals, aliases, functions, attributes, metadata. */
import { ValueKind } from '../value.js';
import { ComdatSelection, type Module } from '../module.js';
import {
  DLLStorage,
  LINKAGE_NAMES,
  Linkage,
  ThreadLocalMode,
  UnnamedAddr,
  Visibility,
  type BasicBlock,
  type Function,
  type GlobalAlias,
  type GlobalIFunc,
  type GlobalValue,
  type GlobalVariable,
} from '../globals.js';
import { successors } from '../instructions.js';
import type { PrintContext } from './context.js';
import { formatTypedValue, formatValue } from './constants.js';
import { attributeGroupRef, formatAttribute, formatAttributeSet } from './attributes.js';
import { formatAttachments, formatDebugRecord, formatInstruction } from './instructions.js';
import { formatMetadataNode } from './metadata.js';
import { escapeString, formatMetadataIdentifier, formatName } from './names.js';
import { formatCallingConv } from './callconv.js';
import { findStructTypes } from './types.js';

const VISIBILITY: Record<Visibility, string> = { [Visibility.Default]: '', [Visibility.Hidden]: 'hidden ', [Visibility.Protected]: 'protected ' };
const DLL: Record<DLLStorage, string> = { [DLLStorage.Default]: '', [DLLStorage.Import]: 'dllimport ', [DLLStorage.Export]: 'dllexport ' };
const TLS: Record<ThreadLocalMode, string> = {
  [ThreadLocalMode.NotThreadLocal]: '',
  [ThreadLocalMode.GeneralDynamic]: 'thread_local ',
  [ThreadLocalMode.LocalDynamic]: 'thread_local(localdynamic) ',
  [ThreadLocalMode.InitialExec]: 'thread_local(initialexec) ',
  [ThreadLocalMode.LocalExec]: 'thread_local(localexec) ',
};
const UNNAMED: Record<UnnamedAddr, string> = { [UnnamedAddr.None]: '', [UnnamedAddr.Global]: 'unnamed_addr', [UnnamedAddr.Local]: 'local_unnamed_addr' };
const COMDAT_KINDS: Record<ComdatSelection, string> = {
  [ComdatSelection.Any]: 'any',
  [ComdatSelection.ExactMatch]: 'exactmatch',
  [ComdatSelection.Largest]: 'largest',
  [ComdatSelection.NoDeduplicate]: 'nodeduplicate',
  [ComdatSelection.SameSize]: 'samesize',
};
const CODE_MODELS = ['', 'tiny', 'small', 'kernel', 'medium', 'large'];

function linkage(l: Linkage): string {
  const name = LINKAGE_NAMES[l];
  return name ? name + ' ' : '';
}

/** `dso_local ` unless it is implied (local linkage, or non-default visibility without extern_weak). */
function dsoLocal(g: GlobalValue): string {
  if (!g.dsoLocal) return '';
  const implicit = g.hasLocalLinkage || (g.visibility !== Visibility.Default && g.linkage !== Linkage.ExternWeak);
  return implicit ? '' : 'dso_local ';
}

function globalRef(ctx: PrintContext, g: GlobalValue): string {
  return formatValue(ctx, g);
}

function comdatSuffix(g: GlobalValue, sep: string): string {
  if (g.comdat === null) return '';
  return g.comdat === g.name ? `${sep} comdat` : `${sep} comdat(${formatName(g.comdat, '$')})`;
}

export function formatGlobalVariable(ctx: PrintContext, g: GlobalVariable): string {
  let s = globalRef(ctx, g) + ' = ';
  if (!g.initializer && g.linkage === Linkage.External) s += 'external ';
  s += linkage(g.linkage) + dsoLocal(g) + VISIBILITY[g.visibility] + DLL[g.dllStorage] + TLS[g.threadLocal];
  if (g.unnamedAddr !== UnnamedAddr.None) s += UNNAMED[g.unnamedAddr] + ' ';
  if (g.addrSpace) s += `addrspace(${g.addrSpace}) `;
  if (g.externallyInitialized) s += 'externally_initialized ';
  s += (g.isConstantGlobal ? 'constant ' : 'global ') + ctx.types.print(g.valueType);
  if (g.initializer) s += ' ' + formatValue(ctx, g.initializer);
  if (g.section) s += `, section "${escapeString(g.section)}"`;
  if (g.partition) s += `, partition "${escapeString(g.partition)}"`;
  if (g.codeModel) s += `, code_model "${CODE_MODELS[g.codeModel] ?? g.codeModel}"`;
  s += comdatSuffix(g, ',');
  if (g.align) s += `, align ${g.align}`;
  s += formatAttachments(ctx, null, g.attachments);
  s += attributeGroupRef(ctx, g.attributes.fn);
  return s;
}

function formatAlias(ctx: PrintContext, a: GlobalAlias): string {
  let s = globalRef(ctx, a) + ' = ' + linkage(a.linkage) + dsoLocal(a) + VISIBILITY[a.visibility] + DLL[a.dllStorage] + TLS[a.threadLocal];
  if (a.unnamedAddr !== UnnamedAddr.None) s += UNNAMED[a.unnamedAddr] + ' ';
  s += `alias ${ctx.types.print(a.valueType)}, `;
  if (!a.aliasee) s += `${ctx.types.print(a.type)} <<NULL ALIASEE>>`;
  else s += a.aliasee.vkind === ValueKind.ConstantExpr ? formatValue(ctx, a.aliasee) : formatTypedValue(ctx, a.aliasee);
  if (a.partition) s += `, partition "${escapeString(a.partition)}"`;
  return s;
}

function formatIFunc(ctx: PrintContext, i: GlobalIFunc): string {
  let s = globalRef(ctx, i) + ' = ' + linkage(i.linkage) + dsoLocal(i) + VISIBILITY[i.visibility];
  s += `ifunc ${ctx.types.print(i.valueType)}, `;
  if (!i.resolver) s += `${ctx.types.print(i.type)} <<NULL RESOLVER>>`;
  else s += i.resolver.vkind === ValueKind.ConstantExpr ? formatValue(ctx, i.resolver) : formatTypedValue(ctx, i.resolver);
  if (i.partition) s += `, partition "${escapeString(i.partition)}"`;
  return s;
}

/** Predecessors of each block in LLVM's use-list order (most recent use first), duplicates kept. */
function predecessors(fn: Function): Map<BasicBlock, BasicBlock[]> {
  const preds = new Map<BasicBlock, BasicBlock[]>();
  for (const bb of fn.blocks) {
    const term = bb.terminator;
    if (!term) continue;
    for (const succ of successors(term)) {
      let list = preds.get(succ);
      if (!list) preds.set(succ, (list = []));
      list.push(bb);
    }
  }
  for (const list of preds.values()) list.reverse();
  return preds;
}

function functionHeader(ctx: PrintContext, f: Function): string {
  const decl = f.isDeclaration;
  let s = '';
  const nonString = f.attributes.fn.filter((a) => !(a.isString || a.str !== undefined));
  if (nonString.length) s += `; Function Attrs: ${nonString.map((a) => formatAttribute(a, ctx.types, ctx.llvmVersion)).join(' ')}\n`;
  s += decl ? 'declare' + formatAttachments(ctx, null, f.attachments, ' ') + ' ' : 'define ';
  s += linkage(f.linkage) + dsoLocal(f) + VISIBILITY[f.visibility] + DLL[f.dllStorage];
  if (f.callingConv !== 0) s += formatCallingConv(f.callingConv) + ' ';
  if (f.attributes.ret.length) s += formatAttributeSet(f.attributes.ret, ctx.types, ctx.llvmVersion) + ' ';
  s += ctx.types.print(f.functionType.ret) + ' ' + globalRef(ctx, f) + '(';
  const params = f.functionType.params;
  const args: string[] = [];
  for (let i = 0; i < params.length; i++) {
    const pa = f.attributes.param(i);
    let a = ctx.types.print(params[i]!);
    if (pa.length) a += ' ' + formatAttributeSet(pa, ctx.types, ctx.llvmVersion);
    if (!decl) a += ' ' + formatValue(ctx, f.args[i]!);
    args.push(a);
  }
  if (f.functionType.varArgs) args.push('...');
  s += args.join(', ') + ')';
  if (f.unnamedAddr !== UnnamedAddr.None) s += ' ' + UNNAMED[f.unnamedAddr];
  if (f.addrSpace !== 0 || programAddrSpace(ctx.module) !== 0) s += ` addrspace(${f.addrSpace})`;
  s += attributeGroupRef(ctx, f.attributes.fn);
  if (f.section) s += ` section "${escapeString(f.section)}"`;
  if (f.partition) s += ` partition "${escapeString(f.partition)}"`;
  s += comdatSuffix(f, '');
  if (f.align) s += ` align ${f.align}`;
  if (f.gc) s += ` gc "${f.gc}"`;
  if (f.prefix) s += ' prefix ' + formatTypedValue(ctx, f.prefix);
  if (f.prologue) s += ' prologue ' + formatTypedValue(ctx, f.prologue);
  if (f.personality) s += ' personality ' + formatTypedValue(ctx, f.personality);
  return s;
}

function programAddrSpace(m: Module | null): number {
  const match = m?.dataLayout ? /(?:^|-)P(\d+)/.exec(m.dataLayout) : null;
  return match ? Number(match[1]) : 0;
}

/** Appends a function (definition with body, or declaration) to `out`, ending with a newline. */
export function formatFunction(ctx: PrintContext, f: Function, out: string[]): void {
  ctx.slots.setFunction(f);
  out.push(functionHeader(ctx, f));
  if (f.isDeclaration) {
    out.push('\n');
    return;
  }
  out.push(formatAttachments(ctx, null, f.attachments, ' '), ' {');
  const preds = predecessors(f);
  for (let i = 0; i < f.blocks.length; i++) formatBlock(ctx, f.blocks[i]!, i === 0, preds.get(f.blocks[i]!) ?? [], out);
  out.push('}\n');
}

function formatBlock(ctx: PrintContext, bb: BasicBlock, isEntry: boolean, preds: BasicBlock[], out: string[]): void {
  let head = '';
  if (bb.name) head = '\n' + formatName(bb.name, '') + ':';
  else if (!isEntry) {
    const slot = ctx.slots.localSlot(bb);
    head = '\n' + (slot >= 0 ? `${slot}:` : '<badref>:');
  }
  if (!isEntry) {
    const col = head.length - 1;
    head += ' '.repeat(Math.max(50 - col, 1)) + ';';
    head += preds.length ? ' preds = ' + preds.map((p) => formatValue(ctx, p)).join(', ') : ' No predecessors!';
  }
  out.push(head, '\n');
  for (const inst of bb.insts) {
    if (inst.debugRecords) for (const r of inst.debugRecords) out.push('    ', formatDebugRecord(ctx, r), '\n');
    out.push(formatInstruction(ctx, inst), '\n');
  }
}

/** The whole module as llvm-dis prints it. */
export function formatModule(ctx: PrintContext, m: Module): string {
  const out: string[] = [];
  if (m.source && !m.source.includes('\n')) out.push(`; ModuleID = '${m.source}'\n`);
  if (m.sourceFileName) out.push(`source_filename = "${escapeString(m.sourceFileName)}"\n`);
  if (m.dataLayout) out.push(`target datalayout = "${m.dataLayout}"\n`);
  if (m.targetTriple) out.push(`target triple = "${m.targetTriple}"\n`);
  if (m.moduleAsm) {
    out.push('\n');
    const lines = m.moduleAsm.split('\n');
    if (lines.length > 1 && lines[lines.length - 1] === '') lines.pop();
    for (const line of lines) out.push(`module asm "${escapeString(line)}"\n`);
  }
  const structs = ctx.module === m ? ctx.structs : findStructTypes(m);
  if (structs.length) {
    out.push('\n');
    for (const s of structs) if (!s.name) out.push(`${ctx.types.print(s)} = type ${ctx.types.structBody(s)}\n`);
    for (const s of structs) if (s.name) out.push(`${ctx.types.print(s)} = type ${ctx.types.structBody(s)}\n`);
  }
  const comdats: string[] = [];
  for (const g of [...m.functions, ...m.globals] as GlobalValue[]) if (g.comdat !== null && !comdats.includes(g.comdat)) comdats.push(g.comdat);
  if (comdats.length) out.push('\n');
  comdats.forEach((c, i) => {
    out.push(`${formatName(c, '$')} = comdat ${COMDAT_KINDS[m.comdats.get(c) ?? ComdatSelection.Any]}\n`);
    if (i !== comdats.length - 1) out.push('\n');
  });
  if (m.globals.length) out.push('\n');
  for (const g of m.globals) out.push(formatGlobalVariable(ctx, g), '\n');
  if (m.aliases.length) out.push('\n');
  for (const a of m.aliases) out.push(formatAlias(ctx, a), '\n');
  if (m.ifuncs.length) out.push('\n');
  for (const i of m.ifuncs) out.push(formatIFunc(ctx, i), '\n');
  for (const f of m.functions) {
    out.push('\n');
    formatFunction(ctx, f, out);
  }
  ctx.slots.setFunction(null);
  if (ctx.attrGroups.size) {
    out.push('\n');
    for (const [text, n] of ctx.attrGroups) out.push(`attributes #${n} = { ${text} }\n`);
  }
  if (m.namedMetadata.length) out.push('\n');
  for (const nmd of m.namedMetadata) {
    const ops = nmd.ops.map((op) => {
      const slot = ctx.slots.metadataSlot(op);
      return slot >= 0 ? `!${slot}` : formatMetadataNode(ctx, op);
    });
    out.push(`!${formatMetadataIdentifier(nmd.name)} = !{${ops.join(', ')}}\n`);
  }
  const nodes = ctx.slots.metadataNodes;
  if (nodes.length) out.push('\n');
  for (let i = 0; i < nodes.length; i++) out.push(`!${i} = ${formatMetadataNode(ctx, nodes[i]!)}\n`);
  return out.join('');
}
