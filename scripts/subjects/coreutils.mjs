#!/usr/bin/env node
/**
 * KLEE's coreutils experiment (OSDI'08) with tsklee, on one command:
 *
 *   nice -n 19 node scripts/subjects/coreutils.mjs [options] [UTILITY...]
 *
 * 1. fetch   Debian's coreutils source package (`apt-get source coreutils`; needs a deb-src
 *            line) or --tarball FILE, into the cache (--cache, $TSKLEE_SUBJECTS, else
 *            ~/.cache/tsklee/subjects)
 * 2. build   two builds beside the source, incremental (lib/coreutils-build.mjs): CC="tsklee cc"
 *            → src/NAME.bc for every utility; gcc --coverage → the replay build
 * 3. run     every utility (or the UTILITY... given): `tsklee run --libc=tsklee --posix-runtime
 *            --max-time=T --only-output-states-covering-new NAME.bc` with KLEE's arguments
 *            (lib/coreutils-args.mjs), --jobs at a time (default: the number of cores),
 *            resumable: a utility already run with the same command line is not run again
 * 4. cover   every test replayed natively on the gcov build in a sandbox (lib/sandbox.mjs),
 *            gcov line and branch coverage of the utility's src/*.c and of all it links
 * 5. table   OUT/results.md, results.csv, results.json: a row per utility, average and median
 *
 * Options: --max-time T (default 5min; KLEE's paper: 1h), --jobs N, --out DIR (default
 * CACHE/coreutils-VERSION-runs/T), --cache DIR, --tarball FILE, --steps fetch,build,run,cover,table
 * (a step needs the ones before it to have run once), --clang PATH (default clang-19), --rerun
 * (run the chosen utilities again even when finished: after changing tsklee), --klee PATH (run
 * KLEE instead of tsklee, same arguments, --libc=uclibc; the bitcode must come from KLEE's LLVM:
 * --clang clang-16 with --cache elsewhere; default OUT CACHE/coreutils-VERSION-runs/klee-T;
 * not tried here: no KLEE on this machine), --tsklee-args "ARGS" (more `tsklee run` options, e.g.
 * "--state-merging=static"; default OUT then ends in -ARGS).
 * Run as root (the replay sandbox); everything the runs write stays in the cache and OUT.
 */
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { availableParallelism, homedir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import pLimit from 'p-limit';
import { fetchSource } from './lib/source.mjs';
import { buildCoreutils, buildDirs, utilities as listUtilities } from './lib/coreutils-build.mjs';
import { readRun, runAll, runDir } from './lib/runs.mjs';
import { readKleeOut } from './lib/klee-out.mjs';
import { coverUtility } from './lib/replay-coverage.mjs';
import { checkSandbox } from './lib/sandbox.mjs';
import { csv, markdown, rows, summary } from './lib/table.mjs';
import { SubjectError } from './lib/errors.mjs';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
const STEPS = ['fetch', 'build', 'run', 'cover', 'table'];
const VALUED = new Set(['--max-time', '--jobs', '--out', '--cache', '--tarball', '--steps', '--clang', '--klee', '--tsklee-args']);

function parseArgs(argv) {
  const o = { names: [] };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    const [flag, inline] = a.includes('=') ? [a.slice(0, a.indexOf('=')), a.slice(a.indexOf('=') + 1)] : [a, undefined];
    if (VALUED.has(flag)) {
      const v = inline ?? argv[++i];
      if (v === undefined) throw new SubjectError(`${flag} needs a value`);
      o[flag.slice(2).replace(/-(.)/g, (_, c) => c.toUpperCase())] = v;
    } else if (a === '--help' || a === '-h') o.help = true;
    else if (a === '--rerun') o.rerun = true;
    else if (a.startsWith('-')) throw new SubjectError(`unknown option ${a} (see the comment at the top of scripts/subjects/coreutils.mjs)`);
    else o.names.push(a);
  }
  return o;
}

/** KLEE's time spans in seconds ("300", "30s", "5min", "1h"). */
function seconds(span) {
  const m = /^(\d+(?:\.\d+)?)(h|min|s)?$/.exec(span);
  if (m === null) throw new SubjectError(`--max-time ${span}: expected e.g. 30s, 5min, 1h`);
  return Number(m[1]) * ({ h: 3600, min: 60, s: 1 }[m[2] ?? 's']);
}

function log(msg) {
  process.stderr.write(`[${new Date().toISOString().slice(11, 19)}] ${msg}\n`);
}

async function main() {
  const o = parseArgs(process.argv.slice(2));
  if (o.help) {
    process.stdout.write('usage: node scripts/subjects/coreutils.mjs [--max-time T] [--jobs N] [--out DIR] [--cache DIR] [--tarball FILE] [--steps LIST] [--clang PATH] [--rerun] [--klee PATH] [--tsklee-args ARGS] [UTILITY...]\n');
    return;
  }
  const steps = new Set((o.steps ?? STEPS.join(',')).split(','));
  for (const s of steps) if (!STEPS.includes(s)) throw new SubjectError(`--steps: unknown step ${s} (${STEPS.join(', ')})`);
  const maxTime = o.maxTime ?? '5min';
  const maxTimeSeconds = seconds(maxTime);
  const jobs = Number(o.jobs ?? availableParallelism());
  if (!(Number.isInteger(jobs) && jobs >= 1)) throw new SubjectError(`--jobs ${o.jobs}: expected a whole number ≥ 1`);
  const cacheDir = resolve(o.cache ?? process.env.TSKLEE_SUBJECTS ?? join(homedir(), '.cache', 'tsklee', 'subjects'));
  const tsklee = join(ROOT, 'bin', 'tsklee');
  if (!existsSync(join(ROOT, 'dist', 'cli', 'launch.cjs'))) throw new SubjectError('dist/ is missing: run npm run build first');
  const clang = o.clang ?? 'clang-19';

  const source = fetchSource({ pkg: 'coreutils', cacheDir, tarball: o.tarball, log });
  const dirs = buildDirs(source.dir);
  let build;
  if (steps.has('build')) build = await buildCoreutils({ srcDir: source.dir, tsklee, clang, jobs, log });
  else if (existsSync(join(dirs.bc, 'Makefile'))) {
    const names = listUtilities(dirs.bc);
    const has = (dir, f) => new Map(names.map((n) => [n, existsSync(join(dir, 'src', f(n)))]));
    build = { utilities: names, bc: has(dirs.bc, (n) => `${n}.bc`), gcov: has(dirs.gcov, (n) => n), dirs };
  } else throw new SubjectError(`no build in ${dirs.bc}: run the build step first`);

  const unknown = o.names.filter((n) => !build.utilities.includes(n));
  if (unknown.length > 0) throw new SubjectError(`not a utility of coreutils ${source.version}: ${unknown.join(', ')}`);
  const chosen = o.names.length > 0 ? o.names : build.utilities;
  const extraArgs = (o.tskleeArgs ?? '').split(/\s+/).filter(Boolean);
  if (extraArgs.length > 0 && o.klee !== undefined) throw new SubjectError('--tsklee-args: not with --klee (KLEE takes its own options)');
  const suffix = extraArgs.length > 0 ? `-${extraArgs.join('_').replace(/[^\w=.-]+/g, '')}` : '';
  const out = resolve(o.out ?? join(`${source.dir}-runs`, o.klee !== undefined ? `klee-${maxTime}` : `${maxTime}${suffix}`));
  mkdirSync(out, { recursive: true });
  const runnable = chosen.filter((u) => build.bc.get(u));

  // what each klee-out says is read again: the table follows the current reading of it
  let runs = new Map(
    runnable
      .map((u) => [u, readRun(out, u)])
      .filter(([, r]) => r !== undefined)
      .map(([u, r]) => [u, { ...r, ...readKleeOut(join(runDir(out, u), 'klee-out')) }]),
  );
  if (steps.has('run')) {
    log(`running ${runnable.length} utilities, ${jobs} at a time, --max-time=${maxTime}, into ${out}`);
    runs = await runAll({ utilities: runnable, bitcodeOf: (u) => join(dirs.bc, 'src', `${u}.bc`), out, maxTime, maxTimeSeconds, jobs, tsklee, klee: o.klee, extraArgs, rerun: o.rerun === true, log });
  }

  const coverage = new Map();
  if (steps.has('cover') || steps.has('table')) {
    const { readElfSection } = await import(join(ROOT, 'dist', 'cc', 'elf-section.js'));
    if (steps.has('cover')) checkSandbox();
    const limit = pLimit(jobs);
    await Promise.all(
      [...runs.values()].filter((r) => r.loaded && build.gcov.get(r.utility)).map((run) =>
        limit(async () => {
          const file = join(runDir(out, run.utility), 'coverage.json');
          if (!steps.has('cover') && !existsSync(file)) return;
          const c = await coverUtility({ utility: run.utility, run, runDirOf: (u) => runDir(out, u), dirs, srcDir: source.dir, repoRoot: ROOT, readElfSection });
          if (!c.reused) log(`covered ${run.utility}: ${c.src.linePct}% lines, ${c.src.branchPct}% branches of ${c.srcFiles.join(' ')}; ${c.replay.differ} mismatches of ${c.replay.tests}`);
          coverage.set(run.utility, c);
        }),
      ),
    );
  }

  const table = rows(chosen, { build, runs, coverage });
  const s = summary(table);
  const header = `coreutils ${source.version} (${source.origin}), ${o.klee !== undefined ? 'KLEE' : 'tsklee'} --max-time=${maxTime}${extraArgs.length > 0 ? ` ${extraArgs.join(' ')}` : ''}, ${jobs} at a time\n\n`;
  writeFileSync(join(out, 'results.md'), header + markdown(table, s));
  writeFileSync(join(out, 'results.csv'), csv(table));
  writeFileSync(join(out, 'results.json'), `${JSON.stringify({ source, maxTime, summary: s, rows: table }, null, 2)}\n`);
  process.stdout.write(header + markdown(table, s));
  log(`results in ${join(out, 'results.md')} (.csv, .json)`);
}

try {
  await main();
} catch (e) {
  if (!(e instanceof SubjectError)) throw e;
  process.stderr.write(`coreutils: error: ${e.message}\n`);
  process.exitCode = 1;
}
