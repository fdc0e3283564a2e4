/**
 * `tsklee cc`: clang for a normal build that also yields whole-program bitcode, the way
 * gllvm/wllvm do it.
 *
 * - Compile steps (`-c`) run clang as asked (a native object, so configure checks and
 *   native links work), then compile each C/C++ source again to bitcode with
 *   `-emit-llvm -g -O0 -Xclang -disable-O0-optnone` (no dependency files, no -O, LTO or
 *   coverage flags) into `.NAME.o.bc` beside the object, and record that file's absolute
 *   path in a non-allocated `.llvm_bc` section of the object (llvm-objcopy --add-section).
 * - Link steps link natively as asked; the linker concatenates the `.llvm_bc` sections of
 *   exactly the objects it used (archive members included), so tsklee reads the list back
 *   from the linked file and llvm-links those bitcode files into `OUTPUT.bc` beside the
 *   native `OUTPUT`. Sources named on a link line are compiled first the same way.
 * - Bitcode-only: with `-emit-llvm`, or an output named `*.bc`/`*.ll`, the result is bitcode
 *   only (a compile with the defaults above, the user's flags after them; a link of the
 *   bitcode of the sources, .bc files and tsklee-built objects given).
 * - Everything else (-E, -S, --version, …) is passed to clang unchanged.
 *
 * Why not LTO + `lld --plugin-opt=emit-llvm`: it needs lld (not installed by default),
 * changes the objects every build tool sees into bitcode (ar/ranlib/nm then need the LLVM
 * versions), and runs the LTO pipeline over the result. The section approach keeps the native
 * build exactly as it was. Limit: the recorded paths are absolute, so link before moving
 * the build tree.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, extname, join, resolve } from 'node:path';
import { packageRoot } from '../util/package-root.js';
import { warnLine } from '../cli/context.js';
import { UsageError } from '../cli/errors.js';
import { flagsWithout, parseClangArgs, type ParsedArgs } from './args.js';
import { readElfSection } from './elf-section.js';
import { findToolchain, type Toolchain } from './toolchain.js';

export const BITCODE_SECTION = '.llvm_bc';
/** How every bitcode file is compiled: what the engine's reference numbers use. */
export const BITCODE_DEFAULTS = ['-emit-llvm', '-g', '-O0', '-Xclang', '-disable-O0-optnone'];

/** klee/klee.h for sources that include it, at the lowest include priority. */
function runtimeInclude(): string[] {
  const root = packageRoot(import.meta.url);
  return ['-idirafter', join(root, 'runtime', 'include')];
}

class Cc {
  private tmp: string | undefined;
  constructor(
    readonly tools: Toolchain,
    private readonly verbose: boolean,
  ) {}

  tempDir(): string {
    return (this.tmp ??= mkdtempSync(join(tmpdir(), 'tsklee-cc-')));
  }

  cleanup(): void {
    if (this.tmp !== undefined) rmSync(this.tmp, { recursive: true, force: true });
  }

  /** Runs a tool with inherited stdio; its exit status (128+n for a signal). */
  exec(tool: string, args: string[]): number {
    if (this.verbose) process.stderr.write(`tsklee cc: ${[tool, ...args].join(' ')}\n`);
    const r = spawnSync(tool, args, { stdio: 'inherit' });
    if (r.error !== undefined) throw new UsageError(`cc: cannot run ${tool}: ${r.error.message}`);
    return r.status ?? 128 + 9;
  }

  mustExec(tool: string, args: string[], what: string): void {
    const code = this.exec(tool, args);
    if (code !== 0) throw new UsageError(`cc: ${what} failed (${basename(tool)} exit status ${code})`);
  }

  /** Compiles `src` natively to `obj` and to bitcode `bc`, recording `bc` in the object. */
  compileSource(flags: string[], src: string, obj: string, bc: string): number {
    const code = this.exec(this.tools.clang, [...flags, ...runtimeInclude(), '-c', src, '-o', obj]);
    if (code !== 0) return code;
    this.compileBitcode(flags, src, bc);
    this.recordBitcode(obj, bc);
    return 0;
  }

  compileBitcode(flags: string[], src: string, bc: string): void {
    this.mustExec(this.tools.clang, [...BITCODE_DEFAULTS, ...flags, ...runtimeInclude(), '-Qunused-arguments', '-c', src, '-o', bc], `compiling ${src} to bitcode`);
  }

  recordBitcode(obj: string, bc: string): void {
    const list = join(this.tempDir(), 'bitcode-path');
    writeFileSync(list, `${resolve(bc)}\n`);
    this.mustExec(this.tools.objcopy, ['--add-section', `${BITCODE_SECTION}=${list}`, obj], `recording the bitcode of ${obj}`);
  }

  /** The bitcode files recorded in an object or linked file (in link order, without repeats). */
  recordedBitcode(file: string): string[] {
    let section: Uint8Array | undefined;
    try {
      section = readElfSection(file, BITCODE_SECTION);
    } catch (e) {
      throw new UsageError(`cc: ${(e as Error).message}`);
    }
    if (section === undefined) return [];
    const paths = Buffer.from(section).toString('utf8').split(/[\n\0]/).filter((p) => p !== '');
    return [...new Set(paths)];
  }

  linkBitcode(files: string[], out: string): void {
    const missing = files.find((f) => !existsSync(f));
    if (missing !== undefined) throw new UsageError(`cc: recorded bitcode ${missing} is gone (rebuild the objects with tsklee cc)`);
    this.mustExec(this.tools.llvmLink, [...files, '-o', out], `linking bitcode into ${out}`);
  }
}

function isBitcodeName(p: string | undefined): boolean {
  return p !== undefined && (p.endsWith('.bc') || p.endsWith('.ll'));
}

/** `.NAME.o.bc` beside `obj`. */
export function bitcodePathFor(obj: string): string {
  return join(dirname(obj), `.${basename(obj)}.bc`);
}

/** The object clang writes for a source compiled with -c and no -o. */
function defaultObject(src: string): string {
  return `${basename(src, extname(src))}.o`;
}

function compileStep(cc: Cc, p: ParsedArgs): number {
  if (p.emitLlvm || isBitcodeName(p.output?.path)) {
    const extra = p.emitLlvm ? BITCODE_DEFAULTS.slice(1) : BITCODE_DEFAULTS;
    return cc.exec(cc.tools.clang, [...extra, ...p.args, ...runtimeInclude()]);
  }
  const code = cc.exec(cc.tools.clang, [...p.args, ...runtimeInclude()]);
  if (code !== 0) return code;
  const flags = flagsWithout(p, p.notForBitcode);
  for (const src of p.inputs) {
    if (src.lang === undefined) continue;
    const obj = p.output?.path ?? defaultObject(src.path);
    cc.compileBitcode(flags, src.path, bitcodePathFor(obj));
    cc.recordBitcode(obj, bitcodePathFor(obj));
  }
  return 0;
}

function linkStep(cc: Cc, p: ParsedArgs): number {
  const compileFlags = [...flagsWithout(p, new Set(p.output?.indices ?? [])), '-Qunused-arguments'];
  const bitcodeFlags = flagsWithout(p, p.notForBitcode);
  const tmp = cc.tempDir();
  if (p.emitLlvm || isBitcodeName(p.output?.path)) {
    const out = p.output?.path ?? 'a.out.bc';
    const files: string[] = [];
    p.inputs.forEach((inp, n) => {
      if (inp.lang !== undefined) {
        const bc = join(tmp, `${n}-${basename(inp.path)}.bc`);
        cc.compileBitcode(bitcodeFlags, inp.path, bc);
        files.push(bc);
      } else if (isBitcodeName(inp.path)) files.push(inp.path);
      else if (inp.path.endsWith('.o')) files.push(...cc.recordedBitcode(inp.path));
      else warnLine(`cc: ${inp.path}: ignored in a bitcode-only link (only sources, .bc/.ll files and objects built by tsklee cc)`);
    });
    if (files.length === 0) throw new UsageError('cc: nothing to link into bitcode');
    cc.linkBitcode(files, out);
    return 0;
  }
  const args = [...p.args];
  for (const [n, src] of p.inputs.entries()) {
    if (src.lang === undefined) continue;
    const obj = join(tmp, `${n}-${basename(src.path, extname(src.path))}.o`);
    const code = cc.compileSource(compileFlags, src.path, obj, bitcodePathFor(obj));
    if (code !== 0) return code;
    args[src.index] = obj;
  }
  const code = cc.exec(cc.tools.clang, args);
  if (code !== 0 || p.relocatable) return code;
  const out = p.output?.path ?? 'a.out';
  const files = cc.recordedBitcode(out);
  if (files.length === 0) {
    warnLine(`cc: ${out}: no bitcode recorded (none of its objects was built by tsklee cc); no ${out}.bc written`);
    return 0;
  }
  cc.linkBitcode(files, `${out}.bc`);
  return 0;
}

/** `TSKLEE_CC_CONFIGURE_ONLY` set (not empty, not 0): clang alone, as asked. */
export function configureOnly(env: NodeJS.ProcessEnv = process.env): boolean {
  const v = env.TSKLEE_CC_CONFIGURE_ONLY;
  return v !== undefined && v !== '' && v !== '0';
}

/** `tsklee cc [--clang=PATH] [clang args]`; returns the exit status. */
export function runCc(argv: string[]): number {
  let explicitClang: string | undefined;
  const args: string[] = [];
  for (const a of argv) {
    if (a.startsWith('--clang=')) explicitClang = a.slice('--clang='.length);
    else args.push(a);
  }
  if (args.length === 0) throw new UsageError("cc: no arguments (usage: tsklee cc [--clang=PATH] CLANG-ARGS...; e.g. CC='tsklee cc' make)");
  const cc = new Cc(findToolchain(explicitClang), process.env.TSKLEE_CC_VERBOSE === '1');
  try {
    // gllvm's WLLVM_CONFIGURE_ONLY: while configure runs, no bitcode (nobody reads its tests')
    if (configureOnly()) return cc.exec(cc.tools.clang, [...args, ...runtimeInclude()]);
    const p = parseClangArgs(args);
    switch (p.mode) {
      case 'compile':
        return compileStep(cc, p);
      case 'link':
        return linkStep(cc, p);
      case 'preprocess':
      case 'assemble-only':
        return cc.exec(cc.tools.clang, [...args, ...runtimeInclude()]);
      case 'info':
        return cc.exec(cc.tools.clang, args);
    }
  } finally {
    cc.cleanup();
  }
}
