#!/usr/bin/env node
// Benchmarks of the memory models (paper 003; run after `npm run build`), printed as Markdown
// tables (README, "Relocatable addressing (paper 003)"). Every run is `tsklee run --search=dfs`
// with a budget (--max-time, default 60 s; `--budget=N` to change it); CPU time (user + system
// of the whole process tree, /usr/bin/time) is what is compared: the machine is shared.
//  - models (default): the digest's §8 programs (fixtures/addressing) and bench/addressing under
//    forking, relocatable addressing alone, + segment merging, + merging with k-context
//    resolution (k = 4) and segment reuse, + splitting (threshold 300, partitions of 128 B):
//    completed or not, paths, forks, solver queries, resolution queries, CPU seconds;
//  - overhead: every engine fixture (clang-16 -O0) under forking and relocatable addressing
//    alone: paths must be equal; CPU time of each and their ratio;
//  - k: resolution queries of segment merging with default resolution and k = 0..4;
//  - split: a large-table program and the digest's T3/T4 with partitions of 32…512 bytes.
// `--json=FILE`: the k and split runs also go to FILE ({ split, k }: driver, config, cpu, paths,
// resolutionQueries, completed), which scripts/subjects/lib/addressing-plot.mjs draws.
// Usage: node scripts/bench-addressing.mjs [--budget=N] [--json=FILE] [models] [overhead] [k] [split]   (default: models)
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const args = process.argv.slice(2);
const budgetArg = args.find((a) => a.startsWith('--budget='));
const budget = budgetArg === undefined ? 60 : Number(budgetArg.slice('--budget='.length));
const jsonArg = args.find((a) => a.startsWith('--json='));
const json = { split: [], k: [] };
/** A run as the plot reads it. */
const record = (list, f, config, r) => json[list].push({ driver: basename(f, '.c'), config, cpu: r.cpu, paths: r.paths, resolutionQueries: r.stats.ResolutionQueries, completed: r.done });
const wanted = args.filter((a) => !a.startsWith('--'));
const want = (s) => (wanted.length === 0 ? s === 'models' : wanted.includes(s));
const work = mkdtempSync(join(existsSync('/dev/shm') ? '/dev/shm' : tmpdir(), 'tsklee-addr-'));
const clang = existsSync('/usr/lib/llvm-16/bin/clang') ? '/usr/lib/llvm-16/bin/clang' : 'clang-16';
const R = ['--addressing=relocatable'];
const M = [...R, '--segment-merging'];

function compile(src) {
  const bc = join(work, `${basename(src, '.c')}.bc`);
  const r = spawnSync(clang, ['-c', '-emit-llvm', '-g', '-w', '-O0', '-Xclang', '-disable-O0-optnone', '-I', join(root, 'runtime/include'), src, '-o', bc], { encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`clang failed on ${src}:\n${r.stderr}`);
  return bc;
}

let runNo = 0;
/**
 * One `tsklee run --search=dfs` within the budget: completed paths, whether the exploration
 * finished (no state cut short), forks, CPU seconds, peak RSS (MB), and the last run.stats row.
 */
function run(bc, args, extra = []) {
  const out = join(work, `out-${runNo++}`);
  const r = spawnSync('/usr/bin/time', ['-f', 'BENCH %U %S %M', join(root, 'bin/tsklee'), 'run', '--no-echo-program-output', '--search=dfs', `--max-time=${budget}s`, ...args, ...extra, `--output-dir=${out}`, bc], { encoding: 'utf8', maxBuffer: 1 << 28 });
  const m = /BENCH ([\d.]+) ([\d.]+) (\d+)/.exec(r.stderr);
  const paths = /completed paths = (\d+)/.exec(r.stderr);
  const partial = /partially completed paths = (\d+)/.exec(r.stderr);
  if (r.status !== 0 || m === null || paths === null) throw new Error(`tsklee run ${args.join(' ')} ${bc} failed (${r.status}):\n${r.stderr.slice(-2000)}`);
  const csv = spawnSync(join(root, 'bin/tsklee'), ['stats', '--to-csv', out], { encoding: 'utf8' }).stdout.trim().split('\n');
  const cols = csv[0].split(',');
  const last = csv[csv.length - 1].split(',');
  const stats = Object.fromEntries(cols.map((c, i) => [c, Number(last[i])]));
  rmSync(out, { recursive: true, force: true });
  const forks = Object.entries(stats).reduce((n, [c, v]) => (c.startsWith('Branches') ? n + v : n), 0);
  const done = Number(partial?.[1] ?? 0) === 0 && (stats.TerminationEarly ?? 0) === 0;
  return { paths: Number(paths[1]), done, forks, cpu: Number(m[1]) + Number(m[2]), rssMb: Number(m[3]) / 1024, stats };
}

/** Paths, with * when the budget cut the run short (its paths are then no model's answer). */
const mark = (r) => `${r.paths}${r.done ? '' : '*'}`;
const fmt = (x, d = 2) => (Number.isFinite(x) ? x.toFixed(d) : '–');
const table = (head, rows) => [`| ${head.join(' | ')} |`, `|${head.map(() => '---').join('|')}|`, ...rows.map((r) => `| ${r.join(' | ')} |`)].join('\n');

try {
  if (want('overhead')) {
    const dir = join(root, 'fixtures/engine');
    const rows = [];
    let cpuC = 0;
    let cpuR = 0;
    let mismatched = 0;
    for (const f of readdirSync(dir).filter((x) => x.endsWith('.c')).sort()) {
      const bc = compile(join(dir, f));
      const c = run(bc, []);
      const r = run(bc, R);
      cpuC += c.cpu;
      cpuR += r.cpu;
      if (c.paths !== r.paths) mismatched++;
      if (/^(heap|mem)_/.test(f) || c.paths !== r.paths) rows.push([f, mark(c), mark(r), fmt(c.cpu), fmt(r.cpu), fmt(r.cpu / c.cpu)]);
    }
    for (const f of ['bench/addressing/symkey_hash.c', 'bench/addressing/ptr_array.c', 'bench/addressing/large_table.c']) {
      const bc = compile(join(root, f));
      const c = run(bc, []);
      const r = run(bc, R);
      cpuC += c.cpu;
      cpuR += r.cpu;
      if (c.paths !== r.paths) mismatched++;
      rows.push([basename(f), mark(c), mark(r), fmt(c.cpu), fmt(r.cpu), fmt(r.cpu / c.cpu)]);
    }
    console.log('### Addressing-model overhead (heap and memory fixtures, and the bench programs, shown)\n');
    console.log(table(['program', 'paths forking', 'paths relocatable', 'CPU s forking', 'CPU s relocatable', 'ratio'], rows));
    console.log(`\nAll engine fixtures and bench programs: CPU ${fmt(cpuC)} s forking, ${fmt(cpuR)} s relocatable (ratio ${fmt(cpuR / cpuC)}); programs whose paths differ: ${mismatched}\n`);
  }
  const dsmmPrograms = ['bench/addressing/symkey_hash.c', 'bench/addressing/ptr_array.c', 'fixtures/addressing/t4_hash_tables.c', 'fixtures/addressing/t7_contexts.c'];
  if (want('models')) {
    const configs = [
      ['forking', []],
      ['relocatable', R],
      ['+ merging', M],
      ['+ merging, k=4, reuse', [...M, '--context-resolve=4', '--reuse-segments']],
      ['+ splitting (P128)', [...R, '--split-objects']],
    ];
    const programs = [
      ...readdirSync(join(root, 'fixtures/addressing')).filter((x) => /^t\d.*\.c$/.test(x)).sort().map((x) => `fixtures/addressing/${x}`),
      ...readdirSync(join(root, 'bench/addressing')).filter((x) => x.endsWith('.c')).sort().map((x) => `bench/addressing/${x}`),
    ];
    const rows = [];
    for (const f of programs) {
      const bc = compile(join(root, f));
      let base = null;
      for (const [name, args] of configs) {
        const r = run(bc, args);
        base ??= r;
        const st = r.stats;
        rows.push([basename(f, '.c'), name, r.done ? 'yes' : 'no', r.paths, r.forks, st.BranchesMemOp ?? '–', st.NumQueries ?? '–', st.ResolutionQueries ?? '–', fmt(r.cpu), fmt(r.cpu / base.cpu), fmt(r.rssMb, 0)]);
      }
    }
    console.log(`### Memory models (--search=dfs --max-time=${budget}s; clang-16 -O0)\n`);
    console.log(table(['program', 'model', 'completed', 'paths', 'forks', 'memory-op forks', 'solver queries', 'resolution queries', 'CPU s', 'CPU / forking', 'RSS MB'], rows));
    console.log();
  }
  if (want('k')) {
    const rows = [];
    for (const f of dsmmPrograms) {
      const bc = compile(join(root, f));
      const d = run(bc, M);
      record('k', f, 'default', d);
      const cells = [basename(f), d.stats.ResolutionQueries];
      for (let k = 0; k <= 4; k++) {
        const r = run(bc, [...M, `--context-resolve=${k}`]);
        record('k', f, `k=${k}`, r);
        cells.push(r.stats.ResolutionQueries);
      }
      rows.push(cells);
    }
    console.log('### Resolution queries of segment merging by k (Table 4 of the paper)\n');
    console.log(table(['program', 'default', 'k=0', 'k=1', 'k=2', 'k=3', 'k=4'], rows));
    console.log();
  }
  if (want('split')) {
    const rows = [];
    for (const f of ['bench/addressing/large_table.c', 'bench/addressing/seeded_table.c', 'fixtures/addressing/t3_split_sweep.c', 'fixtures/addressing/t4_hash_tables.c']) {
      const bc = compile(join(root, f));
      const v = run(bc, []);
      record('split', f, 'forking', v);
      const cells = [basename(f), `${v.paths}${v.done ? '' : '*'} / ${fmt(v.cpu)}`];
      for (const n of [512, 256, 128, 64, 32]) {
        const r = run(bc, [...R, '--split-objects', `--partition-size=${n}`]);
        record('split', f, `P${n}`, r);
        cells.push(`${r.paths}${r.done ? '' : '*'} / ${fmt(r.cpu)}`);
      }
      rows.push(cells);
    }
    console.log(`### Splitting: paths / CPU s by partition size (threshold 300 B; Table 7 of the paper; --max-time=${budget}s, * = not completed)\n`);
    console.log(table(['program', 'forking', 'P512', 'P256', 'P128', 'P64', 'P32'], rows));
    console.log();
  }
  if (jsonArg !== undefined) writeFileSync(jsonArg.slice('--json='.length), `${JSON.stringify(json, null, 2)}\n`);
} finally {
  rmSync(work, { recursive: true, force: true });
}
