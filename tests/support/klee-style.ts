/**
 * The KLEE-style program suite (fixtures/klee-style/*.c): each program carries KLEE command
 * lines and what KLEE's semantics make of them, in its leading comment:
 *
 *     // RUN: -search=dfs -emit-all-errors
 *     // EXPECT: completed=2 partial=1 tests=3 errors=ptr@9
 *
 * RUN is the options before the bitcode; words after a lone `--` go after it (the program's
 * arguments). The EXPECT line below a RUN holds KLEE's done: numbers (completed, partially
 * completed paths, generated tests), the .err files as kind@line (sorted; `none` for no
 * error), and optionally status=N, tsklee's exit status (default 0).
 */
import { spawn } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

export interface SuiteRun {
  options: string[];
  programArgs: string[];
  expect: SuiteOutcome;
  /** 1-based line of the RUN comment (for messages). */
  line: number;
}

export interface SuiteOutcome {
  completed: number;
  partial: number;
  tests: number;
  errors: string[];
  status: number;
}

export interface SuiteProgram {
  name: string;
  file: string;
  runs: SuiteRun[];
}

function parseExpect(text: string, where: string): SuiteOutcome {
  const fields = new Map<string, string>();
  for (const w of text.trim().split(/\s+/)) {
    const eq = w.indexOf('=');
    if (eq <= 0) throw new Error(`${where}: bad EXPECT field '${w}'`);
    fields.set(w.slice(0, eq), w.slice(eq + 1));
  }
  const num = (k: string, dflt?: number): number => {
    const v = fields.get(k);
    if (v === undefined) {
      if (dflt !== undefined) return dflt;
      throw new Error(`${where}: EXPECT needs ${k}=`);
    }
    if (!/^\d+$/.test(v)) throw new Error(`${where}: ${k}=${v} is not a number`);
    return Number(v);
  };
  const errs = fields.get('errors');
  if (errs === undefined) throw new Error(`${where}: EXPECT needs errors= (none for no error)`);
  return {
    completed: num('completed'),
    partial: num('partial'),
    tests: num('tests'),
    errors: errs === 'none' ? [] : errs.split(',').sort(),
    status: num('status', 0),
  };
}

/** Reads one program's RUN/EXPECT lines. */
export function parseSuiteProgram(file: string, name: string): SuiteProgram {
  const lines = readFileSync(file, 'utf8').split('\n');
  const runs: SuiteRun[] = [];
  let pending: { options: string[]; programArgs: string[]; line: number } | null = null;
  lines.forEach((l, i) => {
    const run = /^\/\/ RUN: (.*)$/.exec(l);
    const exp = /^\/\/ EXPECT: (.*)$/.exec(l);
    const where = `${name}.c:${i + 1}`;
    if (run !== null) {
      if (pending !== null) throw new Error(`${where}: RUN without EXPECT above`);
      const words = run[1]!.trim().split(/\s+/).filter(Boolean);
      const sep = words.indexOf('--');
      pending = { options: sep < 0 ? words : words.slice(0, sep), programArgs: sep < 0 ? [] : words.slice(sep + 1), line: i + 1 };
    } else if (exp !== null) {
      if (pending === null) throw new Error(`${where}: EXPECT without RUN`);
      runs.push({ ...pending, expect: parseExpect(exp[1]!, where) });
      pending = null;
    }
  });
  if (pending !== null || runs.length === 0) throw new Error(`${name}.c: every program needs RUN/EXPECT pairs`);
  return { name, file, runs };
}

export function listSuitePrograms(dir: string): SuiteProgram[] {
  return readdirSync(dir)
    .filter((f) => f.endsWith('.c'))
    .sort()
    .map((f) => parseSuiteProgram(join(dir, f), f.slice(0, -2)));
}

/** What a run produced, in EXPECT's terms. */
export function observedOutcome(outDir: string, status: number): SuiteOutcome {
  const info = existsSync(join(outDir, 'info')) ? readFileSync(join(outDir, 'info'), 'utf8') : '';
  const num = (re: RegExp): number => Number(re.exec(info)?.[1] ?? -1);
  const files = existsSync(outDir) ? readdirSync(outDir) : [];
  const errors = files
    .filter((f) => /^test\d{6}\..+\.err$/.test(f))
    .map((f) => {
      const kind = /^test\d{6}\.(.+)\.err$/.exec(f)![1]!;
      const line = /^Line: (\d+)$/m.exec(readFileSync(join(outDir, f), 'utf8'))?.[1] ?? '?';
      return `${kind}@${line}`;
    })
    .sort();
  return {
    completed: num(/^KLEE: done: completed paths = (\d+)$/m),
    partial: num(/^KLEE: done: partially completed paths = (\d+)$/m),
    tests: files.filter((f) => /^test\d{6}\.ktest$/.test(f)).length,
    errors,
    status,
  };
}

/** Runs a command, resolving with its exit status and stderr. */
export function runAsync(cmd: string, args: readonly string[], cwd: string): Promise<{ status: number; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, args, { cwd, stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ status: code ?? -1, stderr }));
  });
}

/** Runs `jobs` at most `width` at a time. */
export async function inPool<T>(jobs: (() => Promise<T>)[], width: number): Promise<T[]> {
  const out: T[] = new Array<T>(jobs.length);
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < jobs.length) {
      const i = next++;
      out[i] = await jobs[i]!();
    }
  };
  await Promise.all(Array.from({ length: Math.min(width, jobs.length) }, worker));
  return out;
}
