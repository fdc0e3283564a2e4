import type { BitcodeRecord } from '../cursor.js';
import { MetadataCode as MC } from './ids.js';
import {
  DICompileUnit,
  DIFile,
  DILabel,
  DILexicalBlock,
  DILexicalBlockFile,
  DILocalVariable,
  DISubprogram,
  GenericMDNode,
  MDKind,
  clampDIColumn,
  type Metadata,
  type RawDIRecord,
} from '../../ir/metadata.js';

/**
 * Debug-info records (METADATA_FILE, _SUBPROGRAM, _BASIC_TYPE, …): one record, one node.
 * Decoding happens in two steps because nodes refer to each other in cycles: `decodeDINode`
 * builds the node from the record's scalars and strings; once the whole block is read,
 * `linkDINode` fills in the references (operand positions given by `diRefPositions`).
 * Layouts follow LLVM's reader (MetadataLoader), which accepts every older writer's layout.
 */

/** What decoding needs from the metadata list. */
export interface DIDecodeEnv {
  /** The MDString an "id + 1" operand names ('' for 0); an error if it is not a defined string. */
  string(idPlusOne: number): string;
  error(msg: string): never;
}

const enum Distinct {
  /** distinct = op0 != 0 */
  Whole,
  /** distinct = op0 & 1 */
  Bit0,
  /** LLVM's reader never makes these distinct. */
  Never,
}

interface GenericLayout {
  name: string;
  min: number;
  max: number;
  distinct: Distinct;
  refs: (ops: readonly number[], error: (msg: string) => never) => number[];
}

const fixed =
  (...positions: number[]) =>
  (): number[] =>
    positions;
const range = (from: number, to: number): number[] => Array.from({ length: Math.max(0, to - from) }, (_, i) => from + i);

const GENERIC: ReadonlyMap<number, GenericLayout> = new Map<number, GenericLayout>([
  [MC.GenericDebug, { name: 'GenericDINode', min: 4, max: Infinity, distinct: Distinct.Whole, refs: (ops) => range(3, ops.length) }],
  [MC.Subrange, { name: 'DISubrange', min: 3, max: 5, distinct: Distinct.Never, refs: subrangeRefs }],
  [MC.GenericSubrange, { name: 'DIGenericSubrange', min: 5, max: 5, distinct: Distinct.Never, refs: fixed(1, 2, 3, 4) }],
  [MC.Enumerator, { name: 'DIEnumerator', min: 3, max: Infinity, distinct: Distinct.Bit0, refs: fixed(2) }],
  [MC.BasicType, { name: 'DIBasicType', min: 6, max: 7, distinct: Distinct.Whole, refs: fixed(2) }],
  [MC.StringType, { name: 'DIStringType', min: 8, max: 9, distinct: Distinct.Whole, refs: (ops) => (ops.length === 9 ? [2, 3, 4, 5] : [2, 3, 4]) }],
  [MC.DerivedType, { name: 'DIDerivedType', min: 12, max: 15, distinct: Distinct.Whole, refs: (ops) => (ops.length > 13 ? [2, 3, 5, 6, 11, 13] : [2, 3, 5, 6, 11]) }],
  [MC.CompositeType, { name: 'DICompositeType', min: 16, max: 22, distinct: Distinct.Bit0, refs: (ops) => [2, 3, 5, 6, 11, 13, 14, 15, ...range(16, ops.length)] }],
  [MC.SubroutineType, { name: 'DISubroutineType', min: 3, max: 4, distinct: Distinct.Bit0, refs: fixed(2) }],
  [MC.Module, { name: 'DIModule', min: 5, max: 9, distinct: Distinct.Whole, refs: (ops) => (ops.length >= 8 ? [1, 2, 3, 4, 5, 6] : [1, 2, 3, 4, 5]) }],
  [MC.CommonBlock, { name: 'DICommonBlock', min: 6, max: 6, distinct: Distinct.Bit0, refs: fixed(1, 2, 3, 4) }],
  [MC.Namespace, { name: 'DINamespace', min: 3, max: 5, distinct: Distinct.Bit0, refs: namespaceRefs }],
  [MC.Macro, { name: 'DIMacro', min: 5, max: 5, distinct: Distinct.Whole, refs: fixed(3, 4) }],
  [MC.MacroFile, { name: 'DIMacroFile', min: 5, max: 5, distinct: Distinct.Whole, refs: fixed(3, 4) }],
  [MC.TemplateType, { name: 'DITemplateTypeParameter', min: 3, max: 4, distinct: Distinct.Whole, refs: fixed(1, 2) }],
  [MC.TemplateValue, { name: 'DITemplateValueParameter', min: 5, max: 6, distinct: Distinct.Whole, refs: (ops) => (ops.length === 6 ? [2, 3, 5] : [2, 3, 4]) }],
  [MC.GlobalVar, { name: 'DIGlobalVariable', min: 11, max: 13, distinct: Distinct.Bit0, refs: globalVarRefs }],
  [MC.GlobalVarExpr, { name: 'DIGlobalVariableExpression', min: 3, max: 3, distinct: Distinct.Whole, refs: fixed(1, 2) }],
  [MC.ObjCProperty, { name: 'DIObjCProperty', min: 8, max: 8, distinct: Distinct.Whole, refs: fixed(1, 2, 4, 5, 7) }],
  [MC.ImportedEntity, { name: 'DIImportedEntity', min: 6, max: 8, distinct: Distinct.Whole, refs: (ops) => [2, 3, 5, ...range(6, ops.length)] }],
  [MC.AssignId, { name: 'DIAssignID', min: 1, max: 1, distinct: Distinct.Bit0, refs: fixed() }],
]);

function subrangeRefs(ops: readonly number[], error: (msg: string) => never): number[] {
  switch (ops[0]! >> 1) {
    case 0:
      return [];
    case 1:
      return [1];
    case 2:
      if (ops.length < 5) error('invalid DISubrange record');
      return [1, 2, 3, 4];
    default:
      return error(`unsupported DISubrange record version ${ops[0]! >> 1}`);
  }
}

function namespaceRefs(ops: readonly number[], error: (msg: string) => never): number[] {
  if (ops.length === 3) return [1, 2];
  if (ops.length === 5) return [1, 2, 3];
  return error('invalid DINamespace record');
}

function globalVarRefs(ops: readonly number[], error: (msg: string) => never): number[] {
  switch (ops[0]! >> 1) {
    case 0:
      return [1, 2, 3, 4, 6, 9, 10];
    case 1:
      return [1, 2, 3, 4, 6, 10];
    case 2:
      return ops.length > 12 ? [1, 2, 3, 4, 6, 9, 10, 12] : [1, 2, 3, 4, 6, 9, 10];
    default:
      return error(`unsupported DIGlobalVariable record version ${ops[0]! >> 1}`);
  }
}

/** Where DISubprogram's fields are: the layout changed with the SP-flags word (op0 bit 2). */
interface SubprogramLayout {
  hasUnit: boolean;
  /** Shift of the fields after `type` in the old (pre-DISPFlags) layout. */
  offsetA: number;
  /** Shift of the fields from `unit` on. */
  offsetB: number;
  refs: number[];
  definition: boolean;
}

const SP_FLAG_DEFINITION = 1 << 3;

function subprogramLayout(ops: readonly number[], error: (msg: string) => never): SubprogramLayout {
  const n = ops.length;
  const hasSPFlags = (ops[0]! & 4) !== 0;
  const hasUnit = (ops[0]! & 2) !== 0;
  if (hasSPFlags) {
    if (!hasUnit) error('invalid DISubprogram record: SP flags without a unit');
    const refs = [1, 2, 3, 4, 6, 8, 12, 13, 14, 15, 17];
    if (n >= 19) refs.push(18);
    if (n >= 20) refs.push(19);
    return { hasUnit, offsetA: 0, offsetB: 0, refs, definition: (ops[9]! & SP_FLAG_DEFINITION) !== 0 };
  }
  if (hasUnit && n < 19) error('invalid DISubprogram record: too short for a unit');
  const offsetB = n >= 19 ? 3 : 2;
  const refs = [1, 2, 3, 4, 6, 10, 12 + offsetB, 13 + offsetB, 14 + offsetB, 15 + offsetB];
  if (n >= 21) refs.push(17 + offsetB);
  return { hasUnit, offsetA: 2, offsetB, refs, definition: ops[8] !== 0 };
}

/** LOCAL_VAR: op0 bit 1 says there is an alignment; older records had a tag in op1 instead. */
function localVarShift(ops: readonly number[]): number {
  const hasAlignment = (ops[0]! & 2) !== 0;
  return !hasAlignment && ops.length > 8 ? 1 : 0;
}

function checkSize(code: number, ops: readonly number[], min: number, max: number, error: (msg: string) => never): void {
  if (ops.length < min || ops.length > max) error(`invalid metadata record (code ${code}) with ${ops.length} operands`);
}

/** True for record codes `decodeDINode` handles. */
export function isDIRecord(code: number): boolean {
  return GENERIC.has(code) || SPECIALISED.has(code);
}

const SPECIALISED = new Set<number>([MC.File, MC.CompileUnit, MC.Subprogram, MC.LexicalBlock, MC.LexicalBlockFile, MC.LocalVar, MC.Label]);

/** Builds the node of a debug-info record; its references are filled in by `linkDINode`. */
export function decodeDINode(rec: BitcodeRecord, env: DIDecodeEnv): Metadata {
  const { code, ops } = rec;
  const error = env.error;
  const generic = GENERIC.get(code);
  if (generic) {
    checkSize(code, ops, generic.min, generic.max, error);
    const node = new GenericMDNode(code, generic.name, ops);
    if (rec.big) node.big = rec.big;
    node.distinct = generic.distinct === Distinct.Whole ? ops[0] !== 0 : generic.distinct === Distinct.Bit0 && (ops[0]! & 1) !== 0;
    validateGeneric(code, ops, node.distinct, error);
    return node;
  }
  let node: Metadata;
  switch (code) {
    case MC.File:
      if (ops.length !== 3 && ops.length !== 5 && ops.length !== 6) error(`invalid DIFile record with ${ops.length} operands`);
      node = new DIFile(env.string(ops[1]!), env.string(ops[2]!));
      node.distinct = ops[0] !== 0;
      break;
    case MC.CompileUnit:
      checkSize(code, ops, 14, 22, error);
      node = new DICompileUnit(null, env.string(ops[3]!), ops[1]!);
      node.distinct = true;
      break;
    case MC.Subprogram: {
      checkSize(code, ops, 18, 21, error);
      const l = subprogramLayout(ops, error);
      node = new DISubprogram(null, env.string(ops[2]!), env.string(ops[3]!), null, ops[5]! >>> 0, ops[7 + l.offsetA]! >>> 0, null);
      node.distinct = (ops[0]! & 1) !== 0 || l.definition;
      break;
    }
    case MC.LexicalBlock:
      checkSize(code, ops, 5, 5, error);
      node = new DILexicalBlock(null, null, ops[3]! >>> 0, clampDIColumn(ops[4]!));
      node.distinct = ops[0] !== 0;
      break;
    case MC.LexicalBlockFile:
      checkSize(code, ops, 4, 4, error);
      node = new DILexicalBlockFile(null, null, ops[3]!);
      node.distinct = ops[0] !== 0;
      break;
    case MC.LocalVar: {
      checkSize(code, ops, 8, 10, error);
      const t = localVarShift(ops);
      if ((ops[0]! & 2) !== 0 && ops[8]! > 0xffffffff) error('DILocalVariable alignment is too large');
      node = new DILocalVariable(null, env.string(ops[2 + t]!), null, ops[4 + t]! >>> 0, ops[6 + t]! >>> 0);
      node.distinct = (ops[0]! & 1) !== 0;
      break;
    }
    case MC.Label:
      checkSize(code, ops, 5, 5, error);
      node = new DILabel(null, env.string(ops[2]!), null, ops[4]! >>> 0);
      node.distinct = (ops[0]! & 1) !== 0;
      break;
    default:
      return error(`metadata record code ${code} is not a debug-info node`);
  }
  return node;
}

function validateGeneric(code: number, ops: readonly number[], distinct: boolean, error: (msg: string) => never): void {
  switch (code) {
    case MC.GenericDebug:
      if (ops[1]! >= 1 << 16 || ops[2] !== 0) error('invalid GenericDINode record');
      break;
    case MC.CompositeType:
      if (ops[8]! > 0xffffffff) error('DICompositeType alignment is too large');
      break;
    case MC.AssignId:
      if (!distinct) error('DIAssignID record must be distinct');
      break;
  }
}

/** Operand positions of a debug-info record that are metadata references ("id + 1", 0 = null). */
export function diRefPositions(code: number, ops: readonly number[], error: (msg: string) => never): number[] {
  const generic = GENERIC.get(code);
  if (generic) return generic.refs(ops, error);
  switch (code) {
    case MC.File:
      return ops.length === 6 ? [1, 2, 4, 5] : ops.length === 5 ? [1, 2, 4] : [1, 2];
    case MC.CompileUnit: {
      const refs = [2, 3, 5, 7, 9, 10, 11, 12, 13];
      if (ops.length > 15) refs.push(15);
      if (ops.length > 20) refs.push(20);
      if (ops.length > 21) refs.push(21);
      return refs;
    }
    case MC.Subprogram:
      return subprogramLayout(ops, error).refs;
    case MC.LexicalBlock:
    case MC.LexicalBlockFile:
      return [1, 2];
    case MC.LocalVar: {
      const t = localVarShift(ops);
      const refs = [1 + t, 2 + t, 3 + t, 5 + t];
      if ((ops[0]! & 2) !== 0 && ops.length > 9) refs.push(9);
      return refs;
    }
    case MC.Label:
      return [1, 2, 3];
    default:
      return error(`metadata record code ${code} is not a debug-info node`);
  }
}

/** Fills in a node's references; `refs[i]` is the node operand i refers to (at `diRefPositions`). */
export function linkDINode(node: Metadata, rec: BitcodeRecord, refs: (Metadata | null | undefined)[]): void {
  const raw = (): RawDIRecord => ({ code: rec.code, ops: rec.ops, big: rec.big ?? null, refs });
  switch (node.mdkind) {
    case MDKind.Generic:
      (node as GenericMDNode).refs = refs;
      break;
    case MDKind.File:
      (node as DIFile).raw = raw();
      break;
    case MDKind.CompileUnit: {
      const cu = node as DICompileUnit;
      cu.file = refs[2] ?? null;
      cu.raw = raw();
      break;
    }
    case MDKind.Subprogram: {
      const sp = node as DISubprogram;
      const hasUnit = (rec.ops[0]! & 2) !== 0;
      const offsetB = (rec.ops[0]! & 4) !== 0 ? 0 : rec.ops.length >= 19 ? 3 : 2;
      sp.scope = refs[1] ?? null;
      sp.file = refs[4] ?? null;
      sp.unit = hasUnit ? (refs[12 + offsetB] ?? null) : null;
      sp.raw = raw();
      break;
    }
    case MDKind.LexicalBlock:
    case MDKind.LexicalBlockFile: {
      const lb = node as DILexicalBlock | DILexicalBlockFile;
      lb.scope = refs[1] ?? null;
      lb.file = refs[2] ?? null;
      break;
    }
    case MDKind.LocalVariable: {
      const v = node as DILocalVariable;
      const t = localVarShift(rec.ops);
      v.scope = refs[1 + t] ?? null;
      v.file = refs[3 + t] ?? null;
      v.raw = raw();
      break;
    }
    case MDKind.Label: {
      const l = node as DILabel;
      l.scope = refs[1] ?? null;
      l.file = refs[3] ?? null;
      break;
    }
  }
}
