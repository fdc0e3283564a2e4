/**
 * The measurements of relocatable addressing (paper 003) on a real program with drivers of
 * our own (apr-addressing.mjs, m4-addressing.mjs): each driver explored under the memory
 * models (forking, relocatable alone, DSMM with and without k-context resolution and segment
 * reuse, splitting), the k sweep and the partition-size sweep, every test replayed natively;
 * results kept in OUT/results.json and tabulated as Markdown.
 */
import { spawnSync } from 'node:child_process';
import { rmSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { SubjectError } from './errors.mjs';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..', '..');
const TSKLEE = join(ROOT, 'bin', 'tsklee');
export const R = ['--addressing=relocatable'];
export const M = [...R, '--segment-merging'];
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


export function must(cmd, args, what, opts = {}) {
  const r = spawnSync(cmd, args, { encoding: 'utf8', maxBuffer: 1 << 28, ...opts });
  if (r.error !== undefined || r.status !== 0) throw new SubjectError(`${what} failed (${r.error?.message ?? `exit ${r.status}`}): ${(r.stderr ?? '').trim().split('\n').slice(-3).join(' / ')}`);
  return r;
}

let runNo = 0;
/** One exploration, then the native replay of its tests; the output directory is removed. */
export function explore(driver, args, { out, budget }) {
  const dir = join(out, `run-${process.pid}-${runNo++}`);
  rmSync(dir, { recursive: true, force: true });
  const cmd = [TSKLEE, 'run', '--no-echo-program-output', '--libc=tsklee', '--posix-runtime', '--search=dfs', `--max-time=${budget}s`, ...args, `--output-dir=${dir}`, driver.bc];
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

export const fmt = (x, d = 2) => (typeof x === 'number' && Number.isFinite(x) ? x.toFixed(d) : '–');
const num = (x) => (typeof x === 'number' && Number.isFinite(x) ? String(x) : '–');
const table = (head, rows) => [`| ${head.join(' | ')} |`, `|${head.map(() => '---').join('|')}|`, ...rows.map((r) => `| ${r.join(' | ')} |`)].join('\n');
export const mark = (r) => `${r.paths}${r.completed ? '' : '*'}`;

export function markdown(res, subject) {
  const budgets = [...new Set([...res.models, ...res.k, ...res.split].map((r) => `${r.budget ?? res.budget}s`))].join(' or ');
  const parts = [`${subject} ${res.version} (${res.origin}); tsklee run --libc=tsklee --posix-runtime --search=dfs --max-time=${budgets}; clang-16 -O0; * = cut by the budget; replay ≠ = tests whose native run differs from the recorded one`];
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


/**
 * The `models`, `k` and `split` steps over `built` (driver name → { exe, bc }), each run recorded
 * in res[list] (replacing an earlier run of the same driver and configuration) and saved at
 * once; the split sweep runs on `splitDrivers` only. `configs`: the models step's
 * configurations (default MODEL_CONFIGS).
 */
export function runMeasurements({ res, steps, built, out, budget, save, log, splitDrivers, configs = MODEL_CONFIGS }) {
  const measure = (list, driver, config, args) => {
    log(`${driver}: ${config}`);
    const r = { driver, config, budget, ...explore(built.get(driver), args, { out, budget }) };
    log(`  ${mark(r)} paths, ${fmt(r.cpu)} CPU s, ${fmt(r.rssMb, 0)} MB, replay ≠ ${r.replayDiffer}/${r.tests}`);
    res[list] = [...res[list].filter((x) => !(x.driver === driver && x.config === config)), r];
    save();
  };
  const drivers = [...built.keys()];
  if (steps.has('models')) for (const d of drivers) for (const [c, a] of configs) measure('models', d, c, a);
  if (steps.has('k')) {
    for (const d of drivers) {
      measure('k', d, 'default', M);
      for (let k = 0; k <= 4; k++) measure('k', d, `k=${k}`, [...M, `--context-resolve=${k}`]);
    }
  }
  if (steps.has('split')) {
    for (const d of drivers.filter((x) => splitDrivers.includes(x))) {
      measure('split', d, 'forking', []);
      for (const n of PARTITIONS) measure('split', d, `P${n}`, [...R, '--split-objects', `--partition-size=${n}`]);
    }
  }
}
