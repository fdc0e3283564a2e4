/**
 * Small blocks around the module: IDENTIFICATION (producer, epoch), STRTAB (names of global
 * values in version-2 modules), the module-level VALUE_SYMTAB (names in older modules),
 * SYNC_SCOPE_NAMES and OPERAND_BUNDLE_TAGS.
 */
import { EntryKind, type BitcodeRecord, type BitstreamCursor } from '../cursor.js';
import { BlockId, IdentificationCode, OperandBundleTagCode, SyncScopeCode, ValueSymtabCode } from './ids.js';
import { opsToString, type ReaderContext } from './context.js';

/** Calls `onRecord` for each record of the sub-block just returned by advance(), skipping nested blocks. */
function forEachRecord(ctx: ReaderContext, cursor: BitstreamCursor, blockId: BlockId, onRecord: (rec: BitcodeRecord) => void): void {
  cursor.enterSubBlock(blockId);
  for (;;) {
    const e = cursor.advance();
    if (e.kind === EntryKind.EndBlock) return;
    if (e.kind === EntryKind.SubBlock) {
      cursor.skipBlock();
      continue;
    }
    ctx.bitPos = cursor.bitPos;
    onRecord(cursor.readRecord(e.id));
  }
}

/** IDENTIFICATION_BLOCK: sets module.producer; only epoch 0 exists. */
export function readIdentificationBlock(ctx: ReaderContext, cursor: BitstreamCursor): void {
  forEachRecord(ctx, cursor, BlockId.Identification, (rec) => {
    switch (rec.code) {
      case IdentificationCode.String:
        ctx.module.producer = opsToString(rec.ops);
        break;
      case IdentificationCode.Epoch:
        if (rec.ops[0] !== 0) ctx.error(`unsupported bitcode epoch ${rec.ops[0] ?? '(missing)'} (only epoch 0 exists)`);
        break;
      default:
        ctx.error(`unknown record code ${rec.code} in the identification block`);
    }
  });
}

const STRTAB_BLOB = 1;

/** STRTAB_BLOCK: the string table blob. */
export function readStrtabBlock(ctx: ReaderContext, cursor: BitstreamCursor): Uint8Array {
  let blob: Uint8Array | undefined;
  forEachRecord(ctx, cursor, BlockId.Strtab, (rec) => {
    if (rec.code === STRTAB_BLOB) blob = rec.blob;
  });
  if (!blob) ctx.error('string table block without a blob');
  return blob;
}

/**
 * The module-level VALUE_SYMTAB: names of global values in modules before version 2
 * (ENTRY [valueid, name...], FNENTRY [valueid, offset, name...]). In version 2 the block only
 * holds function offsets, which are not needed: bodies follow the function records' order.
 */
export function readModuleValueSymtab(ctx: ReaderContext, cursor: BitstreamCursor, onNamed: (id: number) => void): void {
  forEachRecord(ctx, cursor, BlockId.ValueSymtab, (rec) => {
    let nameAt: number;
    switch (rec.code) {
      case ValueSymtabCode.Entry:
        nameAt = 1;
        break;
      case ValueSymtabCode.FnEntry:
        nameAt = 2;
        break;
      case ValueSymtabCode.BBEntry:
        return ctx.error('basic block name in the module symbol table');
      default:
        return; // LLVM ignores other records (summary entries)
    }
    if (rec.ops.length < nameAt) ctx.error('invalid value symbol table record');
    if (rec.ops.length === nameAt) return; // version 2 FNENTRY: offset only
    const id = rec.ops[0]!;
    const v = ctx.values.getDefined(id);
    if (!v) ctx.error(`value symbol table names undefined value #${id}`);
    const name = opsToString(rec.ops, nameAt);
    if (name.includes('\0')) ctx.error('value name contains a NUL character');
    v.name = name;
    onNamed(id);
  });
}

/** SYNC_SCOPE_NAMES_BLOCK: names by sync scope id, replacing the built-in defaults. */
export function readSyncScopeNamesBlock(ctx: ReaderContext, cursor: BitstreamCursor, seenBefore: boolean): void {
  if (seenBefore) ctx.error('more than one sync scope names block');
  const names: string[] = [];
  forEachRecord(ctx, cursor, BlockId.SyncScopeNames, (rec) => {
    if (rec.code !== SyncScopeCode.Name) ctx.error('invalid sync scope names record');
    names.push(opsToString(rec.ops));
  });
  if (names.length === 0) ctx.error('empty sync scope names block');
  ctx.module.syncScopeNames = names;
}

/** OPERAND_BUNDLE_TAGS_BLOCK: bundle tag names by id. */
export function readOperandBundleTagsBlock(ctx: ReaderContext, cursor: BitstreamCursor): void {
  if (ctx.bundleTags.length > 0) ctx.error('more than one operand bundle tags block');
  forEachRecord(ctx, cursor, BlockId.OperandBundleTags, (rec) => {
    if (rec.code !== OperandBundleTagCode.Tag) ctx.error('invalid operand bundle tag record');
    ctx.bundleTags.push(opsToString(rec.ops));
  });
}
