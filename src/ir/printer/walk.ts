/**
 * Operand enumeration for constants and metadata nodes, shared by the type finder (struct
 * numbering) and the slot tracker (metadata numbering).
 */
import { ValueKind, type Value } from '../value.js';
import { MDKind, type Metadata, type MDTuple, type DILocation, type GenericMDNode, type RawDIRecord } from '../metadata.js';
import { diOperands } from './di-nodes.js';
import type {
  BlockAddress,
  ConstantArray,
  ConstantExpr,
  ConstantStruct,
  ConstantVector,
  DSOLocalEquivalent,
  NoCFIValue,
} from '../constants.js';

const NO_VALUES: readonly Value[] = [];

/** Value operands of a constant (elements, expression operands, referenced globals). */
export function constantOperands(c: Value): readonly Value[] {
  switch (c.vkind) {
    case ValueKind.ConstantArray:
    case ValueKind.ConstantStruct:
    case ValueKind.ConstantVector:
      return (c as ConstantArray | ConstantStruct | ConstantVector).elements;
    case ValueKind.ConstantExpr:
      return (c as ConstantExpr).ops;
    case ValueKind.BlockAddress:
      return [(c as BlockAddress).fn];
    case ValueKind.DSOLocalEquivalent:
    case ValueKind.NoCFIValue:
      return [(c as DSOLocalEquivalent | NoCFIValue).global];
    default:
      return NO_VALUES;
  }
}

/** A node's operands that are metadata (null entries stand for null operands). */
export function mdOperands(md: Metadata): readonly (Metadata | null)[] {
  switch (md.mdkind) {
    case MDKind.Tuple:
      return (md as MDTuple).ops;
    case MDKind.Location: {
      const loc = md as DILocation;
      return loc.inlinedAt ? [loc.scope, loc.inlinedAt] : [loc.scope];
    }
    case MDKind.String:
    case MDKind.Value:
    case MDKind.Expression:
    case MDKind.ArgList:
    case MDKind.ForwardRef:
      return [];
    default: {
      const ordered = diOperands(md);
      if (ordered) return ordered;
      if (md.mdkind === MDKind.Generic) return refsOf((md as GenericMDNode).refs);
      const raw = (md as { raw?: RawDIRecord | null }).raw;
      if (raw) return refsOf(raw.refs);
      const node = md as { scope?: Metadata | null; file?: Metadata | null; unit?: Metadata | null };
      const out: (Metadata | null)[] = [];
      if (node.scope !== undefined) out.push(node.scope);
      if (node.file !== undefined) out.push(node.file);
      if (node.unit !== undefined) out.push(node.unit);
      return out;
    }
  }
}

function refsOf(refs: readonly (Metadata | null | undefined)[]): (Metadata | null)[] {
  const out: (Metadata | null)[] = [];
  for (const r of refs) if (r !== undefined) out.push(r);
  return out;
}

/** True for metadata that LLVM numbers with a `!N` slot (MDNodes other than DIExpression/DIArgList). */
export function isNumberedNode(md: Metadata): boolean {
  switch (md.mdkind) {
    case MDKind.String:
    case MDKind.Value:
    case MDKind.Expression:
    case MDKind.ArgList:
    case MDKind.ForwardRef:
      return false;
    default:
      return true;
  }
}
