#!/usr/bin/env node
/**
 * State merging's size sweep (paper 001, §5.4's experiment in shape): for each program of
 * fixtures/merging/ and growing symbolic input, the time `tsklee run` takes to finish an
 * exhaustive exploration without merging (--search=dfs), with static merging and with dynamic
 * merging (driven by random-path, as the paper's exhaustive runs were by random search).
 * A run that hits --timeout counts as not finished (its time is a lower bound).
 *
 *   node scripts/bench-merging.mjs [--programs echo,sleep,wc] [--sizes 1-4] [--timeout 120]
 *                                  [--modes none,static,dynamic] [--out DIR]
 *   node scripts/bench-merging.mjs --programs digits,runmax,classes,feeds --sizes 5-7
 *        [--modes none,static,dynamic,static-inf,dynamic-inf]   (bench/merging)
 *   node scripts/bench-merging.mjs --from A/merging.json,B/merging.json [--out DIR]
 *        (no runs: the table and plot of earlier sweeps together)
 *
 * Times are CPU seconds (user + system, from GNU time), so that runs on a shared machine
 * compare; wall times are kept in the JSON.
 *
 * Writes DIR/merging.json (every run), DIR/merging.md (the table) and DIR/merging.svg (speed-up
 * against input size, a log scale; vega-lite rendered by vega in Node). DIR defaults to
 * /tmp/tsklee-bench-merging. Runs one at a time (times must not compete for the cores).
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { arg } from './lib/args.mjs';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const TSKLEE = join(ROOT, 'bin', 'tsklee');

/**
 * Program → the size parameter swept (the other keeps its default) and how a size reads; `dir`:
 * fixtures/merging (the tuned ones) unless given. bench/merging holds programs written later to
 * the paper's claim without tuning on them (README, "Programs not written for tuning").
 */
const PROGRAMS = {
  echo: { define: (n) => [`-DN=${n}`, '-DL=4'], label: (n) => `${n} args of 3 chars` },
  sleep: { define: (n) => [`-DN=${n}`, '-DL=4'], label: (n) => `${n} args of 3 chars` },
  wc: { define: (n) => [`-DN=${n}`], label: (n) => `${n} bytes` },
  digits: { dir: 'bench/merging', define: (n) => [`-DN=${n}`], label: (n) => `${n} bytes` },
  runmax: { dir: 'bench/merging', define: (n) => [`-DN=${n}`], label: (n) => `${n} ints` },
  classes: { dir: 'bench/merging', define: (n) => [`-DN=${n}`], label: (n) => `${n} bytes` },
  feeds: { dir: 'bench/merging', define: (n) => [`-DN=${n}`], label: (n) => `${n} bytes` },
};

const programs = arg('programs', 'echo,sleep,wc').split(',');
const [lo, hi] = arg('sizes', '1-4').split('-').map(Number);
const sizesFor = (p) => {
  const wc = p === 'wc';
  const out = [];
  for (let n = lo; n <= (hi ?? lo); n++) out.push(wc ? 2 * n : n);
  return out;
};
const timeout = Number(arg('timeout', '120'));
const modes = arg('modes', 'none,static,dynamic').split(',');
const outDir = arg('out', '/tmp/tsklee-bench-merging');
mkdirSync(outDir, { recursive: true });

const MODE_ARGS = {
  none: ['--search=dfs'],
  static: ['--state-merging=static'],
  dynamic: ['--state-merging=dynamic', '--search=random-path'],
  // QCE off (every pair merges): what QCE's refusals save, on bench/merging/feeds.c
  'static-inf': ['--state-merging=static', '--qce-alpha=inf'],
  'dynamic-inf': ['--state-merging=dynamic', '--search=random-path', '--qce-alpha=inf'],
};

function compile(p, n) {
  const bc = join(outDir, `${p}-${n}.bc`);
  execFileSync('clang-19', ['-emit-llvm', '-c', '-g', '-O0', '-Xclang', '-disable-O0-optnone', `-I${join(ROOT, 'runtime', 'include')}`, ...PROGRAMS[p].define(n), join(ROOT, ...(PROGRAMS[p].dir ?? 'fixtures/merging').split('/'), `${p}.c`), '-o', bc]);
  return bc;
}

function doneValue(text, name) {
  const m = new RegExp(`done: ${name} = (\\d+)`).exec(text);
  return m ? Number(m[1]) : null;
}

function run(p, n, mode) {
  const bc = compile(p, n);
  const out = join(outDir, `out-${p}-${n}-${mode}`);
  rmSync(out, { recursive: true, force: true });
  const t0 = process.hrtime.bigint();
  // GNU time: the run's CPU time (user + system, all threads), robust where the cores are shared
  const timeFile = join(outDir, 'time.txt');
  const r = spawnSync('/usr/bin/time', ['-f', '%U %S', '-o', timeFile, TSKLEE, 'run', '--no-echo-program-output', `--output-dir=${out}`, `--max-time=${timeout}s`, ...MODE_ARGS[mode], bc], { encoding: 'utf8', maxBuffer: 1 << 28 });
  const wall = Number(process.hrtime.bigint() - t0) / 1e9;
  const [user, sys] = readFileSync(timeFile, 'utf8').trim().split(/\s+/).slice(-2).map(Number);
  const seconds = user + sys;
  if (r.status !== 0) throw new Error(`${p} ${n} ${mode}: tsklee exited with ${r.status}: ${r.stderr.slice(-500)}`);
  const info = readFileSync(join(out, 'info'), 'utf8');
  rmSync(out, { recursive: true, force: true });
  return {
    program: p,
    size: n,
    mode,
    seconds,
    wall,
    finished: !/Halted:/.test(info),
    completedPaths: doneValue(info, 'completed paths'),
    tests: doneValue(info, 'generated tests'),
    queries: doneValue(info, 'total queries'),
    instructions: doneValue(info, 'total instructions'),
    merges: doneValue(info, 'merged states'),
    pathMultiplicity: doneValue(info, 'path multiplicity'),
    covered: doneValue(info, 'covered instructions'),
  };
}

const from = arg('from', undefined);
const results = from === undefined ? [] : from.split(',').flatMap((f) => JSON.parse(readFileSync(f, 'utf8')));
for (const p of from === undefined ? programs : []) {
  for (const n of sizesFor(p)) {
    for (const mode of modes) {
      const r = run(p, n, mode);
      results.push(r);
      process.stderr.write(`${p} ${PROGRAMS[p].label(n)} ${mode}: ${r.seconds.toFixed(2)} s CPU (${r.wall.toFixed(2)} s wall)${r.finished ? '' : ' (timeout)'}, ${r.completedPaths} states, ${r.queries} queries\n`);
    }
  }
}
writeFileSync(join(outDir, 'merging.json'), JSON.stringify(results, null, 1));

// the table: per program and size, time per mode and speed-up against none
const fmt = (r) => (r === undefined ? '' : `${r.seconds.toFixed(2)}${r.finished ? '' : '+'}`);
const lines = [`| program | input | paths (none) | ${modes.map((m) => `${m} CPU s`).join(' | ')} | ${modes.filter((m) => m !== 'none').map((m) => `${m} speed-up`).join(' | ')} | states left (static / dynamic) | covered instr. (${modes.join(' / ')}) |`];
lines.push(`|${' --- |'.repeat(lines[0].split('|').length - 2)}`);
const speedups = [];
const sweptPrograms = [...new Set(results.map((r) => r.program))];
const sweptSizes = (p) => [...new Set(results.filter((r) => r.program === p).map((r) => r.size))].sort((a, b) => a - b);
for (const p of sweptPrograms) {
  for (const n of sweptSizes(p)) {
    const by = Object.fromEntries(modes.map((m) => [m, results.find((r) => r.program === p && r.size === n && r.mode === m)]));
    const base = by.none;
    const sp = modes
      .filter((m) => m !== 'none')
      .map((m) => {
        if (base === undefined || by[m] === undefined) return '';
        const s = base.seconds / by[m].seconds;
        speedups.push({ program: p, size: p === 'wc' ? n / 2 : n, mode: m, speedup: s, lowerBound: !base.finished });
        return `${s.toFixed(1)}×${base.finished ? '' : ' (≥)'}`;
      });
    lines.push(
      `| ${p} | ${PROGRAMS[p].label(n)} | ${base?.completedPaths ?? ''}${base && !base.finished ? '+' : ''} | ${modes.map((m) => fmt(by[m])).join(' | ')} | ${sp.join(' | ')} | ${by.static?.completedPaths ?? ''} / ${by.dynamic?.completedPaths ?? ''} | ${modes.map((m) => by[m]?.covered ?? '').join(' / ')} |`,
    );
  }
}
lines.push('', `A time with + hit the run's budget (${from === undefined ? `${timeout} s` : '--timeout of its sweep'}; the speed-up is then a lower bound, ≥).`);
writeFileSync(join(outDir, 'merging.md'), `${lines.join('\n')}\n`);
process.stdout.write(`${lines.join('\n')}\n`);

// the plot
try {
  const vega = await import('vega');
  const vl = await import('vega-lite');
  const spec = {
    $schema: 'https://vega.github.io/schema/vega-lite/v5.json',
    width: 360,
    height: 220,
    data: { values: speedups },
    mark: { type: 'line', point: true },
    encoding: {
      x: { field: 'size', type: 'quantitative', title: 'symbolic input size (arguments; bytes/2 for wc)' },
      y: { field: 'speedup', type: 'quantitative', scale: { type: 'log' }, title: 'speed-up over no merging (time to finish)' },
      color: { field: 'program', type: 'nominal' },
      strokeDash: { field: 'mode', type: 'nominal' },
    },
  };
  const view = new vega.View(vega.parse(vl.compile(spec).spec), { renderer: 'none' });
  writeFileSync(join(outDir, 'merging.svg'), await view.toSVG());
  process.stderr.write(`plot: ${join(outDir, 'merging.svg')}\n`);
} catch (e) {
  process.stderr.write(`no plot (${e.message}): npm install vega vega-lite\n`);
}
