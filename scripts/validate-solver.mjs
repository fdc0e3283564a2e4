#!/usr/bin/env node
/**
 * --debug-validate-solver over every engine fixture (fixtures/engine/*.c): each program,
 * compiled with clang-16 -O0, runs twice under `tsklee run --debug-validate-solver
 * --debug-validate-solver-backend=z3-native` — with the default chain, and with
 * --use-fast-solver=false so that more queries reach the embedded z3 — and every solver
 * answer is cross-checked against native z3. Prints one line per run and a summary; exits 1
 * if any answer disagreed or any run failed (a crashed run may hide a disagreement).
 *
 *   npm run validate-solver [-- --fixtures=a,b] [--jobs=2] [--oracle=z3-native] [--max-time=120s]
 *                           [--configs=default,no-fast,arrays-lazy,arrays-eager,precheck-backend,store-chain]
 *
 * The array configurations (paper 002) put every array option on, with the fast layer off
 * so that array queries reach them: --array-encoding=axioms --array-axioms=typed-interval
 * --ilp-precheck, lazily (CEGAR) and eagerly generated axioms; precheck-backend puts the
 * pre-check in front of z3's own arrays, store-chain also encodes constant arrays as KLEE
 * does for STP (--z3-constant-arrays=store-chain).
 *
 * Needs `npm run build` and z3 on PATH (scripts/setup installs it).
 */
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const CLI = join(ROOT, 'dist', 'cli', 'main.js');
const FIXTURES = join(ROOT, 'fixtures', 'engine');
const INCLUDE = join(ROOT, 'runtime', 'include');
const CLANG = existsSync('/usr/lib/llvm-16/bin/clang') ? '/usr/lib/llvm-16/bin/clang' : 'clang-16';
const CONFIGS = [
  { name: 'default', args: [] },
  { name: 'no-fast', args: ['--use-fast-solver=false'] },
  {
    name: 'arrays-lazy',
    args: ['--use-fast-solver=false', '--array-encoding=axioms', '--array-axioms=typed-interval', '--array-axiom-generation=lazy', '--ilp-precheck'],
  },
  {
    name: 'arrays-eager',
    args: ['--use-fast-solver=false', '--array-encoding=axioms', '--array-axioms=typed-interval', '--array-axiom-generation=eager', '--ilp-precheck'],
  },
  // the pre-check in front of z3's own arrays (a hit-rate guard that never switches it off, so every query is pre-checked)
  { name: 'precheck-backend', args: ['--use-fast-solver=false', '--ilp-precheck', '--ilp-precheck-min-hit-rate=0'] },
  { name: 'store-chain', args: ['--use-fast-solver=false', '--z3-constant-arrays=store-chain', '--ilp-precheck', '--ilp-precheck-min-hit-rate=0'] },
];

function option(name, fallback) {
  const arg = process.argv.slice(2).find((a) => a.startsWith(`--${name}=`));
  return arg === undefined ? fallback : arg.slice(name.length + 3);
}

function fail(message) {
  process.stderr.write(`validate-solver: ${message}\n`);
  process.exit(2);
}

const only = option('fixtures', '')
  .split(',')
  .filter((s) => s !== '');
const jobs = Math.max(1, Number(option('jobs', '2')) || 1);
const oracle = option('oracle', 'z3-native');
const configNames = option('configs', CONFIGS.map((c) => c.name).join(',')).split(',');
for (const n of configNames) if (!CONFIGS.some((c) => c.name === n)) fail(`unknown config ${n} (${CONFIGS.map((c) => c.name).join(', ')})`);
const configs = CONFIGS.filter((c) => configNames.includes(c.name));
const maxTime = option('max-time', '120s');
if (!existsSync(CLI)) fail(`${CLI} is missing: run npm run build first`);

const fixtures = readdirSync(FIXTURES)
  .filter((f) => f.endsWith('.c'))
  .map((f) => basename(f, '.c'))
  .filter((n) => only.length === 0 || only.includes(n))
  .sort();
if (fixtures.length === 0) fail('no fixture matches --fixtures');

const dir = mkdtempSync(join(tmpdir(), 'tsklee-validate-solver-'));
process.on('exit', () => rmSync(dir, { recursive: true, force: true }));

/** Bitcode of a fixture at clang-16 -O0: the harness's cached build when fresh, else compiled here. */
function bitcode(name) {
  const src = join(FIXTURES, `${name}.c`);
  const cached = join(FIXTURES, 'build', `${name}.clang16.O0.bc`);
  const newest = Math.max(statSync(src).mtimeMs, statSync(join(INCLUDE, 'klee', 'klee.h')).mtimeMs);
  if (existsSync(cached) && statSync(cached).mtimeMs >= newest) return cached;
  const bc = join(dir, `${name}.bc`);
  const args = ['-c', '-emit-llvm', '-g', '-w', '--target=x86_64-unknown-linux-gnu', '-I', INCLUDE, '-O0', '-Xclang', '-disable-O0-optnone', src, '-o', bc];
  const r = spawnSync(CLANG, args, { encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`${CLANG} ${name}.c failed: ${r.error?.message ?? r.stderr.trim()}`);
  return bc;
}

/** The validating layer's query count from run.stats (null if unreadable). */
async function validatedQueries(outDir) {
  try {
    const { readRunStats } = await import(join(ROOT, 'dist', 'output', 'run-stats.js'));
    const { columns, rows } = await readRunStats(join(outDir, 'run.stats'));
    const col = columns.indexOf('SolverLayerValidatingQueries');
    return rows.length > 0 && col >= 0 ? Number(rows[rows.length - 1][col]) : null;
  } catch {
    return null;
  }
}

function runOne(name, bc, config, extraArgs) {
  const out = join(dir, `out-${name}-${config.name}`);
  const args = [CLI, 'run', '--no-echo-program-output', '--search=dfs', `--max-time=${maxTime}`, `--output-dir=${out}`, '--debug-validate-solver', `--debug-validate-solver-backend=${oracle}`, ...config.args, ...extraArgs, bc];
  const start = Date.now();
  return new Promise((done) => {
    const p = spawn(process.execPath, args, { stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    p.stderr.setEncoding('utf8').on('data', (d) => (stderr += d));
    p.on('error', (e) => done({ code: null, stderr: e.message, seconds: 0, validated: null }));
    p.on('close', async (code) => {
      const validated = await validatedQueries(out);
      rmSync(out, { recursive: true, force: true });
      done({ code, stderr, seconds: (Date.now() - start) / 1000, validated });
    });
  });
}

const tasks = [];
for (const name of fixtures) {
  const expect = JSON.parse(readFileSync(join(FIXTURES, `${name}.expect.json`), 'utf8'));
  for (const config of configs) tasks.push({ name, config, extraArgs: expect.args ?? [] });
}

const results = [];
async function worker() {
  for (let t = tasks.shift(); t !== undefined; t = tasks.shift()) {
    let r;
    try {
      r = await runOne(t.name, bitcode(t.name), t.config, t.extraArgs);
    } catch (e) {
      r = { code: null, stderr: e.message, seconds: 0, validated: null };
    }
    const disagreement = /validation failed|SolverValidationError/.test(r.stderr);
    const status = disagreement ? 'DISAGREE' : r.code === 0 ? 'ok' : 'FAILED';
    results.push({ ...t, ...r, status });
    const detail = status === 'ok' ? '' : `\n    ${r.stderr.trim().split('\n').slice(0, 12).join('\n    ')}`;
    process.stdout.write(`${status.padEnd(8)} ${t.name.padEnd(24)} ${t.config.name.padEnd(8)} ${String(r.validated ?? '?').padStart(6)} queries  ${r.seconds.toFixed(1)} s${detail}\n`);
  }
}
await Promise.all(Array.from({ length: jobs }, worker));

const count = (s) => results.filter((r) => r.status === s).length;
const validated = results.reduce((n, r) => n + (r.validated ?? 0), 0);
const seconds = results.reduce((n, r) => n + r.seconds, 0);
process.stdout.write(
  `\n${results.length} runs (${fixtures.length} fixtures x ${configs.length} chains), ${validated} answers cross-checked against ${oracle} in ${seconds.toFixed(0)} s of runs: ` +
    `${count('ok')} ok, ${count('DISAGREE')} with disagreements, ${count('FAILED')} failed\n`,
);
process.exit(count('ok') === results.length ? 0 : 1);
