/**
 * The coverage step of one utility: every test of its klee-out replayed with `tsklee replay
 * --native` on the gcov build, inside the sandbox (sandbox.mjs), with the utility's own
 * GCOV_PREFIX directory emptied first; then gcov over the objects the utility links (read
 * from the `tsklee cc` build's record of them, src/NAME's .llvm_bc section, mapped to the same
 * objects of the gcov build). The tests are replayed in batches by creation time, with gcov of
 * the utility's own sources after each batch: coverage over time. Writes OUT/NAME/coverage.json;
 * resumable like the runs.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, realpathSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { basename, dirname, join, relative, resolve, sep } from 'node:path';
import { gcovLines, totals } from './gcov.mjs';
import { sandboxed } from './sandbox.mjs';

/** Time limit per test natively (KLEE's klee-replay has none; `yes` and `tail -f` never end). */
export const REPLAY_TIMEOUT = '5s';
/** PATH of the replayed programs: nothing, as under the model (env, nice, nohup, timeout exec nothing). */
const NO_PATH = '/nonexistent-tsklee-path';

/** The objects the bc build linked into src/NAME, as paths relative to the build directory. */
export function linkedObjects(bcDir, utility, readElfSection) {
  const section = readElfSection(join(bcDir, 'src', utility), '.llvm_bc');
  if (section === undefined) return [];
  const paths = [...new Set(Buffer.from(section).toString('utf8').split(/[\n\0]/).filter((p) => p !== ''))];
  // `.NAME.o.bc` beside NAME.o (src/cc/driver.ts bitcodePathFor)
  return paths.map((p) => join(relative(bcDir, dirname(p)), basename(p).replace(/^\./, '').replace(/\.bc$/, '')));
}

function spawnCollect(cmd, args, env) {
  return new Promise((resolvePromise, reject) => {
    const child = spawn(cmd, args, { env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    child.on('error', reject);
    child.on('close', (code) => resolvePromise({ code, stdout, stderr }));
  });
}

function percent(hit, total) {
  return total === 0 ? null : Math.round((1000 * hit) / total) / 10;
}

/** How many points of the coverage-over-time curve (test batches by creation time). */
const CURVE_POINTS = 8;

/** The tests of a klee-out with their creation time in seconds after the run started, oldest first. */
function testsByTime(kleeOut, startedAt) {
  const t0 = Date.parse(startedAt);
  return readdirSync(kleeOut)
    .filter((f) => f.endsWith('.ktest'))
    .map((f) => ({ path: join(kleeOut, f), at: (statSync(join(kleeOut, f)).mtimeMs - t0) / 1000 }))
    .sort((a, b) => a.at - b.at || a.path.localeCompare(b.path));
}

/** Splits time-ordered tests into at most CURVE_POINTS batches at equal steps of time. */
function timeBatches(tests) {
  if (tests.length === 0) return [];
  const end = Math.max(tests[tests.length - 1].at, 1e-3);
  const batches = [];
  for (let k = 1; k <= CURVE_POINTS; k++) {
    const until = (end * k) / CURVE_POINTS;
    const batch = tests.filter((t) => t.at <= until && (k === 1 || t.at > (end * (k - 1)) / CURVE_POINTS));
    if (batch.length > 0) batches.push({ until, tests: batch });
  }
  return batches;
}

/** `tsklee replay --native` of some tests in the sandbox; the counts of its summary line. */
async function replayBatch({ binary, kleeOut, tests, prefix, dirs, repoRoot }) {
  // the environment tsklee run gave the program (SHELL, HOME, …: dircolors reads SHELL), with
  // a PATH that names nothing
  const { DEFAULT_ENVIRONMENT } = await import(join(repoRoot, 'dist', 'engine', 'options.js'));
  const environ = join(prefix, 'replay.environ');
  writeFileSync(environ, DEFAULT_ENVIRONMENT.map((kv) => (kv.startsWith('PATH=') ? `PATH=${NO_PATH}` : kv)).join('\n') + '\n');
  const command = sandboxed([process.execPath, join(repoRoot, 'dist', 'cli', 'launch.cjs'), 'replay', '--native', `--timeout=${REPLAY_TIMEOUT}`, `--environ=${environ}`, binary, ...tests], {
    ro: [...new Set([repoRoot, realpathSync(join(repoRoot, 'node_modules'))]), dirs.gcov, kleeOut],
    rw: [prefix],
    env: { GCOV_PREFIX: prefix, GCOV_PREFIX_STRIP: 0, PATH: NO_PATH },
  });
  const r = await spawnCollect(command[0], command.slice(1), process.env);
  const m = /replayed (\d+) tests natively: (\d+) as recorded, (\d+) different, (\d+) not compared/.exec(r.stdout);
  if (m === null) return { failure: (r.stderr.trim().split('\n').pop() ?? `exit ${r.code}`).slice(0, 300) };
  return { tests: Number(m[1]), match: Number(m[2]), differ: Number(m[3]), notCompared: Number(m[4]), differing: r.stdout.split('\n').filter((l) => l.includes('DIFFERS')) };
}

/** Replays and measures one utility; resolves to its coverage.json content. */
export async function coverUtility({ utility, run, runDirOf, dirs, srcDir, repoRoot, readElfSection }) {
  const dir = runDirOf(utility);
  const file = join(dir, 'coverage.json');
  if (existsSync(file)) {
    const previous = JSON.parse(readFileSync(file, 'utf8'));
    if (previous.runStartedAt === run.startedAt) return { ...previous, reused: true };
  }
  const kleeOut = join(dir, 'klee-out');
  const prefix = join(dir, 'gcda');
  rmSync(prefix, { recursive: true, force: true });
  mkdirSync(prefix, { recursive: true });
  const started = Date.now();
  const binary = join(dirs.gcov, 'src', utility);
  const objects = linkedObjects(dirs.bc, utility, readElfSection).map((o) => join(dirs.gcov, o)).filter((o) => existsSync(o));
  const own = join(resolve(srcDir), 'src') + sep;
  const isOwn = (f) => f.startsWith(own) && f.endsWith('.c');
  const srcObjects = objects.filter((o) => o.startsWith(join(dirs.gcov, 'src') + sep));
  const replay = { tests: 0, match: 0, differ: 0, notCompared: 0, differing: [], failure: null };
  const curve = [];
  // the tests in batches by creation time, gcov of the utility's own sources after each: coverage over time
  for (const batch of existsSync(kleeOut) ? timeBatches(testsByTime(kleeOut, run.startedAt)) : []) {
    const r = await replayBatch({ binary, kleeOut, tests: batch.tests.map((t) => t.path), prefix, dirs, repoRoot });
    if (r.failure !== undefined) {
      replay.failure = r.failure;
      break;
    }
    for (const k of ['tests', 'match', 'differ', 'notCompared']) replay[k] += r[k];
    replay.differing.push(...r.differing);
    const t = totals(gcovLines(srcObjects, prefix), isOwn);
    curve.push({ seconds: Math.round(batch.until * 10) / 10, tests: replay.tests, linePct: percent(t.linesHit, t.lines) });
  }
  const files = gcovLines(objects, prefix);
  const srcTotals = totals(files, isOwn);
  const allTotals = totals(files);
  const record = {
    utility,
    runStartedAt: run.startedAt,
    seconds: (Date.now() - started) / 1000,
    replay,
    objects: objects.length,
    src: { ...srcTotals, linePct: percent(srcTotals.linesHit, srcTotals.lines), branchPct: percent(srcTotals.branchesHit, srcTotals.branches) },
    all: { ...allTotals, linePct: percent(allTotals.linesHit, allTotals.lines), branchPct: percent(allTotals.branchesHit, allTotals.branches) },
    srcFiles: [...files.keys()].filter(isOwn).map((f) => relative(srcDir, f)),
    curve,
  };
  writeFileSync(file, `${JSON.stringify(record, null, 2)}\n`);
  return record;
}
