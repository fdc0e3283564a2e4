/**
 * The coreutils-style programs of fixtures/coreutils, end to end (issue 5): each is built with
 * `tsklee cc`, explored by `tsklee run --libc=tsklee --posix-runtime` with the symbolic
 * arguments, files and stdin of its NAME.expect.json, every generated test is replayed
 * natively with `tsklee replay --native` (stdout and exit status must be the recorded ones),
 * and the tests' line coverage, measured on a gcov build, must reach the expected percentage.
 * The pipeline is scripts/coverage.mjs --coreutils (two programs at a time); run
 * `npm run build` first.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

const CLI = resolve('dist/cli/main.js');
const FIXTURES = resolve('fixtures/coreutils');
const PROGRAMS = readdirSync(FIXTURES)
  .filter((f) => f.endsWith('.expect.json'))
  .map((f) => f.slice(0, -'.expect.json'.length))
  .sort();

interface Expectation {
  runs: { args: string[]; maxTime: string }[];
  minTests: number;
  coverage: number;
}
interface ProgramResult {
  program: string;
  error?: string;
  tests: number;
  lines: number;
  covered: number;
  missed: number[];
  replay: { tests: number; match: number; differ: number; notCompared: number };
  differing: string[];
  expect: Expectation;
}

let work: string;
const results = new Map<string, ProgramResult>();

beforeAll(() => {
  if (!existsSync(CLI)) throw new Error(`${CLI} is missing: run \`npm run build\` before the e2e tests (npm run build && npm test)`);
  work = mkdtempSync(join(tmpdir(), 'tsklee-coreutils-test-'));
  const r = spawnSync(process.execPath, ['scripts/coverage.mjs', '--coreutils', '--json', '--jobs', '2', '--work', work], { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  if (r.stdout.trim() === '') throw new Error(`scripts/coverage.mjs produced nothing (exit ${r.status}): ${r.stderr}`);
  for (const p of JSON.parse(r.stdout) as ProgramResult[]) results.set(p.program, p);
}, 20 * 60 * 1000);
afterAll(() => {
  if (work) rmSync(work, { recursive: true, force: true });
});

test('there are at least 15 programs, each with its expectation', () => {
  expect(PROGRAMS.length).toBeGreaterThanOrEqual(15);
  for (const p of PROGRAMS) expect(existsSync(join(FIXTURES, `${p}.c`))).toBe(true);
});

test.each(PROGRAMS)('%s: tests replay natively as recorded, coverage reaches the target', (name) => {
  const r = results.get(name);
  expect(r).toBeDefined();
  expect(r!.error).toBeUndefined();
  const expectation = JSON.parse(readFileSync(join(FIXTURES, `${name}.expect.json`), 'utf8')) as Expectation;
  expect(r!.tests).toBeGreaterThanOrEqual(expectation.minTests);
  // every test was replayed; none differs; only paths stopped early go uncompared
  expect(r!.replay.tests).toBe(r!.tests);
  expect(r!.differing).toEqual([]);
  expect(r!.replay.match + r!.replay.notCompared).toBe(r!.tests);
  expect(r!.replay.match).toBeGreaterThanOrEqual(expectation.minTests);
  const pct = (100 * r!.covered) / r!.lines;
  if (pct < expectation.coverage) throw new Error(`${name}: ${pct.toFixed(1)} % of lines covered, expected ≥ ${expectation.coverage} %; missed lines ${r!.missed.join(' ')}`);
});
