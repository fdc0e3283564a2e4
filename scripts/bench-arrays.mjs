#!/usr/bin/env node
/**
 * Paper 002's ablation on array-heavy programs (bench/arrays/*.c): in a fixed time per run,
 * the solver queries answered and the paths explored for
 *   vanilla          arrays left to the backend (z3's own arrays; constant arrays as lambdas)
 *   assertion        tsklee's own encoding, every axiom (--array-encoding=axioms --array-axioms=plain)
 *   +precheck        … and the ILP pre-check (--ilp-precheck)
 *   +typed           … axioms pruned by access type (--array-axioms=typed)
 *   +typed-interval  … and by index interval (--array-axioms=typed-interval)
 * Prints a Markdown table (queries = calls into the solver chain, backend = those that
 * reached the backend, paths = explored paths; run.stats' last row). Not a test.
 *
 *   node scripts/bench-arrays.mjs [--time=10] [--programs=lexer,crc] [--no-fast] [--eager]
 *
 * --no-fast turns tsklee's fast layer off (it answers many small array queries itself);
 * --eager generates axioms eagerly instead of by CEGAR.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
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
const base = ['--search=dfs', `--max-time=${time}s`, ...(flag('no-fast') ? ['--use-fast-solver=false'] : [])];
const gen = flag('eager') ? ['--array-axiom-generation=eager'] : [];
const CONFIGS = [
  ['vanilla', []],
  ['assertion', ['--array-encoding=axioms', '--array-axioms=plain', ...gen]],
  ['+precheck', ['--array-encoding=axioms', '--array-axioms=plain', '--ilp-precheck', ...gen]],
  ['+typed', ['--array-encoding=axioms', '--array-axioms=typed', '--ilp-precheck', ...gen]],
  ['+typed-interval', ['--array-encoding=axioms', '--array-axioms=typed-interval', '--ilp-precheck', ...gen]],
];

const dir = mkdtempSync(join(tmpdir(), 'tsklee-bench-arrays-'));
process.on('exit', () => rmSync(dir, { recursive: true, force: true }));

function compile(src, defines = []) {
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

const programs = readdirSync(SRC)
  .filter((f) => f.endsWith('.c'))
  .flatMap((f) => (f === 't1_precheck.c' ? [[f, []], [f, ['-DT2']]] : [[f, []]]))
  .filter(([f]) => only.length === 0 || only.includes(basename(f, '.c')));
const lines = [
  `| program | ${CONFIGS.map(([n]) => n).join(' | ')} |`,
  `|---|${CONFIGS.map(() => '---').join('|')}|`,
];
process.stderr.write(`${programs.length} programs x ${CONFIGS.length} configurations, ${time} s each\n`);
for (const [file, defines] of programs) {
  const bc = compile(join(SRC, file), defines);
  const cells = [];
  for (const [name, args] of CONFIGS) {
    const out = join(dir, `out-${basename(bc, '.bc')}-${name}`);
    const t0 = performance.now();
    const r = spawnSync(TSKLEE, ['run', `--output-dir=${out}`, ...base, ...args, bc], { encoding: 'utf8' });
    const secs = (performance.now() - t0) / 1000;
    if (r.status !== 0) {
      cells.push('failed');
      process.stderr.write(`${file} ${name}: exit ${r.status}: ${r.stderr.split('\n').slice(-3).join(' ')}\n`);
      continue;
    }
    const s = lastStats(out);
    const top = Object.keys(s).find((k) => k.startsWith('SolverLayer') && k.endsWith('Queries'));
    const pre = s.SolverLayerIlpPrecheckHits ?? 0;
    cells.push(`${s[top]} q / ${s.NumQueries} b / ${s.States} p${pre ? ` / ${pre} pre` : ''} / ${secs.toFixed(1)} s`);
    process.stderr.write(`${file}${defines.join('')} ${name}: ${cells[cells.length - 1]}\n`);
  }
  lines.push(`| ${basename(file, '.c')}${defines.join('')} | ${cells.join(' | ')} |`);
}
process.stdout.write(`${lines.join('\n')}\n\nq = queries into the solver chain, b = queries the backend solved, p = explored paths, pre = answered UNSAT by the pre-check, s = wall time (max ${time} s)\n`);
