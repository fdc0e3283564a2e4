/**
 * Instructions clang does not emit for C (or only on some paths), assembled from LLVM IR with
 * llvm-as of each version and decoded: every flag, ordering, sync scope, alignment and
 * operand bundle must come back as written.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { readBitcodeModule } from '../../../../src/bitcode/index.js';
import { haveCommand, llvmTool, makeTmpDir, removeDir, run, LLVM_VERSIONS, type LlvmVersion } from '../toolchain.js';
import { summarizeDis, summarizeModule } from './function-harness.js';
import {
  AtomicOrdering,
  FMF,
  Flag,
  Opcode,
  RMWOp,
  TailKind,
  TypeKind,
  ValueKind,
  type AllocaInst,
  type AtomicCmpXchgInst,
  type AtomicRMWInst,
  type CallBrInst,
  type CallInst,
  type CastInst,
  type FenceInst,
  type GetElementPtrInst,
  type Instruction,
  type LoadInst,
  type Module,
  type PhiInst,
  type ShuffleVectorInst,
  type StoreInst,
  type SwitchInst,
} from '../../../../src/ir/index.js';

const HEADER = `target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-f80:128-n8:16:32:64-S128"
target triple = "x86_64-unknown-linux-gnu"
`;

/** Opaque pointers (LLVM 16, 19); the ;LLVM19 line marks where flags LLVM 19 added go. */
const OPAQUE_IR = `%struct.S = type { i32, [4 x i8], { i64, ptr } }
@g = global i32 0
@arr = global [4 x i32] zeroinitializer

declare void @llvm.assume(i1)
declare i32 @ext(i32, ...)
declare float @llvm.fabs.f32(float)
declare void @takes_label(ptr)

define i32 @misc(ptr %p, i32 %x, float %f, <4 x i32> %v, ptr %va) {
entry:
  %fr = freeze i32 %x
  %a = va_arg ptr %va, i32
  %rmw1 = atomicrmw fadd ptr %p, float 1.0 syncscope("agent") monotonic, align 4
  %rmw2 = atomicrmw volatile fmax ptr %p, float %f seq_cst, align 8
  %rmw3 = atomicrmw uinc_wrap ptr %p, i32 %x acquire, align 4
  %rmw4 = atomicrmw udec_wrap ptr %p, i32 %x release, align 4
  fence syncscope("workgroup") acq_rel
  fence syncscope("singlethread") seq_cst
  %cx = cmpxchg volatile ptr %p, i32 %x, i32 %fr syncscope("agent") acq_rel monotonic, align 16
  %cxv = extractvalue { i32, i1 } %cx, 0
  %ins = insertvalue { i32, i1 } %cx, i1 false, 1
  %la = load atomic volatile i32, ptr %p syncscope("singlethread") unordered, align 4
  store atomic volatile i32 %la, ptr %p syncscope("agent") release, align 4
  %fn = fneg nnan ninf float %f
  %fa = fadd reassoc nsz arcp contract afn float %fn, %f
  %fc = fcmp fast olt float %fa, %f
  %sel = select nnan i1 %fc, float %fa, float %f
  %call = call fast float @llvm.fabs.f32(float %sel)
  %vs = select <4 x i1> <i1 true, i1 false, i1 true, i1 false>, <4 x i32> %v, <4 x i32> zeroinitializer
  %sh = shufflevector <4 x i32> %vs, <4 x i32> poison, <8 x i32> <i32 0, i32 undef, i32 7, i32 1, i32 0, i32 0, i32 3, i32 poison>
  %sh2 = shufflevector <4 x i32> %vs, <4 x i32> %v, <2 x i32> zeroinitializer
  %ee = extractelement <8 x i32> %sh, i64 2
  %ie = insertelement <2 x i32> %sh2, i32 %ee, i32 1
  %vg = getelementptr i32, ptr %p, <2 x i64> <i64 1, i64 2>
  %vg2 = getelementptr %struct.S, <2 x ptr> %vg, <2 x i64> zeroinitializer, i32 2, i32 1
  %sg = getelementptr inbounds %struct.S, ptr %p, i64 1, i32 1, i64 3
  %al = alloca i32, i32 %x, align 32, addrspace(0)
  %al2 = alloca inalloca i64, align 8
  %al3 = alloca swifterror ptr, align 8
  %va2 = call i32 (i32, ...) @ext(i32 1, double 2.0, ptr %p, i128 5)
  %tc = tail call i32 (i32, ...) @ext(i32 %x) [ "deopt"(i32 %x, ptr %p) ]
  %nt = notail call fastcc i32 (i32, ...) @ext(i32 %x)
  call void @llvm.assume(i1 true) [ "align"(ptr %p, i64 16), "nonnull"(ptr %p) ]
  %ctc = call cc 10 i32 (i32, ...) @ext(i32 3)
  %b = add nuw nsw i32 %cxv, %a
  %b2 = sdiv exact i32 %b, 4
  %b3 = lshr exact i32 %b2, 1
;LLVM19
  %ic = icmp ult <4 x i32> %v, %vs
  %pc = icmp eq ptr %p, null
  %z = zext <4 x i1> %ic to <4 x i32>
  %t = trunc i32 %b3 to i8
  %bc = bitcast <4 x i32> %z to <2 x i64>
  %pi = ptrtoint ptr %p to i64
  %ip = inttoptr i64 %pi to ptr addrspace(3)
  %asc = addrspacecast ptr addrspace(3) %ip to ptr
  br i1 %pc, label %sw, label %ib

sw:
  switch i128 123456789012345678901234567890, label %ret [
    i128 -1, label %ret
    i128 170141183460469231731687303715884105727, label %ib
  ]

ib:
  %ph = phi fast float [ %f, %entry ], [ %fa, %sw ]
  indirectbr ptr blockaddress(@misc, %ret), [label %ret, label %sw]

ret:
  %r = phi i32 [ %b3, %sw ], [ %b3, %sw ], [ 0, %ib ]
  br label %loop

loop:
  %i = phi i32 [ %r, %ret ], [ %inc, %loop ]
  %inc = add i32 %i, 1
  %c = icmp slt i32 %inc, 100
  br i1 %c, label %loop, label %exit

exit:
  ret i32 %inc
}

declare i32 @ext2(i32)
define i32 @tail(i32 %x) {
  %mt = musttail call i32 @ext2(i32 %x)
  ret i32 %mt
}

define void @cbr(i32 %x) {
  callbr void asm "", "r,!i"(i32 %x) to label %a [label %b]
a:
  ret void
b:
  unreachable
}
`;

const LLVM19_EXTRAS = `  %dj = or disjoint i32 %b3, 256
  %nn = zext nneg i8 7 to i32
  %uf = uitofp nneg i32 %dj to float
  %tn = trunc nuw nsw i32 %nn to i16
  %gn = getelementptr nusw nuw i8, ptr %p, i64 4
  %gn2 = getelementptr inbounds nuw i8, ptr %gn, i64 4
`;

/** Typed pointers (LLVM 14). */
const TYPED_IR = `%struct.S = type { i32, [4 x i8], { i64, i8* } }
@g = global i32 0

declare void @llvm.assume(i1)
declare i32 @ext(i32, ...)
declare i32 @ext2(i32)
declare float @llvm.fabs.f32(float)

define i32 @misc(i32* %p, float* %pf, i32 %x, float %f, <4 x i32> %v, i8* %va, %struct.S* %s) {
entry:
  %fr = freeze i32 %x
  %a = va_arg i8* %va, i32
  %rmw1 = atomicrmw fadd float* %pf, float 1.0 syncscope("agent") monotonic, align 4
  %rmw3 = atomicrmw volatile umax i32* %p, i32 %x acquire, align 4
  fence syncscope("workgroup") acq_rel
  fence syncscope("singlethread") seq_cst
  %cx = cmpxchg weak volatile i32* %p, i32 %x, i32 %fr syncscope("agent") acq_rel monotonic, align 16
  %cxv = extractvalue { i32, i1 } %cx, 0
  %la = load atomic volatile i32, i32* %p syncscope("singlethread") unordered, align 4
  store atomic volatile i32 %la, i32* %p release, align 4
  %fn = fneg nnan ninf float %f
  %fa = fadd reassoc nsz arcp contract afn float %fn, %f
  %fc = fcmp fast olt float %fa, %f
  %sel = select nnan i1 %fc, float %fa, float %f
  %call = call fast float @llvm.fabs.f32(float %sel)
  %sh = shufflevector <4 x i32> %v, <4 x i32> undef, <8 x i32> <i32 0, i32 undef, i32 7, i32 1, i32 0, i32 0, i32 3, i32 undef>
  %ee = extractelement <8 x i32> %sh, i64 2
  %vg = getelementptr i32, i32* %p, <2 x i64> <i64 1, i64 2>
  %sg = getelementptr inbounds %struct.S, %struct.S* %s, i64 1, i32 2, i32 1
  %ld = load i8*, i8** %sg, align 8
  %al = alloca i32, i32 %x, align 32
  %al3 = alloca swifterror i8*, align 8
  %va2 = call i32 (i32, ...) @ext(i32 1, double 2.0, i32* %p, i128 5)
  %tc = tail call i32 (i32, ...) @ext(i32 %x) [ "deopt"(i32 %x, i32* %p) ]
  %nt = notail call fastcc i32 (i32, ...) @ext(i32 %x)
  call void @llvm.assume(i1 true) [ "align"(i32* %p, i64 16) ]
  %b = add nuw nsw i32 %cxv, %a
  %b3 = lshr exact i32 %b, 1
  %pc = icmp eq i32* %p, null
  %bc = bitcast i32* %p to i8*
  %ip = addrspacecast i8* %bc to i8 addrspace(3)*
  %ps = ptrtoint i8 addrspace(3)* %ip to i64
  br i1 %pc, label %sw, label %ib

sw:
  switch i128 123456789012345678901234567890, label %ret [
    i128 -1, label %ret
    i128 170141183460469231731687303715884105727, label %ib
  ]

ib:
  %ph = phi fast float [ %f, %entry ], [ %fa, %sw ]
  indirectbr i8* blockaddress(@misc, %ret), [label %ret, label %sw]

ret:
  %r = phi i32 [ %b3, %sw ], [ %b3, %sw ], [ 0, %ib ]
  br label %loop

loop:
  %i = phi i32 [ %r, %ret ], [ %inc, %loop ]
  %inc = add i32 %i, 1
  %c = icmp slt i32 %inc, 100
  br i1 %c, label %loop, label %exit

exit:
  ret i32 %inc
}

define i32 @tail(i32 %x) {
  %mt = musttail call i32 @ext2(i32 %x)
  ret i32 %mt
}

define void @cbr(i32 %x) {
  callbr void asm "", "r,X"(i32 %x, i8* blockaddress(@cbr, %b)) to label %a [label %b]
a:
  ret void
b:
  unreachable
}
`;

function irFor(v: LlvmVersion): string {
  if (v === 14) return HEADER + TYPED_IR;
  return HEADER + OPAQUE_IR.replace(';LLVM19\n', v >= 19 ? LLVM19_EXTRAS : '');
}

function fastMath(i: Instruction): number {
  return (i as unknown as { fastMath: number }).fastMath;
}

const have = LLVM_VERSIONS.every((v) => haveCommand(llvmTool(v, 'llvm-as'), ['--version']));

(have ? describe.each : describe.skip.each)(LLVM_VERSIONS.map((v) => ({ v })))('llvm-as $v', ({ v }) => {
  let dir = '';
  let m: Module;
  let ll = '';
  const named = new Map<string, Instruction>();
  const inst = <T extends Instruction>(name: string): T => {
    const i = named.get(name);
    if (!i) throw new Error(`no instruction %${name}`);
    return i as T;
  };
  const all = (fn: string): Instruction[] => m.getFunction(fn)!.blocks.flatMap((b) => b.insts);

  beforeAll(async () => {
    dir = makeTmpDir(`llvm-as-${v}`);
    const src = path.join(dir, 'core.ll');
    const bc = path.join(dir, 'core.bc');
    writeFileSync(src, irFor(v));
    await run(llvmTool(v, 'llvm-as'), [src, '-o', bc]);
    ll = await run(llvmTool(v, 'llvm-dis'), [bc, '-o', '-']);
    m = readBitcodeModule(new Uint8Array(readFileSync(bc)), bc);
    for (const fn of m.functions) for (const b of fn.blocks) for (const i of b.insts) if (i.name) named.set(i.name, i);
  });
  afterAll(() => removeDir(dir));

  test('structure matches llvm-dis', () => {
    const expected = summarizeDis(ll);
    const actual = summarizeModule(m);
    for (const [name, exp] of expected) expect({ name, summary: actual.get(name) }).toEqual({ name, summary: exp });
  });

  test('atomics', () => {
    const rmw1 = inst<AtomicRMWInst>('rmw1');
    expect(rmw1.operation).toBe(RMWOp.FAdd);
    expect(m.syncScopeNames[rmw1.syncScope]).toBe('agent');
    expect(rmw1.ordering).toBe(AtomicOrdering.Monotonic);
    expect(rmw1.align).toBe(4);
    const rmw3 = inst<AtomicRMWInst>('rmw3');
    expect(rmw3.operation).toBe(v === 14 ? RMWOp.UMax : RMWOp.UIncWrap);
    expect(rmw3.ordering).toBe(AtomicOrdering.Acquire);
    expect(rmw3.isVolatile).toBe(v === 14);
    const cx = inst<AtomicCmpXchgInst>('cx');
    expect([cx.successOrdering, cx.failureOrdering]).toEqual([AtomicOrdering.AcquireRelease, AtomicOrdering.Monotonic]);
    expect([cx.isVolatile, cx.weak, cx.align]).toEqual([true, v === 14, 16]);
    expect(cx.type.kind).toBe(TypeKind.Struct);
    const fences = all('misc').filter((i) => i.opcode === Opcode.Fence) as FenceInst[];
    expect(fences.map((f) => m.syncScopeNames[f.syncScope])).toEqual(['workgroup', 'singlethread']);
    expect(fences.map((f) => f.ordering)).toEqual([AtomicOrdering.AcquireRelease, AtomicOrdering.SequentiallyConsistent]);
    const la = inst<LoadInst>('la');
    expect([la.ordering, la.isVolatile, m.syncScopeNames[la.syncScope]]).toEqual([AtomicOrdering.Unordered, true, 'singlethread']);
    const st = all('misc').find((i) => i.opcode === Opcode.Store) as StoreInst;
    expect(st.ordering).toBe(AtomicOrdering.Release);
    expect(st.value).toBe(la);
  });

  test('fast-math flags', () => {
    expect(fastMath(inst('fn'))).toBe(FMF.NoNaNs | FMF.NoInfs);
    expect(fastMath(inst('fa'))).toBe(FMF.AllowReassoc | FMF.NoSignedZeros | FMF.AllowReciprocal | FMF.AllowContract | FMF.ApproxFunc);
    expect(fastMath(inst('fc'))).toBe(127);
    expect(fastMath(inst('sel'))).toBe(FMF.NoNaNs);
    expect(fastMath(inst('call'))).toBe(127);
    expect(fastMath(inst('ph'))).toBe(127);
  });

  test('calls and bundles', () => {
    expect(inst<CallInst>('tc').tailKind).toBe(TailKind.Tail);
    expect(inst<CallInst>('tc').bundles!.map((b) => [b.tag, b.inputs.length])).toEqual([['deopt', 2]]);
    expect(inst<CallInst>('nt').tailKind).toBe(TailKind.NoTail);
    expect(inst<CallInst>('nt').callingConv).toBe(8);
    expect(inst<CallInst>('va2').argCount).toBe(4);
    expect(inst<CallInst>('mt').tailKind).toBe(TailKind.MustTail);
    const assume = all('misc').find((i) => i.opcode === Opcode.Call && i.type.kind === TypeKind.Void) as CallInst;
    expect(assume.bundles!.map((b) => b.tag)).toEqual(v === 14 ? ['align'] : ['align', 'nonnull']);
    const cbr = all('cbr')[0] as CallBrInst;
    expect(cbr.opcode).toBe(Opcode.CallBr);
    expect(cbr.defaultDest.name).toBe('a');
    expect(cbr.indirectDests.map((b) => b.name)).toEqual(['b']);
    expect(cbr.callee.vkind).toBe(ValueKind.InlineAsm);
  });

  test('memory', () => {
    const al = inst<AllocaInst>('al');
    expect(al.align).toBe(32);
    expect(al.arraySize).toBe(m.getFunction('misc')!.args[v === 14 ? 2 : 1]);
    expect(inst<AllocaInst>('al3').swiftError).toBe(true);
    if (v !== 14) expect(inst<AllocaInst>('al2').inAlloca).toBe(true);
    const sg = inst<GetElementPtrInst>('sg');
    expect(sg.flags & Flag.InBounds).toBeTruthy();
    expect(sg.ops).toHaveLength(4);
    const vg = inst<GetElementPtrInst>('vg');
    expect(vg.type.kind).toBe(TypeKind.Vector);
    expect(vg.flags).toBe(0);
    if (v === 14) expect(inst('ld').type.kind).toBe(TypeKind.Pointer);
  });

  test('vectors, switch, phi', () => {
    const sh = inst<ShuffleVectorInst>('sh');
    expect(sh.mask).toEqual([0, -1, 7, 1, 0, 0, 3, -1]);
    expect(sh.type.kind).toBe(TypeKind.Vector);
    if (v !== 14) expect(inst<ShuffleVectorInst>('sh2').mask).toEqual([0, 0]);
    const sw = all('misc').find((i) => i.opcode === Opcode.Switch) as SwitchInst;
    expect(sw.cases.map((c) => c.value.signedValue)).toEqual([-1n, (1n << 127n) - 1n]);
    expect(inst<PhiInst>('r').blocks.map((b) => b.name)).toEqual(['sw', 'sw', 'ib']);
    expect(inst<PhiInst>('i').ops[1]).toBe(inst('inc'));
    expect(inst('fr').opcode).toBe(Opcode.Freeze);
    expect(inst('a').opcode).toBe(Opcode.VAArg);
  });

  (v >= 19 ? test : test.skip)('LLVM 19 flags', () => {
    expect((inst('dj') as unknown as { flags: number }).flags).toBe(Flag.Disjoint);
    expect(inst<CastInst>('nn').flags).toBe(Flag.NonNeg);
    expect(inst<CastInst>('uf').flags).toBe(Flag.NonNeg);
    expect(inst<CastInst>('tn').flags).toBe(Flag.NUW | Flag.NSW);
    expect(inst<GetElementPtrInst>('gn').flags).toBe(Flag.GEPNUSW | Flag.GEPNUW);
    expect(inst<GetElementPtrInst>('gn2').flags).toBe(Flag.InBounds | Flag.GEPNUSW | Flag.GEPNUW);
  });
});
