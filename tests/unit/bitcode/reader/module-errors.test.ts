/** Input the reader must reject, always with a one-line BitcodeError naming the file. */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { readBitcodeArchive, readBitcodeFile, readBitcodeModule } from '../../../../src/bitcode/index.js';
import { BitcodeError } from '../../../../src/bitcode/errors.js';
import { BlockId, IdentificationCode, ModuleCode } from '../../../../src/bitcode/reader/ids.js';
import { BitWriter } from '../../../support/bitwriter.js';
import { llvmTool } from '../toolchain.js';
import { Workdir, bitcodeError, decode } from './module-harness.js';

const wd = new Workdir();
afterAll(() => wd.remove());

const SMALL_C = `
struct s { int a; const char *p; };
static struct s items[2] = {{1, "one"}, {2, "two"}};
int pick(int i) { return items[i & 1].a + items[i & 1].p[0]; }
`;

function expectOneLine(e: BitcodeError, file: string, msg: RegExp): void {
  expect(e.file).toBe(file);
  expect(e.message).toMatch(msg);
  const line = e.oneLine();
  expect(line.startsWith(`${file}: `)).toBe(true);
  expect(line).not.toContain('\n');
}

describe('unsupported input', () => {
  it.each([
    ['aarch64-linux-gnu', /aarch64/],
    ['wasm32-unknown-unknown', /wasm32/],
    ['x86_64-apple-macosx12.0.0', /apple/],
  ])('rejects a module for %s', (target, msg) => {
    const src = wd.file(`t-${target}.c`, 'int f(int x) { return x + 1; }\n');
    const out = path.join(wd.dir, `t-${target}.bc`);
    execFileSync('clang-19', ['-emit-llvm', '-c', `--target=${target}`, src, '-o', out]);
    const e = bitcodeError(() => decode(out));
    expectOneLine(e, out, msg);
    expect(e.message).toMatch(/unsupported target triple .*x86_64 Linux/);
  });

  it('keeps the message on one line when the triple has control characters', () => {
    const bc = wd.assemble(19, String.raw`target triple = "arm\0Dv7\0Alinux"` + '\n');
    expectOneLine(bitcodeError(() => decode(bc)), bc, /unsupported target triple "arm\\0Dv7\\0Alinux"/);
  });

  it('accepts a module without a target triple', () => {
    const m = decode(wd.assemble(19, 'define i32 @f() {\n  ret i32 0\n}\n'));
    expect(m.targetTriple).toBe('');
    expect(m.getFunction('f')!.hasBody).toBe(true);
  });

  it('rejects a file that is not bitcode', () => {
    const p = wd.file('notes.txt', 'this is not bitcode at all\n');
    const e = bitcodeError(() => readBitcodeFile(p));
    expectOneLine(e, p, /not an LLVM bitcode file/);
  });

  it('rejects a missing file', () => {
    const p = path.join(wd.dir, 'missing.bc');
    expectOneLine(bitcodeError(() => readBitcodeFile(p)), p, /cannot read file/);
  });

  it('rejects an epoch other than 0', () => {
    const w = new BitWriter().magic();
    w.enterBlock(BlockId.Identification, 5).unabbrevRecord(IdentificationCode.Epoch, [1]).endBlock();
    w.enterBlock(BlockId.Module, 3).unabbrevRecord(ModuleCode.Version, [2]).endBlock();
    const e = bitcodeError(() => readBitcodeModule(w.finish(), 'epoch.bc'));
    expectOneLine(e, 'epoch.bc', /epoch 1/);
  });

  it('rejects module versions above 2', () => {
    const w = new BitWriter().magic();
    w.enterBlock(BlockId.Module, 3).unabbrevRecord(ModuleCode.Version, [3]).endBlock();
    const e = bitcodeError(() => readBitcodeModule(w.finish(), 'v3.bc'));
    expectOneLine(e, 'v3.bc', /module version 3/);
    expect(e.bitPos).toBeGreaterThan(0);
  });

  it('rejects a stream without a module', () => {
    const w = new BitWriter().magic();
    w.enterBlock(BlockId.Identification, 5).unabbrevRecord(IdentificationCode.Epoch, [0]).endBlock();
    w.emit(0, 64); // padding is tolerated
    expectOneLine(bitcodeError(() => readBitcodeModule(w.finish(), 'empty.bc')), 'empty.bc', /without a module/);
  });

  it('rejects a file with several modules (llvm-cat -b)', () => {
    const a = wd.clang(19, 'int a(void) { return 1; }\n');
    const b = wd.clang(19, 'int b(void) { return 2; }\n');
    const out = path.join(wd.dir, 'two.bc');
    execFileSync(llvmTool(19, 'llvm-cat'), ['-b', a, b, '-o', out]);
    expectOneLine(bitcodeError(() => decode(out)), out, /more than one module/);
  });
});

describe('archives', () => {
  it('reads every bitcode member and names members in errors', () => {
    const a = wd.clang(16, 'int a(void) { return 1; }\n');
    const b = wd.clang(16, 'int b(void) { return 2; }\n');
    const dir = path.join(wd.dir, 'ar');
    fs.mkdirSync(dir);
    fs.copyFileSync(a, path.join(dir, 'a.bc'));
    fs.copyFileSync(b, path.join(dir, 'b.bc'));
    fs.writeFileSync(path.join(dir, 'notes.txt'), 'not bitcode\n');
    const lib = path.join(dir, 'lib.a');
    execFileSync('ar', ['rc', lib, 'a.bc', 'b.bc', 'notes.txt'], { cwd: dir });
    const mods = readBitcodeFile(lib);
    expect(mods.map((m) => m.source)).toEqual([`${lib}(a.bc)`, `${lib}(b.bc)`]);
    expect(mods.map((m) => m.functions.map((f) => f.name))).toEqual([['a'], ['b']]);

    // A member whose bitstream is cut short: the error names the member.
    const bad = fs.readFileSync(b).subarray(0, 200);
    fs.writeFileSync(path.join(dir, 'bad.bc'), bad);
    execFileSync('ar', ['rc', lib, 'bad.bc'], { cwd: dir });
    const e = bitcodeError(() => readBitcodeArchive(new Uint8Array(fs.readFileSync(lib)), 'lib.a'));
    expect(e.file).toBe('lib.a(bad.bc)');
  });
});

describe('corrupted bitcode', () => {
  // Deterministic xorshift PRNG.
  let seed = 0x9e3779b9;
  const rand = (n: number): number => {
    seed ^= seed << 13;
    seed ^= seed >>> 17;
    seed ^= seed << 5;
    return (seed >>> 0) % n;
  };
  const tryDecode = (buf: Uint8Array): void => {
    try {
      readBitcodeModule(buf, 'fuzz.bc');
    } catch (e) {
      if (!(e instanceof BitcodeError)) throw e;
      expect(e.file).toBe('fuzz.bc');
    }
  };

  it.each([14, 16, 19] as const)('only ever throws BitcodeError (clang-%i output)', (v) => {
    const orig = new Uint8Array(fs.readFileSync(wd.clang(v, SMALL_C, ['-O0', '-g'])));
    for (let len = 4; len < orig.length; len += 37) tryDecode(orig.subarray(0, len));
    for (let i = 0; i < 600; i++) {
      const buf = orig.slice();
      const flips = 1 + rand(4);
      // Stay past the magic number, which is checked first anyway.
      for (let k = 0; k < flips; k++) buf[4 + rand(buf.length - 4)] ^= 1 << rand(8);
      tryDecode(buf);
    }
  });
});
