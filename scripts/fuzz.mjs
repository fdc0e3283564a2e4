#!/usr/bin/env node
/**
 * Random-program differential testing with csmith (DESIGN.md, Testing (b)).
 *
 *   npm run fuzz -- --seeds 1..200 [--jobs 2] [--float] [--opt 0|2] [--clang 16|19]
 *                   [--symbolic [--globals 2]] [--reduce] [--timeout 120] [--out fuzz-out]
 *
 * For each seed: csmith's program (with --float, csmith's floating-point mode) is built
 * natively and to bitcode by the same clang at the same -O level, run natively and by
 * `tsklee run --libc=tsklee`, and the two outputs (csmith prints a checksum of the globals)
 * and exit statuses are compared (scripts/fuzz/case.mjs). With --symbolic, two integer
 * globals are made symbolic instead and every test tsklee writes is replayed on the native
 * build (scripts/fuzz/symbolic.mjs). A disagreement is saved under <out>/cases/ with the
 * commands that show it, and with --reduce cut down by cvise (scripts/fuzz/reduce.mjs).
 *
 * Every result goes to <out>/results.jsonl (one line per seed and mode); seeds already there
 * are not run again, so a long run can be stopped and resumed. Prints the counts per verdict
 * and programs per minute; exits 1 when a program disagreed or tsklee reported an error.
 *
 * Internal: `--check FILE --expect VERDICT[:TEXT]` is cvise's interestingness test.
 */
import { appendFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { checkProgram, generate, modeName, saveCase } from './fuzz/case.mjs';
import { expectationOf, reduce, stillInteresting } from './fuzz/reduce.mjs';
import { checkSymbolic } from './fuzz/symbolic.mjs';
import { CLI, LAUNCHER, ROOT, endChildrenOnExit, onPath, pool } from './fuzz/proc.mjs';

function fail(message) {
  process.stderr.write(`fuzz: ${message}\n`);
  process.exit(2);
}

/** --name value or --name=value; flags without a value are true. */
function parseArgs(argv) {
  const o = {};
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (!a.startsWith('--')) fail(`unexpected argument ${a}`);
    const eq = a.indexOf('=');
    if (eq > 0) o[a.slice(2, eq)] = a.slice(eq + 1);
    else if (i + 1 < argv.length && !argv[i + 1].startsWith('--')) o[a.slice(2)] = argv[++i];
    else o[a.slice(2)] = true;
  }
  return o;
}

function parseSeeds(s) {
  const m = /^(\d+)(?:\.\.(\d+))?$/.exec(String(s ?? ''));
  if (!m) fail('--seeds A..B (or one seed) is required');
  const a = Number(m[1]);
  const b = m[2] === undefined ? a : Number(m[2]);
  if (b < a) fail(`empty seed range ${s}`);
  return Array.from({ length: b - a + 1 }, (_, i) => a + i);
}

function parseMode(o) {
  const clang = Number(o.clang ?? 19);
  const opt = Number(o.opt ?? 0);
  if (![14, 16, 19].includes(clang)) fail(`--clang must be 14, 16 or 19, not ${o.clang}`);
  if (![0, 1, 2, 3].includes(opt)) fail(`--opt must be 0..3, not ${o.opt}`);
  return { clang, opt, float: o.float === true || o.float === 'true' };
}

const args = parseArgs(process.argv.slice(2));
endChildrenOnExit();
const mode = parseMode(args);
for (const f of [CLI, LAUNCHER]) if (!existsSync(f)) fail(`${f} is missing: run npm run build first`);

if (args.check !== undefined) {
  // cvise's interestingness test (exit 0: still interesting)
  const ok = await stillInteresting(resolve(String(args.check)), mode, String(args.expect ?? 'differ'));
  process.exit(ok ? 0 : 1);
}

if (!onPath('csmith')) fail('csmith is not installed (apt-get install csmith libcsmith-dev, or scripts/setup)');
const seeds = parseSeeds(args.seeds);
const jobs = Math.max(1, Number(args.jobs ?? 2) || 1);
const symbolic = args.symbolic === true;
const timeoutMs = Number(args.timeout ?? (symbolic ? 60 : 120)) * 1000;
const outRoot = resolve(String(args.out ?? join(ROOT, 'fuzz-out')));
const label = `${modeName(mode)}${symbolic ? '-symbolic' : ''}`;
mkdirSync(outRoot, { recursive: true });
const resultsFile = join(outRoot, 'results.jsonl');

/** Seeds of this mode already in the results file (a resumed run skips them). */
function done() {
  const seen = new Set();
  if (!existsSync(resultsFile)) return seen;
  for (const line of readFileSync(resultsFile, 'utf8').split('\n')) {
    if (!line) continue;
    try {
      const r = JSON.parse(line);
      if (r.mode === label) seen.add(r.seed);
    } catch {
      // a line cut by an interrupted run
    }
  }
  return seen;
}

const already = done();
const todo = seeds.filter((s) => !already.has(s));
const counts = {};
/** Why programs were skipped or timed out, with counts (the README lists these categories). */
const reasons = new Map();
const bad = [];
const t0 = performance.now();
let finished = 0;
const work = mkdtempSync(join(tmpdir(), 'tsklee-fuzz-'));
process.on('exit', () => rmSync(work, { recursive: true, force: true }));

process.stdout.write(`fuzz ${label}: ${todo.length} seeds (${seeds.length - todo.length} already in ${resultsFile}), ${jobs} jobs\n`);

await pool(todo, jobs, async (seed) => {
  const dir = join(work, String(seed));
  mkdirSync(dir, { recursive: true });
  let outcome;
  try {
    const src = await generate(seed, mode, dir);
    if (src === null) outcome = { verdict: 'skip', detail: 'csmith failed' };
    else if (symbolic) outcome = await checkSymbolic(src, mode, dir, { timeoutMs, globals: Number(args.globals ?? 2), libDir: work });
    else outcome = await checkProgram(src, mode, dir, { timeoutMs });
    if (outcome.verdict === 'differ' || outcome.verdict === 'error') {
      outcome.saved = saveCase(join(outRoot, 'cases'), seed, mode, join(dir, symbolic ? 'prog-sym.c' : 'prog.c'), outcome);
      bad.push({ seed, ...outcome });
    }
  } catch (e) {
    outcome = { verdict: 'error', detail: `fuzz script: ${e.message}` };
    bad.push({ seed, ...outcome });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  counts[outcome.verdict] = (counts[outcome.verdict] ?? 0) + 1;
  if (outcome.verdict === 'skip' || outcome.verdict === 'timeout') reasons.set(outcome.detail, (reasons.get(outcome.detail) ?? 0) + 1);
  finished++;
  appendFileSync(resultsFile, `${JSON.stringify({ mode: label, seed, ...outcome })}\n`);
  const tag = outcome.verdict === 'agree' ? '' : ` ${outcome.detail}`;
  process.stdout.write(`[${finished}/${todo.length}] seed ${seed}: ${outcome.verdict}${tag}\n`);
});

const minutes = (performance.now() - t0) / 60_000;
const compared = (counts.agree ?? 0) + (counts['fail-both'] ?? 0) + (counts.ub ?? 0) + (counts.differ ?? 0) + (counts.error ?? 0);
process.stdout.write(`\n${label}: ${Object.entries(counts).map(([k, v]) => `${k} ${v}`).join(', ') || 'nothing run'}\n`);
process.stdout.write(`${compared} compared, ${((100 * ((counts.agree ?? 0) + (counts['fail-both'] ?? 0) + (counts.ub ?? 0))) / Math.max(1, compared)).toFixed(1)} % agree (fail-both and ub included); ${(finished / Math.max(minutes, 1e-9)).toFixed(1)} programs per minute (${minutes.toFixed(1)} min, ${jobs} jobs)\n`);
for (const [why, n] of [...reasons].sort((x, y) => y[1] - x[1])) process.stdout.write(`  ${n} × ${why}\n`);
for (const b of bad) process.stdout.write(`  seed ${b.seed}: ${b.verdict}: ${b.detail}${b.saved ? ` (${b.saved})` : ''}\n`);

if (args.reduce === true && bad.length > 0 && !symbolic) {
  for (const b of bad) {
    if (!b.saved) continue;
    const expect = expectationOf(b);
    process.stdout.write(`reducing seed ${b.seed} (${expect}) in ${b.saved} …\n`);
    const lines = await reduce(b.saved, mode, expect);
    process.stdout.write(lines === null ? '  reduction failed (the original is kept)\n' : `  reduced to ${lines} lines: ${join(b.saved, 'prog.c')}\n`);
  }
}
process.exit(bad.length > 0 ? 1 : 0);
