/**
 * The function-body decoder against llvm-dis: clang-built bitcode (the corpus and snippets
 * below, clang 14/16/19 at -O0/-O2 with -g) decoded with readBitcodeModule; per function the
 * opcode counts, blocks, debug records, phi incoming blocks, switch cases, callees, alloca
 * and GEP source types must match what llvm-dis of the same version prints.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { readBitcodeModule } from '../../../../src/bitcode/index.js';
import { ensureFixturesBuilt, listFixtures } from '../../../support/fixtures.js';
import { compileToBitcode, haveCommand, llvmTool, makeTmpDir, removeDir, run, LLVM_VERSIONS, type LlvmVersion } from '../toolchain.js';
import { summarizeDis, summarizeModule } from './function-harness.js';
import {
  DebugRecordKind,
  MDKind,
  Opcode,
  TailKind,
  ValueKind,
  type AtomicCmpXchgInst,
  type CallBrInst,
  type CallInst,
  type Function,
  type Instruction,
  type Module,
  type ValueAsMetadata,
} from '../../../../src/ir/index.js';

function compare(m: Module, ll: string): void {
  const expected = summarizeDis(ll);
  const actual = summarizeModule(m);
  expect([...actual.keys()].sort()).toEqual([...expected.keys()].sort());
  for (const [name, exp] of expected) expect({ name, summary: actual.get(name) }).toEqual({ name, summary: exp });
}

function allInsts(fn: Function): Instruction[] {
  return fn.blocks.flatMap((b) => b.insts);
}

describe('corpus', () => {
  beforeAll(async () => {
    await ensureFixturesBuilt();
  }, 15 * 60 * 1000);

  test.each(listFixtures())('$name clang$clang $mode', (f) => {
    const m = readBitcodeModule(new Uint8Array(readFileSync(f.bcPath)), f.bcPath);
    compare(m, readFileSync(f.llPath, 'utf8'));
    for (const fn of m.functions) {
      fn.blocks.forEach((bb, i) => {
        expect(bb.index).toBe(i);
        expect(bb.parent).toBe(fn);
        for (const inst of bb.insts) expect(inst.parent).toBe(bb);
        for (const inst of bb.insts) for (const op of inst.ops) expect(op.vkind).not.toBe(ValueKind.ForwardRef);
      });
    }
  });
});

const SNIPPETS = `
#include <stdatomic.h>
#include <stdarg.h>
typedef float v4f __attribute__((vector_size(16)));
_Atomic long counter;
int flag;
int asm_goto(int x) {
  asm goto("testl %0, %0; jne %l1" :: "r"(x) :: yes);
  return 0;
yes:
  return 1;
}
long atomics(long v, int *p) {
  long e = 1;
  atomic_compare_exchange_weak_explicit(&counter, &e, v, memory_order_acq_rel, memory_order_acquire);
  __atomic_fetch_nand(p, 3, __ATOMIC_RELEASE);
  __atomic_thread_fence(__ATOMIC_SEQ_CST);
  __atomic_signal_fence(__ATOMIC_ACQUIRE);
  __atomic_store_n(&flag, 1, __ATOMIC_RELEASE);
  return e + atomic_load_explicit(&counter, memory_order_acquire);
}
v4f shuffle(v4f a, v4f b) { return __builtin_shufflevector(a, b, 0, 5, -1, 3) * a[2]; }
int overflow(int a, int b) { int r; return __builtin_sadd_overflow(a, b, &r) ? -1 : r; }
int *aligned(int *p) { return __builtin_assume_aligned(p, 32); }
double fp(double a, float b) { return -a / (double)b + (float)a; }
int sum(int n, ...) { va_list ap; va_start(ap, n); int s = 0; while (n--) s += va_arg(ap, int); va_end(ap); return s; }
int vla(int n) { int a[n]; for (int i = 0; i < n; i++) a[i] = i; return a[n / 2]; }
`;

const haveAll = LLVM_VERSIONS.every((v) => haveCommand(llvmTool(v, 'llvm-dis'), ['--version']));

(haveAll ? describe : describe.skip)('snippets', () => {
  let dir = '';
  beforeAll(() => {
    dir = makeTmpDir('function-reader');
  });
  afterAll(() => removeDir(dir));

  async function build(v: LlvmVersion, opt: string): Promise<{ m: Module; ll: string }> {
    const out = `s${v}${opt}.bc`;
    const buf = await compileToBitcode(`clang-${v}`, dir, 'snippets.c', SNIPPETS, out, [opt, '-g']);
    const ll = await run(llvmTool(v, 'llvm-dis'), [path.join(dir, out), '-o', '-']);
    return { m: readBitcodeModule(buf, out), ll };
  }

  const cases = LLVM_VERSIONS.flatMap((v) => ['-O0', '-O2'].map((opt) => ({ v, opt })));

  test.each(cases)('clang-$v $opt matches llvm-dis', async ({ v, opt }) => {
    const { m, ll } = await build(v, opt);
    compare(m, ll);
  });

  test.each(LLVM_VERSIONS.map((v) => ({ v })))('clang-$v -O2 details', async ({ v }) => {
    const { m } = await build(v, '-O2');
    const fn = (name: string): Instruction[] => allInsts(m.getFunction(name)!);

    const cb = fn('asm_goto').find((i) => i.opcode === Opcode.CallBr) as CallBrInst;
    expect(cb.indirectDests.length).toBe(1);
    expect(cb.callee.vkind).toBe(ValueKind.InlineAsm);

    const cx = fn('atomics').find((i) => i.opcode === Opcode.AtomicCmpXchg) as AtomicCmpXchgInst;
    expect(cx.weak).toBe(true);
    expect(cx.align).toBe(8);
    expect(fn('atomics').filter((i) => i.opcode === Opcode.Fence).map((f) => (f as unknown as { syncScope: number }).syncScope)).toEqual([1, 0]);

    const assume = fn('aligned').find((i) => i.opcode === Opcode.Call && (i as CallInst).bundles) as CallInst;
    expect(assume.bundles!.map((b) => b.tag)).toEqual(['align']);
    expect(assume.bundles![0]!.inputs.length).toBe(2);

    const sh = fn('shuffle').find((i) => i.opcode === Opcode.ShuffleVector);
    expect((sh as unknown as { mask: number[] }).mask).toEqual([0, 5, -1, 3]);

    const tails = fn('sum').filter((i) => i.opcode === Opcode.Call).map((c) => (c as CallInst).tailKind);
    expect(tails).toContain(TailKind.None);
  });

  test('LLVM 19 debug records sit before the instruction they follow in the bitcode', async () => {
    const { m, ll } = await build(19, '-O2');
    const f = m.getFunction('vla')!;
    const withRecords = allInsts(f).filter((i) => i.debugRecords);
    expect(withRecords.length).toBeGreaterThan(0);
    const values = withRecords.flatMap((i) => i.debugRecords!).filter((r) => r.kind === DebugRecordKind.Value);
    expect(values.length).toBeGreaterThan(0);
    for (const r of values) {
      expect(r.debugLoc!.mdkind).toBe(MDKind.Location);
      expect(r.variable!.mdkind).toBe(MDKind.LocalVariable);
      if (r.location!.mdkind === MDKind.Value) expect((r.location as ValueAsMetadata).value.vkind).not.toBe(ValueKind.ForwardRef);
    }
    // The first instruction of @vla's entry block carries the records printed above it.
    const body = ll.slice(ll.indexOf('define dso_local i32 @vla('));
    const entry = body.split('\n').slice(1);
    const leading = entry.findIndex((l) => !l.trimStart().startsWith('#dbg_'));
    expect(f.blocks[0]!.insts[0]!.debugRecords?.length ?? 0).toBe(leading);
  });

  test('-O0 debug locations are set from DEBUG_LOC', async () => {
    const { m } = await build(16, '-O0');
    const insts = allInsts(m.getFunction('fp')!);
    const located = insts.filter((i) => i.debugLoc);
    expect(located.length).toBeGreaterThan(insts.length / 2);
    const line = SNIPPETS.split('\n').findIndex((l) => l.startsWith('double fp(')) + 1;
    expect(located.every((i) => i.debugLoc!.line === line)).toBe(true);
  });
});
