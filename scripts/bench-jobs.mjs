#!/usr/bin/env node
/**
 * Parallel exploration's speed-up (`tsklee run --jobs N`): the time to finish an exhaustive
 * exploration and paths per second at 1, 2 and 4 workers, on ../shared/bench/*.c, a
 * path-heavy program with concrete work on every path (bench/parallel/paths-work.c: 4096
 * paths) and a coreutils-style program (fixtures/coreutils/cut.c with symbolic arguments and
 * stdin).
 *
 *   node scripts/bench-jobs.mjs [--jobs 1,2,4,2all,4all] [--repeat 3] [--programs paths,strparse,concrete,trivial,paths-work,cut]
 *
 * `Nall` runs --jobs=N --jobs-start-after=0 (every worker at once, beyond the cores too: how
 * --jobs ran before workers started only when they pay), `N@T` --jobs=N --jobs-start-after=T;
 * plain N uses tsklee's default policy.
 *
 * Runs are interleaved (every program × jobs once, then again), one at a time, output on
 * /dev/shm. Wall time is the median; CPU is user + system of the whole process (GNU time), the
 * work all threads did. The load average is printed: on a shared machine the wall times say
 * as much about the others' work as about tsklee's.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { loadavg } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const TSKLEE = join(ROOT, 'bin', 'tsklee');
const BENCH = join(ROOT, '..', 'shared', 'bench');
const arg = (name, dflt) => {
  const i = process.argv.indexOf(`--${name}`);
  return i < 0 ? dflt : process.argv[i + 1];
};
const jobsList = arg('jobs', '1,2,4').split(',');
for (const j of jobsList) if (!/^\d+(all|@[\d.]+(ms|s))?$/.test(j)) {
  process.stderr.write(`bench-jobs: bad --jobs entry '${j}' (N, Nall or N@TIME)\n`);
  process.exit(2);
}
const repeat = Number(arg('repeat', '3'));
const names = arg('programs', 'paths,strparse,concrete,trivial,paths-work,cut').split(',');
const work = existsSync('/dev/shm') ? '/dev/shm/tsklee-bench-jobs' : '/tmp/tsklee-bench-jobs';
mkdirSync(work, { recursive: true });

const PROGRAMS = {
  paths: { src: join(BENCH, 'paths.c'), args: [] },
  strparse: { src: join(BENCH, 'strparse.c'), args: [] },
  concrete: { src: join(BENCH, 'concrete.c'), args: [] },
  trivial: { src: join(BENCH, 'trivial.c'), args: [] },
  'paths-work': { src: join(ROOT, 'bench', 'parallel', 'paths-work.c'), cflags: ['-DN=12', '-DW=2000'], args: [], label: 'paths-work.c (N=12, W=2000)' },
  cut: { src: join(ROOT, 'fixtures', 'coreutils', 'cut.c'), opts: ['--libc=tsklee', '--posix-runtime'], args: ['--sym-args', '0', '2', '3', '--sym-stdin', '4'], label: 'cut.c --sym-args 0 2 3 --sym-stdin 4' },
};

for (const n of names) if (!(n in PROGRAMS)) {
  process.stderr.write(`bench-jobs: unknown program '${n}' (${Object.keys(PROGRAMS).join(', ')})\n`);
  process.exit(2);
}

function compile(name) {
  const p = PROGRAMS[name];
  const bc = join(work, `${name}.bc`);
  execFileSync('clang-16', ['-emit-llvm', '-c', '-g', '-O0', '-Xclang', '-disable-O0-optnone', `-I${join(ROOT, 'runtime', 'include')}`, ...(p.cflags ?? []), p.src, '-o', bc]);
  return bc;
}

function once(name, bc, spec) {
  const p = PROGRAMS[name];
  const jobs = Number.parseInt(spec, 10);
  const policy = spec.endsWith('all') ? ['--jobs-start-after=0'] : spec.includes('@') ? [`--jobs-start-after=${spec.split('@')[1]}`] : [];
  const out = join(work, `out-${name}-${spec.replace('@', '-')}`);
  rmSync(out, { recursive: true, force: true });
  const timeFile = join(work, 'time.txt');
  const t0 = process.hrtime.bigint();
  const r = spawnSync('/usr/bin/time', ['-f', '%U %S', '-o', timeFile, TSKLEE, 'run', '--no-echo-program-output', '--search=dfs', `--jobs=${jobs}`, ...policy, `--output-dir=${out}`, ...(p.opts ?? []), bc, ...p.args], { encoding: 'utf8', maxBuffer: 1 << 28 });
  const wall = Number(process.hrtime.bigint() - t0) / 1e9;
  if (r.status !== 0) throw new Error(`${name} --jobs=${jobs}: exit ${r.status}: ${r.stderr.slice(-400)}`);
  const [user, sys] = readFileSync(timeFile, 'utf8').trim().split(/\s+/).slice(-2).map(Number);
  const info = readFileSync(join(out, 'info'), 'utf8');
  const paths = Number(/KLEE: done: completed paths = (\d+)/.exec(info)[1]);
  const tests = Number(/KLEE: done: generated tests = (\d+)/.exec(info)[1]);
  const moved = Number(/(\d+) states handed over/.exec(info)?.[1] ?? 0);
  const started = Number(/parallel exploration: (\d+) worker/.exec(info)?.[1] ?? 1);
  const instructions = Number(/KLEE: done: total instructions = (\d+)/.exec(info)[1]);
  const queries = Number(/KLEE: done: total queries = (\d+)/.exec(info)[1]);
  rmSync(out, { recursive: true, force: true });
  return { wall, cpu: user + sys, paths, tests, moved, instructions, queries, started };
}

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[s.length >> 1] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};

const bcs = Object.fromEntries(names.map((n) => [n, compile(n)]));
const results = {};
const loads = [loadavg()[0]];
for (let r = 0; r < repeat; r++) {
  for (const n of names) {
    for (const j of jobsList) {
      const x = once(n, bcs[n], j);
      (results[`${n}/${j}`] ??= []).push(x);
      process.stderr.write(`${n} --jobs=${j} #${r + 1}: ${x.wall.toFixed(2)} s wall, ${x.cpu.toFixed(2)} s CPU, ${x.started} started, ${x.paths} paths, ${x.tests} tests, ${x.moved} handed over, ${x.queries} backend queries\n`);
    }
  }
  loads.push(loadavg()[0]);
}
const lines = [
  '| program | --jobs | workers started | paths | tests | wall s (median, min–max) | speed-up | paths/s | CPU s | instructions | states handed over | backend queries |',
  '| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |',
];
for (const n of names) {
  const base = median(results[`${n}/1`]?.map((x) => x.wall) ?? [NaN]);
  for (const j of jobsList) {
    const xs = results[`${n}/${j}`];
    const w = median(xs.map((x) => x.wall));
    const walls = xs.map((x) => x.wall);
    lines.push(
      `| ${PROGRAMS[n].label ?? `${n}.c`} | ${j.endsWith('all') ? `${Number.parseInt(j, 10)}, all at once` : j.includes('@') ? `${Number.parseInt(j, 10)}, start after ${j.split('@')[1]}` : j} | ${[...new Set(xs.map((x) => x.started))].join('/')} | ${[...new Set(xs.map((x) => x.paths))].join('/')} | ${[...new Set(xs.map((x) => x.tests))].join('/')} | ${w.toFixed(2)} (${Math.min(...walls).toFixed(2)}–${Math.max(...walls).toFixed(2)}) | ${(base / w).toFixed(2)}× | ${(xs[0].paths / w).toFixed(0)} | ${median(xs.map((x) => x.cpu)).toFixed(2)} | ${median(xs.map((x) => x.instructions))} | ${median(xs.map((x) => x.moved))} | ${median(xs.map((x) => x.queries))} |`,
    );
  }
}
lines.push('', `load average (1 min) during the runs: ${loads.map((l) => l.toFixed(1)).join(', ')} on ${(await import('node:os')).availableParallelism()} cores; ${repeat} runs each, interleaved`);
process.stdout.write(`${lines.join('\n')}\n`);
