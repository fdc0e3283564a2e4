/** The linker: its rules on hand-built modules, then on modules compiled by clang. */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { readBitcodeModule } from '../../../src/bitcode/index.js';
import { linkModules, LinkError, replaceGlobalUses, typesEquivalent } from '../../../src/ir/linker.js';
import { loadModule } from '../../../src/index.js';
import { printModule } from '../../../src/ir/printer/index.js';
import {
  AllocaInst,
  ArrayType,
  BasicBlock,
  CallInst,
  ConstantArray,
  ConstantExpr,
  ConstantInt,
  ConstantStruct,
  DILocation,
  Function,
  FunctionType,
  GlobalAlias,
  GlobalVariable,
  I32,
  I64,
  I8,
  Linkage,
  LoadInst,
  MDString,
  MDTuple,
  Module,
  Opcode,
  PointerType,
  ReturnInst,
  StructType,
  ValueAsMetadata,
  ValueKind,
  VoidType,
  Visibility,
  type Constant,
  type Metadata,
  type Type,
  type Value,
} from '../../../src/ir/index.js';

// ---------------------------------------------------------------- hand-built modules

const LAYOUT = 'e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128';
const PTR = PointerType.opaque();
const I32_FN = FunctionType.get(I32, [], false);

function mod(source: string): Module {
  const m = new Module();
  m.source = source;
  m.targetTriple = 'x86_64-unknown-linux-gnu';
  m.dataLayout = LAYOUT;
  return m;
}

function fn(m: Module, name: string, type: FunctionType, opts: { body?: boolean; linkage?: Linkage } = {}): Function {
  const f = new Function(name, type, 0, PTR);
  f.linkage = opts.linkage ?? Linkage.External;
  if (opts.body) {
    f.hasBody = true;
    const bb = new BasicBlock(f);
    f.blocks.push(bb);
    bb.insts.push(new ReturnInst(VoidType, type.ret === VoidType ? [] : [new ConstantInt(type.ret, 0n)]));
  }
  m.functions.push(f);
  return f;
}

function gvar(m: Module, name: string, type: Type, init: Constant | null, linkage = Linkage.External): GlobalVariable {
  const g = new GlobalVariable(name, type, 0, PTR);
  g.linkage = linkage;
  g.initializer = init;
  m.globals.push(g);
  return g;
}

/** Adds `call callee()` at the start of `f`'s body. */
function call(f: Function, callee: Value): CallInst {
  const c = new CallInst(I32, [callee], I32_FN);
  c.parent = f.blocks[0]!;
  f.blocks[0]!.insts.unshift(c);
  return c;
}

function int(v: number, t: Type = I32): ConstantInt {
  return new ConstantInt(t, BigInt(v));
}

function linkError(f: () => unknown): string {
  try {
    f();
  } catch (e) {
    expect(e).toBeInstanceOf(LinkError);
    return (e as Error).message;
  }
  throw new Error('expected a LinkError');
}

describe('symbol resolution', () => {
  test('a declaration resolves to the definition in another module', () => {
    const a = mod('a.bc');
    const main = fn(a, 'main', I32_FN, { body: true });
    const decl = fn(a, 'helper', I32_FN);
    const c = call(main, decl);
    const b = mod('b.bc');
    const def = fn(b, 'helper', I32_FN, { body: true });
    const out = linkModules([a, b]);
    expect(out.functions.map((f) => f.name)).toEqual(['main', 'helper']);
    expect(out.getFunction('helper')).toBe(def);
    expect(c.callee).toBe(def);
    expect(out.source).toBe('a.bc, b.bc');
  });

  test('a definition earlier than the declaration', () => {
    const a = mod('a.bc');
    const def = fn(a, 'helper', I32_FN, { body: true });
    const b = mod('b.bc');
    const user = fn(b, 'user', I32_FN, { body: true });
    const c = call(user, fn(b, 'helper', I32_FN));
    const out = linkModules([a, b]);
    expect(out.functions).toEqual([def, user]);
    expect(c.callee).toBe(def);
  });

  test('strong beats weak, weak beats linkonce, two weak keep the first', () => {
    const a = mod('a.bc');
    const weakA = fn(a, 'f', I32_FN, { body: true, linkage: Linkage.WeakAny });
    const onceA = fn(a, 'g', I32_FN, { body: true, linkage: Linkage.LinkOnceODR });
    const weakA2 = fn(a, 'h', I32_FN, { body: true, linkage: Linkage.WeakAny });
    const user = fn(a, 'user', I32_FN, { body: true });
    const c = call(user, weakA);
    const b = mod('b.bc');
    const strongB = fn(b, 'f', I32_FN, { body: true });
    const weakB = fn(b, 'g', I32_FN, { body: true, linkage: Linkage.WeakODR });
    fn(b, 'h', I32_FN, { body: true, linkage: Linkage.WeakAny });
    const out = linkModules([a, b]);
    expect(out.getFunction('f')).toBe(strongB);
    expect(out.getFunction('g')).toBe(weakB);
    expect(out.getFunction('h')).toBe(weakA2);
    expect(out.functions).not.toContain(onceA);
    expect(c.callee).toBe(strongB);
  });

  test('extern_weak declarations yield to plain ones and to definitions', () => {
    const a = mod('a.bc');
    const ew = fn(a, 'f', I32_FN, { linkage: Linkage.ExternWeak });
    const b = mod('b.bc');
    const plain = fn(b, 'f', I32_FN);
    expect(linkModules([a, b]).getFunction('f')).toBe(plain);
    void ew;
  });

  test('common symbols: largest wins, a strong definition beats them', () => {
    const a = mod('a.bc');
    gvar(a, 'buf', I32, int(0), Linkage.Common).align = 4;
    const b = mod('b.bc');
    const big = gvar(b, 'buf', ArrayType.get(I8, 100), null, Linkage.Common);
    big.initializer = new ConstantArray(ArrayType.get(I8, 0), []); // any non-null initializer
    big.align = 1;
    const out = linkModules([a, b]);
    expect(out.getGlobal('buf')).toBe(big);
    expect(big.align).toBe(4);

    const c = mod('c.bc');
    gvar(c, 'x', I32, int(0), Linkage.Common);
    const d = mod('d.bc');
    const strong = gvar(d, 'x', I32, int(7));
    expect(linkModules([c, d]).getGlobal('x')).toBe(strong);
  });

  test('conflicting strong definitions', () => {
    const a = mod('a.bc');
    fn(a, 'f', I32_FN, { body: true });
    const b = mod('b.bc');
    fn(b, 'f', I32_FN, { body: true });
    expect(linkError(() => linkModules([a, b]))).toBe('multiple definitions of @f (in a.bc and b.bc)');
  });

  test('type mismatches, and the benign differences', () => {
    const a = mod('a.bc');
    fn(a, 'f', FunctionType.get(I32, [PTR], false));
    const b = mod('b.bc');
    fn(b, 'f', FunctionType.get(I64, [PTR], false), { body: true });
    expect(linkError(() => linkModules([a, b]))).toBe('type mismatch for @f: i32 (ptr) vs i64 (ptr) (in a.bc and b.bc)');

    const c = mod('c.bc');
    gvar(c, 'v', I32, null);
    const d = mod('d.bc');
    fn(d, 'v', I32_FN, { body: true });
    expect(linkError(() => linkModules([c, d]))).toMatch(/^type mismatch for @v: global i32 vs i32 \(\)/);

    // unprototyped declaration, array of unknown size, same struct under another name
    const e = mod('e.bc');
    fn(e, 'k', FunctionType.get(I32, [], true));
    gvar(e, 'arr', ArrayType.get(I32, 0), null);
    const s1 = StructType.named('struct.s');
    s1.setBody([I32, PTR], false);
    gvar(e, 'sv', s1, null);
    const f = mod('f.bc');
    fn(f, 'k', FunctionType.get(I32, [I32], false), { body: true });
    gvar(f, 'arr', ArrayType.get(I32, 10), int(0));
    const s2 = StructType.named('struct.s.0');
    s2.setBody([I32, PTR], false);
    gvar(f, 'sv', s2, int(0));
    expect(() => linkModules([e, f])).not.toThrow();
  });

  test('visibility: the most restrictive wins', () => {
    const a = mod('a.bc');
    fn(a, 'f', I32_FN).visibility = Visibility.Hidden;
    const b = mod('b.bc');
    const def = fn(b, 'f', I32_FN, { body: true });
    linkModules([a, b]);
    expect(def.visibility).toBe(Visibility.Hidden);
  });
});

describe('module-level checks', () => {
  test('typed and opaque pointer modules', () => {
    const a = mod('old.bc');
    a.typedPointers = true;
    const b = mod('new.bc');
    expect(linkError(() => linkModules([a, b]))).toMatch(/^cannot link typed-pointer \(LLVM 14\) and opaque-pointer modules/);
  });

  test('targets and data layouts', () => {
    const a = mod('a.bc');
    const b = mod('b.bc');
    b.targetTriple = 'aarch64-unknown-linux-gnu';
    expect(linkError(() => linkModules([a, b]))).toMatch(/different targets/);
    const c = mod('c.bc');
    c.targetTriple = 'x86_64-pc-linux-gnu';
    expect(() => linkModules([mod('a.bc'), c])).not.toThrow();
    const d = mod('d.bc');
    d.dataLayout = 'e-p:32:32';
    expect(linkError(() => linkModules([mod('a.bc'), d]))).toMatch(/different data layouts/);
    const e = mod('e.bc');
    e.dataLayout = '';
    expect(linkModules([mod('a.bc'), e]).dataLayout).toBe(LAYOUT);
  });

  test('nothing to link; one module is returned as is', () => {
    expect(linkError(() => linkModules([]))).toMatch(/no modules/);
    const a = mod('a.bc');
    expect(linkModules([a])).toBe(a);
  });
});

describe('renaming and merging', () => {
  test('colliding local symbols are renamed; both survive', () => {
    const a = mod('a.bc');
    const strA = gvar(a, '.str', ArrayType.get(I8, 1), int(0, I8), Linkage.Private);
    const helperA = fn(a, 'helper', I32_FN, { body: true, linkage: Linkage.Internal });
    const b = mod('b.bc');
    const strB = gvar(b, '.str', ArrayType.get(I8, 1), int(0, I8), Linkage.Private);
    const helperB = fn(b, 'helper', I32_FN, { body: true, linkage: Linkage.Internal });
    const c = mod('c.bc');
    const strC = gvar(c, '.str', ArrayType.get(I8, 1), int(0, I8), Linkage.Private);
    // a local colliding with an external symbol of a later module is the one renamed
    const localX = fn(c, 'x', I32_FN, { body: true, linkage: Linkage.Internal });
    const d = mod('d.bc');
    const externX = fn(d, 'x', I32_FN, { body: true });
    const out = linkModules([a, b, c, d]);
    expect([strA.name, strB.name, strC.name]).toEqual(['.str', '.str.1', '.str.2']);
    expect([helperA.name, helperB.name]).toEqual(['helper', 'helper.1']);
    expect([localX.name, externX.name]).toEqual(['x.1', 'x']);
    expect(out.globals).toHaveLength(3);
    expect(out.getGlobal('helper.1')).toBe(helperB);
  });

  test('equal identified structs are shared, different ones renamed', () => {
    const struct = (name: string, elements: Type[]): StructType => {
      const s = StructType.named(name);
      s.setBody(elements, false);
      return s;
    };
    const a = mod('a.bc');
    const sa = struct('struct.s', [I32]);
    const fwd = StructType.named('struct.fwd');
    a.structTypes.push(sa, fwd);
    const b = mod('b.bc');
    const sb = struct('struct.s', [I64]);
    const sb0 = struct('struct.s.0', [I8]);
    b.structTypes.push(sb, sb0);
    const c = mod('c.bc');
    const sc = struct('struct.s', [I32]);
    const fwdDef = struct('struct.fwd', [I8, I8]);
    const wrap = struct('struct.wrap', [ArrayType.get(sc, 2), PointerType.typed(sc)]);
    c.structTypes.push(sc, fwdDef, wrap);
    const f = fn(c, 'f', FunctionType.get(VoidType, [PointerType.typed(fwdDef)], false), { body: true });
    const alloca = new AllocaInst(PTR, [int(1)], ArrayType.get(sc, 4), 4);
    f.blocks[0]!.insts.unshift(alloca);
    const g = gvar(c, 'g', sc, new ConstantStruct(sc, [int(5)]));

    const out = linkModules([a, b, c]);
    expect(out.structTypes.map((s) => s.name)).toEqual(['struct.s', 'struct.fwd', 'struct.s.1', 'struct.s.0', 'struct.wrap']);
    expect(alloca.allocatedType).toBe(ArrayType.get(sa, 4));
    expect(g.valueType).toBe(sa);
    expect(g.initializer!.type).toBe(sa);
    expect(wrap.elements).toEqual([ArrayType.get(sa, 2), PointerType.typed(sa)]);
    // the forward declaration got the body; c's uses moved to it
    expect(fwd.elements).toEqual([I8, I8]);
    expect(f.functionType).toBe(FunctionType.get(VoidType, [PointerType.typed(fwd)], false));
    expect(f.args[0]!.type).toBe(PointerType.typed(fwd));
  });

  test('appending arrays are concatenated', () => {
    const ctorTy = StructType.literal([I32, PTR, PTR]);
    const mk = (m: Module, f: Function): GlobalVariable => {
      const t = ArrayType.get(ctorTy, 1);
      return gvar(m, 'llvm.global_ctors', t, new ConstantArray(t, [new ConstantStruct(ctorTy, [int(65535), f, f])]), Linkage.Appending);
    };
    const a = mod('a.bc');
    const ga = mk(a, fn(a, 'ia', I32_FN, { body: true }));
    const b = mod('b.bc');
    const ib = fn(b, 'ib', I32_FN, { body: true });
    mk(b, ib);
    const out = linkModules([a, b]);
    expect(out.globals).toEqual([ga]);
    expect((ga.valueType as ArrayType).length).toBe(2);
    const elements = (ga.initializer as ConstantArray).elements as ConstantStruct[];
    expect(elements[1]!.elements[1]).toBe(ib);
  });

  test('named metadata concatenated, module flags deduplicated and merged', () => {
    const flag = (behavior: number, key: string, value: number): Metadata =>
      new MDTuple([new ValueAsMetadata(int(behavior), false), new MDString(key), new ValueAsMetadata(int(value), false)]);
    const a = mod('a.bc');
    a.namedMetadata.push({ name: 'llvm.ident', ops: [new MDTuple([new MDString('clang a')])] });
    a.namedMetadata.push({ name: 'llvm.module.flags', ops: [flag(1, 'wchar_size', 4), flag(7, 'PIE Level', 1), flag(2, 'Dwarf Version', 4)] });
    const b = mod('b.bc');
    b.namedMetadata.push({ name: 'llvm.module.flags', ops: [flag(1, 'wchar_size', 4), flag(7, 'PIE Level', 2), flag(2, 'Dwarf Version', 5)] });
    b.namedMetadata.push({ name: 'llvm.ident', ops: [new MDTuple([new MDString('clang b')])] });
    const warnings: string[] = [];
    const out = linkModules([a, b], { onWarning: (w) => warnings.push(w) });
    expect(out.namedMetadata.map((n) => n.name)).toEqual(['llvm.ident', 'llvm.module.flags']);
    expect(out.namedMetadata[0]!.ops).toHaveLength(2);
    const flags = out.namedMetadata[1]!.ops as MDTuple[];
    expect(flags.map((f) => (f.ops[1] as MDString).value)).toEqual(['wchar_size', 'PIE Level', 'Dwarf Version']);
    expect(((flags[1]!.ops[2] as ValueAsMetadata).value as ConstantInt).value).toBe(2n);
    expect(warnings).toEqual(["module flag 'Dwarf Version' has conflicting values (in a.bc and b.bc); keeping the value from a.bc"]);

    const c = mod('c.bc');
    c.namedMetadata.push({ name: 'llvm.module.flags', ops: [flag(1, 'wchar_size', 2)] });
    const d = mod('d.bc');
    d.namedMetadata.push({ name: 'llvm.module.flags', ops: [flag(1, 'wchar_size', 4)] });
    expect(linkError(() => linkModules([c, d]))).toBe("module flag 'wchar_size' has conflicting values (in c.bc and d.bc)");
  });
});

describe('replaceGlobalUses', () => {
  test('reaches operands, constants, initializers, aliasees and metadata', () => {
    const m = mod('m.bc');
    const oldG = gvar(m, 'old', I32, null);
    const newG = gvar(m, 'new', I32, int(1));
    const gep = new ConstantExpr(PTR, Opcode.GetElementPtr, [oldG, int(0, I64)]);
    const holder = gvar(m, 'holder', ArrayType.get(PTR, 2), new ConstantArray(ArrayType.get(PTR, 2), [oldG, gep]));
    const alias = new GlobalAlias('al', I32, 0, PTR);
    alias.aliasee = oldG;
    m.aliases.push(alias);
    const f = fn(m, 'f', I32_FN, { body: true });
    const load = new LoadInst(I32, [oldG], 4);
    load.debugLoc = new DILocation(1, 1, null, null, false);
    f.blocks[0]!.insts.unshift(load);
    const vam = new ValueAsMetadata(oldG, false);
    m.namedMetadata.push({ name: 'x', ops: [new MDTuple([vam])] });
    replaceGlobalUses(m, new Map([[oldG, newG]]));
    expect(load.ops[0]).toBe(newG);
    expect((holder.initializer as ConstantArray).elements[0]).toBe(newG);
    expect(gep.ops[0]).toBe(newG);
    expect(alias.aliasee).toBe(newG);
    expect(vam.value).toBe(newG);
  });

  test('typed pointers: a use of another type gets a bitcast', () => {
    const m = mod('m.bc');
    const declTy = ArrayType.get(I32, 0);
    const defTy = ArrayType.get(I32, 10);
    const decl = new GlobalVariable('a', declTy, 0, PointerType.typed(declTy));
    const def = new GlobalVariable('a', defTy, 0, PointerType.typed(defTy));
    m.globals.push(decl, def);
    const f = fn(m, 'f', I32_FN, { body: true });
    const load = new LoadInst(I32, [decl], 4);
    f.blocks[0]!.insts.unshift(load);
    replaceGlobalUses(m, new Map([[decl, def]]));
    const cast = load.ops[0] as ConstantExpr;
    expect(cast.opcode).toBe(Opcode.BitCast);
    expect(cast.type).toBe(PointerType.typed(declTy));
    expect(cast.ops[0]).toBe(def);
  });
});

test('typesEquivalent', () => {
  const a = StructType.named('struct.node');
  a.setBody([I32, PointerType.typed(a)], false);
  const b = StructType.named('struct.node.0');
  b.setBody([I32, PointerType.typed(b)], false);
  expect(typesEquivalent(a, b)).toBe(true);
  expect(typesEquivalent(PointerType.typed(a), PointerType.typed(b))).toBe(true);
  const c = StructType.named('struct.other');
  c.setBody([I64, PointerType.typed(c)], false);
  expect(typesEquivalent(a, c)).toBe(false);
  expect(typesEquivalent(StructType.named('struct.fwd'), a)).toBe(true);
  expect(typesEquivalent(PTR, PointerType.typed(I32))).toBe(false);
});

// ---------------------------------------------------------------- modules compiled by clang

let dir: string;

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'tsklee-link-'));
});

afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
});

/** Compiles C source to bitcode with clang-`version`; returns the .bc path. */
function compile(name: string, source: string, opts: { version?: number; flags?: string[] } = {}): string {
  const c = join(dir, `${name}.c`);
  const bc = join(dir, `${name}.bc`);
  writeFileSync(c, source);
  execFileSync(`clang-${opts.version ?? 19}`, ['-c', '-emit-llvm', '-O0', '-g', ...(opts.flags ?? []), c, '-o', bc]);
  return bc;
}

function read(path: string): Module {
  return readBitcodeModule(readFileSync(path), path);
}

function link(...sources: [string, string][]): Module {
  return linkModules(sources.map(([name, src]) => read(compile(name, src))));
}

/** Callees of the direct calls in `f`. */
function callees(f: Function): Value[] {
  return f.blocks.flatMap((b) => b.insts).filter((i) => i.opcode === Opcode.Call).map((c) => (c as CallInst).callee);
}

/** The constant `f` returns (functions of the form `return <constant>;`). */
function returnedConstant(f: Function): bigint {
  const ret = f.blocks.flatMap((b) => b.insts).find((i) => i.opcode === Opcode.Ret) as ReturnInst;
  return (ret.value as ConstantInt).value;
}

function linkErrorOf(f: () => unknown): LinkError {
  try {
    f();
  } catch (e) {
    if (e instanceof LinkError) return e;
    throw e;
  }
  throw new Error('expected a LinkError');
}

test('a call resolves to the definition in another file', () => {
  const m = link(['main', 'int helper(int);\nint main(void) { return helper(41); }'], ['util', 'int helper(int x) { return x + 1; }']);
  const main = m.getFunction('main')!;
  const helper = m.getFunction('helper')!;
  expect(helper.isDeclaration).toBe(false);
  expect(callees(main)).toContain(helper);
  expect(m.functions.filter((f) => f.name === 'helper')).toHaveLength(1);
  // llvm.dbg.cu lists both compile units; module flags stay unique
  expect(m.namedMetadata.find((n) => n.name === 'llvm.dbg.cu')!.ops).toHaveLength(2);
  const flags = m.namedMetadata.find((n) => n.name === 'llvm.module.flags')!.ops;
  expect(flags.length).toBeGreaterThan(3);
  expect(flags.length).toBe(read(join(dir, 'main.bc')).namedMetadata.find((n) => n.name === 'llvm.module.flags')!.ops.length);
});

test('a weak default is overridden by a strong definition, in either order', () => {
  const weak = ['weak', '__attribute__((weak)) int get(void) { return 1; }\nint use(void) { return get(); }'] as [string, string];
  const strong = ['strong', 'int get(void) { return 2; }'] as [string, string];
  for (const m of [link(weak, strong), link(strong, weak)]) {
    const get = m.getFunction('get')!;
    expect(get.linkage).toBe(Linkage.External);
    expect(returnedConstant(get)).toBe(2n);
    expect(callees(m.getFunction('use')!)).toEqual([get]);
  }
});

test('static functions with the same name in two files both survive', () => {
  const m = link(
    ['one', 'static int helper(void) { return 1; }\nint one(void) { return helper(); }\nconst char *s1 = "one";'],
    ['two', 'static int helper(void) { return 2; }\nint two(void) { return helper(); }\nconst char *s2 = "two";'],
  );
  const h1 = m.getFunction('helper')!;
  const h2 = m.getFunction('helper.1')!;
  expect(returnedConstant(h1)).toBe(1n);
  expect(returnedConstant(h2)).toBe(2n);
  expect(callees(m.getFunction('one')!)).toEqual([h1]);
  expect(callees(m.getFunction('two')!)).toEqual([h2]);
  expect(m.getGlobal('.str')).toBeDefined();
  expect(m.getGlobal('.str.1')).toBeDefined();
  // the printed module names each definition once
  const text = printModule(m);
  expect(text.match(/^@\.str(\.1)? = /gm)).toHaveLength(2);
  expect(text.match(/^define internal i32 @helper(\.1)?\(/gm)).toHaveLength(2);
});

test('common symbols: the largest wins', () => {
  // clang defaults to -fno-common: tentative definitions are then strong
  expect(linkErrorOf(() => link(['c1', 'int buf;'], ['c2', 'char buf[100];'])).message).toMatch(/^multiple definitions of @buf/);
  const mods = [compile('c1', 'int buf;\nint *p1 = &buf;', { flags: ['-fcommon'] }), compile('c2', 'char buf[100];\nchar *p2 = buf;', { flags: ['-fcommon'] })].map(read);
  const linked = linkModules(mods);
  const buf = linked.getGlobal('buf') as GlobalVariable;
  expect(buf.linkage).toBe(Linkage.Common);
  expect((buf.valueType as ArrayType).length).toBe(100);
  expect((linked.getGlobal('p1') as GlobalVariable).initializer).toBe(buf);
  expect(linked.globals.filter((g) => g.name === 'buf')).toHaveLength(1);
});

test('conflicting definitions are an error naming both files', () => {
  const a = compile('a', 'int f(void) { return 1; }');
  const b = compile('b', 'int f(void) { return 2; }');
  expect(linkErrorOf(() => linkModules([read(a), read(b)])).message).toBe(`multiple definitions of @f (in ${a} and ${b})`);
});

test('a declaration whose type does not match the definition', () => {
  const a = compile('ta', 'long f(void *p);\nlong g(void) { return f(0); }');
  const b = compile('tb', 'int f(void *p) { return 1; }');
  expect(linkErrorOf(() => linkModules([read(a), read(b)])).message).toBe(`type mismatch for @f: i64 (ptr) vs i32 (ptr) (in ${a} and ${b})`);
});

test('C declarations that differ benignly from their definitions', () => {
  const m = link(
    ['decl', 'extern int table[];\nint f();\nint g(void) { return table[3] + f(1); }'],
    ['defs', 'int table[10] = {1, 2, 3, 4};\nint f(int x) { return x; }'],
  );
  const table = m.getGlobal('table') as GlobalVariable;
  expect(table.isDeclaration).toBe(false);
  const g = m.getFunction('g')!;
  expect(callees(g)).toContain(m.getFunction('f'));
  const uses = (v: Value): boolean => v === table || (v.vkind === ValueKind.ConstantExpr && (v as ConstantExpr).ops.some(uses));
  expect(g.blocks.flatMap((b) => b.insts).some((i) => i.ops.some(uses))).toBe(true);
});

test('typed-pointer (clang-14) modules link with each other but not with opaque ones', () => {
  const a = compile('old1', 'struct s { int x; };\nint get(struct s *p);\nint main(void) { struct s v = {3}; return get(&v); }', { version: 14 });
  const b = compile('old2', 'struct s { int x; };\nint get(struct s *p) { return p->x; }', { version: 14 });
  const m = linkModules([read(a), read(b)]);
  expect(m.typedPointers).toBe(true);
  const get = m.getFunction('get')!;
  expect(get.isDeclaration).toBe(false);
  // one %struct.s for both modules, so the call needs no cast
  expect(m.structTypes.map((s) => s.name)).toEqual(['struct.s']);
  expect(callees(m.getFunction('main')!)).toContain(get);

  const c = compile('new1', 'int x = 1;', { version: 19 });
  expect(linkErrorOf(() => linkModules([read(a), read(c)])).message).toMatch(/^cannot link typed-pointer \(LLVM 14\) and opaque-pointer modules/);
});

test('modules with different data layouts (clang-16 lacks i128:128) do not link', () => {
  const a = read(compile('v16', 'int helper(int x) { return x * 2; }', { version: 16 }));
  const b = read(compile('v19', 'int helper(int);\nint main(void) { return helper(2); }'));
  expect(linkErrorOf(() => linkModules([a, b])).message).toMatch(/^cannot link modules with different data layouts: "e-m:e-.*" and ".*i128:128.*" \(in .*v19\.bc\)$/);
});

test('global constructors are concatenated', () => {
  const m = link(
    ['ctor1', '__attribute__((constructor)) static void init1(void) {}'],
    ['ctor2', '__attribute__((constructor(200))) static void init2(void) {}'],
  );
  const ctors = m.globals.filter((g) => g.name === 'llvm.global_ctors');
  expect(ctors).toHaveLength(1);
  expect((ctors[0]!.valueType as ArrayType).length).toBe(2);
});

test('an archive of bitcode, through loadModule', () => {
  const main = compile('amain', 'int add(int, int);\nint mul(int, int);\nint main(void) { return add(1, mul(2, 3)); }');
  const add = compile('aadd', 'int add(int a, int b) { return a + b; }');
  const mul = compile('amul', 'int mul(int a, int b) { return a * b; }');
  const lib = join(dir, 'libarith.a');
  execFileSync('llvm-ar-19', ['rc', lib, add, mul]);
  const m = loadModule([main, lib]);
  expect(m.functions.filter((f) => !f.isDeclaration).map((f) => f.name).sort()).toEqual(['add', 'main', 'mul']);
  expect(callees(m.getFunction('main')!)).toEqual([m.getFunction('mul'), m.getFunction('add')]);
});
