/**
 * The coverage step of one utility: every test of its klee-out replayed with `tsklee replay
 * --native` on the gcov build, inside the sandbox (sandbox.mjs), with the utility's own
 * GCOV_PREFIX directory emptied first; then gcov over the objects the utility links (read
 * from the `tsklee cc` build's record of them, src/NAME's .llvm_bc section, mapped to the same
 * objects of the gcov build). Writes OUT/NAME/coverage.json; resumable like the runs.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
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
  let replay = { tests: 0, match: 0, differ: 0, notCompared: 0, differing: [], failure: null };
  if (run.tests > 0) {
    const command = sandboxed([process.execPath, join(repoRoot, 'dist', 'cli', 'launch.cjs'), 'replay', '--native', `--timeout=${REPLAY_TIMEOUT}`, binary, kleeOut], {
      ro: [...new Set([repoRoot, realpathSync(join(repoRoot, 'node_modules'))]), dirs.gcov, kleeOut],
      rw: [prefix],
      env: { GCOV_PREFIX: prefix, GCOV_PREFIX_STRIP: 0, PATH: NO_PATH },
    });
    const r = await spawnCollect(command[0], command.slice(1), process.env);
    const m = /replayed (\d+) tests natively: (\d+) as recorded, (\d+) different, (\d+) not compared/.exec(r.stdout);
    if (m === null) replay.failure = (r.stderr.trim().split('\n').pop() ?? `exit ${r.code}`).slice(0, 300);
    else {
      replay = {
        tests: Number(m[1]),
        match: Number(m[2]),
        differ: Number(m[3]),
        notCompared: Number(m[4]),
        differing: r.stdout.split('\n').filter((l) => l.includes('DIFFERS')),
        failure: null,
      };
    }
  }
  const objects = linkedObjects(dirs.bc, utility, readElfSection).map((o) => join(dirs.gcov, o)).filter((o) => existsSync(o));
  const files = gcovLines(objects, prefix);
  const own = join(resolve(srcDir), 'src') + sep;
  const srcTotals = totals(files, (f) => f.startsWith(own) && f.endsWith('.c'));
  const allTotals = totals(files);
  const record = {
    utility,
    runStartedAt: run.startedAt,
    seconds: (Date.now() - started) / 1000,
    replay,
    objects: objects.length,
    src: { ...srcTotals, linePct: percent(srcTotals.linesHit, srcTotals.lines), branchPct: percent(srcTotals.branchesHit, srcTotals.branches) },
    all: { ...allTotals, linePct: percent(allTotals.linesHit, allTotals.lines), branchPct: percent(allTotals.branchesHit, allTotals.branches) },
    srcFiles: [...files.keys()].filter((f) => f.startsWith(own) && f.endsWith('.c')).map((f) => relative(srcDir, f)),
  };
  writeFileSync(file, `${JSON.stringify(record, null, 2)}\n`);
  return record;
}
