/** Instruction and debug-record lines, in llvm-dis's exact layout. */
import { ValueKind, type Value } from '../value.js';
import { TypeKind, type PointerType } from '../types.js';
import {
  DebugRecordKind,
  type AllocaInst,
  type AtomicCmpXchgInst,
  type AtomicRMWInst,
  type BranchInst,
  type CallBrInst,
  type CallInst,
  type CmpInst,
  type DebugRecord,
  type ExtractValueInst,
  type FenceInst,
  type GetElementPtrInst,
  type IndirectBrInst,
  type InsertValueInst,
  type Instruction,
  type LoadInst,
  type OperandBundle,
  type PhiInst,
  type ShuffleVectorInst,
  type StoreInst,
  type SwitchInst,
} from '../instructions.js';
import {
  AtomicOrdering,
  ORDERING_NAMES,
  Opcode,
  OPCODE_NAMES,
  RMW_NAMES,
  SYNC_SCOPE_SYSTEM,
  TailKind,
  isCastOpcode,
  predicateName,
} from '../opcodes.js';
import type { AttributeList } from '../attributes.js';
import type { ConstantInt } from '../constants.js';
import type { MDAttachment } from '../globals.js';
import type { DILocation } from '../metadata.js';
import type { FunctionType, VectorType } from '../types.js';
import type { PrintContext } from './context.js';
import { formatFastMath, formatOpFlags, formatTypedValue, formatValue } from './constants.js';
import { attributeGroupRef, formatAttributeSet } from './attributes.js';
import { formatMetadataOperand } from './metadata.js';
import { escapeString, formatMetadataIdentifier, formatName } from './names.js';
import { formatCallingConv } from './callconv.js';

/** `, !dbg !5, !tbaa !7` (or with another separator), as printed after instructions and globals. */
export function formatAttachments(ctx: PrintContext, dbg: DILocation | null, attachments: readonly MDAttachment[] | null, sep = ', '): string {
  let s = '';
  if (dbg) s += `${sep}!dbg ${formatMetadataOperand(ctx, dbg)}`;
  if (attachments) {
    for (const a of attachments) s += `${sep}!${formatMetadataIdentifier(a.kind)} ${formatMetadataOperand(ctx, a.node)}`;
  }
  return s;
}

function syncScope(ctx: PrintContext, id: number): string {
  if (id === SYNC_SCOPE_SYSTEM) return '';
  const name = ctx.module?.syncScopeNames[id] ?? (id === 0 ? 'singlethread' : `<scope ${id}>`);
  return ` syncscope("${escapeString(name)}")`;
}

function atomic(ctx: PrintContext, ordering: AtomicOrdering, scope: number): string {
  if (ordering === AtomicOrdering.NotAtomic) return '';
  return `${syncScope(ctx, scope)} ${ORDERING_NAMES[ordering]}`;
}

function shuffleMask(ctx: PrintContext, inst: ShuffleVectorInst): string {
  const mask = inst.mask;
  const scalable = inst.type.isVector() && (inst.type as VectorType).scalable;
  let s = `, <${scalable ? 'vscale x ' : ''}${mask.length} x i32> `;
  const undef = ctx.llvmVersion >= 17 ? 'poison' : 'undef';
  if (mask.every((e) => e === 0)) return s + 'zeroinitializer';
  if (mask.every((e) => e === -1)) return s + undef;
  s += '<' + mask.map((e) => (e === -1 ? `i32 ${undef}` : `i32 ${e}`)).join(', ') + '>';
  return s;
}

function label(ctx: PrintContext, bb: Value): string {
  return `label ${formatValue(ctx, bb)}`;
}

function bundles(ctx: PrintContext, list: OperandBundle[] | null): string {
  if (!list || list.length === 0) return '';
  const parts = list.map((b) => `"${escapeString(b.tag)}"(${b.inputs.map((v) => formatTypedValue(ctx, v)).join(', ')})`);
  return ` [ ${parts.join(', ')} ]`;
}

/** The part of call/callbr after the opcode: `i32 @f(i32 noundef %x) #3 [ bundles ]`. */
function callBody(
  ctx: PrintContext,
  inst: CallInst | CallBrInst,
  fnType: FunctionType,
  attrs: AttributeList,
  callingConv: number,
  musttailVarArgs: boolean,
): string {
  let s = '';
  if (callingConv !== 0) s += ' ' + formatCallingConv(callingConv);
  if (attrs.ret.length) s += ' ' + formatAttributeSet(attrs.ret, ctx.types, ctx.llvmVersion);
  const callee = inst.ops[inst.ops.length - 1]!;
  if (inst.opcode === Opcode.Call) {
    const as = callee.type.kind === TypeKind.Pointer ? (callee.type as PointerType).addrSpace : 0;
    if (as !== 0 || programAddrSpace(ctx) !== 0) s += ` addrspace(${as})`;
  }
  s += ' ' + ctx.types.print(fnType.varArgs ? fnType : fnType.ret) + ' ' + formatValue(ctx, callee) + '(';
  const argc = inst.ops.length - 1;
  for (let i = 0; i < argc; i++) {
    if (i) s += ', ';
    const arg = inst.ops[i]!;
    const pa = attrs.params[i];
    s += ctx.types.print(arg.type);
    if (pa && pa.length) s += ' ' + formatAttributeSet(pa, ctx.types, ctx.llvmVersion);
    s += ' ' + formatValue(ctx, arg);
  }
  if (musttailVarArgs) s += argc > 0 ? ', ...' : '...';
  s += ')' + attributeGroupRef(ctx, attrs.fn) + bundles(ctx, inst.bundles);
  return s;
}

function programAddrSpace(ctx: PrintContext): number {
  const dl = ctx.module?.dataLayout;
  if (!dl) return 0;
  const m = /(?:^|-)P(\d+)/.exec(dl);
  return m ? Number(m[1]) : 0;
}

function instFastMath(inst: Instruction): number {
  return (inst as { fastMath?: number }).fastMath ?? 0;
}

function instFlags(inst: Instruction): number {
  return (inst as { flags?: number }).flags ?? 0;
}

/** Everything after `opcode`, for instructions printed "the normal way" (operands in order). */
function plainOperands(ctx: PrintContext, inst: Instruction): string {
  const ops = inst.ops;
  let s = '';
  if (inst.opcode === Opcode.GetElementPtr) s += ` ${ctx.types.print((inst as GetElementPtrInst).sourceElementType)},`;
  else if (inst.opcode === Opcode.Load) s += ` ${ctx.types.print(inst.type)},`;
  if (ops.length === 0) return s;
  let all = false;
  switch (inst.opcode) {
    case Opcode.Select:
    case Opcode.Store:
    case Opcode.ShuffleVector:
    case Opcode.Ret:
    case Opcode.AtomicCmpXchg:
    case Opcode.AtomicRMW:
      all = true;
      break;
    default: {
      const t = ops[0]!.type;
      for (let i = 1; i < ops.length; i++) {
        if (ops[i]!.type !== t) {
          all = true;
          break;
        }
      }
    }
  }
  if (!all) s += ' ' + ctx.types.print(ops[0]!.type);
  s += ' ';
  for (let i = 0; i < ops.length; i++) {
    if (i) s += ', ';
    s += all ? formatTypedValue(ctx, ops[i]!) : formatValue(ctx, ops[i]!);
  }
  return s;
}

/** The instruction text without indentation or metadata attachments. */
function instructionBody(ctx: PrintContext, inst: Instruction): string {
  let s = '';
  if (inst.name) s += formatName(inst.name, '%') + ' = ';
  else if (!inst.type.isVoid()) {
    const slot = ctx.slots.localSlot(inst);
    s += slot >= 0 ? `%${slot} = ` : '<badref> = ';
  }
  const op = inst.opcode;
  if (op === Opcode.Call) {
    const tk = (inst as CallInst).tailKind;
    if (tk === TailKind.MustTail) s += 'musttail ';
    else if (tk === TailKind.Tail) s += 'tail ';
    else if (tk === TailKind.NoTail) s += 'notail ';
  }
  s += OPCODE_NAMES[op];
  if ((op === Opcode.Load || op === Opcode.Store) && (inst as LoadInst | StoreInst).ordering !== AtomicOrdering.NotAtomic) s += ' atomic';
  if (op === Opcode.AtomicCmpXchg && (inst as AtomicCmpXchgInst).weak) s += ' weak';
  if ((op === Opcode.Load || op === Opcode.Store || op === Opcode.AtomicCmpXchg || op === Opcode.AtomicRMW) && (inst as LoadInst).isVolatile) {
    s += ' volatile';
  }
  s += formatFastMath(instFastMath(inst)) + formatOpFlags(op, instFlags(inst));
  if (op === Opcode.ICmp || op === Opcode.FCmp) s += ' ' + predicateName((inst as CmpInst).predicate);
  if (op === Opcode.AtomicRMW) s += ' ' + RMW_NAMES[(inst as AtomicRMWInst).operation];

  switch (op) {
    case Opcode.Br: {
      const br = inst as BranchInst;
      if (br.ops.length === 1) {
        s += ` ${formatTypedValue(ctx, br.ops[0]!)}, ${label(ctx, br.successors[0]!)}, ${label(ctx, br.successors[1]!)}`;
      } else {
        s += ' ' + label(ctx, br.successors[0]!);
      }
      return s;
    }
    case Opcode.Switch: {
      const sw = inst as SwitchInst;
      s += ` ${formatTypedValue(ctx, sw.ops[0]!)}, ${label(ctx, sw.defaultDest)} [`;
      for (const c of sw.cases) s += `\n    ${formatTypedValue(ctx, c.value as ConstantInt)}, ${label(ctx, c.dest)}`;
      return s + '\n  ]';
    }
    case Opcode.IndirectBr: {
      const ib = inst as IndirectBrInst;
      return `${s} ${formatTypedValue(ctx, ib.ops[0]!)}, [${ib.destinations.map((d) => label(ctx, d)).join(', ')}]`;
    }
    case Opcode.Phi: {
      const phi = inst as PhiInst;
      const parts = phi.ops.map((v, i) => `[ ${formatValue(ctx, v)}, ${formatValue(ctx, phi.blocks[i]!)} ]`);
      return `${s} ${ctx.types.print(inst.type)} ${parts.join(', ')}`;
    }
    case Opcode.ExtractValue:
      return `${s} ${formatTypedValue(ctx, inst.ops[0]!)}${(inst as ExtractValueInst).indices.map((i) => `, ${i}`).join('')}`;
    case Opcode.InsertValue:
      return `${s} ${formatTypedValue(ctx, inst.ops[0]!)}, ${formatTypedValue(ctx, inst.ops[1]!)}${(inst as InsertValueInst).indices
        .map((i) => `, ${i}`)
        .join('')}`;
    case Opcode.Ret:
      return inst.ops.length === 0 ? s + ' void' : s + plainOperands(ctx, inst);
    case Opcode.Call: {
      const call = inst as CallInst;
      const fn = call.parent?.parent;
      const mustVarArgs = call.tailKind === TailKind.MustTail && !!fn && fn.functionType.varArgs;
      return s + callBody(ctx, call, call.functionType, call.attributes, call.callingConv, mustVarArgs);
    }
    case Opcode.CallBr: {
      const cb = inst as CallBrInst;
      s += callBody(ctx, cb, cb.functionType, cb.attributes, cb.callingConv, false);
      return `${s}\n          to ${label(ctx, cb.defaultDest)} [${cb.indirectDests.map((d) => label(ctx, d)).join(', ')}]`;
    }
    case Opcode.Alloca:
      return s + allocaBody(ctx, inst as AllocaInst);
    case Opcode.VAArg:
      return `${s} ${formatTypedValue(ctx, inst.ops[0]!)}, ${ctx.types.print(inst.type)}`;
    default:
      break;
  }
  if (isCastOpcode(op)) return `${s} ${formatTypedValue(ctx, inst.ops[0]!)} to ${ctx.types.print(inst.type)}`;
  s += plainOperands(ctx, inst);
  switch (op) {
    case Opcode.Load:
    case Opcode.Store: {
      const m = inst as LoadInst | StoreInst;
      s += atomic(ctx, m.ordering, m.syncScope);
      if (m.align) s += `, align ${m.align}`;
      break;
    }
    case Opcode.AtomicCmpXchg: {
      const x = inst as AtomicCmpXchgInst;
      s += `${syncScope(ctx, x.syncScope)} ${ORDERING_NAMES[x.successOrdering]} ${ORDERING_NAMES[x.failureOrdering]}, align ${x.align}`;
      break;
    }
    case Opcode.AtomicRMW: {
      const r = inst as AtomicRMWInst;
      s += `${atomic(ctx, r.ordering, r.syncScope)}, align ${r.align}`;
      break;
    }
    case Opcode.Fence: {
      const f = inst as FenceInst;
      s += atomic(ctx, f.ordering, f.syncScope);
      break;
    }
    case Opcode.ShuffleVector:
      s += shuffleMask(ctx, inst as ShuffleVectorInst);
      break;
    default:
      break;
  }
  return s;
}

function allocaBody(ctx: PrintContext, a: AllocaInst): string {
  let s = ' ';
  if (a.inAlloca) s += 'inalloca ';
  if (a.swiftError) s += 'swifterror ';
  s += ctx.types.print(a.allocatedType);
  const size = a.ops[0];
  const isOne = size?.vkind === ValueKind.ConstantInt && (size as ConstantInt).value === 1n;
  if (!size || !isOne || !size.type.isInteger(32)) s += ', ' + (size ? formatTypedValue(ctx, size) : '<null operand!>');
  if (a.align) s += `, align ${a.align}`;
  const as = a.type.kind === TypeKind.Pointer ? (a.type as PointerType).addrSpace : 0;
  if (as) s += `, addrspace(${as})`;
  return s;
}

/** One instruction line (two-space indent, attachments included, no newline). */
export function formatInstruction(ctx: PrintContext, inst: Instruction): string {
  return '  ' + instructionBody(ctx, inst) + formatAttachments(ctx, inst.debugLoc, inst.attachments);
}

const RECORD_NAMES: Record<DebugRecordKind, string> = {
  [DebugRecordKind.Value]: 'value',
  [DebugRecordKind.Declare]: 'declare',
  [DebugRecordKind.Assign]: 'assign',
  [DebugRecordKind.Label]: 'label',
};

/** A debug record as printed on its own line before its instruction (without the 4-space indent). */
export function formatDebugRecord(ctx: PrintContext, r: DebugRecord): string {
  const md = (m: Parameters<typeof formatMetadataOperand>[1] | undefined): string => formatMetadataOperand(ctx, m ?? null);
  if (r.kind === DebugRecordKind.Label) return `#dbg_label(${md(r.label)}, ${md(r.debugLoc)})`;
  let s = `#dbg_${RECORD_NAMES[r.kind]}(${md(r.location)}, ${md(r.variable)}, ${md(r.expression)}, `;
  if (r.kind === DebugRecordKind.Assign) s += `${md(r.assignId)}, ${md(r.address)}, ${md(r.addressExpression)}, `;
  return s + md(r.debugLoc) + ')';
}
