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
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { configure, make } from './lib/autotools.mjs';
import { fetchSource } from './lib/source.mjs';
import { SubjectError } from './lib/errors.mjs';
import { plotAddressing } from './lib/addressing-plot.mjs';
import { markdown, must, runMeasurements } from './lib/addressing-runs.mjs';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
const TSKLEE = join(ROOT, 'bin', 'tsklee');
const CLANG = existsSync('/usr/lib/llvm-16/bin/clang') ? '/usr/lib/llvm-16/bin/clang' : 'clang-16';
const STEPS = ['fetch', 'build', 'models', 'k', 'split', 'plot'];
const DRIVERS = ['apr_hash', 'apr_table'];
/** Static library only, no threads (tsklee runs one), no DSO loading. */
const CONFIGURE_OPTIONS = ['--disable-shared', '--enable-static', '--disable-threads', '--disable-dso'];
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
  runMeasurements({ res, steps, built, out, budget, save, log, splitDrivers: ['apr_hash'] });
  const md = markdown(res, 'APR');
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
