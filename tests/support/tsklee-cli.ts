/**
 * Running the built `tsklee` command (bin/tsklee: the bundle, as users run it) on C programs
 * written into a temporary directory, and reading what a run wrote. Needs `npm run build`.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

export const TSKLEE = resolve('bin/tsklee');
export const INCLUDE = resolve('runtime/include');

export interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** `tsklee ARGS` in `cwd`. */
export function tsklee(args: readonly string[], cwd: string): CliResult {
  const r = spawnSync(TSKLEE, args, { encoding: 'utf8', cwd, maxBuffer: 1 << 26 });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

/** Writes `name`.c into dir and compiles it to `name`.bc with clang-19 (-O0 -Xclang -disable-O0-optnone -g). */
export function compileProgram(dir: string, name: string, source: string, extra: readonly string[] = []): string {
  const c = join(dir, `${name}.c`);
  const bc = join(dir, `${name}.bc`);
  writeFileSync(c, source);
  const r = spawnSync('clang-19', ['-emit-llvm', '-c', '-g', '-O0', '-Xclang', '-disable-O0-optnone', `-I${INCLUDE}`, ...extra, c, '-o', bc], { encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`clang-19 ${name}.c failed: ${r.stderr}`);
  return bc;
}

/** What an output directory holds. */
export interface OutDir {
  files: string[];
  /** testNNNNNN.ktest count. */
  tests: number;
  /** The `.err` files' kinds (`ptr`, `assert`, …), one entry per file, sorted. */
  errors: string[];
  /** KLEE's "done:" numbers from the info file. */
  done: { completed: number; partial: number; generated: number };
  read(name: string): string;
  has(name: string): boolean;
}

export function readOutDir(dir: string): OutDir {
  const files = readdirSync(dir).sort();
  const info = existsSync(join(dir, 'info')) ? readFileSync(join(dir, 'info'), 'utf8') : '';
  const num = (re: RegExp): number => Number(re.exec(info)?.[1] ?? NaN);
  return {
    files,
    tests: files.filter((f) => /^test\d{6}\.ktest$/.test(f)).length,
    errors: files
      .map((f) => /^test\d{6}\.(.+)\.err$/.exec(f)?.[1])
      .filter((k): k is string => k !== undefined)
      .sort(),
    done: {
      completed: num(/^KLEE: done: completed paths = (\d+)$/m),
      partial: num(/^KLEE: done: partially completed paths = (\d+)$/m),
      generated: num(/^KLEE: done: generated tests = (\d+)$/m),
    },
    read: (name) => readFileSync(join(dir, name), 'utf8'),
    has: (name) => existsSync(join(dir, name)),
  };
}
