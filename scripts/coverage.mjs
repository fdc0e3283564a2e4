#!/usr/bin/env node
/**
 * Line coverage of programs by the tests tsklee generated for them, measured natively:
 * each program is built with `gcc --coverage`, every test of its klee-out directory is
 * replayed on that build with `tsklee replay --native` (argv, files and stdin from the
 * test), and gcov counts the source lines executed.
 *
 *   node scripts/coverage.mjs [--json] SOURCE.c KLEE-OUT [SOURCE.c KLEE-OUT]...
 *       coverage of existing runs
 *   node scripts/coverage.mjs --coreutils [--jobs N] [--work DIR] [--json] [NAME...]
 *       (npm run coverage) the whole pipeline for fixtures/coreutils: `tsklee cc` → each
 *       `tsklee run` of NAME.expect.json (its "runs": program arguments and time budget) →
 *       `tsklee replay --native` of the tsklee cc binary (stdout and exit status against the
 *       recorded ones) → coverage as above, over the tests of all runs
 *
 * Prints a table (or JSON with --json) and a total; exits 1 when a program is below its
 * expected coverage or a test does not replay as recorded (--coreutils), 0 otherwise.
 * Needs `npm run build` first (it runs dist/cli/main.js) and gcc/gcov.
 */
import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

const run = promisify(execFile);
const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const CLI = join(ROOT, 'dist', 'cli', 'main.js');
const FIXTURES = join(ROOT, 'fixtures', 'coreutils');
const MAX_BUFFER = 64 * 1024 * 1024;

function fail(msg) {
  process.stderr.write(`coverage: error: ${msg}\n`);
  process.exit(1);
}

async function tsklee(args, opts = {}) {
  return run(process.execPath, [CLI, ...args], { maxBuffer: MAX_BUFFER, ...opts });
}

/** Runs a command that may exit non-zero; returns { code, stdout, stderr }. */
async function runAllowingFailure(file, args, opts = {}) {
  try {
    const r = await run(file, args, { maxBuffer: MAX_BUFFER, ...opts });
    return { code: 0, stdout: r.stdout, stderr: r.stderr };
  } catch (e) {
    if (typeof e.code !== 'number') throw e;
    return { code: e.code, stdout: e.stdout ?? '', stderr: e.stderr ?? '' };
  }
}

function ktestCount(kleeOut) {
  return readdirSync(kleeOut).filter((f) => f.endsWith('.ktest')).length;
}

/** Counts from `tsklee replay --native`'s output: its summary line, else its per-test lines. */
function parseReplay(stdout) {
  const m = /replayed (\d+) tests natively: (\d+) as recorded, (\d+) different, (\d+) not compared/.exec(stdout);
  if (m) return { tests: Number(m[1]), match: Number(m[2]), differ: Number(m[3]), notCompared: Number(m[4]) };
  const perTest = stdout.split('\n').filter((l) => /^test\d+\.ktest: /.test(l));
  if (perTest.length === 0) return undefined;
  const differ = perTest.filter((l) => l.includes('DIFFERS')).length;
  const match = perTest.filter((l) => l.endsWith('as recorded')).length;
  return { tests: perTest.length, match, differ, notCompared: perTest.length - match - differ };
}

/** Builds `source` with gcov instrumentation in `dir`, replays every test of the `kleeOuts`, reads gcov. */
async function measureCoverage(source, kleeOuts, dir) {
  const name = basename(source, '.c');
  const obj = join(dir, `${name}.o`);
  const bin = join(dir, name);
  await run('gcc', ['--coverage', '-O0', '-g', '-c', source, '-o', obj]);
  await run('gcc', ['--coverage', obj, '-o', bin]);
  rmSync(join(dir, `${name}.gcda`), { force: true });
  // Differences are the replay check's business (done on the tsklee cc build); here only the
  // executed lines count, but every test must have run.
  let tests = 0;
  for (const kleeOut of kleeOuts) {
    const replay = await runAllowingFailure(process.execPath, [CLI, 'replay', '--native', bin, kleeOut]);
    const counts = parseReplay(replay.stdout);
    if (counts === undefined || counts.tests !== ktestCount(kleeOut)) {
      throw new Error(`${name}: tsklee replay --native ${kleeOut} did not replay every test: ${replay.stderr.trim()}`);
    }
    tests += counts.tests;
  }
  const { stdout } = await run('gcov', ['--json-format', '--stdout', '-o', dir, obj], { cwd: dir, maxBuffer: MAX_BUFFER });
  const file = JSON.parse(stdout).files.find((f) => resolve(f.file) === resolve(source));
  if (!file) throw new Error(`${name}: gcov reported nothing for ${source}`);
  const hit = new Map();
  for (const l of file.lines) hit.set(l.line_number, (hit.get(l.line_number) ?? false) || l.count > 0);
  const missed = [...hit].filter(([, h]) => !h).map(([n]) => n).sort((a, b) => a - b);
  return { program: name, tests, lines: hit.size, covered: hit.size - missed.length, missed };
}

function percent(covered, lines) {
  return lines === 0 ? 100 : (100 * covered) / lines;
}

/** Whether a run explored every path (its info file has no "Halted:" line). */
function exhaustive(kleeOut) {
  return !/^Halted:/m.test(readFileSync(join(kleeOut, 'info'), 'utf8'));
}

/** The whole pipeline for one fixture program: build, every run of its expectation, replay, coverage. */
async function coreutilsProgram(name, work) {
  const source = join(FIXTURES, `${name}.c`);
  const expect = JSON.parse(readFileSync(join(FIXTURES, `${name}.expect.json`), 'utf8'));
  const dir = join(work, name);
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(join(dir, 'gcov'), { recursive: true });
  const bin = join(dir, name);
  const started = Date.now();
  await tsklee(['cc', '-o', bin, source]);
  const kleeOuts = [];
  const replay = { tests: 0, match: 0, differ: 0, notCompared: 0 };
  const differing = [];
  let allExhaustive = true;
  for (const [i, r] of expect.runs.entries()) {
    const kleeOut = join(dir, `klee-out-${i + 1}`);
    const runArgs = ['run', '--no-echo-program-output', '--libc=tsklee', '--posix-runtime', '--only-output-states-covering-new', `--max-time=${r.maxTime}`, `--output-dir=${kleeOut}`];
    await tsklee([...runArgs, `${bin}.bc`, ...r.args]);
    kleeOuts.push(kleeOut);
    allExhaustive &&= exhaustive(kleeOut);
    const rr = await runAllowingFailure(process.execPath, [CLI, 'replay', '--native', bin, kleeOut]);
    const counts = parseReplay(rr.stdout);
    if (counts === undefined) throw new Error(`${name}: tsklee replay --native ${kleeOut} failed: ${rr.stderr.trim()}`);
    for (const k of Object.keys(replay)) replay[k] += counts[k];
    differing.push(...rr.stdout.split('\n').filter((l) => l.includes('DIFFERS')).map((l) => `klee-out-${i + 1}/${l}`));
  }
  const cov = await measureCoverage(source, kleeOuts, join(dir, 'gcov'));
  return { ...cov, replay, differing, exhaustive: allExhaustive, expect, seconds: (Date.now() - started) / 1000 };
}

/** A failed command's first line and the last line of its stderr. */
function briefError(e) {
  const first = e.message.split('\n')[0];
  const last = String(e.stderr ?? '').trim().split('\n').pop();
  return last ? `${first}: ${last}` : first;
}

/** Runs `fn` over `items`, `jobs` at a time, keeping the order of the results. */
async function pool(items, jobs, fn) {
  const results = new Array(items.length);
  let next = 0;
  async function worker() {
    while (next < items.length) {
      const i = next++;
      results[i] = await fn(items[i]).catch((e) => ({ program: items[i], error: briefError(e) }));
    }
  }
  await Promise.all(Array.from({ length: Math.min(jobs, items.length) }, worker));
  return results;
}

function printTable(results) {
  const lines = [];
  let total = 0;
  let covered = 0;
  lines.push(`${'program'.padEnd(10)} ${'tests'.padStart(5)} ${'lines'.padStart(9)} ${'cover'.padStart(7)}  replay / missed lines`);
  for (const r of results) {
    if (r.error) {
      lines.push(`${r.program.padEnd(10)} ERROR: ${r.error}`);
      continue;
    }
    total += r.lines;
    covered += r.covered;
    const pct = percent(r.covered, r.lines).toFixed(1);
    const target = r.expect ? ` (≥ ${r.expect.coverage})` : '';
    const replay = r.replay ? `${r.replay.match}/${r.replay.tests} as recorded${r.replay.differ ? `, ${r.replay.differ} DIFFER` : ''}; ` : '';
    const how = r.seconds !== undefined ? `${r.seconds.toFixed(0)} s${r.exhaustive ? '' : ', halted by --max-time'}; ` : '';
    lines.push(`${r.program.padEnd(10)} ${String(r.tests).padStart(5)} ${`${r.covered}/${r.lines}`.padStart(9)} ${`${pct}%`.padStart(7)}${target}  ${how}${replay}missed: ${r.missed.join(' ') || '-'}`);
  }
  lines.push(`${'total'.padEnd(10)} ${''.padStart(5)} ${`${covered}/${total}`.padStart(9)} ${`${percent(covered, total).toFixed(1)}%`.padStart(7)}`);
  process.stdout.write(`${lines.join('\n')}\n`);
}

function failed(r) {
  if (r.error) return true;
  if (r.expect && percent(r.covered, r.lines) < r.expect.coverage) return true;
  return r.replay !== undefined && r.replay.differ > 0;
}

async function main() {
  const argv = process.argv.slice(2);
  const json = argv.includes('--json');
  const opt = (name, dflt) => {
    const i = argv.indexOf(name);
    return i >= 0 ? argv[i + 1] : dflt;
  };
  if (!existsSync(CLI)) fail(`${CLI} is missing: run npm run build first`);
  let results;
  if (argv.includes('--coreutils')) {
    const valued = new Set(['--jobs', '--work']);
    const names = argv.filter((a, i) => !a.startsWith('--') && !valued.has(argv[i - 1]));
    const all = readdirSync(FIXTURES).filter((f) => f.endsWith('.expect.json')).map((f) => f.slice(0, -'.expect.json'.length)).sort();
    const unknown = names.filter((n) => !all.includes(n));
    if (unknown.length > 0) fail(`no fixture program ${unknown.join(', ')} (have: ${all.join(', ')})`);
    const work = opt('--work') ?? mkdtempSync(join(tmpdir(), 'tsklee-coreutils-'));
    const jobs = Number(opt('--jobs', '2'));
    if (!(jobs >= 1)) fail('--jobs wants a number ≥ 1');
    results = await pool(names.length > 0 ? names : all, jobs, (n) => coreutilsProgram(n, work));
    if (!json) process.stdout.write(`work directory: ${work}\n`);
  } else {
    const pairs = argv.filter((a) => a !== '--json');
    if (pairs.length === 0 || pairs.length % 2 !== 0) {
      fail('usage: coverage.mjs [--json] SOURCE.c KLEE-OUT [SOURCE.c KLEE-OUT]... | coverage.mjs --coreutils [--jobs N] [--work DIR] [--json] [NAME...]');
    }
    results = [];
    for (let i = 0; i < pairs.length; i += 2) {
      const [source, kleeOut] = [resolve(pairs[i]), resolve(pairs[i + 1])];
      if (!existsSync(source)) fail(`${pairs[i]}: no such file`);
      if (!existsSync(kleeOut)) fail(`${pairs[i + 1]}: no such directory`);
      const dir = mkdtempSync(join(tmpdir(), 'tsklee-gcov-'));
      try {
        results.push(await measureCoverage(source, [kleeOut], dir));
      } catch (e) {
        results.push({ program: basename(source, '.c'), error: e.message.split('\n')[0] });
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    }
  }
  if (json) process.stdout.write(`${JSON.stringify(results, null, 2)}\n`);
  else printTable(results);
  process.exitCode = results.some(failed) ? 1 : 0;
}

await main();
