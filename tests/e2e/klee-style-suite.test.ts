/**
 * KLEE-style programs with KLEE-style command lines (fixtures/klee-style/, format in
 * tests/support/klee-style.ts): each RUN line through bin/tsklee, compared with the error
 * sites and test counts KLEE's semantics give, written beside the program.
 */
import { mkdirSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { beforeAll, describe, expect, it } from '@jest/globals';
import { inPool, listSuitePrograms, observedOutcome, runAsync, type SuiteOutcome } from '../support/klee-style.js';
import { INCLUDE, TSKLEE } from '../support/tsklee-cli.js';

const DIR = resolve('fixtures/klee-style');
const programs = listSuitePrograms(DIR);
const results = new Map<string, { outcome: SuiteOutcome; stderr: string }>();

beforeAll(async () => {
  const work = mkdtempSync(join(tmpdir(), 'tsklee-klee-style-'));
  // compile each program once (clang-19, as KLEE's documentation compiles: -emit-llvm -c -g, no optnone)
  await inPool(
    programs.map((p) => async () => {
      const r = await runAsync('clang-19', ['-emit-llvm', '-c', '-g', '-O0', '-Xclang', '-disable-O0-optnone', `-I${INCLUDE}`, p.file, '-o', join(work, `${p.name}.bc`)], work);
      if (r.status !== 0) throw new Error(`clang-19 ${p.name}.c: ${r.stderr}`);
    }),
    2,
  );
  const jobs = programs.flatMap((p) =>
    p.runs.map((run, i) => async () => {
      const out = join(work, `${p.name}.${i}`);
      mkdirSync(work, { recursive: true });
      const r = await runAsync(TSKLEE, ['run', ...run.options, `--output-dir=${out}`, `${p.name}.bc`, ...run.programArgs], work);
      results.set(`${p.name}:${i}`, { outcome: observedOutcome(out, r.status), stderr: r.stderr });
    }),
  );
  await inPool(jobs, 2);
}, 600_000);

describe('KLEE-style programs', () => {
  it('has at least 60 programs, each with KLEE command lines in both dash styles', () => {
    expect(programs.length).toBeGreaterThanOrEqual(60);
    const all = programs.flatMap((p) => p.runs.flatMap((r) => r.options));
    expect(all.some((o) => /^-[a-z]/.test(o))).toBe(true);
    expect(all.some((o) => o.startsWith('--'))).toBe(true);
  });

  for (const p of programs) {
    it(p.name, () => {
      p.runs.forEach((run, i) => {
        const got = results.get(`${p.name}:${i}`)!;
        const cmd = `${p.name}.c:${run.line}: tsklee run ${run.options.join(' ')} ${p.name}.bc ${run.programArgs.join(' ')}`;
        expect({ cmd, ...got.outcome }).toEqual({ cmd, ...run.expect });
      });
    });
  }
});
