/**
 * Specialised debug-info nodes (`!DISubprogram(...)`, `!DIBasicType(...)`, …): their fields,
 * decoded from the bitcode record kept on the node, printed as llvm-dis prints them, and their
 * operands in LLVM's operand order (which decides how `!N` slots are numbered).
 */
import { MDKind, dwarfAteName, type Metadata, type MDString, type RawDIRecord, type ValueAsMetadata, type GenericMDNode } from '../metadata.js';
import { ValueKind } from '../value.js';
import type { ConstantInt } from '../constants.js';
import type { DILabel, DILexicalBlock, DILexicalBlockFile } from '../metadata.js';
import { Fields } from './fields.js';
import {
  CHECKSUM_KINDS,
  EMISSION_KINDS,
  NAME_TABLE_KINDS,
  callingConventionName,
  formatDIFlags,
  formatSPFlags,
  languageName,
  macinfoName,
  tagName,
} from './dwarf-names.js';

/** METADATA_* record codes of the node kinds handled here. */
const enum Code {
  GenericDebug = 12,
  Subrange = 13,
  Enumerator = 14,
  BasicType = 15,
  File = 16,
  DerivedType = 17,
  CompositeType = 18,
  SubroutineType = 19,
  CompileUnit = 20,
  Subprogram = 21,
  Namespace = 24,
  TemplateType = 25,
  TemplateValue = 26,
  GlobalVar = 27,
  LocalVar = 28,
  ImportedEntity = 31,
  Macro = 33,
  MacroFile = 34,
  GlobalVarExpr = 37,
  AssignId = 47,
}

/** Typed access to a record's operands. */
class Rec {
  constructor(private readonly r: RawDIRecord) {}
  get code(): number {
    return this.r.code;
  }
  get length(): number {
    return this.r.ops.length;
  }
  n(i: number): number {
    return this.r.ops[i] ?? 0;
  }
  u(i: number): bigint {
    return this.r.big?.get(i) ?? BigInt(this.r.ops[i] ?? 0);
  }
  md(i: number): Metadata | null {
    return i < this.r.ops.length ? (this.r.refs[i] ?? null) : null;
  }
  s(i: number): string {
    const m = this.md(i);
    return m && m.mdkind === MDKind.String ? (m as MDString).value : '';
  }
}

function recordOf(md: Metadata): Rec | null {
  if (md.mdkind === MDKind.Generic) {
    const g = md as GenericMDNode;
    return new Rec({ code: g.code, ops: g.rawOps, big: g.big, refs: g.refs });
  }
  const raw = (md as { raw?: RawDIRecord | null }).raw;
  return raw ? new Rec(raw) : null;
}

/** Decodes a sign-rotated 64-bit value (LLVM's `unrotateSign`). */
function unrotate(v: bigint): bigint {
  return v & 1n ? -(v >> 1n) - 1n : v >> 1n;
}

/** Decodes a value written by LLVM's emitSignedInt64 (sign in bit 0, magnitude above it). */
function unfold(v: bigint): bigint {
  if ((v & 1n) === 0n) return v >> 1n;
  return v === 1n ? -(1n << 63n) : -(v >> 1n);
}

/** SP flags and field positions of a SUBPROGRAM record (only the SP-flags layout of LLVM ≥ 8). */
function subprogramFields(r: Rec) {
  return {
    scope: 1, name: 2, linkageName: 3, file: 4, line: 5, type: 6, scopeLine: 7, containingType: 8, spFlags: 9,
    virtualIndex: 10, flags: 11, unit: 12, templateParams: 13, declaration: 14, retainedNodes: 15,
    thisAdjustment: 16, thrownTypes: 17, annotations: r.length >= 19 ? 18 : -1, targetFuncName: r.length >= 20 ? 19 : -1,
  };
}

function hasSPFlags(r: Rec): boolean {
  return (r.n(0) & 4) !== 0;
}

function localVarShift(r: Rec): number {
  return (r.n(0) & 2) === 0 && r.length > 8 ? 1 : 0;
}

/** The node's operands in LLVM's order, or null when this module does not know the node kind. */
export function diOperands(md: Metadata): (Metadata | null)[] | null {
  switch (md.mdkind) {
    case MDKind.LexicalBlock:
    case MDKind.LexicalBlockFile: {
      const b = md as DILexicalBlock | DILexicalBlockFile;
      return [b.file, b.scope];
    }
    case MDKind.Label: {
      const l = md as DILabel;
      return [l.scope, l.file];
    }
    default:
      break;
  }
  const r = recordOf(md);
  if (!r) return null;
  const at = (...positions: number[]): (Metadata | null)[] => positions.map((p) => r.md(p));
  switch (r.code) {
    case Code.File:
    case Code.BasicType:
    case Code.Enumerator:
    case Code.AssignId:
    case Code.Macro:
      return [];
    case Code.CompileUnit:
      return at(2, 9, 10, 12, 13, 15);
    case Code.Subprogram: {
      if (!hasSPFlags(r)) return null;
      const f = subprogramFields(r);
      return at(f.file, f.scope, f.type, f.unit, f.declaration, f.retainedNodes, f.containingType, f.templateParams, f.thrownTypes, f.annotations);
    }
    case Code.LocalVar: {
      const t = localVarShift(r);
      return at(1 + t, 3 + t, 5 + t, (r.n(0) & 2) !== 0 ? 9 : -1);
    }
    case Code.DerivedType:
      return at(3, 5, 6, 11, r.length > 13 ? 13 : -1);
    case Code.CompositeType:
      return at(3, 5, 6, 11, 13, 14, 16, 17, 18, 19, 20, 21);
    case Code.SubroutineType:
      return at(2);
    case Code.Subrange:
      return r.n(0) >> 1 === 2 ? at(1, 2, 3, 4) : r.n(0) >> 1 === 1 ? at(1) : [];
    case Code.GlobalVar:
      return at(1, 4, 6, 9, 10, 12);
    case Code.GlobalVarExpr:
      return at(1, 2);
    case Code.ImportedEntity:
      return at(2, 3, 6, 7);
    case Code.Namespace:
      return at(1);
    case Code.TemplateType:
      return at(2);
    case Code.TemplateValue:
      return r.length === 6 ? at(3, 5) : at(3, 4);
    case Code.MacroFile:
      return at(3, 4);
    case Code.GenericDebug:
      return Array.from({ length: Math.max(0, r.length - 4) }, (_, i) => r.md(4 + i));
    default:
      return null;
  }
}

/** `!DIBasicType(name: "int", …)` (without `distinct `), or null for kinds printed generically. */
export function formatDINode(md: Metadata, operand: (m: Metadata | null) => string, llvmVersion: number): string | null {
  switch (md.mdkind) {
    case MDKind.Tuple:
    case MDKind.Location:
    case MDKind.String:
    case MDKind.Value:
    case MDKind.Expression:
    case MDKind.ArgList:
    case MDKind.ForwardRef:
      return null;
    default:
      break;
  }
  const f = new Fields(operand);
  switch (md.mdkind) {
    case MDKind.LexicalBlock: {
      const b = md as DILexicalBlock;
      f.md('scope', b.scope, false).md('file', b.file).int('line', b.line).int('column', b.column);
      return `!DILexicalBlock(${f})`;
    }
    case MDKind.LexicalBlockFile: {
      const b = md as DILexicalBlockFile;
      f.md('scope', b.scope, false).md('file', b.file).int('discriminator', b.discriminator, false);
      return `!DILexicalBlockFile(${f})`;
    }
    case MDKind.Label: {
      const l = md as DILabel;
      f.md('scope', l.scope, false).str('name', l.name).md('file', l.file).int('line', l.line);
      return `!DILabel(${f})`;
    }
    default:
      break;
  }
  const r = recordOf(md);
  if (!r) return null;
  const tag = (skipIf?: number): void => {
    const t = r.n(1);
    if (t !== skipIf) f.raw(`tag: ${tagName(t) ?? t}`);
  };
  switch (r.code) {
    case Code.File: {
      f.str('filename', r.s(1), false).str('directory', r.s(2), false);
      if (r.length > 4 && r.n(3) && r.md(4)) f.raw(`checksumkind: ${CHECKSUM_KINDS[r.n(3)] ?? r.n(3)}`).str('checksum', r.s(4), false);
      if (r.length > 5) f.str('source', r.s(5));
      return `!DIFile(${f})`;
    }
    case Code.CompileUnit: {
      const lang = r.n(1);
      f.keyword('language', lang, languageName(lang), true).md('file', r.md(2), false).str('producer', r.s(3));
      f.bool('isOptimized', r.n(4) !== 0).str('flags', r.s(5)).int('runtimeVersion', r.n(6), false);
      f.str('splitDebugFilename', r.s(7)).raw(`emissionKind: ${EMISSION_KINDS[r.n(8)] ?? r.n(8)}`);
      f.md('enums', r.md(9)).md('retainedTypes', r.md(10)).md('globals', r.md(12)).md('imports', r.md(13));
      f.md('macros', r.md(15)).int('dwoId', r.u(14));
      f.bool('splitDebugInlining', r.length <= 16 || r.n(16) !== 0, true);
      f.bool('debugInfoForProfiling', r.length > 17 && r.n(17) !== 0, false);
      const ntk = r.length > 18 ? r.n(18) : 0;
      if (ntk) f.raw(`nameTableKind: ${NAME_TABLE_KINDS[ntk] ?? ntk}`);
      f.bool('rangesBaseAddress', r.length > 19 && r.n(19) !== 0, false).str('sysroot', r.s(20)).str('sdk', r.s(21));
      return `!DICompileUnit(${f})`;
    }
    case Code.Subprogram: {
      if (!hasSPFlags(r)) return null;
      const p = subprogramFields(r);
      const spFlags = r.n(p.spFlags);
      f.str('name', r.s(p.name)).str('linkageName', r.s(p.linkageName)).md('scope', r.md(p.scope), false);
      f.md('file', r.md(p.file)).int('line', r.n(p.line)).md('type', r.md(p.type)).int('scopeLine', r.n(p.scopeLine));
      f.md('containingType', r.md(p.containingType));
      if ((spFlags & 3) !== 0 || r.n(p.virtualIndex) !== 0) f.int('virtualIndex', r.n(p.virtualIndex), false);
      f.int('thisAdjustment', BigInt.asIntN(32, r.u(p.thisAdjustment)));
      if (r.n(p.flags)) f.raw(`flags: ${formatDIFlags(r.n(p.flags))}`);
      f.raw(`spFlags: ${formatSPFlags(spFlags)}`).md('unit', r.md(p.unit)).md('templateParams', r.md(p.templateParams));
      f.md('declaration', r.md(p.declaration)).md('retainedNodes', r.md(p.retainedNodes)).md('thrownTypes', r.md(p.thrownTypes));
      f.md('annotations', r.md(p.annotations)).str('targetFuncName', r.s(p.targetFuncName));
      return `!DISubprogram(${f})`;
    }
    case Code.LocalVar: {
      const t = localVarShift(r);
      const hasAlign = (r.n(0) & 2) !== 0;
      f.str('name', r.s(2 + t)).int('arg', r.n(6 + t)).md('scope', r.md(1 + t), false).md('file', r.md(3 + t));
      f.int('line', r.n(4 + t)).md('type', r.md(5 + t));
      if (r.n(7 + t)) f.raw(`flags: ${formatDIFlags(r.n(7 + t))}`);
      if (hasAlign) f.int('align', r.n(8)).md('annotations', r.md(9));
      return `!DILocalVariable(${f})`;
    }
    case Code.BasicType: {
      tag(0x24);
      f.str('name', r.s(2)).int('size', r.u(3)).int('align', r.n(4));
      f.keyword('encoding', r.n(5), dwarfAteName(r.n(5)));
      if (r.length > 6 && r.n(6)) f.raw(`flags: ${formatDIFlags(r.n(6))}`);
      return `!DIBasicType(${f})`;
    }
    case Code.DerivedType: {
      tag();
      f.str('name', r.s(2)).md('scope', r.md(5)).md('file', r.md(3)).int('line', r.n(4)).md('baseType', r.md(6), false);
      f.int('size', r.u(7)).int('align', r.n(8)).int('offset', r.u(9));
      if (r.n(10)) f.raw(`flags: ${formatDIFlags(r.n(10))}`);
      f.md('extraData', r.md(11));
      if (r.length > 12 && r.n(12)) f.int('dwarfAddressSpace', r.n(12) - 1, false);
      if (r.length > (llvmVersion >= 19 ? 14 : 13)) f.md('annotations', r.md(13));
      return `!DIDerivedType(${f})`;
    }
    case Code.CompositeType: {
      tag();
      f.str('name', r.s(2)).md('scope', r.md(5)).md('file', r.md(3)).int('line', r.n(4)).md('baseType', r.md(6));
      f.int('size', r.u(7)).int('align', r.n(8)).int('offset', r.u(9));
      if (r.n(10)) f.raw(`flags: ${formatDIFlags(r.n(10))}`);
      f.md('elements', r.md(11)).keyword('runtimeLang', r.n(12), languageName(r.n(12)));
      f.md('vtableHolder', r.md(13)).md('templateParams', r.md(14)).str('identifier', r.s(15));
      f.md('discriminator', r.md(16)).md('dataLocation', r.md(17)).md('associated', r.md(18)).md('allocated', r.md(19));
      const rank = r.md(20);
      const rankInt = constantIntOf(rank);
      if (rankInt !== null) f.int('rank', rankInt, false);
      else f.md('rank', rank);
      f.md('annotations', r.md(21));
      return `!DICompositeType(${f})`;
    }
    case Code.SubroutineType: {
      if (r.n(1)) f.raw(`flags: ${formatDIFlags(r.n(1))}`);
      const cc = r.length > 3 ? r.n(3) : 0;
      f.keyword('cc', cc, callingConventionName(cc)).md('types', r.md(2), false);
      return `!DISubroutineType(${f})`;
    }
    case Code.Subrange:
      return formatSubrange(r, f);
    case Code.Enumerator: {
      const unsigned = (r.n(0) & 2) !== 0;
      let bits = 64;
      let v: bigint;
      if (r.n(0) & 4) {
        // Wide value: [flags, bit width, name, words…], each word sign-folded on its own.
        bits = Math.max(1, r.n(1));
        v = 0n;
        for (let i = r.length - 1; i >= 3; i--) v = (v << 64n) | BigInt.asUintN(64, unfold(r.u(i)));
      } else {
        v = unrotate(r.u(1));
      }
      v = unsigned ? BigInt.asUintN(bits, v) : BigInt.asIntN(bits, v);
      f.str('name', r.s(2), false).int('value', v, false);
      if (unsigned) f.raw('isUnsigned: true');
      return `!DIEnumerator(${f})`;
    }
    case Code.GlobalVar: {
      if (r.n(0) >> 1 !== 2) return null;
      f.str('name', r.s(2)).str('linkageName', r.s(3)).md('scope', r.md(1), false).md('file', r.md(4));
      f.int('line', r.n(5)).md('type', r.md(6)).bool('isLocal', r.n(7) !== 0).bool('isDefinition', r.n(8) !== 0);
      f.md('declaration', r.md(9)).md('templateParams', r.md(10)).int('align', r.n(11)).md('annotations', r.md(12));
      return `!DIGlobalVariable(${f})`;
    }
    case Code.GlobalVarExpr: {
      f.md('var', r.md(1));
      f.raw(`expr: ${r.md(2) ? operand(r.md(2)) : '!DIExpression()'}`);
      return `!DIGlobalVariableExpression(${f})`;
    }
    case Code.ImportedEntity: {
      tag();
      f.str('name', r.s(5)).md('scope', r.md(2), false).md('entity', r.md(3)).md('file', r.md(6));
      f.int('line', r.length >= 7 ? r.n(4) : 0).md('elements', r.md(7));
      return `!DIImportedEntity(${f})`;
    }
    case Code.Namespace: {
      f.str('name', r.s(r.length === 5 ? 3 : 2)).md('scope', r.md(1), false).bool('exportSymbols', (r.n(0) & 2) !== 0, false);
      return `!DINamespace(${f})`;
    }
    case Code.TemplateType: {
      f.str('name', r.s(1)).md('type', r.md(2), false).bool('defaulted', r.length === 4 && r.n(3) !== 0, false);
      return `!DITemplateTypeParameter(${f})`;
    }
    case Code.TemplateValue: {
      if (r.n(1) !== 0x30) tag();
      f.str('name', r.s(2)).md('type', r.md(3)).bool('defaulted', r.length === 6 && r.n(4) !== 0, false);
      f.md('value', r.md(r.length === 6 ? 5 : 4), false);
      return `!DITemplateValueParameter(${f})`;
    }
    case Code.Macro: {
      f.raw(`type: ${macinfoName(r.n(1)) ?? r.n(1)}`).int('line', r.n(2)).str('name', r.s(3)).str('value', r.s(4));
      return `!DIMacro(${f})`;
    }
    case Code.MacroFile: {
      if (r.n(1) !== 3) f.raw(`type: ${macinfoName(r.n(1)) ?? r.n(1)}`);
      f.int('line', r.n(2)).md('file', r.md(3), false).md('nodes', r.md(4));
      return `!DIMacroFile(${f})`;
    }
    case Code.AssignId:
      return '!DIAssignID()';
    case Code.GenericDebug: {
      tag();
      f.str('header', r.s(3));
      if (r.length > 4) {
        const ops = Array.from({ length: r.length - 4 }, (_, i) => operand(r.md(4 + i)));
        f.raw(`operands: {${ops.join(', ')}}`);
      }
      return `!GenericDINode(${f})`;
    }
    default:
      return null;
  }
}

/** The value of a `ConstantAsMetadata` holding an integer, else null. */
function constantIntOf(md: Metadata | null): bigint | null {
  if (!md || md.mdkind !== MDKind.Value) return null;
  const v = (md as ValueAsMetadata).value;
  return v.vkind === ValueKind.ConstantInt ? (v as ConstantInt).signedValue : null;
}

function formatSubrange(r: Rec, f: Fields): string {
  const version = r.n(0) >> 1;
  const bound = (name: string, md: Metadata | null): void => {
    const n = constantIntOf(md);
    if (n !== null) f.int(name, n, false);
    else f.md(name, md);
  };
  if (version === 2) {
    bound('count', r.md(1));
    bound('lowerBound', r.md(2));
    bound('upperBound', r.md(3));
    bound('stride', r.md(4));
  } else {
    if (version === 0) f.int('count', BigInt.asIntN(64, r.u(1)), false);
    else bound('count', r.md(1));
    f.int('lowerBound', unrotate(r.u(2)), false);
  }
  return `!DISubrange(${f})`;
}
