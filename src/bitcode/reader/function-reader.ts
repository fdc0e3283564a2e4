/**
 * FUNCTION_BLOCK decoding: basic blocks, instructions, debug locations and records, and the
 * function-level CONSTANTS, METADATA, METADATA_ATTACHMENT and VALUE_SYMTAB blocks.
 */
import { EntryKind, type BitstreamCursor } from '../cursor.js';
import { BlockId, FunctionCode as FC, ValueSymtabCode } from './ids.js';
import { bytesToByteString, opsToString, type ReaderContext } from './context.js';
import { readConstantsBlock, patchConstants } from './constants-reader.js';
import { metadataList, readMetadataAttachmentBlock, readMetadataBlock } from './metadata-reader.js';
import { FnState, patchInstruction } from './instructions/operands.js';
import { decodeBinop, decodeCast, decodeCmp, decodeFreeze, decodeSelectOld, decodeUnop, decodeVSelect } from './instructions/arith.js';
import { decodeAlloca, decodeGEP, decodeGEPOld, decodeLoad, decodeLoadAtomic, decodeStore } from './instructions/memory.js';
import { decodeAtomicRMW, decodeCmpXchg, decodeCmpXchgOld, decodeFence } from './instructions/atomics.js';
import { decodeCall, decodeCallBr, decodeOperandBundle, decodeVAArg } from './instructions/calls.js';
import { decodeBr, decodeIndirectBr, decodePhi, decodeRet, decodeSwitch, decodeUnreachable } from './instructions/control.js';
import {
  decodeExtractElement,
  decodeExtractValue,
  decodeInsertElement,
  decodeInsertValue,
  decodeShuffleVector,
} from './instructions/aggregates.js';
import { decodeDebugLoc, decodeDebugRecord } from './instructions/debug-records.js';
import { BasicBlock, type Function } from '../../ir/globals.js';
import type { Instruction } from '../../ir/instructions.js';
import type { Constant } from '../../ir/constants.js';
import type { DILocation, ValueAsMetadata } from '../../ir/metadata.js';
import { isTerminatorOpcode } from '../../ir/opcodes.js';
import { TypeKind } from '../../ir/types.js';
import { ValueKind, type Value } from '../../ir/value.js';

/** Exception-handling records tsklee does not support (it targets C). */
const EH_RECORDS: ReadonlyMap<number, string> = new Map([
  [FC.InstInvoke, 'invoke'],
  [FC.InstResume, 'resume'],
  [FC.InstLandingPad, 'landingpad'],
  [FC.InstLandingPadOld, 'landingpad'],
  [FC.InstCleanupRet, 'cleanupret'],
  [FC.InstCatchRet, 'catchret'],
  [FC.InstCatchPad, 'catchpad'],
  [FC.InstCleanupPad, 'cleanuppad'],
  [FC.InstCatchSwitch, 'catchswitch'],
]);

/**
 * Decodes the body of `fn`, right after `cursor.advance()` returned its FUNCTION_BLOCK. Fills
 * `fn.blocks`; on return the value table and the metadata table are back to module level.
 */
export function readFunctionBody(ctx: ReaderContext, cursor: BitstreamCursor, fn: Function): void {
  cursor.enterSubBlock(BlockId.Function);
  const md = metadataList(ctx);
  md.enterFunction();
  const moduleSize = ctx.values.size;
  for (const a of fn.args) ctx.values.push(a);
  const s: FnState = new FnState(ctx, fn);
  s.instNum = ctx.values.size;
  fn.blocks = [];

  const insts: Instruction[] = [];
  /** Instructions with a forward-reference operand, patched at the end. */
  const fwdUsers: Instruction[] = [];
  /** ValueAsMetadata made by debug records. */
  const recordRefs: ValueAsMetadata[] = [];
  const constants: Constant[] = [];
  let curBB: BasicBlock | null = null;
  let curIndex = 0;
  let lastInst: Instruction | null = null;
  let lastLoc: DILocation | null = null;

  for (;;) {
    const entry = cursor.advance();
    if (entry.kind === EntryKind.EndBlock) break;
    if (entry.kind === EntryKind.SubBlock) {
      switch (entry.id) {
        case BlockId.Constants:
          for (const c of readConstantsBlock(ctx, cursor)) constants.push(c);
          s.instNum = ctx.values.size;
          break;
        case BlockId.Metadata:
          readMetadataBlock(ctx, cursor);
          break;
        case BlockId.MetadataAttachment:
          readMetadataAttachmentBlock(ctx, cursor, fn, insts);
          break;
        case BlockId.ValueSymtab:
          readFunctionSymtab(ctx, cursor, s);
          break;
        default:
          // USELIST_BLOCK (use-list order) and unknown blocks carry nothing tsklee needs.
          cursor.skipBlock();
      }
      continue;
    }

    ctx.bitPos = cursor.bitPos;
    const rec = cursor.readRecord(entry.id);
    s.setRecord(rec);
    let inst: Instruction;
    switch (rec.code) {
      case FC.DeclareBlocks: {
        if (s.blocks.length > 0) ctx.error(`function @${fn.name} declares its blocks twice`);
        const n = s.op(0, 'declareblocks');
        // Every block needs at least a terminator record, which takes at least one abbreviation id.
        if (n === 0 || n > (cursor.blockEndBit - cursor.bitPos) / cursor.abbrevWidth) s.bad('declareblocks', `${n} blocks`);
        for (let i = 0; i < n; i++) {
          const bb = new BasicBlock(fn);
          bb.index = i;
          s.blocks.push(bb);
        }
        fn.blocks = s.blocks;
        curBB = s.blocks[0]!;
        continue;
      }
      case FC.DebugLoc:
        if (!lastInst) s.bad('debug loc', 'no instruction before it');
        lastLoc = decodeDebugLoc(s);
        lastInst.debugLoc = lastLoc;
        continue;
      case FC.DebugLocAgain:
        if (!lastInst) s.bad('debug loc again', 'no instruction before it');
        lastInst.debugLoc = lastLoc;
        continue;
      case FC.DebugRecordValue:
      case FC.DebugRecordDeclare:
      case FC.DebugRecordAssign:
      case FC.DebugRecordValueSimple:
      case FC.DebugRecordLabel:
        if (!lastInst) s.bad('debug record', 'no instruction before it');
        (lastInst.debugRecords ??= []).push(decodeDebugRecord(s, rec.code, recordRefs));
        continue;
      case FC.OperandBundle:
        decodeOperandBundle(s);
        continue;
      case FC.BlockAddrUsers:
        // Lists functions whose blockaddress constants point here; only lazy loaders need it.
        continue;
      case FC.InstBinop:
        inst = decodeBinop(s);
        break;
      case FC.InstUnop:
        inst = decodeUnop(s);
        break;
      case FC.InstCast:
        inst = decodeCast(s);
        break;
      case FC.InstGEP:
        inst = decodeGEP(s);
        break;
      case FC.InstGEPOld:
      case FC.InstInboundsGEPOld:
        inst = decodeGEPOld(s, rec.code === FC.InstInboundsGEPOld);
        break;
      case FC.InstSelect:
        inst = decodeSelectOld(s);
        break;
      case FC.InstVSelect:
        inst = decodeVSelect(s);
        break;
      case FC.InstExtractElt:
        inst = decodeExtractElement(s);
        break;
      case FC.InstInsertElt:
        inst = decodeInsertElement(s);
        break;
      case FC.InstShuffleVec:
        inst = decodeShuffleVector(s);
        break;
      case FC.InstCmp:
      case FC.InstCmp2:
        inst = decodeCmp(s);
        break;
      case FC.InstRet:
        inst = decodeRet(s);
        break;
      case FC.InstBr:
        inst = decodeBr(s);
        break;
      case FC.InstSwitch:
        inst = decodeSwitch(s);
        break;
      case FC.InstIndirectBr:
        inst = decodeIndirectBr(s);
        break;
      case FC.InstUnreachable:
        inst = decodeUnreachable();
        break;
      case FC.InstPhi:
        inst = decodePhi(s);
        break;
      case FC.InstAlloca:
        inst = decodeAlloca(s);
        break;
      case FC.InstLoad:
        inst = decodeLoad(s);
        break;
      case FC.InstLoadAtomic:
        inst = decodeLoadAtomic(s);
        break;
      case FC.InstStore:
      case FC.InstStoreOld:
        inst = decodeStore(s, rec.code === FC.InstStore, false);
        break;
      case FC.InstStoreAtomic:
      case FC.InstStoreAtomicOld:
        inst = decodeStore(s, rec.code === FC.InstStoreAtomic, true);
        break;
      case FC.InstCmpXchg:
        inst = decodeCmpXchg(s);
        break;
      case FC.InstCmpXchgOld:
        inst = decodeCmpXchgOld(s);
        break;
      case FC.InstAtomicRMW:
      case FC.InstAtomicRMWOld:
        inst = decodeAtomicRMW(s, rec.code === FC.InstAtomicRMW);
        break;
      case FC.InstFence:
        inst = decodeFence(s);
        break;
      case FC.InstCall:
        inst = decodeCall(s);
        break;
      case FC.InstCallBr:
        inst = decodeCallBr(s);
        break;
      case FC.InstVAArg:
        inst = decodeVAArg(s);
        break;
      case FC.InstExtractVal:
        inst = decodeExtractValue(s);
        break;
      case FC.InstInsertVal:
        inst = decodeInsertValue(s);
        break;
      case FC.InstFreeze:
        inst = decodeFreeze(s);
        break;
      default: {
        const eh = EH_RECORDS.get(rec.code);
        if (eh) ctx.error(`unsupported instruction '${eh}' (C++ exceptions) in function @${fn.name}`);
        ctx.error(`unknown record code ${rec.code} in function @${fn.name}`);
      }
    }

    if (!curBB) ctx.error(`instruction after the last basic block of function @${fn.name}`);
    if (s.bundles) ctx.error(`operand bundle not followed by a call in function @${fn.name}`);
    if (s.unnamedBefore) {
      // Not in `insts`: LLVM numbers only the replacement for metadata attachments.
      const before = s.unnamedBefore;
      s.unnamedBefore = null;
      before.parent = curBB;
      curBB.insts.push(before);
      if (s.sawForwardRef) fwdUsers.push(before);
    }
    inst.parent = curBB;
    curBB.insts.push(inst);
    insts.push(inst);
    lastInst = inst;
    if (s.sawForwardRef) {
      fwdUsers.push(inst);
      s.sawForwardRef = false;
    }
    if (isTerminatorOpcode(inst.opcode)) {
      curIndex++;
      curBB = curIndex < s.blocks.length ? s.blocks[curIndex]! : null;
    }
    if (inst.type.kind !== TypeKind.Void) ctx.values.set(s.instNum++, inst);
  }

  if (s.bundles) ctx.error(`operand bundle not followed by a call in function @${fn.name}`);
  if (s.blocks.length === 0) ctx.error(`function @${fn.name} has a body without basic blocks`);
  if (curIndex < s.blocks.length) {
    ctx.error(`basic block #${curIndex} of function @${fn.name} does not end with a terminator (${s.blocks.length} blocks declared)`);
  }
  resolveForwardRefs(ctx, fn, moduleSize, fwdUsers, constants, [md.localValueRefs, recordRefs]);
  ctx.values.truncate(moduleSize);
  md.exitFunction();
}

/** Replaces every forward-reference placeholder of the body by the value defined later. */
function resolveForwardRefs(
  ctx: ReaderContext,
  fn: Function,
  moduleSize: number,
  fwdUsers: readonly Instruction[],
  constants: Constant[],
  valueRefs: readonly (readonly ValueAsMetadata[])[],
): void {
  for (const id of ctx.values.unresolvedIds()) {
    if (id >= moduleSize) ctx.error(`undefined value #${id} in function @${fn.name}`);
  }
  const res = ctx.values.takeResolutions();
  if (res.size === 0) return;
  const unresolved = (v: Value): never => ctx.error(`undefined value #${(v as { slot?: number }).slot ?? '?'} in function @${fn.name}`);
  for (const inst of fwdUsers) patchInstruction(inst, res, unresolved);
  if (constants.length > 0) patchConstants(constants, res);
  for (const list of valueRefs) {
    for (const vam of list) if (vam.value.vkind === ValueKind.ForwardRef) vam.value = res.get(vam.value) ?? unresolved(vam.value);
  }
}

/** Function-level VALUE_SYMTAB: ENTRY [value id, name...] and BBENTRY [block id, name...]. */
function readFunctionSymtab(ctx: ReaderContext, cursor: BitstreamCursor, s: FnState): void {
  cursor.enterSubBlock(BlockId.ValueSymtab);
  for (;;) {
    const entry = cursor.advance();
    if (entry.kind === EntryKind.EndBlock) return;
    if (entry.kind === EntryKind.SubBlock) {
      cursor.skipBlock();
      continue;
    }
    ctx.bitPos = cursor.bitPos;
    const rec = cursor.readRecord(entry.id);
    if (rec.code !== ValueSymtabCode.Entry && rec.code !== ValueSymtabCode.BBEntry) continue;
    if (rec.ops.length < 1) ctx.error('invalid value symbol table record');
    const name = rec.blob ? bytesToByteString(rec.blob) : opsToString(rec.ops, 1);
    const id = rec.ops[0]!;
    if (rec.code === ValueSymtabCode.Entry) {
      const v = id < ctx.values.size ? ctx.values.getDefined(id) : undefined;
      if (!v) ctx.error(`value symbol table names undefined value #${id} in function @${s.fn.name}`);
      v.name = name;
    } else {
      const bb = s.blocks[id];
      if (!bb) ctx.error(`value symbol table names undefined basic block #${id} in function @${s.fn.name}`);
      bb.name = name;
    }
  }
}
