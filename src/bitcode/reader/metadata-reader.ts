import { EntryKind, u64, type BitcodeRecord, type BitstreamCursor } from '../cursor.js';
import { BlockId, MetadataCode as MC } from './ids.js';
import { opsToString, type MetadataAccess, type ReaderContext } from './context.js';
import { decodeMetadataStrings } from './metadata-strings.js';
import { decodeDINode, diRefPositions, isDIRecord, linkDINode, type DIDecodeEnv } from './metadata-nodes.js';
import {
  DIArgList,
  DIExpression,
  DILocation,
  DwOp,
  MDKind,
  clampDIColumn,
  MDString,
  MDTuple,
  ValueAsMetadata,
  type Metadata,
} from '../../ir/metadata.js';
import { ValueKind, type Value } from '../../ir/value.js';
import { TypeKind } from '../../ir/types.js';
import type { Function, GlobalValue } from '../../ir/globals.js';
import type { Instruction } from '../../ir/instructions.js';

/**
 * The metadata table of a module being decoded: module-level slots, then (while a function
 * body is read) that function's slots, numbered on from the module-level ones.
 *
 * Nodes refer to each other in cycles (compile unit ↔ subprogram, composite type ↔ its
 * elements), so a METADATA block is decoded in two steps: each record makes its node at once
 * (scalars and strings filled in) and is remembered; when the block ends, every remembered
 * node gets its references. Outside a block, every referenced id must therefore be defined:
 * LLVM also rejects references from a function body to metadata that is never defined.
 */
export class MetadataList implements MetadataAccess {
  private readonly slots: Metadata[] = [];
  private readonly kinds = new Map<number, string>();
  /** Number of module-level slots while a function body is read, else -1. */
  private moduleSize = -1;
  /**
   * ValueAsMetadata made while a function body is read (including those a DIArgList holds):
   * their `value` may be a ForwardRef to an instruction, which the function reader patches.
   */
  localValueRefs: ValueAsMetadata[] = [];

  constructor(private readonly ctx: ReaderContext) {}

  get size(): number {
    return this.slots.length;
  }

  get inFunction(): boolean {
    return this.moduleSize >= 0;
  }

  /** Starts a function body: slots added from now on are function-local. */
  enterFunction(): void {
    if (this.inFunction) this.exitFunction();
    this.moduleSize = this.slots.length;
  }

  /** Ends a function body: drops its slots (its nodes stay reachable from the IR). */
  exitFunction(): void {
    if (this.moduleSize >= 0) this.slots.length = this.moduleSize;
    this.moduleSize = -1;
    this.localValueRefs = [];
  }

  get(id: number): Metadata {
    const md = this.slots[id];
    if (md === undefined) this.ctx.error(`reference to undefined metadata #${id}`);
    return md;
  }

  getOrNull(idPlusOne: number): Metadata | null {
    return idPlusOne === 0 ? null : this.get(idPlusOne - 1);
  }

  /** The slot's node, or undefined while it is not defined yet. */
  lookup(id: number): Metadata | undefined {
    return this.slots[id];
  }

  kindName(kindId: number): string {
    const name = this.kinds.get(kindId);
    if (name === undefined) this.ctx.error(`unknown metadata kind #${kindId}`);
    return name;
  }

  /** METADATA_KIND: [id, name chars...]. */
  addKind(ops: readonly number[]): void {
    if (ops.length < 2) this.ctx.error('invalid METADATA_KIND record');
    if (this.kinds.has(ops[0]!)) this.ctx.error(`conflicting METADATA_KIND records for kind #${ops[0]}`);
    this.kinds.set(ops[0]!, opsToString(ops, 1));
  }

  push(md: Metadata): void {
    this.slots.push(md);
  }
}

/** The context's MetadataList (created on first use). */
export function metadataList(ctx: ReaderContext): MetadataList {
  const md = ctx.md as MetadataAccess | undefined;
  if (md instanceof MetadataList) return md;
  if (md !== undefined) ctx.error('the metadata table is not a MetadataList');
  const list = new MetadataList(ctx);
  ctx.md = list;
  return list;
}

/** A node whose references are linked when its block ends. */
interface Pending {
  node: Metadata;
  rec: BitcodeRecord;
  bitPos: number;
}

/** A named node or a global attachment, resolved when the block ends. */
interface Deferred {
  bitPos: number;
  apply(): void;
}

/** Reads a METADATA block (module or function level), right after advance() returned it. */
export function readMetadataBlock(ctx: ReaderContext, cursor: BitstreamCursor): void {
  const md = metadataList(ctx);
  if (cursor.blockId === BlockId.Function && !md.inFunction) md.enterFunction();
  cursor.enterSubBlock(BlockId.Metadata);
  const reader = new BlockReader(ctx, md, cursor);
  for (;;) {
    const entry = cursor.advance();
    if (entry.kind === EntryKind.EndBlock) break;
    if (entry.kind === EntryKind.SubBlock) {
      cursor.skipBlock();
      continue;
    }
    ctx.bitPos = cursor.bitPos;
    reader.record(cursor.readRecord(entry.id));
  }
  reader.finish();
}

class BlockReader {
  private readonly pending: Pending[] = [];
  private readonly deferred: Deferred[] = [];
  private readonly error: (msg: string) => never;
  private readonly env: DIDecodeEnv;

  constructor(
    private readonly ctx: ReaderContext,
    private readonly md: MetadataList,
    private readonly cursor: BitstreamCursor,
  ) {
    this.error = (msg) => ctx.error(msg);
    this.env = { string: (id) => this.string(id), error: this.error };
  }

  record(rec: BitcodeRecord): void {
    const md = this.md;
    const ops = rec.ops;
    switch (rec.code) {
      case MC.Strings:
        for (const s of decodeMetadataStrings(ops, rec.blob, this.error)) md.push(new MDString(s));
        return;
      case MC.String_Old:
        md.push(new MDString(opsToString(ops)));
        return;
      case MC.Value:
        if (ops.length !== 2) this.error('invalid METADATA_VALUE record');
        md.push(this.valueAsMetadata(ops[0]!, ops[1]!));
        return;
      case MC.Node:
      case MC.DistinctNode: {
        const tuple = new MDTuple([]);
        tuple.distinct = rec.code === MC.DistinctNode;
        this.later(tuple, rec);
        return;
      }
      case MC.Location: {
        if (ops.length !== 5 && ops.length !== 6) this.error('invalid METADATA_LOCATION record');
        const loc = new DILocation(ops[1]! >>> 0, clampDIColumn(ops[2]!), null, null, ops.length === 6 && ops[5] !== 0);
        loc.distinct = ops[0] !== 0;
        this.later(loc, rec);
        return;
      }
      case MC.Expression:
        md.push(this.expression(rec));
        return;
      case MC.ArgList:
        md.push(this.argList(ops));
        return;
      case MC.Name:
        this.namedNode(opsToString(ops));
        return;
      case MC.Kind:
        md.addKind(ops);
        return;
      case MC.GlobalDeclAttachment:
        this.globalAttachment(ops);
        return;
      case MC.OldNode:
        this.oldNode(rec);
        return;
      case MC.OldFnNode:
        this.oldFnNode(ops);
        return;
      default:
        if (isDIRecord(rec.code)) {
          this.later(decodeDINode(rec, this.env), rec);
        }
      // Other codes (INDEX_OFFSET, INDEX, unknown ones) define nothing; LLVM skips them too.
    }
  }

  /** Links every node of the block; afterwards all their references are real nodes. */
  finish(): void {
    for (const p of this.pending) {
      this.ctx.bitPos = p.bitPos;
      this.link(p.node, p.rec);
    }
    for (const d of this.deferred) {
      this.ctx.bitPos = d.bitPos;
      d.apply();
    }
  }

  private later(node: Metadata, rec: BitcodeRecord): void {
    this.md.push(node);
    this.pending.push({ node, rec, bitPos: this.ctx.bitPos });
  }

  private link(node: Metadata, rec: BitcodeRecord): void {
    const { md } = this;
    const ops = rec.ops;
    switch (node.mdkind) {
      case MDKind.Tuple:
        if (rec.code === MC.OldNode) {
          this.linkOldNode(node as MDTuple, rec);
        } else {
          (node as MDTuple).ops = ops.map((id) => md.getOrNull(id));
        }
        return;
      case MDKind.Location: {
        const loc = node as DILocation;
        loc.scope = md.get(ops[3]!);
        loc.inlinedAt = md.getOrNull(ops[4]!);
        return;
      }
      default: {
        const refs: (Metadata | null | undefined)[] = new Array(ops.length);
        for (const i of diRefPositions(rec.code, ops, this.error)) refs[i] = md.getOrNull(ops[i]!);
        linkDINode(node, rec, refs);
      }
    }
  }

  private string(idPlusOne: number): string {
    if (idPlusOne === 0) return '';
    const s = this.md.lookup(idPlusOne - 1);
    if (s === undefined || s.mdkind !== MDKind.String) this.error(`metadata #${idPlusOne - 1} is not a string`);
    return (s as MDString).value;
  }

  private valueAsMetadata(typeId: number, valueId: number): ValueAsMetadata {
    const type = this.ctx.getType(typeId);
    if (type.kind === TypeKind.Metadata || type.kind === TypeKind.Void) this.error('metadata value of metadata or void type');
    const value = this.ctx.values.get(valueId, type);
    const vam = new ValueAsMetadata(value, isFunctionLocal(value));
    if (this.md.inFunction) this.md.localValueRefs.push(vam);
    return vam;
  }

  /** EXPRESSION: [distinct | version << 1, elements...]; versions before 3 are upgraded. */
  private expression(rec: BitcodeRecord): DIExpression {
    if (rec.ops.length < 1) this.error('invalid METADATA_EXPRESSION record');
    const version = rec.ops[0]! >> 1;
    if (version > 3) this.error(`unsupported DIExpression version ${version}`);
    const elements: bigint[] = [];
    for (let i = 1; i < rec.ops.length; i++) elements.push(u64(rec, i));
    const expr = new DIExpression(version < 3 ? upgradeExpression(version, elements) : elements);
    expr.distinct = (rec.ops[0]! & 1) !== 0;
    return expr;
  }

  /** ARG_LIST: [n x id] of ValueAsMetadata defined earlier. */
  private argList(ops: readonly number[]): DIArgList {
    const args = ops.map((id) => {
      const m = this.md.lookup(id);
      if (m === undefined || m.mdkind !== MDKind.Value) this.error(`DIArgList element #${id} is not a value`);
      return m;
    });
    return new DIArgList(args);
  }

  /** NAME [chars] followed by NAMED_NODE [n x id]. */
  private namedNode(name: string): void {
    const entry = this.cursor.advance();
    if (entry.kind !== EntryKind.Record) this.error('METADATA_NAME not followed by METADATA_NAMED_NODE');
    const rec = this.cursor.readRecord(entry.id);
    if (rec.code !== MC.NamedNode) this.error('METADATA_NAME not followed by METADATA_NAMED_NODE');
    const module = this.ctx.module;
    this.defer(() => {
      const nodes = rec.ops.map((id) => this.mdNode(id, 'named metadata operand'));
      const existing = module.namedMetadata.find((n) => n.name === name);
      if (existing) existing.ops.push(...nodes);
      else module.namedMetadata.push({ name, ops: nodes });
    });
  }

  /** GLOBAL_DECL_ATTACHMENT: [value id, (kind, node)...] for a global variable, function or ifunc. */
  private globalAttachment(ops: readonly number[]): void {
    if (ops.length % 2 === 0) this.error('invalid METADATA_GLOBAL_DECL_ATTACHMENT record');
    if (ops[0]! >= this.ctx.values.size) this.error(`global attachment to undefined value #${ops[0]}`);
    const gv = this.ctx.values.getDefined(ops[0]!);
    // Only global objects take attachments (LLVM ignores the record for aliases).
    if (!gv || (gv.vkind !== ValueKind.GlobalVariable && gv.vkind !== ValueKind.Function && gv.vkind !== ValueKind.GlobalIFunc)) return;
    this.defer(() => {
      for (let i = 1; i < ops.length; i += 2) {
        (gv as GlobalValue).attachments.push({ kind: this.md.kindName(ops[i]!), node: this.mdNode(ops[i + 1]!, 'global attachment') });
      }
    });
  }

  private defer(apply: () => void): void {
    this.deferred.push({ bitPos: this.ctx.bitPos, apply });
  }

  private mdNode(id: number, what: string): Metadata {
    const m = this.md.get(id);
    if (!isMDNode(m)) this.error(`${what} #${id} is not a metadata node`);
    return m;
  }

  /** OLD_NODE (LLVM < 3.6): [n x (type, value)], metadata-typed elements being node ids. */
  private oldNode(rec: BitcodeRecord): void {
    const ops = rec.ops;
    if (ops.length % 2 === 1) this.error('invalid METADATA_OLD_NODE record');
    const elements: (Metadata | null)[] = [];
    for (let i = 0; i < ops.length; i += 2) {
      const type = this.ctx.getType(ops[i]!);
      elements.push(type.kind === TypeKind.Metadata || type.kind === TypeKind.Void ? null : this.valueAsMetadata(ops[i]!, ops[i + 1]!));
    }
    this.later(new MDTuple(elements), rec);
  }

  private linkOldNode(tuple: MDTuple, rec: BitcodeRecord): void {
    for (let i = 0; i < rec.ops.length; i += 2) {
      if (this.ctx.getType(rec.ops[i]!).kind === TypeKind.Metadata) tuple.ops[i / 2] = this.md.get(rec.ops[i + 1]!);
    }
  }

  /** OLD_FN_NODE (LLVM < 3.6): a function-local value; anything else became an empty node. */
  private oldFnNode(ops: readonly number[]): void {
    if (ops.length % 2 === 1) this.error('invalid METADATA_OLD_FN_NODE record');
    const kind = ops.length === 2 ? this.ctx.getType(ops[0]!).kind : TypeKind.Void;
    if (kind === TypeKind.Metadata || kind === TypeKind.Void) this.md.push(new MDTuple([]));
    else this.md.push(this.valueAsMetadata(ops[0]!, ops[1]!));
  }
}

/** Anything but strings and values can be named or attached (LLVM's MDNode). */
function isMDNode(m: Metadata): boolean {
  return m.mdkind !== MDKind.String && m.mdkind !== MDKind.Value;
}

function isFunctionLocal(v: Value): boolean {
  return v.vkind === ValueKind.Argument || v.vkind === ValueKind.Instruction || v.vkind === ValueKind.BasicBlock || v.vkind === ValueKind.ForwardRef;
}

/** Historic operand sizes, for walking expressions of versions 0–2. */
function historicOpSize(op: bigint): number {
  if (op === BigInt(DwOp.constu) || op === BigInt(DwOp.minus) || op === BigInt(DwOp.plus)) return 2;
  return op === BigInt(DwOp.LLVM_fragment) ? 3 : 1;
}

/**
 * Brings an expression of version 0–2 to version 3: bit_piece became LLVM_fragment (v1), a
 * leading deref moved to the end (v2), `plus N` became `plus_uconst N` and `minus N` became
 * `constu N, minus` (v3).
 */
function upgradeExpression(version: number, els: bigint[]): bigint[] {
  const n = els.length;
  if (version === 0 && n >= 3 && els[n - 3] === BigInt(DwOp.bit_piece)) els[n - 3] = BigInt(DwOp.LLVM_fragment);
  if (version <= 1 && n > 0 && els[0] === BigInt(DwOp.deref)) {
    const end = n >= 3 && els[n - 3] === BigInt(DwOp.LLVM_fragment) ? n - 3 : n;
    els.copyWithin(0, 1, end);
    els[end - 1] = BigInt(DwOp.deref);
  }
  const out: bigint[] = [];
  for (let i = 0; i < n; ) {
    const op = els[i]!;
    const size = Math.min(historicOpSize(op), n - i);
    const args = els.slice(i + 1, i + size);
    if (op === BigInt(DwOp.plus)) out.push(BigInt(DwOp.plus_uconst), ...args);
    else if (op === BigInt(DwOp.minus)) out.push(BigInt(DwOp.constu), ...args, BigInt(DwOp.minus));
    else out.push(op, ...args);
    i += size;
  }
  return out;
}

/**
 * Reads a METADATA_KIND block: KIND [id, name chars...] records.
 */
export function readMetadataKindBlock(ctx: ReaderContext, cursor: BitstreamCursor): void {
  const md = metadataList(ctx);
  cursor.enterSubBlock(BlockId.MetadataKind);
  for (;;) {
    const entry = cursor.advance();
    if (entry.kind === EntryKind.EndBlock) return;
    if (entry.kind === EntryKind.SubBlock) {
      cursor.skipBlock();
      continue;
    }
    ctx.bitPos = cursor.bitPos;
    const rec = cursor.readRecord(entry.id);
    if (rec.code === MC.Kind) md.addKind(rec.ops);
  }
}

/**
 * Reads a function's METADATA_ATTACHMENT block. ATTACHMENT records of even length,
 * [(kind, node)...], attach to the function; odd ones, [instruction index, (kind, node)...],
 * to the function's instructions (numbered in order, `insts`).
 * Also callable as (ctx, cursor, insts): the function is then the instructions' parent.
 */
export function readMetadataAttachmentBlock(
  ctx: ReaderContext,
  cursor: BitstreamCursor,
  fnOrInsts: Function | readonly Instruction[] | null,
  instructions?: readonly Instruction[],
): void {
  const md = metadataList(ctx);
  const insts = Array.isArray(fnOrInsts) ? (fnOrInsts as readonly Instruction[]) : (instructions ?? []);
  const fn = Array.isArray(fnOrInsts) ? (insts[0]?.parent?.parent ?? null) : (fnOrInsts as Function | null);
  cursor.enterSubBlock(BlockId.MetadataAttachment);
  for (;;) {
    const entry = cursor.advance();
    if (entry.kind === EntryKind.EndBlock) return;
    if (entry.kind === EntryKind.SubBlock) {
      cursor.skipBlock();
      continue;
    }
    ctx.bitPos = cursor.bitPos;
    const rec = cursor.readRecord(entry.id);
    if (rec.code !== MC.Attachment) continue;
    const ops = rec.ops;
    if (ops.length === 0) ctx.error('empty METADATA_ATTACHMENT record');
    if (ops.length % 2 === 0) {
      if (!fn) ctx.error('function metadata attachment without a function');
      for (let i = 0; i < ops.length; i += 2) {
        fn.attachments.push({ kind: md.kindName(ops[i]!), node: attachable(ctx, md, ops[i + 1]!) });
      }
      continue;
    }
    const inst = insts[ops[0]!];
    if (!inst) ctx.error(`metadata attachment to instruction #${ops[0]} of ${insts.length}`);
    for (let i = 1; i < ops.length; i += 2) {
      const kind = md.kindName(ops[i]!);
      const node = md.get(ops[i + 1]!);
      // A function-local value used to be attachable; LLVM drops the rest of such a record.
      if (node.mdkind === MDKind.Value && (node as ValueAsMetadata).local) break;
      if (!isMDNode(node)) ctx.error(`metadata attachment #${ops[i + 1]} is not a metadata node`);
      attachToInstruction(ctx, inst, kind, node);
    }
  }
}

function attachable(ctx: ReaderContext, md: MetadataList, id: number): Metadata {
  const node = md.get(id);
  if (!isMDNode(node)) ctx.error(`metadata attachment #${id} is not a metadata node`);
  return node;
}

/** Sets (or replaces) one attachment; `dbg` is the instruction's location. */
function attachToInstruction(ctx: ReaderContext, inst: Instruction, kind: string, node: Metadata): void {
  if (kind === 'dbg') {
    if (node.mdkind !== MDKind.Location) ctx.error('!dbg attachment is not a DILocation');
    inst.debugLoc = node as DILocation;
    return;
  }
  const list = (inst.attachments ??= []);
  const at = list.findIndex((a) => a.kind === kind);
  if (at >= 0) list[at] = { kind, node };
  else list.push({ kind, node });
}
