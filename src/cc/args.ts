/**
 * Reads a clang driver command line far enough to know what it asks for: preprocess,
 * compile (-c / -S), or link; which arguments are inputs; which are the output and the
 * flags that must not be repeated when tsklee compiles the same sources a second time to
 * bitcode (dependency files, optimisation, LTO, coverage instrumentation).
 */
import { extname } from 'node:path';

/** Options whose value is the next argument when not joined (`-o out`, `-I dir`, `-MF f`). */
const TAKES_VALUE = new Set([
  '-o', '-I', '-D', '-U', '-x', '-include', '-imacros', '-isystem', '-idirafter', '-iquote', '-iprefix',
  '-iwithprefix', '-iwithprefixbefore', '-isysroot', '--sysroot', '-MF', '-MT', '-MQ', '-MJ', '-L', '-l',
  '-Xlinker', '-Xclang', '-Xassembler', '-Xpreprocessor', '-Xanalyzer', '-T', '-u', '-z', '-target', '--target',
  '-arch', '-e', '-aux-info', '--param', '-mllvm', '-A', '-B', '-F', '-include-pch', '-dependency-file',
  '-dependency-dot', '-ivfsoverlay', '-working-directory', '-serialize-diagnostics',
]);
/** Joined-value prefixes of the same options (`-Idir`, `-DX=1`, `-ofile`); not -e/-u (-emit-llvm, -undef). */
const JOINED = ['-I', '-D', '-U', '-L', '-l', '-o', '-x', '-MF', '-MT', '-MQ', '-B', '-F', '-T', '-z', '-A'];

/** Dependency-file flags: the native compile writes them; a second compile must not overwrite them. */
const DEP_FLAGS_WITH_VALUE = new Set(['-MF', '-MT', '-MQ', '-MJ', '-dependency-file']);
const DEP_FLAGS = new Set(['-M', '-MM', '-MD', '-MMD', '-MP', '-MG', '-MV']);

const C_EXT = new Set(['.c', '.i']);
const CXX_EXT = new Set(['.cc', '.cpp', '.cxx', '.c++', '.C', '.ii', '.cp', '.CPP']);
const LANG_OF_X: Record<string, 'c' | 'c++'> = { c: 'c', 'c++': 'c++', 'cpp-output': 'c', 'c++-cpp-output': 'c++' };

export type Mode = 'preprocess' | 'compile' | 'assemble-only' | 'link' | 'info';

export interface Input {
  /** Index in the argument list. */
  index: number;
  path: string;
  /** 'c' / 'c++' for sources tsklee also compiles to bitcode; undefined otherwise. */
  lang?: 'c' | 'c++';
}

export interface ParsedArgs {
  args: string[];
  mode: Mode;
  inputs: Input[];
  /** The -o value and where it is (both indices when separate). */
  output?: { path: string; indices: number[] };
  /** `-emit-llvm` was given: the user wants bitcode itself. */
  emitLlvm: boolean;
  /** `-r` / `-Wl,-r`: a partial link. */
  relocatable: boolean;
  /** Indices of arguments to leave out of a second (bitcode) compile of the same sources. */
  notForBitcode: Set<number>;
}

function joinedValueOption(a: string): string | undefined {
  return JOINED.find((p) => a.startsWith(p) && a.length > p.length && !TAKES_VALUE.has(a));
}

function sourceLang(path: string, forced: string | undefined): 'c' | 'c++' | undefined {
  if (forced !== undefined) return LANG_OF_X[forced];
  const ext = extname(path);
  if (C_EXT.has(ext)) return 'c';
  if (CXX_EXT.has(ext)) return 'c++';
  return undefined;
}

function isOptimisationOrInstrumentation(a: string): boolean {
  return (
    /^-O([0-3sgz]|fast)?$/.test(a) ||
    a.startsWith('-flto') ||
    a.startsWith('-fprofile-') ||
    a === '--coverage' ||
    a === '-ftest-coverage' ||
    a === '-pg' ||
    a.startsWith('-fsanitize') ||
    a === '-save-temps' ||
    a.startsWith('-save-temps=')
  );
}

/** Classifies a clang command line (the arguments after `clang`). */
export function parseClangArgs(args: string[]): ParsedArgs {
  let mode: Mode | undefined;
  let sawC = false;
  let sawS = false;
  let sawE = false;
  let emitLlvm = false;
  let relocatable = false;
  let forcedLang: string | undefined;
  let output: ParsedArgs['output'];
  const inputs: Input[] = [];
  const notForBitcode = new Set<number>();
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    if (a === '-' || !a.startsWith('-')) {
      inputs.push({ index: i, path: a, lang: a === '-' ? undefined : sourceLang(a, forcedLang) });
      continue;
    }
    if (TAKES_VALUE.has(a)) {
      const v = args[i + 1];
      if (a === '-o' && v !== undefined) output = { path: v, indices: [i, i + 1] };
      if (a === '-x' && v !== undefined) forcedLang = v === 'none' ? undefined : v;
      if (a === '-Xlinker' && v === '-r') relocatable = true;
      if (DEP_FLAGS_WITH_VALUE.has(a)) notForBitcode.add(i).add(i + 1);
      i++;
      continue;
    }
    const joined = joinedValueOption(a);
    if (joined === '-o') output = { path: a.slice(2), indices: [i] };
    else if (joined === '-x') forcedLang = a.slice(2) === 'none' ? undefined : a.slice(2);
    if (joined !== undefined && ['-MF', '-MT', '-MQ'].includes(joined)) notForBitcode.add(i);
    if (joined !== undefined) continue;
    if (a === '-c') sawC = true;
    else if (a === '-S') sawS = true;
    else if (a === '-E' || a === '-M' || a === '-MM' || a === '-fsyntax-only') sawE = true;
    else if (a === '-emit-llvm') emitLlvm = true;
    else if (a === '-r' || /^-Wl,(.*,)?-r(,|$)/.test(a)) relocatable = true;
    if (DEP_FLAGS.has(a) || isOptimisationOrInstrumentation(a)) notForBitcode.add(i);
  }
  if (output !== undefined) for (const i of output.indices) notForBitcode.add(i);
  if (sawE) mode = 'preprocess';
  else if (inputs.length === 0) mode = 'info';
  else if (sawS && !emitLlvm) mode = 'assemble-only';
  else if (sawC || sawS) mode = 'compile';
  else mode = 'link';
  return { args, mode, inputs, output, emitLlvm, relocatable, notForBitcode };
}

/** The arguments other than inputs and the ones listed in `drop` (by index). */
export function flagsWithout(parsed: ParsedArgs, drop: Set<number>): string[] {
  const inputIdx = new Set(parsed.inputs.map((x) => x.index));
  return parsed.args.filter((a, i) => !inputIdx.has(i) && !drop.has(i) && a !== '-c' && a !== '-S');
}
