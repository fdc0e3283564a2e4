#!/usr/bin/env node
/**
 * Quantified state merging's experiment in shape (paper 000, §7, RQ1/RQ2 and Table 4): the
 * string-API programs of bench/quantified/ at input bounds N, explored exhaustively by
 *
 *   BASE  no merging                         --search=dfs
 *   CFG   ite merging at the loop exits      --state-merging=static --qce-alpha=inf
 *   PAT   pattern-based quantified merging   --search=dfs --merge-mode=quantified --use-incremental-merging=false
 *   PATI  PAT with incremental merging (§4)  … --use-incremental-merging (mode 'pati', tsklee's default; not run by default)
 *
 * under one time limit each (--timeout: tsklee's --max-time, wall clock; or --cpu-budget: its
 * --max-cpu-time, an equal CPU budget whatever the machine's load, with `ulimit -t` 30 s above
 * it as a hard stop). Reported: CPU seconds (user + system, GNU time; a run that hits the
 * limit is marked '>'), the 1-minute load average when it started, and line coverage of the program's own source by its tests,
 * replayed natively on a `--coverage` build (llvm-cov gcov), plus PAT/CFG and PAT/BASE
 * speed-ups.
 *
 *   node scripts/bench-quantified.mjs [--programs strlen,strspn,…] [--bounds 10,20,50,100]
 *                                     [--timeout 120 | --cpu-budget 20] [--modes base,cfg,pat] [--out DIR]
 *
 * Writes DIR/quantified.json (every run), DIR/quantified.md (the table) and
 * DIR/quantified.svg and .png (CPU seconds against the bound per program and mode, vega-lite); DIR
 * defaults to /tmp/tsklee-bench-quantified. Runs one at a time. `--plot-only` redraws the
 * table and the plot from DIR/quantified.json without running anything.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { arg } from './lib/args.mjs';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const TSKLEE = join(ROOT, 'bin', 'tsklee');
const SRC = join(ROOT, 'bench', 'quantified');
const INCLUDE = join(ROOT, 'runtime', 'include');

const programs = arg('programs', readdirSync(SRC).filter((f) => f.endsWith('.c')).map((f) => f.slice(0, -2)).sort().join(',')).split(',');
const bounds = arg('bounds', '10,20,50,100').split(',').map(Number);
const timeout = Number(arg('timeout', '120'));
const cpuBudget = arg('cpu-budget', '') === '' ? null : Number(arg('cpu-budget', ''));
const modes = arg('modes', 'base,cfg,pat').split(',');
const outDir = arg('out', '/tmp/tsklee-bench-quantified');
mkdirSync(outDir, { recursive: true });

const MODE_ARGS = {
  base: ['--search=dfs'],
  cfg: ['--state-merging=static', '--qce-alpha=inf'],
  pat: ['--search=dfs', '--merge-mode=quantified', '--use-incremental-merging=false'],
  pati: ['--search=dfs', '--merge-mode=quantified', '--use-incremental-merging'],
};

const replayLib = join(outDir, 'replay-lib');
if (!process.argv.includes('--plot-only')) execFileSync('make', ['-s', '-C', join(ROOT, 'runtime', 'replay'), `BUILD=${replayLib}`]);

function build(p, n) {
  const dir = join(outDir, `${p}-${n}`);
  mkdirSync(dir, { recursive: true });
  const bc = join(dir, `${p}.bc`);
  const src = join(SRC, `${p}.c`);
  execFileSync('clang-16', ['-emit-llvm', '-c', '-g', '-O0', '-Xclang', '-disable-O0-optnone', `-I${INCLUDE}`, `-DN=${n}`, src, '-o', bc]);
  const cov = join(dir, `${p}.cov`);
  execFileSync('clang-19', ['-O0', '--coverage', `-I${INCLUDE}`, `-DN=${n}`, src, join(replayLib, 'libtskleeRuntest.a'), '-o', cov], { cwd: dir });
  return { dir, bc, cov, src };
}

/** Percentage of the source's lines the tests execute (llvm-cov gcov on the native replay). */
function lineCoverage(b, outputDir) {
  for (const f of readdirSync(b.dir)) if (f.endsWith('.gcda')) rmSync(join(b.dir, f));
  for (const t of readdirSync(outputDir).filter((f) => f.endsWith('.ktest'))) {
    spawnSync(b.cov, [], { cwd: b.dir, env: { ...process.env, KTEST_FILE: join(outputDir, t) }, timeout: 10_000 });
  }
  const r = spawnSync('llvm-cov-19', ['gcov', '-n', b.src.replace(/.*\//, ''), '-o', b.cov.replace(/\.cov$/, '.cov-' + b.src.replace(/.*\//, '').replace(/\.c$/, '.gcda'))], { cwd: b.dir, encoding: 'utf8' });
  const m = /Lines executed:([\d.]+)% of (\d+)/.exec(r.stdout);
  return m === null ? null : Number(m[1]);
}

const plotOnly = process.argv.includes('--plot-only');
/** Most tests replayed natively for gcov coverage. */
const MAX_REPLAY = 3000;
const runs = plotOnly ? JSON.parse(readFileSync(join(outDir, 'quantified.json'), 'utf8')) : [];
for (const p of plotOnly ? [] : programs) {
  for (const n of bounds) {
    const b = build(p, n);
    for (const mode of modes) {
      const out = join(b.dir, `out-${mode}`);
      rmSync(out, { recursive: true, force: true });
      const limit = cpuBudget === null ? `--max-time=${timeout}` : `--max-cpu-time=${cpuBudget}`;
      const args = ['-f', '%U %S %e', TSKLEE, 'run', '--no-echo-program-output', ...MODE_ARGS[mode], limit, `--output-dir=${out}`, b.bc];
      const load = loadavg()[0];
      // a CPU budget is also a hard limit: a run stuck in one long step is killed 30 s past it
      const r = cpuBudget === null ? spawnSync('/usr/bin/time', args, { encoding: 'utf8' }) : spawnSync('bash', ['-c', `ulimit -t ${Math.ceil(cpuBudget + 30)}; exec /usr/bin/time "$@"`, 'bash', ...args], { encoding: 'utf8' });
      const times = r.stderr.trim().split('\n').pop().split(' ').map(Number);
      const info = existsSync(join(out, 'info')) ? readFileSync(join(out, 'info'), 'utf8') : '';
      const messages = existsSync(join(out, 'messages.txt')) ? readFileSync(join(out, 'messages.txt'), 'utf8') : '';
      const paths = /explored paths = (\d+)/.exec(info);
      // the halt is written to messages.txt ("halting execution, dumping remaining states")
      const halted = /HaltTimer invoked|halting execution/.test(messages) || /halting execution/.test(info) || /(KLEE|tsklee): halted:/.test(r.stderr);
      const tests = readdirSync(out).filter((f) => f.endsWith('.ktest')).length;
      // replaying hundreds of thousands of tests natively takes longer than the runs: then tsklee's own line coverage ('~')
      const own = /program coverage \(runtime excluded\):.*lines \d+\/\d+ \(([\d.]+)%\)/.exec(`${info}\n${r.stderr}`);
      const cov = tests <= MAX_REPLAY ? lineCoverage(b, out) : own === null ? null : `~${Number(own[1])}`;
      const row = { program: p, bound: n, mode, cpu: times[0] + times[1], wall: times[2], finished: !halted && r.status === 0, tests, paths: paths === null ? null : Number(paths[1]), lineCoverage: cov, load };
      runs.push(row);
      if (tests > MAX_REPLAY) rmSync(out, { recursive: true, force: true }); // hundreds of thousands of tests: gigabytes
      writeFileSync(join(outDir, 'quantified.json'), JSON.stringify(runs, null, 1));
      process.stderr.write(`${p} N=${n} ${mode}: ${row.cpu.toFixed(2)} s CPU${row.finished ? '' : ' (timeout)'}, ${row.paths} paths, ${tests} tests, ${cov}% lines, load ${load.toFixed(1)}\n`);
    }
  }
}
if (!plotOnly) writeFileSync(join(outDir, 'quantified.json'), JSON.stringify(runs, null, 1));

const cell = (r) => (r === undefined ? '-' : `${r.finished ? '' : '>'}${r.cpu.toFixed(2)} s / ${r.lineCoverage ?? '?'}%${r.paths === undefined || r.paths === null ? '' : ` / ${r.paths}`}`);
const ratio = (a, b) => (a === undefined || b === undefined ? '-' : `${b.finished ? '' : '≥'}${(b.cpu / a.cpu).toFixed(1)}×${a.finished ? '' : '?'}`);
const withPati = runs.some((r) => r.mode === 'pati');
const lines = withPati
  ? ['| program | N | BASE | CFG | PAT | PATI | PATI vs CFG | PATI vs BASE |', '|---|---|---|---|---|---|---|---|']
  : ['| program | N | BASE | CFG | PAT | PAT vs CFG | PAT vs BASE |', '|---|---|---|---|---|---|---|'];
for (const p of programs) {
  for (const n of bounds) {
    if (!runs.some((r) => r.program === p && r.bound === n)) continue;
    const get = (m) => runs.find((r) => r.program === p && r.bound === n && r.mode === m);
    if (withPati) lines.push(`| ${p} | ${n} | ${cell(get('base'))} | ${cell(get('cfg'))} | ${cell(get('pat'))} | ${cell(get('pati'))} | ${ratio(get('pati'), get('cfg'))} | ${ratio(get('pati'), get('base'))} |`);
    else lines.push(`| ${p} | ${n} | ${cell(get('base'))} | ${cell(get('cfg'))} | ${cell(get('pat'))} | ${ratio(get('pat'), get('cfg'))} | ${ratio(get('pat'), get('base'))} |`);
  }
}
const loads = runs.map((r) => r.load).filter((l) => l !== undefined);
const loadNote = loads.length === 0 ? '' : ` Load average (1 min) at the runs' starts: ${Math.min(...loads).toFixed(1)}–${Math.max(...loads).toFixed(1)}.`;
lines.push('', `CPU seconds / line coverage of the program by its tests (native replay, llvm-cov gcov; '~': tsklee's own, beyond ${MAX_REPLAY} tests) / explored paths; '>' = stopped at ${cpuBudget === null ? `--max-time=${timeout}` : `--max-cpu-time=${cpuBudget}`}; speed-up = other's CPU / PAT's CPU ('≥' when the other timed out).${loadNote}`);
writeFileSync(join(outDir, 'quantified.md'), lines.join('\n') + '\n');
process.stdout.write(lines.join('\n') + '\n');

// the plot: CPU seconds against the bound, one panel per program, one line per mode
const vega = await import('vega');
const vl = await import('vega-lite');
const label = { base: 'BASE (no merging)', cfg: 'CFG (ite merging)', pat: 'PAT (quantified)', pati: 'PATI (quantified, incremental)' };
const spec = {
  $schema: 'https://vega.github.io/schema/vega-lite/v5.json',
  data: { values: runs.map((r) => ({ ...r, mode: label[r.mode] ?? r.mode, status: r.finished ? 'finished' : 'timed out' })) },
  facet: { field: 'program', type: 'nominal', title: null },
  columns: 3,
  spec: {
    width: 200,
    height: 140,
    mark: { type: 'line', point: true },
    encoding: {
      x: { field: 'bound', type: 'quantitative', scale: { type: 'log' }, title: 'input bound N (bytes)' },
      y: { field: 'cpu', type: 'quantitative', scale: { type: 'log' }, title: 'CPU seconds' },
      color: { field: 'mode', type: 'nominal', title: 'mode' },
      shape: { field: 'status', type: 'nominal', title: null },
    },
  },
};
const view = new vega.View(vega.parse(vl.compile(spec).spec), { renderer: 'none' });
const svg = await view.toSVG();
writeFileSync(join(outDir, 'quantified.svg'), svg);
// and as PNG for the README (docs/quantified.png): resvg, as src/experiment/plots.ts renders
const { Resvg } = (await import('@resvg/resvg-js')).default;
const png = new Resvg(svg, { fitTo: { mode: 'zoom', value: 2 }, font: { loadSystemFonts: true, defaultFontFamily: 'DejaVu Sans' }, background: 'white' }).render().asPng();
writeFileSync(join(outDir, 'quantified.png'), png);
process.stderr.write(`plot: ${join(outDir, 'quantified.svg')}, ${join(outDir, 'quantified.png')}\n`);
