/**
 * MODULE_BLOCK: module-level records and the sub-blocks, in the order LLVM writes them
 * (attributes, types, global value records, constants, metadata, function bodies, symbol
 * table). Function bodies come in the order of the FUNCTION records that have a body.
 */
import { EntryKind, type BitstreamCursor } from '../cursor.js';
import { BlockId, ModuleCode } from './ids.js';
import { opsToString, type ReaderContext } from './context.js';
import { readTypeBlock } from './types-reader.js';
import { AttributeTable, readAttributeBlock, readAttributeGroupBlock } from './attributes-reader.js';
import { readConstantsBlock, resolveBlockAddresses } from './constants-reader.js';
import { GlobalsReader, printable } from './globals-reader.js';
import { readModuleValueSymtab, readOperandBundleTagsBlock, readSyncScopeNamesBlock } from './symtab-reader.js';
import { MetadataList, readMetadataBlock, readMetadataKindBlock } from './metadata-reader.js';
import { readFunctionBody } from './function-reader.js';
import { deferBody } from '../../ir/lazy-body.js';
import type { Function } from '../../ir/globals.js';
import { withFile } from '../errors.js';

const MAX_MODULE_VERSION = 2;

export function readModuleBlock(ctx: ReaderContext, cursor: BitstreamCursor): void {
  cursor.enterSubBlock(BlockId.Module);
  const attrs = new AttributeTable(ctx);
  ctx.attrs = attrs;
  ctx.md = new MetadataList(ctx);
  const globals = new GlobalsReader(ctx);
  let seenFirstBody = false;
  let nextBody = 0;
  let seenSyncScopes = false;

  for (;;) {
    const e = cursor.advance();
    if (e.kind === EntryKind.EndBlock) break;
    if (e.kind === EntryKind.SubBlock) {
      switch (e.id) {
        case BlockId.ParamAttrGroup:
          readAttributeGroupBlock(ctx, cursor, attrs);
          break;
        case BlockId.ParamAttr:
          readAttributeBlock(ctx, cursor, attrs);
          break;
        case BlockId.TypeNew:
          readTypeBlock(ctx, cursor);
          break;
        case BlockId.Constants:
          readConstantsBlock(ctx, cursor);
          globals.resolve(false);
          break;
        case BlockId.MetadataKind:
          readMetadataKindBlock(ctx, cursor);
          break;
        case BlockId.Metadata:
          readMetadataBlock(ctx, cursor);
          break;
        case BlockId.ValueSymtab:
          readModuleValueSymtab(ctx, cursor, (id) => globals.onNamed(id));
          break;
        case BlockId.OperandBundleTags:
          readOperandBundleTagsBlock(ctx, cursor);
          break;
        case BlockId.SyncScopeNames:
          readSyncScopeNamesBlock(ctx, cursor, seenSyncScopes);
          seenSyncScopes = true;
          break;
        case BlockId.Function: {
          if (!seenFirstBody) {
            // Everything global bodies may refer to is known once the first body starts.
            globals.resolve(true);
            seenFirstBody = true;
          }
          const fn = ctx.functionsWithBodies[nextBody++];
          if (!fn) {
            ctx.bitPos = cursor.bitPos;
            ctx.error('function body without a function record that has a body');
          }
          if (ctx.lazyBodies) deferFunctionBody(ctx, cursor, fn);
          else readFunctionBody(ctx, cursor, fn);
          break;
        }
        default:
          // Use lists, summaries and unknown blocks carry nothing tsklee needs.
          cursor.skipBlock();
          break;
      }
      continue;
    }

    ctx.bitPos = cursor.bitPos;
    const rec = cursor.readRecord(e.id);
    const ops = rec.ops;
    switch (rec.code) {
      case ModuleCode.Version:
        if (ops.length < 1) ctx.error('invalid module version record');
        if (ops[0]! > MAX_MODULE_VERSION) ctx.error(`unsupported bitcode module version ${ops[0]} (at most ${MAX_MODULE_VERSION})`);
        ctx.version = ops[0]!;
        break;
      case ModuleCode.Triple:
        ctx.module.targetTriple = opsToString(ops);
        checkTriple(ctx, ctx.module.targetTriple);
        break;
      case ModuleCode.DataLayout:
        ctx.module.dataLayout = opsToString(ops);
        break;
      case ModuleCode.Asm:
        ctx.module.moduleAsm = opsToString(ops);
        break;
      case ModuleCode.SectionName:
        ctx.sectionNames.push(opsToString(ops));
        break;
      case ModuleCode.GCName:
        ctx.gcNames.push(opsToString(ops));
        break;
      case ModuleCode.SourceFilename:
        ctx.module.sourceFileName = opsToString(ops);
        break;
      case ModuleCode.Comdat:
        globals.readComdat(rec);
        break;
      case ModuleCode.GlobalVar:
        globals.readGlobalVar(rec);
        break;
      case ModuleCode.Function:
        globals.readFunction(rec);
        break;
      case ModuleCode.Alias:
      case ModuleCode.AliasOld:
      case ModuleCode.IFunc:
        globals.readIndirectSymbol(rec);
        break;
      default:
        // DEPLIB, VSTOFFSET, HASH, ...: nothing to keep (LLVM ignores unknown records too).
        break;
    }
  }

  globals.resolve(true);
  const missing = ctx.functionsWithBodies[nextBody];
  if (missing) ctx.error(`function @${printable(missing.name)} has no body in the bitcode`);
  resolveBlockAddresses(ctx);
}

/**
 * Skips fn's FUNCTION_BLOCK and queues its decoding for first use (ir/lazy-body.ts). The
 * module-level value and metadata tables stay as they are at the end of the module, which is
 * what every body is decoded against. Errors name the file as eager decoding's do.
 */
function deferFunctionBody(ctx: ReaderContext, cursor: BitstreamCursor, fn: Function): void {
  const later = cursor.deferPendingBlock();
  deferBody(fn, () => {
    try {
      readFunctionBody(ctx, later, fn);
      // a blockaddress constant in the body refers to blocks of a (possibly pending) function
      resolveBlockAddresses(ctx);
    } catch (e) {
      throw withFile(e, ctx);
    }
  });
}

/** tsklee executes x86-64 Linux code only; an empty triple (hand-written IR) is accepted. */
function checkTriple(ctx: ReaderContext, triple: string): void {
  if (triple === '') return;
  const parts = triple.split('-');
  const arch = parts[0];
  if ((arch === 'x86_64' || arch === 'amd64') && parts.slice(1).some((p) => p.startsWith('linux'))) return;
  ctx.error(`unsupported target triple "${printable(triple)}" (tsklee supports x86_64 Linux only)`);
}
