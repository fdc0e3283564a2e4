/**
 * PARAMATTR_GROUP_BLOCK and PARAMATTR_BLOCK: attribute groups (one attribute set for one
 * index: function, return value or a parameter) and the attribute lists made of them.
 */
import { EntryKind, u64, type BitcodeRecord, type BitstreamCursor } from '../cursor.js';
import { AttributeCode, BlockId } from './ids.js';
import type { AttributeTables, ReaderContext } from './context.js';
import { AttributeList, type Attribute } from '../../ir/attributes.js';
import { readConstantRange } from './int-codec.js';

/** Attribute names by ATTR_KIND_* id (LLVMBitCodes.h); unknown ids print as `attr<ID>`. */
const ATTR_NAMES: readonly string[] = [
  '', 'align', 'alwaysinline', 'byval', 'inlinehint', 'inreg', 'minsize', 'naked', 'nest', 'noalias',
  'nobuiltin', 'nocapture', 'noduplicate', 'noimplicitfloat', 'noinline', 'nonlazybind', 'noredzone', 'noreturn', 'nounwind', 'optsize',
  'readnone', 'readonly', 'returned', 'returns_twice', 'signext', 'alignstack', 'ssp', 'sspreq', 'sspstrong', 'sret',
  'sanitize_address', 'sanitize_thread', 'sanitize_memory', 'uwtable', 'zeroext', 'builtin', 'cold', 'optnone', 'inalloca', 'nonnull',
  'jumptable', 'dereferenceable', 'dereferenceable_or_null', 'convergent', 'safestack', 'argmemonly', 'swiftself', 'swifterror', 'norecurse', 'inaccessiblememonly',
  'inaccessiblemem_or_argmemonly', 'allocsize', 'writeonly', 'speculatable', 'strictfp', 'sanitize_hwaddress', 'nocf_check', 'optforfuzzing', 'shadowcallstack', 'speculative_load_hardening',
  'immarg', 'willreturn', 'nofree', 'nosync', 'sanitize_memtag', 'preallocated', 'nomerge', 'null_pointer_is_valid', 'noundef', 'byref',
  'mustprogress', 'nocallback', 'hot', 'noprofile', 'vscale_range', 'swiftasync', 'nosanitize_coverage', 'elementtype', 'disable_sanitizer_instrumentation', 'nosanitize_bounds',
  'allocalign', 'allocptr', 'allockind', 'presplitcoroutine', 'fn_ret_thunk_extern', 'skipprofile', 'memory', 'nofpclass', 'optdebug', 'writable',
  'coro_only_destroy_when_complete', 'dead_on_unwind', 'range', 'sanitize_numerical_stability', 'initializes', 'hybrid_patchable', 'sanitize_realtime', 'sanitize_realtime_blocking', 'coro_elide_safe', 'noext',
  'nodivergencesource', 'sanitize_type', 'captures', 'dead_on_return',
];

export function attributeName(id: number): string {
  return (id > 0 && ATTR_NAMES[id]) || `attr${id}`;
}

/** Index of a group: 0xFFFFFFFF = function, 0 = return value, i + 1 = parameter i. */
const FUNCTION_INDEX = 0xffffffff;
/** Sanity bound on parameter indices, so a corrupt index cannot allocate a huge array. */
const MAX_PARAMS = 1 << 16;
const NO_ATTRS: readonly Attribute[] = Object.freeze([]);

interface Group {
  index: number;
  attrs: Attribute[];
}

/** `ctx.attrs`: groups and lists read from the module's attribute blocks. */
export class AttributeTable implements AttributeTables {
  readonly groups = new Map<number, Group>();
  readonly lists: AttributeList[] = [];
  sawGroups = false;
  sawLists = false;

  constructor(private readonly ctx: ReaderContext) {}

  list(id: number): AttributeList {
    if (id === 0) return AttributeList.EMPTY;
    const l = this.lists[id - 1];
    if (!l) this.ctx.error(`invalid attribute list id ${id}`);
    return l;
  }
}

export function readAttributeGroupBlock(ctx: ReaderContext, cursor: BitstreamCursor, table: AttributeTable): void {
  cursor.enterSubBlock(BlockId.ParamAttrGroup);
  if (table.sawGroups) ctx.error('more than one attribute group block');
  table.sawGroups = true;
  for (;;) {
    const e = cursor.advance();
    if (e.kind === EntryKind.EndBlock) return;
    if (e.kind === EntryKind.SubBlock) {
      cursor.skipBlock();
      continue;
    }
    ctx.bitPos = cursor.bitPos;
    const rec = cursor.readRecord(e.id);
    if (rec.code !== AttributeCode.GroupEntry) continue; // LLVM ignores other records here
    if (rec.ops.length < 3) ctx.error('invalid attribute group record');
    table.groups.set(rec.ops[0]!, { index: rec.ops[1]!, attrs: readGroupAttributes(ctx, rec) });
  }
}

function readGroupAttributes(ctx: ReaderContext, rec: BitcodeRecord): Attribute[] {
  const ops = rec.ops;
  const n = ops.length;
  const attrs: Attribute[] = [];
  const need = (i: number, k: number): void => {
    if (i + k > n) ctx.error('truncated attribute group record');
  };
  let i = 2;
  while (i < n) {
    const encoding = ops[i++]!;
    switch (encoding) {
      case 0: // enum attribute: [id]
        need(i, 1);
        attrs.push({ kind: attributeName(ops[i++]!) });
        break;
      case 1: // integer attribute: [id, value]
        need(i, 2);
        attrs.push({ kind: attributeName(ops[i]!), int: u64(rec, i + 1) });
        i += 2;
        break;
      case 3: // string attribute: [key..., 0]
      case 4: {
        // string attribute with a value: [key..., 0, value..., 0]
        const key = readCString(ctx, ops, i);
        i = key.next;
        const attr: Attribute = { kind: key.str, isString: true };
        if (encoding === 4) {
          const value = readCString(ctx, ops, i);
          i = value.next;
          attr.str = value.str;
        }
        attrs.push(attr);
        break;
      }
      case 5: // type attribute without a type: [id]
        need(i, 1);
        attrs.push({ kind: attributeName(ops[i++]!), type: null });
        break;
      case 6: // type attribute: [id, type]
        need(i, 2);
        attrs.push({ kind: attributeName(ops[i]!), type: ctx.getType(ops[i + 1]!) });
        i += 2;
        break;
      case 7: {
        // constant range: [id, bitwidth, range]
        need(i, 2);
        const kind = attributeName(ops[i]!);
        const bitWidth = ops[i + 1]!;
        const r = readConstantRange(ctx, rec, i + 2, bitWidth);
        i = r.next;
        attrs.push({ kind, bitWidth, ranges: [r.range] });
        break;
      }
      case 8: {
        // constant range list: [id, count, bitwidth, ranges...]
        need(i, 3);
        const kind = attributeName(ops[i]!);
        const count = ops[i + 1]!;
        const bitWidth = ops[i + 2]!;
        i += 3;
        if (count > n - i) ctx.error('attribute range list longer than its record');
        const ranges: [bigint, bigint][] = [];
        for (let k = 0; k < count; k++) {
          const r = readConstantRange(ctx, rec, i, bitWidth);
          ranges.push(r.range);
          i = r.next;
        }
        attrs.push({ kind, bitWidth, ranges });
        break;
      }
      default:
        ctx.error(`invalid attribute encoding ${encoding} in attribute group`);
    }
  }
  return attrs;
}

function readCString(ctx: ReaderContext, ops: readonly number[], from: number): { str: string; next: number } {
  let s = '';
  for (let i = from; i < ops.length; i++) {
    const c = ops[i]!;
    if (c === 0) return { str: s, next: i + 1 };
    s += String.fromCharCode(c & 0xff);
  }
  return ctx.error('unterminated string in attribute group');
}

export function readAttributeBlock(ctx: ReaderContext, cursor: BitstreamCursor, table: AttributeTable): void {
  cursor.enterSubBlock(BlockId.ParamAttr);
  if (table.sawLists) ctx.error('more than one attribute list block');
  table.sawLists = true;
  for (;;) {
    const e = cursor.advance();
    if (e.kind === EntryKind.EndBlock) return;
    if (e.kind === EntryKind.SubBlock) {
      cursor.skipBlock();
      continue;
    }
    ctx.bitPos = cursor.bitPos;
    const rec = cursor.readRecord(e.id);
    switch (rec.code) {
      case AttributeCode.Entry:
        table.lists.push(buildList(ctx, table, rec.ops));
        break;
      case AttributeCode.EntryOld:
        ctx.error('unsupported pre-LLVM 3.3 attribute encoding');
        break;
      default:
        break; // LLVM ignores other records here
    }
  }
}

function buildList(ctx: ReaderContext, table: AttributeTable, groupIds: readonly number[]): AttributeList {
  const fn: Attribute[] = [];
  const ret: Attribute[] = [];
  const params: Attribute[][] = [];
  for (const id of groupIds) {
    const g = table.groups.get(id);
    if (!g) ctx.error(`attribute list refers to unknown attribute group ${id}`);
    if (g.index === FUNCTION_INDEX) fn.push(...g.attrs);
    else if (g.index === 0) ret.push(...g.attrs);
    else {
      if (g.index > MAX_PARAMS) ctx.error(`attribute group index ${g.index} out of range`);
      (params[g.index - 1] ??= []).push(...g.attrs);
    }
  }
  const filled: (readonly Attribute[])[] = Array.from(params, (p) => p ?? NO_ATTRS);
  return new AttributeList(fn, ret, filled);
}
