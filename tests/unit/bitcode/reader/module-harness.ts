/** Helpers for the module-reader tests: build bitcode with clang / llvm-as and decode it. */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { readBitcodeModule } from '../../../../src/bitcode/index.js';
import { BitcodeError } from '../../../../src/bitcode/errors.js';
import type { Module } from '../../../../src/ir/module.js';
import type { GlobalVariable } from '../../../../src/ir/globals.js';
import { LLVM_VERSIONS, llvmTool, makeTmpDir, type LlvmVersion } from '../toolchain.js';

export { LLVM_VERSIONS, type LlvmVersion };

export class Workdir {
  readonly dir = makeTmpDir('module');
  private n = 0;

  file(name: string, data: string | Uint8Array): string {
    const p = path.join(this.dir, name);
    fs.writeFileSync(p, data);
    return p;
  }

  /** Compiles C source with clang-<v>; returns the path of the .bc. */
  clang(v: LlvmVersion, source: string, flags: string[] = []): string {
    const base = `c${this.n++}`;
    const src = this.file(`${base}.c`, source);
    const out = path.join(this.dir, `${base}.bc`);
    execFileSync(`clang-${v}`, ['-emit-llvm', '-c', '-w', '--target=x86_64-unknown-linux-gnu', ...flags, src, '-o', out]);
    return out;
  }

  /** Assembles textual IR with llvm-as of version v; returns the path of the .bc. */
  assemble(v: LlvmVersion, ir: string): string {
    const base = `a${this.n++}`;
    const src = this.file(`${base}.ll`, ir);
    const out = path.join(this.dir, `${base}.bc`);
    execFileSync(llvmTool(v, 'llvm-as'), [src, '-o', out]);
    return out;
  }

  /** llvm-dis of version v on a .bc file. */
  dis(v: LlvmVersion, bc: string): string {
    return execFileSync(llvmTool(v, 'llvm-dis'), [bc, '-o', '-'], { maxBuffer: 1 << 28 }).toString('latin1');
  }

  remove(): void {
    fs.rmSync(this.dir, { recursive: true, force: true });
  }
}

export function decode(bcPath: string): Module {
  return readBitcodeModule(new Uint8Array(fs.readFileSync(bcPath)), bcPath);
}

export function globalVar(m: Module, name: string): GlobalVariable {
  const g = m.globals.find((x) => x.name === name);
  if (!g) throw new Error(`no global @${name}`);
  return g;
}

/** Runs fn and returns the BitcodeError it throws (fails the test on anything else). */
export function bitcodeError(fn: () => unknown): BitcodeError {
  try {
    fn();
  } catch (e) {
    if (e instanceof BitcodeError) return e;
    throw e;
  }
  throw new Error('expected a BitcodeError');
}
