#!/usr/bin/env node
/**
 * Relocatable addressing (paper 003) on a real program of the paper's evaluation: APR, the
 * Apache Portable Runtime (Debian's source package `apr`), with drivers of our own that look
 * up symbolic keys in its hash table and its string table (scripts/subjects/addressing/).
 *
 *   node scripts/subjects/apr-addressing.mjs [--budget S] [--cache DIR] [--out DIR]
 *                                            [--steps fetch,build,models,k,split,plot]
 *                                            [--drivers apr_hash,apr_table]
 *
 * 1. fetch   `apt-get source apr` into the cache (--cache, $TSKLEE_SUBJECTS, else
 *            ~/.cache/tsklee/subjects)
 * 2. build   APR configured beside its source (apr-VERSION-bc; static, no threads, no DSO) and
 *            made with CC="tsklee cc", so libapr-1.a holds native objects and their bitcode;
 *            each driver linked with `tsklee cc` against it and runtime/replay's library:
 *            OUT/NAME (native, for replay) and OUT/NAME.bc
 * 3. models  each driver under KLEE's forking model, relocatable addressing alone, segment
 *            merging (DSMM) with neither optimisation, with k-context resolution (k = 4), with
 *            segment reuse, with both (the paper's Table 5 columns), splitting (P128), and
 *            merging with both optimisations plus splitting: completed or not, paths, solver
 *            and resolution queries, merges, largest segment, splits, CPU seconds and peak RSS
 *            (GNU time: the machine is shared, so CPU time is what is compared)
 * 4. k       resolution queries of merging with default resolution and k = 0..4 (Table 4)
 * 5. split   apr_hash under forking and splitting with partitions of 512…32 bytes (Table 7)
 * 6. plot    OUT/addressing-split.svg and OUT/addressing-k.svg (vega-lite), from OUT/results.json
 *
 * Every run is `tsklee run --libc=tsklee --posix-runtime --search=dfs --max-time=BUDGET`, one at
 * a time; every test of every run is replayed natively (`tsklee replay --native`) and the
 * tables count tests whose exit status or stdout differ from what tsklee recorded.
 * Writes OUT/results.md and OUT/results.json (default OUT: CACHE/apr-VERSION-runs/addressing).
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { configure, make } from './lib/autotools.mjs';
import { fetchSource } from './lib/source.mjs';
import { SubjectError } from './lib/errors.mjs';
import { plotAddressing } from './lib/addressing-plot.mjs';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
const TSKLEE = join(ROOT, 'bin', 'tsklee');
const CLANG = existsSync('/usr/lib/llvm-16/bin/clang') ? '/usr/lib/llvm-16/bin/clang' : 'clang-16';
const STEPS = ['fetch', 'build', 'models', 'k', 'split', 'plot'];
const DRIVERS = ['apr_hash', 'apr_table'];
/** Static library only, no threads (tsklee runs one), no DSO loading. */
const CONFIGURE_OPTIONS = ['--disable-shared', '--enable-static', '--disable-threads', '--disable-dso'];
const R = ['--addressing=relocatable'];
const M = [...R, '--segment-merging'];
const K4 = '--context-resolve=4';
const REUSE = '--reuse-segments';
export const MODEL_CONFIGS = [
  ['forking', []],
  ['relocatable', R],
  ['DSMM', M],
  ['DSMM + k=4', [...M, K4]],
  ['DSMM + reuse', [...M, REUSE]],
  ['DSMM + both', [...M, K4, REUSE]],
  ['split P128', [...R, '--split-objects']],
  ['DSMM + both + split P128', [...M, K4, REUSE, '--split-objects']],
];
export const PARTITIONS = [512, 256, 128, 64, 32];

function log(msg) {
  process.stderr.write(`[${new Date().toISOString().slice(11, 19)}] ${msg}\n`);
}

function parseArgs(argv) {
  const o = {};
  const valued = new Set(['--budget', '--cache', '--out', '--steps', '--drivers']);
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    const eq = a.indexOf('=');
    const flag = eq < 0 ? a : a.slice(0, eq);
    if (!valued.has(flag)) throw new SubjectError(`unknown argument ${a} (see the comment at the top of scripts/subjects/apr-addressing.mjs)`);
    const v = eq < 0 ? argv[++i] : a.slice(eq + 1);
    if (v === undefined) throw new SubjectError(`${flag} needs a value`);
    o[flag.slice(2)] = v;
  }
  return o;
}

function must(cmd, args, what, opts = {}) {
  const r = spawnSync(cmd, args, { encoding: 'utf8', maxBuffer: 1 << 28, ...opts });
  if (r.error !== undefined || r.status !== 0) throw new SubjectError(`${what} failed (${r.error?.message ?? `exit ${r.status}`}): ${(r.stderr ?? '').trim().split('\n').slice(-3).join(' / ')}`);
  return r;
}

/** APR's static library made with tsklee cc; resolves to the build directory. */
async function buildApr(srcDir) {
  const buildDir = `${srcDir}-bc`;
  await configure({ srcDir, buildDir, env: { CC: CLANG, CFLAGS: '-g -O0' }, args: CONFIGURE_OPTIONS, log });
  const r = await make({ buildDir, targets: ['libapr-1.la'], jobs: 2, vars: [`CC=${TSKLEE} cc --clang=${CLANG}`] });
  log(r.ran ? `made libapr-1.a in ${r.seconds.toFixed(0)} s` : 'libapr-1.a up to date');
  if (r.code !== 0 || !existsSync(join(buildDir, '.libs', 'libapr-1.a'))) throw new SubjectError(`make libapr-1.la failed in ${buildDir}: see make.log there`);
  return buildDir;
}

/** runtime/replay's library (klee_make_symbolic reads the .ktest named by KTEST_FILE). */
function replayLib(out) {
  const dir = join(out, 'replay-lib');
  must('make', ['-s', '-C', join(ROOT, 'runtime', 'replay'), `BUILD=${dir}`], 'building runtime/replay');
  return join(dir, 'libtskleeRuntest.a');
}

function buildDriver(name, { srcDir, buildDir, out, lib }) {
  const exe = join(out, name);
  const src = join(ROOT, 'scripts', 'subjects', 'addressing', `${name}.c`);
  const inc = ['-I', join(buildDir, 'include'), '-I', join(srcDir, 'include'), '-I', join(ROOT, 'runtime', 'include')];
  must(TSKLEE, ['cc', `--clang=${CLANG}`, '-g', '-O0', '-w', ...inc, src, join(buildDir, '.libs', 'libapr-1.a'), lib, '-luuid', '-lcrypt', '-o', exe], `tsklee cc ${name}.c`);
  if (!existsSync(`${exe}.bc`)) throw new SubjectError(`tsklee cc ${name}.c wrote no ${exe}.bc`);
  return { exe, bc: `${exe}.bc` };
}

let runNo = 0;
/** One exploration, then the native replay of its tests; the output directory is removed. */
function explore(driver, args, { out, budget }) {
  const dir = join(out, `run-${process.pid}-${runNo++}`);
  rmSync(dir, { recursive: true, force: true });
  const cmd = [TSKLEE, 'run', '--libc=tsklee', '--posix-runtime', '--search=dfs', `--max-time=${budget}s`, ...args, `--output-dir=${dir}`, driver.bc];
  const r = spawnSync('/usr/bin/time', ['-f', 'BENCH %U %S %M', ...cmd], { encoding: 'utf8', maxBuffer: 1 << 28 });
  const m = /BENCH ([\d.]+) ([\d.]+) (\d+)/.exec(r.stderr);
  const paths = /completed paths = (\d+)/.exec(r.stderr);
  if (r.status !== 0 || m === null || paths === null) throw new SubjectError(`tsklee run ${args.join(' ')} failed (${r.status}): ${r.stderr.trim().split('\n').slice(-3).join(' / ')}`);
  const csv = must(TSKLEE, ['stats', '--to-csv', dir], 'tsklee stats').stdout.trim().split('\n');
  const cols = csv[0].split(',');
  const last = csv[csv.length - 1].split(',');
  const stats = Object.fromEntries(cols.map((c, i) => [c, Number(last[i])]));
  const partial = Number(/partially completed paths = (\d+)/.exec(r.stderr)?.[1] ?? 0);
  const rep = spawnSync(TSKLEE, ['replay', '--native', driver.exe, dir], { encoding: 'utf8', maxBuffer: 1 << 28 });
  const summary = /replayed (\d+) tests natively: (\d+) as recorded, (\d+) different, (\d+) not compared/.exec(rep.stderr + rep.stdout);
  if (summary === null) throw new SubjectError(`tsklee replay --native ${driver.exe} gave no summary: ${(rep.stderr + rep.stdout).trim().split('\n').pop()}`);
  rmSync(dir, { recursive: true, force: true });
  return {
    args,
    completed: partial === 0 && (stats.TerminationEarly ?? 0) === 0,
    paths: Number(paths[1]),
    tests: Number(summary[1]),
    replayDiffer: Number(summary[3]) + Number(summary[4]),
    cpu: Number(m[1]) + Number(m[2]),
    rssMb: Number(m[3]) / 1024,
    queries: stats.NumQueries,
    resolutionQueries: stats.ResolutionQueries,
    merges: stats.SegmentMerges,
    reused: stats.ReusedSegments,
    maxSegment: stats.MaxSegmentSize,
    splits: stats.Splits,
    chunks: stats.SplitChunks,
    forks: Object.entries(stats).reduce((n, [c, v]) => (c.startsWith('Branches') ? n + v : n), 0),
    memForks: stats.BranchesMemOp,
  };
}

const fmt = (x, d = 2) => (typeof x === 'number' && Number.isFinite(x) ? x.toFixed(d) : '–');
const num = (x) => (typeof x === 'number' && Number.isFinite(x) ? String(x) : '–');
const table = (head, rows) => [`| ${head.join(' | ')} |`, `|${head.map(() => '---').join('|')}|`, ...rows.map((r) => `| ${r.join(' | ')} |`)].join('\n');
const mark = (r) => `${r.paths}${r.completed ? '' : '*'}`;

function markdown(res) {
  const budgets = [...new Set([...res.models, ...res.k, ...res.split].map((r) => `${r.budget ?? res.budget}s`))].join(' or ');
  const parts = [`APR ${res.version} (${res.origin}); tsklee run --libc=tsklee --posix-runtime --search=dfs --max-time=${budgets}; clang-16 -O0; * = cut by the budget; replay ≠ = tests whose native run differs from the recorded one`];
  if (res.models.length > 0) {
    const rows = res.models.map((r) => {
      const base = res.models.find((b) => b.driver === r.driver && b.config === 'forking');
      return [r.driver, r.config, r.completed ? 'yes' : 'no', mark(r), num(r.memForks), num(r.queries), num(r.resolutionQueries), num(r.merges), num(r.maxSegment), num(r.splits), fmt(r.cpu), base ? fmt(r.cpu / base.cpu) : '–', fmt(r.rssMb, 0), `${r.replayDiffer}/${r.tests}`];
    });
    parts.push('### Models (termination and memory)\n', table(['driver', 'model', 'completed', 'paths', 'memory-op forks', 'solver queries', 'resolution queries', 'merges', 'max segment B', 'splits', 'CPU s', 'CPU / forking', 'peak RSS MB', 'replay ≠'], rows));
  }
  if (res.k.length > 0) {
    const drivers = [...new Set(res.k.map((r) => r.driver))];
    const cols = ['default', 'k=0', 'k=1', 'k=2', 'k=3', 'k=4'];
    const rows = drivers.map((d) => [d, ...cols.map((c) => {
      const r = res.k.find((x) => x.driver === d && x.config === c);
      return r === undefined ? '–' : `${num(r.resolutionQueries)}${r.completed ? '' : '*'}`;
    })]);
    parts.push('### Resolution queries of DSMM by k (Table 4)\n', table(['driver', ...cols], rows));
  }
  if (res.split.length > 0) {
    const drivers = [...new Set(res.split.map((r) => r.driver))];
    const cols = ['forking', ...PARTITIONS.map((n) => `P${n}`)];
    const rows = drivers.map((d) => [d, ...cols.map((c) => {
      const r = res.split.find((x) => x.driver === d && x.config === c);
      return r === undefined ? '–' : `${mark(r)} / ${fmt(r.cpu)} / ${fmt(r.rssMb, 0)}`;
    })]);
    parts.push('### Splitting: paths / CPU s / peak RSS MB by partition size (threshold 300 B; Table 7)\n', table(['driver', ...cols], rows));
  }
  return `${parts.join('\n\n')}\n`;
}

async function main() {
  const o = parseArgs(process.argv.slice(2));
  const steps = new Set((o.steps ?? STEPS.join(',')).split(','));
  for (const s of steps) if (!STEPS.includes(s)) throw new SubjectError(`--steps: unknown step ${s} (${STEPS.join(', ')})`);
  const drivers = (o.drivers ?? DRIVERS.join(',')).split(',');
  for (const d of drivers) if (!DRIVERS.includes(d)) throw new SubjectError(`--drivers: unknown driver ${d} (${DRIVERS.join(', ')})`);
  const budget = Number(o.budget ?? 120);
  if (!(budget > 0)) throw new SubjectError(`--budget ${o.budget}: expected seconds > 0`);
  if (!existsSync(join(ROOT, 'dist', 'cli', 'launch.cjs'))) throw new SubjectError('dist/ is missing: run npm run build first');
  const cacheDir = resolve(o.cache ?? process.env.TSKLEE_SUBJECTS ?? join(homedir(), '.cache', 'tsklee', 'subjects'));
  const source = fetchSource({ pkg: 'apr', cacheDir, log });
  const out = resolve(o.out ?? join(`${source.dir}-runs`, 'addressing'));
  mkdirSync(out, { recursive: true });
  const resultsFile = join(out, 'results.json');
  const res = existsSync(resultsFile) ? JSON.parse(readFileSync(resultsFile, 'utf8')) : { models: [], k: [], split: [] };
  Object.assign(res, { version: source.version, origin: source.origin });
  const save = () => writeFileSync(resultsFile, `${JSON.stringify(res, null, 2)}\n`);

  const built = new Map();
  if (['build', 'models', 'k', 'split'].some((s) => steps.has(s))) {
    const buildDir = await buildApr(source.dir);
    const lib = replayLib(out);
    for (const d of drivers) built.set(d, buildDriver(d, { srcDir: source.dir, buildDir, out, lib }));
    log(`built ${drivers.map((d) => `${d}.bc`).join(', ')} in ${out}`);
  }
  /** Runs one configuration and records it in `list` (replacing an earlier run of it). */
  const measure = (list, driver, config, args) => {
    log(`${driver}: ${config}`);
    const r = { driver, config, budget, ...explore(built.get(driver), args, { out, budget }) };
    log(`  ${mark(r)} paths, ${fmt(r.cpu)} CPU s, ${fmt(r.rssMb, 0)} MB, replay ≠ ${r.replayDiffer}/${r.tests}`);
    res[list] = [...res[list].filter((x) => !(x.driver === driver && x.config === config)), r];
    save();
  };
  if (steps.has('models')) for (const d of drivers) for (const [c, a] of MODEL_CONFIGS) measure('models', d, c, a);
  if (steps.has('k')) {
    for (const d of drivers) {
      measure('k', d, 'default', M);
      for (let k = 0; k <= 4; k++) measure('k', d, `k=${k}`, [...M, `--context-resolve=${k}`]);
    }
  }
  if (steps.has('split')) {
    for (const d of drivers.filter((x) => x === 'apr_hash')) {
      measure('split', d, 'forking', []);
      for (const n of PARTITIONS) measure('split', d, `P${n}`, [...R, '--split-objects', `--partition-size=${n}`]);
    }
  }
  const md = markdown(res);
  writeFileSync(join(out, 'results.md'), md);
  process.stdout.write(md);
  if (steps.has('plot')) for (const f of await plotAddressing(res, out)) log(`plot: ${f}`);
  log(`results in ${join(out, 'results.md')} (.json)`);
}

try {
  await main();
} catch (e) {
  if (!(e instanceof SubjectError)) throw e;
  process.stderr.write(`apr-addressing: error: ${e.message}\n`);
  process.exitCode = 1;
}
