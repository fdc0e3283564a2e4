#!/usr/bin/env node
/**
 * Paper 002's ablation on array-heavy programs (bench/arrays/*.c): in a fixed time per run,
 * the solver queries answered and the paths explored for
 *   lambda              arrays left to z3, constant arrays as lambdas (tsklee's default)
 *   store-chain         arrays left to z3, constant arrays as store chains over a fresh array
 *                       (--z3-constant-arrays=store-chain: KLEE's STP encoding, the paper's baseline)
 *   store-chain+pre     … with the ILP pre-check in front of z3 (--ilp-precheck)
 *   lambda+pre          lambda with the pre-check
 *   assertion           tsklee's own encoding, every axiom (--array-encoding=axioms --array-axioms=plain)
 *   assertion+pre       … and the pre-check
 *   typed+pre           … axioms pruned by access type (--array-axioms=typed)
 *   typed-interval+pre  … and by index interval (--array-axioms=typed-interval)
 * Writes OUT/arrays.json (every run's numbers), OUT/arrays.md (the table) and OUT/arrays.svg
 * (explored paths, answered queries and CPU seconds per configuration and program, vega-lite). Not a test.
 *
 *   node scripts/bench-arrays.mjs [--time=10] [--programs=lexer,crc] [--configs=lambda,store-chain]
 *        [--no-fast] [--eager] [--out=DIR] [--plot-only]
 *        [--bc=NAME=FILE.bc ... --tsklee-args="--posix-runtime ..." --program-args="--sym-stdin 8"]
 *
 * --no-fast turns tsklee's fast layer off (it answers many small array queries itself);
 * --eager generates axioms eagerly instead of by CEGAR; --plot-only redraws from OUT/arrays.json.
 * --bc (repeatable) measures ready bitcode (a real program, e.g. scripts/subjects/bc-arrays.mjs's
 * GNU bc) instead of bench/arrays; --tsklee-args go before it and --program-args after it.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const TSKLEE = join(ROOT, 'bin', 'tsklee');
const SRC = join(ROOT, 'bench', 'arrays');
const opt = (name, dflt) => process.argv.slice(2).find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3) ?? dflt;
const flag = (name) => process.argv.includes(`--${name}`);
const time = Number(opt('time', '10'));
const only = opt('programs', '').split(',').filter(Boolean);
const outDir = resolve(opt('out', '.'));
const base = ['--search=dfs', `--max-time=${time}s`, ...(flag('no-fast') ? ['--use-fast-solver=false'] : [])];
const gen = flag('eager') ? ['--array-axiom-generation=eager'] : [];
const SC = '--z3-constant-arrays=store-chain';
const PRE = '--ilp-precheck';
const AX = '--array-encoding=axioms';
const ALL_CONFIGS = [
  ['lambda', []],
  ['store-chain', [SC]],
  ['store-chain+pre', [SC, PRE]],
  ['lambda+pre', [PRE]],
  ['assertion', [AX, '--array-axioms=plain', ...gen]],
  ['assertion+pre', [AX, '--array-axioms=plain', PRE, ...gen]],
  ['typed+pre', [AX, '--array-axioms=typed', PRE, ...gen]],
  ['typed-interval+pre', [AX, '--array-axioms=typed-interval', PRE, ...gen]],
];
const words = (text) => text.split(/\s+/).filter(Boolean);
const external = process.argv.slice(2).filter((a) => a.startsWith('--bc=')).map((a) => {
  const m = /^--bc=([^=]+)=(.+)$/.exec(a);
  if (m === null) throw new Error(`${a}: expected --bc=NAME=FILE.bc`);
  return { program: m[1], bc: resolve(m[2]) };
});
const tskleeArgs = words(opt('tsklee-args', ''));
const programArgs = words(opt('program-args', ''));
const wanted = opt('configs', '').split(',').filter(Boolean);
for (const w of wanted) if (!ALL_CONFIGS.some(([n]) => n === w)) throw new Error(`--configs: unknown configuration '${w}' (${ALL_CONFIGS.map(([n]) => n).join(', ')})`);
const CONFIGS = ALL_CONFIGS.filter(([n]) => wanted.length === 0 || wanted.includes(n));

function compile(dir, src, defines = []) {
  const bc = join(dir, `${basename(src, '.c')}${defines.join('')}.bc`);
  execFileSync('clang-16', ['-emit-llvm', '-c', '-g', '-O0', '-Xclang', '-disable-O0-optnone', `-I${join(ROOT, 'runtime', 'include')}`, ...defines, src, '-o', bc]);
  return bc;
}

function lastStats(out) {
  const r = spawnSync('sqlite3', ['-header', join(out, 'run.stats'), 'select * from stats order by rowid desc limit 1'], { encoding: 'utf8' });
  const [h, v] = r.stdout.trim().split('\n');
  const row = {};
  h.split('|').forEach((k, i) => (row[k] = Number(v.split('|')[i])));
  return row;
}

/** One run: its numbers from run.stats' last row, CPU seconds from GNU time. */
function measure(dir, bc, name, args) {
  const out = join(dir, `out-${basename(bc, '.bc')}-${name}`);
  const t0 = performance.now();
  const r = spawnSync('/usr/bin/time', ['-f', 'cpu %U %S', TSKLEE, 'run', '--no-echo-program-output', `--output-dir=${out}`, ...base, ...tskleeArgs, ...args, bc, ...programArgs], { encoding: 'utf8', maxBuffer: 1 << 26 });
  const wall = (performance.now() - t0) / 1000;
  if (r.status !== 0) return { failed: r.stderr.split('\n').slice(-4).join(' ') };
  const cpu = /cpu ([\d.]+) ([\d.]+)/.exec(r.stderr);
  const s = lastStats(out);
  const top = Object.keys(s).find((k) => k.startsWith('SolverLayer') && k.endsWith('Queries'));
  const early = (s.TerminationEarly ?? 0) + (s.TerminationEarlyAlgorithm ?? 0) + (s.TerminationEarlyUser ?? 0);
  return {
    queries: s[top],
    backend: s.NumQueries,
    explored: s.States,
    completed: s.States - early,
    pre: s.SolverLayerIlpPrecheckHits ?? 0,
    ilpMs: Math.round((s.SolverLayerIlpTime ?? 0) / 1000),
    analysisMs: Math.round((s.SolverLayerIlpAnalysisTime ?? 0) / 1000),
    guardOff: (s.SolverLayerIlpPrecheckOffHits ?? 0) > 0,
    solverS: (s.SolverTime ?? 0) / 1e6,
    wall,
    cpu: cpu === null ? null : Number(cpu[1]) + Number(cpu[2]),
  };
}

mkdirSync(outDir, { recursive: true });
const jsonPath = join(outDir, 'arrays.json');
let runs;
if (flag('plot-only')) {
  runs = JSON.parse(readFileSync(jsonPath, 'utf8'));
} else {
  const dir = mkdtempSync(join(tmpdir(), 'tsklee-bench-arrays-'));
  process.on('exit', () => rmSync(dir, { recursive: true, force: true }));
  const programs =
    external.length > 0
      ? external
      : readdirSync(SRC)
          .filter((f) => f.endsWith('.c'))
          .flatMap((f) => (f === 't1_precheck.c' ? [[f, []], [f, ['-DT2']]] : [[f, []]]))
          .filter(([f]) => only.length === 0 || only.includes(basename(f, '.c')))
          .map(([file, defines]) => ({ program: `${basename(file, '.c')}${defines.join('')}`, file, defines }));
  process.stderr.write(`${programs.length} programs x ${CONFIGS.length} configurations, ${time} s each\n`);
  runs = [];
  for (const { program, file, defines, bc: ready } of programs) {
    const bc = ready ?? compile(dir, join(SRC, file), defines);
    for (const [config, args] of CONFIGS) {
      const r = { program, config, time, ...measure(dir, bc, config, args) };
      runs.push(r);
      process.stderr.write(`${program} ${config}: ${JSON.stringify(r)}\n`);
      writeFileSync(jsonPath, JSON.stringify(runs, null, 1)); // saved as they finish
    }
  }
}

const configs = [...new Set(runs.map((r) => r.config))];
const programs = [...new Set(runs.map((r) => r.program))];
const cell = (r) => (r === undefined ? '-' : r.failed !== undefined ? 'failed' : `${r.queries} q / ${r.explored} p (${r.completed})${r.pre ? ` / ${r.pre} pre` : ''}${r.guardOff ? ' / off' : ''}`);
const lines = [`| program | ${configs.join(' | ')} |`, `|---|${configs.map(() => '---').join('|')}|`];
for (const p of programs) lines.push(`| ${p} | ${configs.map((c) => cell(runs.find((r) => r.program === p && r.config === c))).join(' | ')} |`);
const t = runs[0]?.time ?? time;
lines.push('', `q = queries answered by the solver chain, p = explored paths (completed ones in parentheses), pre = answered UNSAT by the ILP pre-check, off = the hit-rate guard switched the pre-check off; ${t} s per run (--max-time), --search=dfs.`);
writeFileSync(join(outDir, 'arrays.md'), lines.join('\n') + '\n');
process.stdout.write(lines.join('\n') + '\n');

// the plot: explored paths, answered queries and CPU seconds, a panel per program, a bar per configuration
const vega = await import('vega');
const vl = await import('vega-lite');
const values = runs
  .filter((r) => r.failed === undefined)
  .flatMap((r) => [
    { program: r.program, config: r.config, measure: 'explored paths', value: r.explored },
    { program: r.program, config: r.config, measure: 'queries answered', value: r.queries },
    ...(r.cpu === null ? [] : [{ program: r.program, config: r.config, measure: 'CPU seconds', value: r.cpu }]),
  ]);
const spec = {
  $schema: 'https://vega.github.io/schema/vega-lite/v5.json',
  title: `paper 002 ablation on ${external.length > 0 ? programs.join(', ') : 'bench/arrays'} (${t} s per run)`,
  data: { values },
  facet: { row: { field: 'measure', type: 'nominal', title: null, sort: ['explored paths', 'queries answered', 'CPU seconds'] }, column: { field: 'program', type: 'nominal', title: null } },
  resolve: { scale: { y: 'independent' } },
  spec: {
    width: 90,
    height: 150,
    mark: 'bar',
    encoding: {
      x: { field: 'config', type: 'nominal', sort: configs, axis: null },
      y: { field: 'value', type: 'quantitative', title: null },
      color: { field: 'config', type: 'nominal', sort: configs, title: 'configuration' },
    },
  },
};
const view = new vega.View(vega.parse(vl.compile(spec).spec), { renderer: 'none' });
writeFileSync(join(outDir, 'arrays.svg'), await view.toSVG());
process.stderr.write(`table: ${join(outDir, 'arrays.md')}, plot: ${join(outDir, 'arrays.svg')}\n`);
