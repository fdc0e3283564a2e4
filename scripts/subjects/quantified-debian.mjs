#!/usr/bin/env node
/**
 * Quantified state merging (paper 000) on real library code from Debian source packages:
 * json-c and libtasn1 (two of the paper's subjects), string-API drivers of our own
 * (bench/quantified-debian/), BASE / CFG / PAT at a fixed time budget each.
 *
 *   node scripts/subjects/quantified-debian.mjs [--drivers a,b] [--bound 8 | --bounds 8,16,32]
 *        [--max-time 60 | --max-cpu-time 120] [--modes base,cfg,pat,pat-noinc] [--out DIR]
 *        [--cache DIR] [--clang clang-16] [--tsklee-args "ARGS"] [--steps fetch,build,run,table]
 *
 * --bounds runs every bound in turn (the paper's setting: capacities growing, each run to
 * completion or its budget); --max-cpu-time budgets the process's CPU time instead of the wall
 * clock (a loaded machine does not shrink it; the paper counts a run that reaches it as the
 * timeout). With several bounds or modes the table step also writes OUT/speedups.md: per driver
 * and bound each mode's CPU seconds (`>T` when stopped by the budget) and PAT's speed-ups over
 * BASE and CFG (a stopped run counts as its budget, so a speed-up against it is a lower bound
 * `≥`), with the medians per library, as the paper's Tables 2–3, and the paper's metric
 * (lib/speedups.mjs: mean and median over the cells where at least one of the two modes finished).
 *
 * 1. fetch  `apt-get source json-c libtasn1-6` into the cache (--cache, $TSKLEE_SUBJECTS, else
 *           ~/.cache/tsklee/subjects; needs a deb-src line)
 * 2. build  each library twice (lib/debian-libs.mjs: tsklee cc → bitcode-carrying archive;
 *           gcc --coverage → the replay archive), then each driver with -DN=BOUND: `tsklee cc`
 *           → DRIVER.bc (driver + the library members it uses), gcc --coverage → DRIVER.cov
 *           (both linked with tsklee's replay library, runtime/replay)
 * 3. run    `tsklee run --libc=tsklee --only-output-states-covering-new --max-time=T` per driver
 *           and mode, one at a time:
 *             BASE --search=dfs; CFG --state-merging=static --qce-alpha=inf;
 *             PAT  --search=dfs --merge-mode=quantified --use-incremental-merging (the paper's PAT);
 *             PAT-NOINC the same without incremental merging
 *           then every test replayed natively on DRIVER.cov (KTEST_FILE, a GCOV_PREFIX per run)
 *           and gcov line coverage of the driver's API file(s)
 * 4. table  OUT/results.json and OUT/results.md: CPU seconds (user + system), completed
 *           paths, tests, line coverage, quantified merges, and with --tsklee-args
 *           "--debug-validate-solver" the quantified queries the validating layer checked.
 * OUT defaults to /tmp/tsklee-quantified-debian.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { fetchSource } from './lib/source.mjs';
import { DRIVERS, LIBS } from './lib/debian-libs.mjs';
import { gcovLines, totals } from './lib/gcov.mjs';
import { SubjectError } from './lib/errors.mjs';
import { speedups } from './lib/speedups.mjs';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
const TSKLEE = join(ROOT, 'bin', 'tsklee');
const DRIVER_DIR = join(ROOT, 'bench', 'quantified-debian');
const STEPS = ['fetch', 'build', 'run', 'table'];
const MODE_ARGS = {
  base: ['--search=dfs'],
  cfg: ['--state-merging=static', '--qce-alpha=inf'],
  // the paper's PAT: pattern merging with incremental merging (§4)
  pat: ['--search=dfs', '--merge-mode=quantified', '--use-incremental-merging'],
  // PAT without incremental merging (the paper's Table 7 ablation; this script's PAT before it)
  'pat-noinc': ['--search=dfs', '--merge-mode=quantified', '--use-incremental-merging=false'],
};
const VALUED = new Set(['--drivers', '--bound', '--bounds', '--max-time', '--max-cpu-time', '--modes', '--out', '--cache', '--clang', '--tsklee-args', '--steps']);

function parseArgs(argv) {
  const o = {};
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    const [flag, inline] = a.includes('=') ? [a.slice(0, a.indexOf('=')), a.slice(a.indexOf('=') + 1)] : [a, undefined];
    if (!VALUED.has(flag)) throw new SubjectError(`unknown option ${a} (see the comment at the top of scripts/subjects/quantified-debian.mjs)`);
    const v = inline ?? argv[++i];
    if (v === undefined) throw new SubjectError(`${flag} needs a value`);
    o[flag.slice(2).replace(/-(.)/g, (_, c) => c.toUpperCase())] = v;
  }
  return o;
}

function log(msg) {
  process.stderr.write(`[${new Date().toISOString().slice(11, 19)}] ${msg}\n`);
}

function list(value, all, what) {
  if (value === undefined) return all;
  const names = value.split(',');
  for (const n of names) if (!all.includes(n)) throw new SubjectError(`unknown ${what} ${n} (known: ${all.join(', ')})`);
  return names;
}

/** DRIVER.bc and DRIVER.cov for one bound, in OUT/build-N/. */
function buildDriver({ d, lib, srcDir, bound, dir, clang, replayLib }) {
  const src = join(DRIVER_DIR, `${d.name}.c`);
  const incs = (buildDir) => [...lib.includes(srcDir, buildDir).map((p) => `-I${p}`), `-I${join(ROOT, 'runtime', 'include')}`, `-DN=${bound}`];
  const bc = join(dir, `${d.name}.bc`);
  const cov = join(dir, `${d.name}.cov`);
  const runtest = join(replayLib, 'libtskleeRuntest.a');
  const cc = (cmd, args) => {
    const r = spawnSync(cmd, args, { cwd: dir, encoding: 'utf8' });
    if (r.status !== 0) throw new SubjectError(`${d.name}: ${cmd} failed: ${(r.stderr || r.error?.message || '').trim().split('\n').pop()}`);
  };
  const libs = lib.libs ?? [];
  cc(TSKLEE, ['cc', `--clang=${clang}`, '-g', '-O0', ...incs(`${srcDir}-bc`), src, lib.archive(`${srcDir}-bc`), runtest, ...libs, '-o', join(dir, d.name)]);
  cc('gcc', ['-g', '-O0', '--coverage', ...incs(`${srcDir}-gcov`), src, lib.archive(`${srcDir}-gcov`), runtest, ...libs, '-o', cov]);
  if (!existsSync(bc)) throw new SubjectError(`${d.name}: tsklee cc wrote no ${bc}`);
  return { bc, cov };
}

/** `KLEE: done: NAME = V` and tsklee's quantified counters from OUT/info. */
function readInfo(out) {
  const info = existsSync(join(out, 'info')) ? readFileSync(join(out, 'info'), 'utf8') : '';
  const num = (re) => Number(re.exec(info)?.[1] ?? NaN);
  return {
    halted: /Halted: (HaltTimer|max-cpu-time)/.test(info),
    explored: num(/explored paths = (\d+)/),
    completed: num(/completed paths = (\d+)/),
    // KLEE's path multiplicity (kept in the JSON only: ite merging at loop heads counts a path
    // again at every merge, so it is no count of distinct paths)
    multiplicity: num(/path multiplicity = (\d+)/),
    partial: num(/partially completed paths = (\d+)/),
    quantifiedMerges: num(/quantified merges = (\d+)/),
    incrementalMerges: num(/incremental merging: tree nodes = \d+,(?: join-point snapshots = \d+,)? merges = (\d+)/),
    mergedAway: num(/quantified merges = \d+ \((\d+) states merged away\)/),
    // partitions that fell back to ite merging: invalid hash, > --max-patterns, no synthesis
    fallbacks: (/fallbacks: hash (\d+), patterns (\d+), synthesis (\d+)/.exec(info)?.slice(1) ?? [NaN]).reduce((n, v) => n + Number(v), 0),
  };
}

/** SolverLayerQuantifiers* and validating-layer query counts, last row of run.stats. */
function solverCounts(out) {
  const r = spawnSync(TSKLEE, ['stats', '--to-csv', out], { encoding: 'utf8' });
  if (r.status !== 0) return {};
  const rows = r.stdout.trim().split('\n');
  if (rows.length < 2) return {};
  const head = rows[0].split(',');
  const last = rows[rows.length - 1].split(',');
  const col = (name) => {
    const i = head.indexOf(name);
    return i < 0 ? undefined : Number(last[i]);
  };
  return {
    quantifiedQueries: col('SolverLayerQuantifiersQueries'),
    quantifiedAnswered: col('SolverLayerQuantifiersHits'),
    fallbackQueries: col('SolverLayerQuantifierFallbackQueries'),
    validatedQueries: col('SolverLayerValidatingQueries'),
  };
}

/** Line coverage of the driver's API files by the tests of `out`, replayed on DRIVER.cov. */
function cover({ d, lib, srcDir, cov, out }) {
  const prefix = join(out, 'gcov');
  rmSync(prefix, { recursive: true, force: true });
  for (const t of readdirSync(out).filter((f) => f.endsWith('.ktest'))) {
    spawnSync(cov, [], { cwd: out, env: { ...process.env, KTEST_FILE: join(out, t), GCOV_PREFIX: prefix }, timeout: 10_000, stdio: 'ignore' });
  }
  const objects = d.files.map((f) => lib.object(`${srcDir}-gcov`, f));
  const files = gcovLines(objects, prefix);
  const t = totals(files, (f) => d.files.some((name) => f.endsWith(`/${name}`)));
  return { lines: t.lines, linesHit: t.linesHit };
}

/** A run's output directory. */
function outName(outDir, bound, driver, mode, tag) {
  return join(outDir, `out-${bound}-${driver}-${mode}${tag ? '-' + tag.replace(/[^\w]+/g, '_') : ''}`);
}

function runOne({ bc, out, mode, budget, extra }) {
  rmSync(out, { recursive: true, force: true });
  // tests only for states covering new code (as KLEE's coverage experiments): a PAT run stopped
  // by the budget dumps every paused leaf, tens of thousands of tests to replay
  const args = ['-f', '%U %S %e', TSKLEE, 'run', '--no-echo-program-output', '--libc=tsklee', '--only-output-states-covering-new', ...MODE_ARGS[mode], budget, ...extra, `--output-dir=${out}`, bc];
  const r = spawnSync('/usr/bin/time', args, { encoding: 'utf8', maxBuffer: 256 << 20 });
  const times = r.stderr.trim().split('\n').pop().split(' ').map(Number);
  const error = r.status !== 0 ? r.stderr.split('\n').find((l) => /error|failed/i.test(l)) ?? `exit ${r.status}` : undefined;
  return { cpu: times[0] + times[1], wall: times[2], status: r.status, error };
}

function table(runs) {
  const lines = ['| driver | mode | CPU s | done | explored paths | tests | errors | line coverage | quantified merges / ite fallbacks / incremental merges |', '|---|---|---|---|---|---|---|---|---|'];
  for (const r of runs) {
    const cov = r.coverage === undefined ? '-' : `${((100 * r.coverage.linesHit) / r.coverage.lines).toFixed(1)}% (${r.coverage.linesHit}/${r.coverage.lines})`;
    const done = r.error !== undefined ? `error: ${r.error}` : r.halted ? 'budget' : 'yes';
    const errs = Object.entries(r.errors ?? {}).map(([k, n]) => `${n} ${k}`).join(', ') || '-';
    lines.push(`| ${r.driver} | ${r.mode.toUpperCase()} | ${r.cpu.toFixed(1)} | ${done} | ${r.explored} | ${r.tests} | ${errs} | ${cov} | ${r.mode.startsWith('pat') ? `${r.quantifiedMerges} / ${r.fallbacks} / ${Number.isNaN(r.incrementalMerges) ? (r.mode === 'pat' ? '?' : 0) : r.incrementalMerges}` : '-'} |`);
  }
  return lines.join('\n') + '\n';
}

async function main() {
  const o = parseArgs(process.argv.slice(2));
  const steps = list(o.steps, STEPS, 'step');
  const drivers = list(o.drivers, DRIVERS.map((d) => d.name), 'driver').map((n) => DRIVERS.find((d) => d.name === n));
  const modes = list(o.modes, Object.keys(MODE_ARGS), 'mode');
  if (o.bound !== undefined && o.bounds !== undefined) throw new SubjectError('--bound and --bounds: give one');
  const bounds = (o.bounds ?? o.bound ?? '8').split(',').map(Number);
  for (const b of bounds) if (!Number.isInteger(b) || b < 1) throw new SubjectError(`--bound(s) ${o.bounds ?? o.bound}: expected positive integers`);
  if (o.maxTime !== undefined && o.maxCpuTime !== undefined) throw new SubjectError('--max-time and --max-cpu-time: give one');
  if (o.maxCpuTime !== undefined && !(Number(o.maxCpuTime) > 0)) throw new SubjectError(`--max-cpu-time ${o.maxCpuTime}: expected seconds > 0`);
  // the budget as recorded in results.json (a CPU budget as "cpu:T", so the two never mix)
  const maxTime = o.maxCpuTime !== undefined ? `cpu:${o.maxCpuTime}` : o.maxTime ?? '60';
  const budget = o.maxCpuTime !== undefined ? `--max-cpu-time=${o.maxCpuTime}` : `--max-time=${maxTime}`;
  const clang = o.clang ?? 'clang-16';
  const extra = o.tskleeArgs === undefined ? [] : o.tskleeArgs.split(/\s+/).filter((a) => a !== '');
  const cacheDir = resolve(o.cache ?? process.env.TSKLEE_SUBJECTS ?? join(homedir(), '.cache', 'tsklee', 'subjects'));
  const outDir = resolve(o.out ?? '/tmp/tsklee-quantified-debian');
  mkdirSync(outDir, { recursive: true });

  const libNames = [...new Set(drivers.map((d) => d.lib))];
  const srcDirs = new Map();
  for (const name of libNames) {
    const lib = LIBS[name];
    const s = fetchSource({ pkg: lib.pkg, cacheDir, log, marker: lib.marker });
    log(`${name}: ${s.origin}`);
    srcDirs.set(name, s.dir);
  }
  if (!steps.includes('build') && !steps.includes('run') && !steps.includes('table')) return;

  const replayLib = join(outDir, 'replay-lib');
  if (steps.includes('build')) {
    execFileSync('make', ['-s', '-C', join(ROOT, 'runtime', 'replay'), `BUILD=${replayLib}`]);
    for (const name of libNames) {
      log(`building ${name}`);
      await LIBS[name].build({ srcDir: srcDirs.get(name), tsklee: TSKLEE, clang, log });
    }
  }
  const resultsFile = join(outDir, 'results.json');
  const runs = existsSync(resultsFile) ? JSON.parse(readFileSync(resultsFile, 'utf8')) : [];
  const tag = extra.join(' ');
  let md = '';
  for (const bound of bounds) {
    const buildDir = join(outDir, `build-${bound}`);
    if (steps.includes('build')) buildBound({ drivers, srcDirs, bound, buildDir, clang, replayLib });
    if (steps.includes('run')) runBound({ drivers, modes, srcDirs, bound, buildDir, outDir, maxTime, budget, extra, tag, runs, resultsFile });
    if (steps.includes('table')) md += tableBound({ drivers, modes, bound, maxTime, tag, runs });
  }
  if (steps.includes('table')) {
    if (bounds.length > 1) md = `N = ${bounds.join(', ')} in turn\n\n${md}`;
    writeFileSync(join(outDir, 'results.md'), md);
    process.stdout.write(md);
    if (bounds.length > 1 || modes.length > 1) {
      const sp = speedups({ drivers, modes, bounds, maxTime, tag, runs });
      writeFileSync(join(outDir, 'speedups.md'), sp);
      process.stdout.write(`\n${sp}`);
    }
  }
}

function buildBound({ drivers, srcDirs, bound, buildDir, clang, replayLib }) {
  {
    mkdirSync(buildDir, { recursive: true });
    for (const d of drivers) buildDriver({ d, lib: LIBS[d.lib], srcDir: srcDirs.get(d.lib), bound, dir: buildDir, clang, replayLib });
    log(`drivers built in ${buildDir}`);
  }
}

function runBound({ drivers, modes, srcDirs, bound, buildDir, outDir, maxTime, budget, extra, tag, runs, resultsFile }) {
  {
    for (const d of drivers) {
      const lib = LIBS[d.lib];
      const bc = join(buildDir, `${d.name}.bc`);
      const cov = join(buildDir, `${d.name}.cov`);
      if (!existsSync(bc)) throw new SubjectError(`${bc} missing: run the build step first`);
      for (const mode of modes) {
        const out = outName(outDir, bound, d.name, mode, tag);
        const r = runOne({ bc, out, mode, budget, extra });
        const files = existsSync(out) ? readdirSync(out) : [];
        const tests = files.filter((f) => f.endsWith('.ktest')).length;
        // error reports by kind (test000001.ptr.err → ptr): a merged size concretized is `model`
        const errors = {};
        for (const f of files) {
          const m = /^test\d+\.(\w+)\.err$/.exec(f);
          if (m !== null) errors[m[1]] = (errors[m[1]] ?? 0) + 1;
        }
        const row = { driver: d.name, lib: d.lib, bound, mode, maxTime, tsklee: tag, out, ...r, ...readInfo(out), ...solverCounts(out), tests, errors, coverage: cover({ d, lib, srcDir: srcDirs.get(d.lib), cov, out }) };
        const i = runs.findIndex((x) => x.driver === row.driver && x.bound === bound && x.mode === mode && x.tsklee === tag && x.maxTime === maxTime);
        if (i >= 0) runs[i] = row;
        else runs.push(row);
        writeFileSync(resultsFile, JSON.stringify(runs, null, 1));
        log(`N=${bound} ${d.name} ${mode}: ${r.cpu.toFixed(1)} s CPU${row.halted ? ' (budget)' : ''}, ${row.completed} paths, ${tests} tests, lines ${row.coverage.linesHit}/${row.coverage.lines}${row.error ? `, ERROR ${row.error}` : ''}`);
      }
    }
  }
}

function tableBound({ drivers, modes, bound, maxTime, tag, runs }) {
  const chosen = runs.filter((r) => r.bound === bound && r.maxTime === maxTime && r.tsklee === tag && drivers.some((d) => d.name === r.driver) && modes.includes(r.mode));
  for (const r of chosen) if (r.out !== undefined && existsSync(join(r.out, 'info'))) Object.assign(r, readInfo(r.out));
  return (chosen.length > 0 ? `N = ${bound}\n\n` : '') + table(chosen);
}

main().catch((e) => {
  if (e instanceof SubjectError) {
    process.stderr.write(`quantified-debian: ${e.message}\n`);
    process.exit(1);
  }
  throw e;
});
