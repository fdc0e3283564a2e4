/**
 * Merging named metadata: lists are concatenated (llvm.dbg.cu, llvm.ident, …) except
 * llvm.module.flags, where each flag key appears once and conflicts are settled by the
 * flag's merge behavior (LangRef, "Module Flags Metadata").
 */
import type { ConstantInt } from '../constants.js';
import { MDKind, MDTuple, type MDString, type Metadata, type NamedMetadata, type ValueAsMetadata } from '../metadata.js';
import { ValueKind } from '../value.js';
import { LinkError } from './errors.js';

enum FlagBehavior {
  Error = 1,
  Warning = 2,
  Require = 3,
  Override = 4,
  Append = 5,
  AppendUnique = 6,
  Max = 7,
  Min = 8,
}

interface Flag {
  behavior: number;
  key: string;
  value: Metadata | null;
  node: Metadata;
  source: string;
}

function intOf(md: Metadata | null | undefined): bigint | null {
  if (!md || md.mdkind !== MDKind.Value) return null;
  const v = (md as ValueAsMetadata).value;
  return v.vkind === ValueKind.ConstantInt ? (v as ConstantInt).value : null;
}

function parseFlag(node: Metadata, source: string): Flag | null {
  if (node.mdkind !== MDKind.Tuple) return null;
  const ops = (node as MDTuple).ops;
  const behavior = intOf(ops[0]);
  const key = ops[1];
  if (ops.length !== 3 || behavior === null || !key || key.mdkind !== MDKind.String) return null;
  return { behavior: Number(behavior), key: (key as MDString).value, value: ops[2] ?? null, node, source };
}

/** Structural equality, enough for flag values (integers, strings, tuples of them). */
function mdEqual(a: Metadata | null, b: Metadata | null, depth = 0): boolean {
  if (a === b) return true;
  if (!a || !b || a.mdkind !== b.mdkind || depth > 32) return false;
  switch (a.mdkind) {
    case MDKind.String:
      return (a as MDString).value === (b as MDString).value;
    case MDKind.Value: {
      const x = intOf(a);
      const va = (a as ValueAsMetadata).value;
      const vb = (b as ValueAsMetadata).value;
      return va === vb || (x !== null && x === intOf(b) && va.type === vb.type);
    }
    case MDKind.Tuple: {
      const oa = (a as MDTuple).ops;
      const ob = (b as MDTuple).ops;
      return oa.length === ob.length && oa.every((o, i) => mdEqual(o, ob[i]!, depth + 1));
    }
    default:
      return false;
  }
}

function withValue(f: Flag, value: Metadata): Metadata {
  const ops = (f.node as MDTuple).ops;
  return new MDTuple([ops[0]!, ops[1]!, value]);
}

function mergeFlags(
  ops: { node: Metadata; source: string }[],
  warn: (msg: string) => void,
): Metadata[] {
  // Unparsable entries are kept as they are (flag null).
  const result: { flag: Flag | null; node: Metadata }[] = [];
  const byKey = new Map<string, number>();
  for (const { node, source } of ops) {
    const src = parseFlag(node, source);
    if (!src) {
      result.push({ flag: null, node });
      continue;
    }
    const at = byKey.get(src.key);
    if (at === undefined) {
      byKey.set(src.key, result.length);
      result.push({ flag: src, node });
      continue;
    }
    const dst = result[at]!.flag!;
    if (src.behavior === FlagBehavior.Require || dst.behavior === FlagBehavior.Require) continue;
    if (mdEqual(dst.value, src.value)) continue;
    if (src.behavior === FlagBehavior.Override && dst.behavior !== FlagBehavior.Override) {
      result[at] = { flag: src, node };
      continue;
    }
    const conflict = `module flag '${src.key}' has conflicting values (in ${dst.source} and ${src.source})`;
    switch (dst.behavior) {
      case FlagBehavior.Error:
        throw new LinkError(conflict);
      case FlagBehavior.Override: // the first override stands
        break;
      case FlagBehavior.Max:
      case FlagBehavior.Min: {
        const a = intOf(dst.value);
        const b = intOf(src.value);
        if (a === null || b === null) throw new LinkError(conflict);
        if (dst.behavior === FlagBehavior.Max ? b > a : b < a) result[at] = { flag: src, node };
        break;
      }
      case FlagBehavior.Append:
      case FlagBehavior.AppendUnique: {
        if (dst.value?.mdkind !== MDKind.Tuple || src.value?.mdkind !== MDKind.Tuple) throw new LinkError(conflict);
        const merged = [...(dst.value as MDTuple).ops];
        for (const o of (src.value as MDTuple).ops) {
          if (dst.behavior === FlagBehavior.Append || !merged.some((m) => mdEqual(m, o))) merged.push(o);
        }
        const value = new MDTuple(merged);
        const appended = withValue(dst, value);
        result[at] = { flag: { ...dst, value, node: appended }, node: appended };
        break;
      }
      default:
        warn(`${conflict}; keeping the value from ${dst.source}`);
    }
  }
  return result.map((r) => r.node);
}

/** Named metadata of several modules, merged; `sources[i]` names `lists[i]`'s module in messages. */
export function mergeNamedMetadata(
  lists: readonly (readonly NamedMetadata[])[],
  sources: readonly string[],
  warn: (msg: string) => void,
): NamedMetadata[] {
  const order: string[] = [];
  const ops = new Map<string, { node: Metadata; source: string }[]>();
  lists.forEach((list, i) => {
    for (const nmd of list) {
      let entry = ops.get(nmd.name);
      if (!entry) {
        entry = [];
        ops.set(nmd.name, entry);
        order.push(nmd.name);
      }
      for (const node of nmd.ops) entry.push({ node, source: sources[i]! });
    }
  });
  return order.map((name) => {
    const entry = ops.get(name)!;
    return { name, ops: name === 'llvm.module.flags' ? mergeFlags(entry, warn) : entry.map((e) => e.node) };
  });
}
