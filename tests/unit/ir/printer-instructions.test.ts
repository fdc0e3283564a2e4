import {
  AllocaInst,
  ArrayType,
  AsmDialect,
  AtomicCmpXchgInst,
  AtomicOrdering,
  AtomicRMWInst,
  BasicBlock,
  BinaryOperator,
  BranchInst,
  CallBrInst,
  CallInst,
  CastInst,
  CmpInst,
  ConstantFP,
  ConstantInt,
  DIExpression,
  DILocalVariable,
  DILocation,
  DIArgList,
  DebugRecordKind,
  DoubleTy,
  ExtractValueInst,
  FenceInst,
  Flag,
  FloatTy,
  Function,
  FunctionType,
  GetElementPtrInst,
  I1,
  I32,
  I64,
  I8,
  IndirectBrInst,
  InlineAsm,
  type Instruction,
  LoadInst,
  MDTuple,
  MetadataAsValue,
  Module,
  Opcode,
  PhiInst,
  PointerType,
  Predicate,
  ReturnInst,
  RMWOp,
  SelectInst,
  ShuffleVectorInst,
  StoreInst,
  StructType,
  SwitchInst,
  TailKind,
  UnreachableInst,
  VAArgInst,
  ValueAsMetadata,
  VectorType,
  VoidType,
  PoisonValue,
  MetadataType,
  type Value,
} from '../../../src/ir/index.js';
import { moduleContext, printInstruction, printModule, type PrintContext } from '../../../src/ir/printer/index.js';

const ptr = PointerType.opaque();
const i32 = (n: number): ConstantInt => new ConstantInt(I32, BigInt.asUintN(32, BigInt(n)));

/** A module with one function `f(i32, ptr)` whose body the test fills. */
function makeFunction(opts: { typed?: boolean; producer?: string; varArgs?: boolean } = {}) {
  const m = new Module();
  m.producer = opts.producer ?? 'LLVM19.1.7';
  m.typedPointers = !!opts.typed;
  const p = opts.typed ? PointerType.typed(I32) : ptr;
  const fnType = FunctionType.get(I32, [I32, p], !!opts.varArgs);
  const f = new Function('f', fnType, 0, opts.typed ? PointerType.typed(fnType) : ptr);
  f.hasBody = true;
  m.functions.push(f);
  const blocks: BasicBlock[] = [];
  const block = (name = ''): BasicBlock => {
    const bb = new BasicBlock(f);
    bb.name = name;
    bb.index = f.blocks.length;
    f.blocks.push(bb);
    blocks.push(bb);
    return bb;
  };
  const add = <T extends Instruction>(bb: BasicBlock, inst: T, name = ''): T => {
    inst.parent = bb;
    inst.name = name;
    bb.insts.push(inst);
    return inst;
  };
  return { m, f, a: f.args[0]!, p: f.args[1]!, block, add, blocks };
}

/** A block label padded to column 50, where llvm-dis starts the `; preds` comment. */
const pad = (label: string): string => label + ' '.repeat(50 - label.length);

function lines(ctx: PrintContext, insts: Instruction[]): string[] {
  return insts.map((i) => printInstruction(i, ctx));
}

describe('instruction printing', () => {
  test('arithmetic, flags, comparisons and casts', () => {
    const { m, a, block, add } = makeFunction();
    const bb = block();
    const x = add(bb, new BinaryOperator(Opcode.Add, I32, [a, i32(1)], Flag.NUW | Flag.NSW));
    const y = add(bb, new BinaryOperator(Opcode.UDiv, I32, [x, a], Flag.Exact), 'q');
    const z = add(bb, new BinaryOperator(Opcode.Or, I32, [y, a], Flag.Disjoint));
    const zx = add(bb, new CastInst(Opcode.ZExt, I64, [z], Flag.NonNeg));
    const tr = add(bb, new CastInst(Opcode.Trunc, I8, [zx], Flag.NUW | Flag.NSW));
    const fp = add(bb, new CastInst(Opcode.SIToFP, DoubleTy, [a]));
    const fa = add(bb, new BinaryOperator(Opcode.FAdd, DoubleTy, [fp, new ConstantFP(DoubleTy, 0x3ff0000000000000n)], 0, 0x7f));
    const fm = add(bb, new BinaryOperator(Opcode.FMul, DoubleTy, [fa, fa], 0, 2 | 4 | 32));
    const c = add(bb, new CmpInst(Opcode.ICmp, I1, [a, i32(-5)], Predicate.ICMP_SLT));
    const fc = add(bb, new CmpInst(Opcode.FCmp, I1, [fm, fa], Predicate.FCMP_OLT, 0, 8));
    const sel = add(bb, new SelectInst(I32, [c, a, i32(0)]));
    const ret = add(bb, new ReturnInst(VoidType, [sel]));
    const ctx = moduleContext(m);
    expect(lines(ctx, [x, y, z, zx, tr, fp, fa, fm, c, fc, sel, ret])).toEqual([
      '  %3 = add nuw nsw i32 %0, 1',
      '  %q = udiv exact i32 %3, %0',
      '  %4 = or disjoint i32 %q, %0',
      '  %5 = zext nneg i32 %4 to i64',
      '  %6 = trunc nuw nsw i64 %5 to i8',
      '  %7 = sitofp i32 %0 to double',
      '  %8 = fadd fast double %7, 1.000000e+00',
      '  %9 = fmul nnan ninf contract double %8, %8',
      '  %10 = icmp slt i32 %0, -5',
      '  %11 = fcmp nsz olt double %9, %8',
      '  %12 = select i1 %10, i32 %0, i32 0',
      '  ret i32 %12',
    ]);
  });

  test('memory and atomics', () => {
    const { m, a, p, block, add } = makeFunction();
    m.syncScopeNames.push('agent');
    const bb = block('entry');
    const al = add(bb, new AllocaInst(ptr, [i32(1)], I32, 4), 'x');
    const arr = add(bb, new AllocaInst(ptr, [new ConstantInt(I64, 5n)], I8, 16));
    const as5 = add(bb, new AllocaInst(PointerType.opaque(5), [i32(1)], I32, 4));
    const ld = add(bb, new LoadInst(I32, [p], 4, true));
    const la = add(bb, new LoadInst(I32, [p], 4, false, AtomicOrdering.SequentiallyConsistent));
    const st = add(bb, new StoreInst(VoidType, [a, al], 4, false, AtomicOrdering.Release, 0));
    const s = StructType.named('struct.s');
    s.setBody([I32, I32], false);
    const gep = add(bb, new GetElementPtrInst(ptr, [p, i32(0), i32(1)], s, Flag.InBounds | Flag.GEPNUW));
    const gep2 = add(bb, new GetElementPtrInst(ptr, [p, new ConstantInt(I64, 3n)], I8, Flag.GEPNUSW));
    const cx = add(bb, new AtomicCmpXchgInst(StructType.literal([I32, I1]), [p, a, i32(7)], AtomicOrdering.SequentiallyConsistent, AtomicOrdering.Monotonic, 2, true, true, 4));
    const ev = add(bb, new ExtractValueInst(I1, [cx], [1]));
    const rmw = add(bb, new AtomicRMWInst(I32, [p, i32(1)], RMWOp.Add, AtomicOrdering.AcquireRelease, 1, false, 4));
    const fence = add(bb, new FenceInst(VoidType, AtomicOrdering.Acquire, 0));
    const ctx = moduleContext(m);
    expect(lines(ctx, [al, arr, as5, ld, la, st, gep, gep2, cx, ev, rmw, fence])).toEqual([
      '  %x = alloca i32, align 4',
      '  %2 = alloca i8, i64 5, align 16',
      '  %3 = alloca i32, align 4, addrspace(5)',
      '  %4 = load volatile i32, ptr %1, align 4',
      '  %5 = load atomic i32, ptr %1 seq_cst, align 4',
      '  store atomic i32 %0, ptr %x syncscope("singlethread") release, align 4',
      '  %6 = getelementptr inbounds nuw %struct.s, ptr %1, i32 0, i32 1',
      '  %7 = getelementptr nusw i8, ptr %1, i64 3',
      '  %8 = cmpxchg weak volatile ptr %1, i32 %0, i32 7 syncscope("agent") seq_cst monotonic, align 4',
      '  %9 = extractvalue { i32, i1 } %8, 1',
      '  %10 = atomicrmw add ptr %1, i32 1 acq_rel, align 4',
      '  fence syncscope("singlethread") acquire',
    ]);
  });

  test('typed pointers (LLVM 14 modules)', () => {
    const { m, a, p, block, add } = makeFunction({ typed: true, producer: 'LLVM14.0.6' });
    const bb = block();
    const ld = add(bb, new LoadInst(I32, [p], 4));
    const st = add(bb, new StoreInst(VoidType, [a, p], 4));
    const gep = add(bb, new GetElementPtrInst(PointerType.typed(I32), [p, new ConstantInt(I64, 1n)], I32, Flag.InBounds));
    const bc = add(bb, new CastInst(Opcode.BitCast, PointerType.typed(I8), [gep]));
    const ctx = moduleContext(m);
    expect(lines(ctx, [ld, st, gep, bc])).toEqual([
      '  %3 = load i32, i32* %1, align 4',
      '  store i32 %0, i32* %1, align 4',
      '  %4 = getelementptr inbounds i32, i32* %1, i64 1',
      '  %5 = bitcast i32* %4 to i8*',
    ]);
  });

  test('control flow: blocks, labels, preds, phi, switch, indirectbr, unreachable', () => {
    const { m, a, p, block, add } = makeFunction();
    const entry = block();
    const b1 = block();
    const b2 = block('two');
    const b3 = block('"q"');
    const c = add(entry, new CmpInst(Opcode.ICmp, I1, [a, i32(0)], Predicate.ICMP_EQ));
    add(entry, new BranchInst(VoidType, [c], [b1, b2]));
    add(b1, new SwitchInst(VoidType, [a], b3, [
      { value: i32(1), dest: b2 },
      { value: i32(-2), dest: b2 },
    ]));
    const phi = add(b2, new PhiInst(I32, [i32(0), a, a], [entry, b1, b1]), 'r');
    add(b2, new IndirectBrInst(VoidType, [p], [b1, b3]));
    add(b3, new UnreachableInst(VoidType, []));
    void phi;
    const text = printModule(m);
    expect(text).toContain(
      [
        'define i32 @f(i32 %0, ptr %1) {',
        '  %3 = icmp eq i32 %0, 0',
        '  br i1 %3, label %4, label %two',
        '',
        pad('4:') + '; preds = %two, %2',
        '  switch i32 %0, label %"\\22q\\22" [',
        '    i32 1, label %two',
        '    i32 -2, label %two',
        '  ]',
        '',
        pad('two:') + '; preds = %4, %4, %2',
        '  %r = phi i32 [ 0, %2 ], [ %0, %4 ], [ %0, %4 ]',
        '  indirectbr ptr %1, [label %4, label %"\\22q\\22"]',
        '',
        pad('"\\22q\\22":') + '; preds = %two, %4',
        '  unreachable',
        '}',
      ].join('\n'),
    );
  });

  test('calls: tail kinds, varargs, indirect, inline asm, bundles, metadata operands', () => {
    const { m, a, p, block, add } = makeFunction();
    const printfTy = FunctionType.get(I32, [ptr], true);
    const printf = new Function('printf', printfTy, 0, ptr);
    const dbg = new Function('llvm.dbg.value', FunctionType.get(VoidType, [], false), 0, ptr);
    m.functions.push(printf, dbg);
    const bb = block();
    const c1 = add(bb, new CallInst(I32, [p, a, printf], printfTy));
    c1.tailKind = TailKind.Tail;
    const fty = FunctionType.get(VoidType, [I32], false);
    const c2 = add(bb, new CallInst(VoidType, [a, p], fty));
    c2.tailKind = TailKind.NoTail;
    c2.callingConv = 8;
    const asm = new InlineAsm(ptr, FunctionType.get(VoidType, [], false), 'nop', '~{memory},~{dirflag},~{fpsr},~{flags}', true, false, AsmDialect.Intel, false);
    const c3 = add(bb, new CallInst(VoidType, [asm], FunctionType.get(VoidType, [], false)));
    const c4 = add(bb, new CallInst(VoidType, [a, printf], printfTy));
    c4.bundles = [{ tag: 'deopt', inputs: [a, i32(3)] }];
    const loc = new DILocation(3, 7, new MDTuple([]), null, false);
    const variable = new DILocalVariable(null, 'x', null, 1, 0);
    const metaTy = FunctionType.get(VoidType, [MetadataType, MetadataType, MetadataType], false);
    const c5 = add(
      bb,
      new CallInst(
        VoidType,
        [
          new MetadataAsValue(new ValueAsMetadata(p, true)),
          new MetadataAsValue(variable),
          new MetadataAsValue(new DIExpression([0x1000n, 0n, 32n])),
          dbg,
        ],
        metaTy,
      ),
    );
    c5.debugLoc = loc;
    const ctx = moduleContext(m);
    const out = lines(ctx, [c1, c2, c3, c4, c5]);
    expect(out[0]).toBe('  %3 = tail call i32 (ptr, ...) @printf(ptr %1, i32 %0)');
    expect(out[1]).toBe('  notail call fastcc void %1(i32 %0)');
    expect(out[2]).toBe('  call void asm sideeffect inteldialect "nop", "~{memory},~{dirflag},~{fpsr},~{flags}"()');
    expect(out[3]).toBe('  call i32 (ptr, ...) @printf(i32 %0) [ "deopt"(i32 %0, i32 3) ]');
    expect(out[4]).toMatch(/^ {2}call void @llvm\.dbg\.value\(metadata ptr %1, metadata !\d+, metadata !DIExpression\(DW_OP_LLVM_fragment, 0, 32\)\), !dbg !\d+$/);
  });

  test('musttail in a varargs function prints the ellipsis', () => {
    const { m, a, f, block, add } = makeFunction({ varArgs: true });
    const bb = block();
    const call = add(bb, new CallInst(I32, [a, f.args[1]!, f], f.functionType));
    call.tailKind = TailKind.MustTail;
    const ctx = moduleContext(m);
    expect(printInstruction(call, ctx)).toBe('  %3 = musttail call i32 (i32, ptr, ...) @f(i32 %0, ptr %1, ...)');
  });

  test('vectors and shuffle masks (undef before LLVM 17, poison after)', () => {
    const v4 = VectorType.get(I32, 4);
    for (const [producer, undef] of [
      ['LLVM16.0.6', 'undef'],
      ['LLVM19.1.7', 'poison'],
    ] as const) {
      const { m, block, add } = makeFunction({ producer });
      const bb = block();
      const pv = new PoisonValue(v4);
      const s1 = add(bb, new ShuffleVectorInst(v4, [pv, pv], [0, -1, 5, -1]));
      const s2 = add(bb, new ShuffleVectorInst(v4, [pv, pv], [0, 0, 0, 0]));
      const s3 = add(bb, new ShuffleVectorInst(v4, [pv, pv], [-1, -1, -1, -1]));
      const ctx = moduleContext(m);
      expect(lines(ctx, [s1, s2, s3])).toEqual([
        `  %3 = shufflevector <4 x i32> poison, <4 x i32> poison, <4 x i32> <i32 0, i32 ${undef}, i32 5, i32 ${undef}>`,
        '  %4 = shufflevector <4 x i32> poison, <4 x i32> poison, <4 x i32> zeroinitializer',
        `  %5 = shufflevector <4 x i32> poison, <4 x i32> poison, <4 x i32> ${undef}`,
      ]);
    }
  });

  test('va_arg, callbr', () => {
    const { m, a, p, block, add } = makeFunction();
    const bb = block();
    const t = block();
    const ind = block();
    const va = add(bb, new VAArgInst(I32, [p]));
    const asm = new InlineAsm(ptr, FunctionType.get(VoidType, [I32], false), 'jmp ${1:l}', 'r,!i', true, false, AsmDialect.ATT, false);
    const cb = add(bb, new CallBrInst(VoidType, [a, asm], FunctionType.get(VoidType, [I32], false), t, [ind]));
    const ctx = moduleContext(m);
    expect(printInstruction(va, ctx)).toBe('  %3 = va_arg ptr %1, i32');
    expect(printInstruction(cb, ctx)).toBe('  callbr void asm sideeffect "jmp ${1:l}", "r,!i"(i32 %0)\n          to label %4 [label %5]');
  });

  test('debug records print on their own lines before the instruction', () => {
    const { m, a, p, block, add } = makeFunction();
    const bb = block();
    const ret = add(bb, new ReturnInst(VoidType, [a]));
    const scope = new MDTuple([]);
    const variable = new DILocalVariable(scope, 'x', null, 1, 0);
    const loc = new DILocation(3, 7, scope, null, false);
    const label = new MDTuple([]);
    ret.debugRecords = [
      { kind: DebugRecordKind.Declare, location: new ValueAsMetadata(p, true), variable, expression: new DIExpression([]), debugLoc: loc },
      {
        kind: DebugRecordKind.Value,
        location: new DIArgList([new ValueAsMetadata(a, true), new ValueAsMetadata(i32(4), false)]),
        variable,
        expression: new DIExpression([0x1005n, 0n, 0x1005n, 1n, 0x22n, 0x9fn]),
        debugLoc: loc,
      },
      {
        kind: DebugRecordKind.Assign,
        location: new ValueAsMetadata(new ConstantInt(I1, 0n), false),
        variable,
        expression: new DIExpression([]),
        debugLoc: loc,
        assignId: new MDTuple([]),
        address: new ValueAsMetadata(p, true),
        addressExpression: new DIExpression([]),
      },
      { kind: DebugRecordKind.Label, location: null, variable: null, expression: null, debugLoc: loc, label },
    ];
    const text = printModule(m).split('\n');
    const at = text.indexOf('  ret i32 %0');
    const body = text.slice(at - 4, at).map((l) => l.replace(/!\d+/g, '!N'));
    expect(body).toEqual([
      '    #dbg_declare(ptr %1, !N, !DIExpression(), !N)',
      '    #dbg_value(!DIArgList(i32 %0, i32 4), !N, !DIExpression(DW_OP_LLVM_arg, 0, DW_OP_LLVM_arg, 1, DW_OP_plus, DW_OP_stack_value), !N)',
      '    #dbg_assign(i1 false, !N, !DIExpression(), !N, ptr %1, !DIExpression(), !N)',
      '    #dbg_label(!N, !N)',
    ]);
  });

  test('aggregate operands and unnamed globals', () => {
    const { m, block, add } = makeFunction();
    const g = new Function('', FunctionType.get(VoidType, [], false), 0, ptr);
    m.functions.push(g);
    const bb = block();
    const arrTy = ArrayType.get(FloatTy, 2);
    const ev = add(bb, new ExtractValueInst(FloatTy, [new PoisonValue(arrTy)], [1]));
    const call = add(bb, new CallInst(VoidType, [g], FunctionType.get(VoidType, [], false)));
    const ctx = moduleContext(m);
    expect(printInstruction(ev, ctx)).toBe('  %3 = extractvalue [2 x float] poison, 1');
    expect(printInstruction(call, ctx)).toBe('  call void @0()');
  });
});

describe('module printing', () => {
  test('header, globals, declarations', () => {
    const { m, a, block, add } = makeFunction();
    m.source = 'x.bc';
    m.sourceFileName = 'x.c';
    m.targetTriple = 'x86_64-unknown-linux-gnu';
    const bb = block();
    add(bb, new ReturnInst(VoidType, [a]));
    const text = printModule(m);
    expect(text.startsWith("; ModuleID = 'x.bc'\nsource_filename = \"x.c\"\ntarget triple = \"x86_64-unknown-linux-gnu\"\n\ndefine i32 @f(i32 %0, ptr %1) {\n  ret i32 %0\n}\n")).toBe(true);
  });
});

export type { Value };
