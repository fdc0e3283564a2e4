/**
 * The module reader on IR assembled by llvm-as 14/16/19: every kind of module-level constant,
 * global value property, attribute encoding and small block the C corpus rarely exercises.
 */
import {
  BlockAddress,
  ComdatSelection,
  ConstantAggregateZero,
  ConstantData,
  ConstantExpr,
  ConstantFP,
  ConstantInt,
  ConstantPointerNull,
  ConstantStruct,
  ConstantVector,
  DSOLocalEquivalent,
  Flag,
  Linkage,
  Opcode,
  PointerType,
  PoisonValue,
  StructType,
  ThreadLocalMode,
  UndefValue,
  UnnamedAddr,
  ValueKind,
  Visibility,
  type Function,
  type Module,
} from '../../../../src/ir/index.js';
import { Workdir, decode, globalVar, type LlvmVersion } from './module-harness.js';

/** Opaque-pointer IR for llvm-as 16 and 19. */
const IR_OPAQUE = String.raw`target triple = "x86_64-unknown-linux-gnu"
module asm "nop"
module asm "ret"
$cd = comdat any
$cl = comdat largest
%struct.S = type { i32, ptr, [2 x i16] }
%struct.opaque = type opaque
%struct.packed = type <{ i8, i32 }>
@g80 = global x86_fp80 0xK3FFF8000000000000001
@g128 = global fp128 0xL00000000000000014000800000000000
@ghalf = global half 0xH3C00
@gbf = global bfloat 0xR3F80
@gdbl = global double -2.5
@gflt = global float 0x3FB99999A0000000
@gi128 = global i128 -2
@gi200 = global i200 -12345678901234567890123456789
@gi64min = global i64 -9223372036854775808
@gi1 = global i1 true
@gvec = global <4 x float> <float 1.0, float 2.0, float 3.0, float 4.0>
@gvecint = global <2 x i64> <i64 -1, i64 5>
@gvecagg = global <2 x ptr> <ptr @gi1, ptr null>
@arr = global [3 x i32] [i32 1, i32 2, i32 3]
@str = constant [4 x i8] c"ab\00c"
@cstr = constant [3 x i8] c"hi\00"
@s = global %struct.S { i32 7, ptr getelementptr inbounds ([3 x i32], ptr @arr, i64 0, i64 1), [2 x i16] [i16 -1, i16 2] }
@pk = global %struct.packed <{ i8 1, i32 2 }>
@p = global ptr getelementptr (i8, ptr @str, i64 2)
@pi = global i64 ptrtoint (ptr @arr to i64)
@sum = global i64 add (i64 ptrtoint (ptr @arr to i64), i64 8)
@diff = global i64 sub nuw (i64 ptrtoint (ptr @str to i64), i64 ptrtoint (ptr @arr to i64))
@zero = global [10 x i32] zeroinitializer
@un = global { i32, i32 } undef
@po = global i32 poison
@nul = global ptr null
@fwd = global ptr @late
@late = global i32 11
@al = alias i32, ptr @arr
@al2 = internal alias i32, getelementptr (i32, ptr @arr, i64 1)
@ifn = ifunc void (), ptr @resolver
@c1 = global i32 1, comdat($cd)
@c2 = global i32 2, comdat($cl)
@tls = thread_local(initialexec) global i32 3
@sec = global i32 4, section ".mysec", align 16
@hid = hidden global i32 5
@prot = protected global i32 5
@ext = external global i32
@extw = extern_weak global i32
@w = weak global i32 6
@lo = linkonce_odr global i32 7
@com = common global i32 0, align 4
@ap = appending global [1 x i32] [i32 1]
@ua = private unnamed_addr constant i32 1
@lua = internal local_unnamed_addr global i32 2
@ei = externally_initialized global i32 9
@dsol = dso_local global i32 10
@dle = global ptr dso_local_equivalent @resolver
@as1 = addrspace(1) global i32 12
@ops = global ptr @opaque_user
@opaque_user = external global %struct.opaque
@ba = global ptr blockaddress(@withblocks, %second)

define ptr @resolver() {
  ret ptr null
}

define i32 @withblocks(i32 %x) {
entry:
  %c = icmp eq i32 %x, 0
  br i1 %c, label %second, label %third
second:
  ret i32 1
third:
  ret i32 2
}

define fastcc void @cc() section ".text.cc" gc "statepoint-example" prefix i32 123 prologue i8 1 personality ptr @resolver {
  fence syncscope("agent") seq_cst
  ret void
}

declare void @decl(ptr byval(%struct.S) align 8, ptr noalias sret(i32), i32 signext) #0
declare dereferenceable(16) ptr @deref(ptr nonnull dereferenceable_or_null(8) "key"="value" "flag") nounwind

attributes #0 = { noinline nounwind optnone uwtable "frame-pointer"="all" memory(argmem: read) }
`;

/** The same with typed pointers for llvm-as 14 (plus a self-referencing struct and inrange). */
const IR_TYPED = String.raw`target triple = "x86_64-unknown-linux-gnu"
module asm "nop"
module asm "ret"
$cd = comdat any
$cl = comdat largest
%struct.S = type { i32, i32*, [2 x i16] }
%struct.opaque = type opaque
%struct.packed = type <{ i8, i32 }>
%struct.node = type { i32, %struct.node* }
@g80 = global x86_fp80 0xK3FFF8000000000000001
@g128 = global fp128 0xL00000000000000014000800000000000
@ghalf = global half 0xH3C00
@gbf = global bfloat 0xR3F80
@gdbl = global double -2.5
@gflt = global float 0x3FB99999A0000000
@gi128 = global i128 -2
@gi200 = global i200 -12345678901234567890123456789
@gi64min = global i64 -9223372036854775808
@gi1 = global i1 true
@gvec = global <4 x float> <float 1.0, float 2.0, float 3.0, float 4.0>
@gvecint = global <2 x i64> <i64 -1, i64 5>
@gvecagg = global <2 x i1*> <i1* @gi1, i1* null>
@arr = global [3 x i32] [i32 1, i32 2, i32 3]
@str = constant [4 x i8] c"ab\00c"
@cstr = constant [3 x i8] c"hi\00"
@s = global %struct.S { i32 7, i32* getelementptr inbounds ([3 x i32], [3 x i32]* @arr, i64 0, i64 1), [2 x i16] [i16 -1, i16 2] }
@pk = global %struct.packed <{ i8 1, i32 2 }>
@p = global i8* getelementptr (i8, i8* getelementptr inbounds ([4 x i8], [4 x i8]* @str, i64 0, i64 0), i64 2)
@pi = global i64 ptrtoint ([3 x i32]* @arr to i64)
@sum = global i64 add (i64 ptrtoint ([3 x i32]* @arr to i64), i64 8)
@diff = global i64 sub nuw (i64 ptrtoint ([4 x i8]* @str to i64), i64 ptrtoint ([3 x i32]* @arr to i64))
@zero = global [10 x i32] zeroinitializer
@un = global { i32, i32 } undef
@po = global i32 poison
@nul = global i8* null
@fwd = global i32* @late
@late = global i32 11
@al = alias i32, getelementptr inbounds ([3 x i32], [3 x i32]* @arr, i64 0, i64 0)
@al2 = internal alias i32, getelementptr (i32, i32* getelementptr inbounds ([3 x i32], [3 x i32]* @arr, i64 0, i64 0), i64 1)
@ifn = ifunc void (), void ()* ()* @resolver
@c1 = global i32 1, comdat($cd)
@c2 = global i32 2, comdat($cl)
@tls = thread_local(initialexec) global i32 3
@sec = global i32 4, section ".mysec", align 16
@hid = hidden global i32 5
@prot = protected global i32 5
@ext = external global i32
@extw = extern_weak global i32
@w = weak global i32 6
@lo = linkonce_odr global i32 7
@com = common global i32 0, align 4
@ap = appending global [1 x i32] [i32 1]
@ua = private unnamed_addr constant i32 1
@lua = internal local_unnamed_addr global i32 2
@ei = externally_initialized global i32 9
@dsol = dso_local global i32 10
@as1 = addrspace(1) global i32 12
@ops = global %struct.opaque* @opaque_user
@opaque_user = external global %struct.opaque
@head = global %struct.node { i32 1, %struct.node* @head }
@vt = global { [2 x i8*] } zeroinitializer
@inr = global i8** getelementptr inbounds ({ [2 x i8*] }, { [2 x i8*] }* @vt, i32 0, inrange i32 0, i32 1)

define void ()* @resolver() {
  ret void ()* null
}

define i32 @withblocks(i32 %x) {
entry:
  %c = icmp eq i32 %x, 0
  br i1 %c, label %second, label %third
second:
  ret i32 1
third:
  ret i32 2
}

define fastcc void @cc() section ".text.cc" gc "statepoint-example" prefix i32 123 prologue i8 1 personality void ()* ()* @resolver {
  fence syncscope("agent") seq_cst
  ret void
}

@dle = global void ()* ()* dso_local_equivalent @resolver
@ba = global i8* blockaddress(@withblocks, %second)
declare void @decl(%struct.S* byval(%struct.S) align 8, i32* noalias sret(i32), i32 signext) #0
declare dereferenceable(16) i8* @deref(i8* nonnull dereferenceable_or_null(8) "key"="value" "flag") nounwind

attributes #0 = { noinline nounwind optnone uwtable "frame-pointer"="all" argmemonly readonly }
`;

/** LLVM 19 only: GEP no-wrap flags, inrange(lo, hi), constant-range attributes. */
const IR_19 = String.raw`target triple = "x86_64-unknown-linux-gnu"
@vt = global { [2 x ptr] } zeroinitializer
@inr = global ptr getelementptr inbounds inrange(-8, 8) ({ [2 x ptr] }, ptr @vt, i32 0, i32 0, i32 1)
@nuwgep = global ptr getelementptr nuw (i8, ptr @vt, i64 4)
@nusw = global ptr getelementptr nusw (i8, ptr @vt, i64 4)
declare range(i32 0, 10) i32 @rng(ptr initializes((0, 4), (8, 12)) %p, i32 noundef range(i32 -5, 5) %x, i128 range(i128 -1, 170141183460469231731687303715884105727) %w) memory(read) nofree
`;

const wd = new Workdir();
afterAll(() => wd.remove());

const modules = new Map<LlvmVersion, Module>([
  [14, decode(wd.assemble(14, IR_TYPED))],
  [16, decode(wd.assemble(16, IR_OPAQUE))],
  [19, decode(wd.assemble(19, IR_OPAQUE))],
]);

function init<T>(m: Module, name: string): T {
  return globalVar(m, name).initializer as T;
}

describe.each([14, 16, 19] as const)('llvm-as %i', (v) => {
  const m = modules.get(v)!;

  it('reads floating-point constants of every format as raw bits', () => {
    expect(init<ConstantFP>(m, 'g80').bits).toBe(0x3fff8000000000000001n);
    expect(init<ConstantFP>(m, 'g128').bits).toBe(0x40008000000000000000000000000001n);
    expect(init<ConstantFP>(m, 'ghalf').bits).toBe(0x3c00n);
    expect(init<ConstantFP>(m, 'gbf').bits).toBe(0x3f80n);
    expect(init<ConstantFP>(m, 'gdbl').bits).toBe(0xc004000000000000n);
    expect(init<ConstantFP>(m, 'gflt').bits).toBe(0x3dcccccdn);
  });

  it('reads integers of every width as unsigned bit patterns', () => {
    expect(init<ConstantInt>(m, 'gi128').value).toBe((1n << 128n) - 2n);
    expect(init<ConstantInt>(m, 'gi200').value).toBe(BigInt.asUintN(200, -12345678901234567890123456789n));
    expect(init<ConstantInt>(m, 'gi200').signedValue).toBe(-12345678901234567890123456789n);
    expect(init<ConstantInt>(m, 'gi64min').value).toBe(1n << 63n);
    expect(init<ConstantInt>(m, 'gi1').value).toBe(1n);
  });

  it('reads vectors, arrays, strings and structs', () => {
    const fv = init<ConstantData>(m, 'gvec');
    expect(fv.type.isVector()).toBe(true);
    expect(fv.elements).toEqual([0x3f800000n, 0x40000000n, 0x40400000n, 0x40800000n]);
    expect(init<ConstantData>(m, 'gvecint').elements).toEqual([(1n << 64n) - 1n, 5n]);
    const pv = init<ConstantVector>(m, 'gvecagg');
    expect(pv.vkind).toBe(ValueKind.ConstantVector);
    expect(pv.elements[0]).toBe(globalVar(m, 'gi1'));
    expect(pv.elements[1]).toBeInstanceOf(ConstantPointerNull);
    expect(init<ConstantData>(m, 'arr').elements).toEqual([1n, 2n, 3n]);
    expect(init<ConstantData>(m, 'str').elements).toEqual([97n, 98n, 0n, 99n]);
    expect(init<ConstantData>(m, 'cstr').elements).toEqual([104n, 105n, 0n]);
    expect(init<ConstantData>(m, 'cstr').type).toBe(globalVar(m, 'cstr').valueType);

    const s = init<ConstantStruct>(m, 's');
    expect(s.type).toBe(m.structTypes.find((t) => t.name === 'struct.S'));
    expect((s.elements[0] as ConstantInt).value).toBe(7n);
    const gep = s.elements[1] as ConstantExpr;
    expect(gep.opcode).toBe(Opcode.GetElementPtr);
    expect(gep.flags & Flag.InBounds).toBe(Flag.InBounds);
    expect(gep.ops.map((o) => (o instanceof ConstantInt ? o.value : o))).toEqual([globalVar(m, 'arr'), 0n, 1n]);
    expect((s.elements[2] as ConstantData).elements).toEqual([0xffffn, 2n]);
    const pk = init<ConstantStruct>(m, 'pk');
    expect((pk.type as StructType).packed).toBe(true);
  });

  it('reads zero, undef, poison, null and forward references to later globals', () => {
    expect(init<ConstantAggregateZero>(m, 'zero')).toBeInstanceOf(ConstantAggregateZero);
    expect(init<UndefValue>(m, 'un')).toBeInstanceOf(UndefValue);
    expect(init<PoisonValue>(m, 'po')).toBeInstanceOf(PoisonValue);
    expect(init<ConstantPointerNull>(m, 'nul')).toBeInstanceOf(ConstantPointerNull);
    expect(init(m, 'fwd')).toBe(globalVar(m, 'late'));
  });

  it('reads constant expressions with their flags', () => {
    const pi = init<ConstantExpr>(m, 'pi');
    expect(pi.opcode).toBe(Opcode.PtrToInt);
    expect(pi.ops[0]).toBe(globalVar(m, 'arr'));
    const sum = init<ConstantExpr>(m, 'sum');
    expect(sum.opcode).toBe(Opcode.Add);
    expect(sum.ops[0]).toBeInstanceOf(ConstantExpr);
    expect((sum.ops[1] as ConstantInt).value).toBe(8n);
    const diff = init<ConstantExpr>(m, 'diff');
    expect(diff.opcode).toBe(Opcode.Sub);
    expect(diff.flags).toBe(Flag.NUW);
    const dle = init<DSOLocalEquivalent>(m, 'dle');
    expect(dle.global).toBe(m.getFunction('resolver'));
  });

  it('points blockaddress constants at the right block', () => {
    const ba = init<BlockAddress>(m, 'ba');
    const fn = m.getFunction('withblocks')!;
    expect(ba.fn).toBe(fn);
    expect(ba.blockIndex).toBe(1);
    expect(ba.block).toBe(fn.blocks[1]);
  });

  it('reads aliases and ifuncs', () => {
    const al = m.aliases.find((a) => a.name === 'al')!;
    expect(al.valueType.isInteger(32)).toBe(true);
    expect(al.aliasee!.type).toBe(al.type);
    const al2 = m.aliases.find((a) => a.name === 'al2')!;
    expect(al2.linkage).toBe(Linkage.Internal);
    expect((al2.aliasee as ConstantExpr).opcode).toBe(Opcode.GetElementPtr);
    const ifn = m.ifuncs.find((i) => i.name === 'ifn')!;
    expect(ifn.resolver).toBe(m.getFunction('resolver'));
    expect(ifn.valueType.isFunction()).toBe(true);
  });

  it('reads linkage, visibility, comdats, sections, TLS and other global properties', () => {
    const g = (n: string) => globalVar(m, n);
    expect(m.comdats.get('cd')).toBe(ComdatSelection.Any);
    expect(m.comdats.get('cl')).toBe(ComdatSelection.Largest);
    expect(g('c1').comdat).toBe('cd');
    expect(g('c2').comdat).toBe('cl');
    expect(g('arr').comdat).toBeNull();
    expect(g('tls').threadLocal).toBe(ThreadLocalMode.InitialExec);
    expect(g('sec').section).toBe('.mysec');
    expect(g('sec').align).toBe(16);
    expect(g('hid').visibility).toBe(Visibility.Hidden);
    expect(g('prot').visibility).toBe(Visibility.Protected);
    expect(g('hid').dsoLocal).toBe(true); // implied by hidden
    expect(g('ext').isDeclaration).toBe(true);
    expect(g('extw').linkage).toBe(Linkage.ExternWeak);
    expect(g('w').linkage).toBe(Linkage.WeakAny);
    expect(g('lo').linkage).toBe(Linkage.LinkOnceODR);
    expect(g('com').linkage).toBe(Linkage.Common);
    expect(g('ap').linkage).toBe(Linkage.Appending);
    expect(g('ua').linkage).toBe(Linkage.Private);
    expect(g('ua').unnamedAddr).toBe(UnnamedAddr.Global);
    expect(g('ua').isConstantGlobal).toBe(true);
    expect(g('lua').unnamedAddr).toBe(UnnamedAddr.Local);
    expect(g('lua').linkage).toBe(Linkage.Internal);
    expect(g('ei').externallyInitialized).toBe(true);
    expect(g('dsol').dsoLocal).toBe(true);
    expect(g('arr').dsoLocal).toBe(false);
    expect(g('as1').addrSpace).toBe(1);
    expect((g('as1').type as PointerType).addrSpace).toBe(1);
    expect(m.structTypes.find((t) => t.name === 'struct.opaque')!.isOpaque).toBe(true);
    expect(g('opaque_user').valueType).toBe(m.structTypes.find((t) => t.name === 'struct.opaque'));
  });

  it('reads function properties and the operands resolved after the constants', () => {
    const cc = m.getFunction('cc')!;
    expect(cc.callingConv).toBe(8);
    expect(cc.section).toBe('.text.cc');
    expect(cc.gc).toBe('statepoint-example');
    expect((cc.prefix as ConstantInt).value).toBe(123n);
    expect((cc.prologue as ConstantInt).value).toBe(1n);
    expect(cc.personality).toBe(m.getFunction('resolver'));
    expect(m.syncScopeNames).toEqual(['singlethread', '', 'agent']);
    expect(m.moduleAsm).toBe('nop\nret\n');
  });

  it('reads attribute lists: enum, integer, type and string attributes', () => {
    const decl = m.getFunction('decl')! as Function;
    const fnKinds = decl.attributes.fn.map((a) => a.kind);
    expect(fnKinds).toEqual(expect.arrayContaining(['noinline', 'nounwind', 'optnone', 'uwtable', 'frame-pointer']));
    expect(decl.attributes.fn.find((a) => a.kind === 'frame-pointer')).toEqual({ kind: 'frame-pointer', isString: true, str: 'all' });
    if (v === 14) expect(fnKinds).toEqual(expect.arrayContaining(['argmemonly', 'readonly']));
    else expect(decl.attributes.fn.find((a) => a.kind === 'memory')!.int).toBeDefined();
    const byval = decl.attributes.paramAttr(0, 'byval')!;
    expect(byval.type).toBe(m.structTypes.find((t) => t.name === 'struct.S'));
    expect(decl.attributes.paramAttr(0, 'align')!.int).toBe(8n);
    expect(decl.attributes.paramAttr(1, 'sret')!.type!.isInteger(32)).toBe(true);
    expect(decl.attributes.hasParamAttr(1, 'noalias')).toBe(true);
    expect(decl.attributes.hasParamAttr(2, 'signext')).toBe(true);

    const deref = m.getFunction('deref')!;
    expect(deref.attributes.ret).toEqual([{ kind: 'dereferenceable', int: 16n }]);
    expect(deref.attributes.param(0)).toEqual([
      { kind: 'nonnull' },
      { kind: 'dereferenceable_or_null', int: 8n },
      { kind: 'flag', isString: true },
      { kind: 'key', isString: true, str: 'value' },
    ]);
    expect(deref.attributes.fn).toEqual([{ kind: 'nounwind' }]);
  });
});

describe('LLVM 14 typed pointers', () => {
  const m = modules.get(14)!;
  it('resolves self-referencing struct types through forward references', () => {
    const node = m.structTypes.find((t) => t.name === 'struct.node')!;
    expect((node.elements[1] as PointerType).pointee).toBe(node);
    const head = init<ConstantStruct>(m, 'head');
    expect(head.elements[1]).toBe(globalVar(m, 'head'));
  });
  it('keeps the inrange index of GEP expressions (as an operand index)', () => {
    const inr = init<ConstantExpr>(m, 'inr');
    expect(inr.ops[0]).toBe(globalVar(m, 'vt'));
    expect(inr.gep!.inRangeIndex).toBe(2);
    expect(inr.gep!.inRange).toBeUndefined();
  });
});

describe('LLVM 19 only', () => {
  const m = decode(wd.assemble(19, IR_19));
  it('reads GEP no-wrap flags and inrange bounds', () => {
    const inr = init<ConstantExpr>(m, 'inr');
    expect(inr.flags & Flag.InBounds).toBe(Flag.InBounds);
    expect(inr.gep!.inRange).toEqual([-8n, 8n]);
    expect(inr.gep!.inRangeIndex).toBe(-1);
    expect(init<ConstantExpr>(m, 'nuwgep').flags).toBe(Flag.GEPNUW);
    expect(init<ConstantExpr>(m, 'nusw').flags).toBe(Flag.GEPNUSW);
  });
  it('reads constant-range attributes, narrow and wide, and range lists', () => {
    const rng = m.getFunction('rng')!;
    expect(rng.attributes.ret).toEqual([{ kind: 'range', bitWidth: 32, ranges: [[0n, 10n]] }]);
    expect(rng.attributes.param(0)).toEqual([{ kind: 'initializes', bitWidth: 64, ranges: [[0n, 4n], [8n, 12n]] }]);
    expect(rng.attributes.paramAttr(1, 'range')).toEqual({ kind: 'range', bitWidth: 32, ranges: [[-5n, 5n]] });
    expect(rng.attributes.paramAttr(2, 'range')).toEqual({ kind: 'range', bitWidth: 128, ranges: [[-1n, (1n << 127n) - 1n]] });
    expect(rng.attributes.fn.map((a) => a.kind).sort()).toEqual(['memory', 'nofree']);
  });
});
