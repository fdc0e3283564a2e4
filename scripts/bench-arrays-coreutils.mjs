#!/usr/bin/env node
/**
 * Paper 002 on real GNU coreutils at a fixed budget: each utility with KLEE's classic
 * arguments (README's coreutils section) for --time seconds, under each configuration:
 *   lambda           tsklee's default (z3's arrays, constant arrays as lambdas)
 *   lambda+pre       … with the ILP pre-check in front of z3 (--ilp-precheck)
 *   store-chain      constant arrays as store chains (--z3-constant-arrays=store-chain)
 *   store-chain+pre  … with the pre-check
 * one run at a time. Reports explored paths, instructions, queries into the solver chain and
 * to the backend, pre-check UNSAT answers, the pre-check's own time (analysis and HiGHS),
 * whether its hit-rate guard switched it off, and CPU seconds (GNU time). Not a test.
 *
 *   node scripts/bench-arrays-coreutils.mjs --bc-dir DIR [--utils tr,base64,...] [--time 30]
 *        [--configs lambda,lambda+pre] [--reps 1] [--out DIR]
 *
 * DIR is the src/ folder of a `tsklee cc` build of coreutils (scripts/subjects/coreutils.mjs).
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { arg } from './lib/args.mjs';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const TSKLEE = join(ROOT, 'bin', 'tsklee');

const bcDir = arg('bc-dir', undefined);
if (bcDir === undefined || !existsSync(bcDir)) {
  process.stderr.write('bench-arrays-coreutils: --bc-dir DIR (the src/ folder of a tsklee cc build of coreutils) is required\n');
  process.exit(2);
}
const utils = arg('utils', 'base64,cut,tr,wc,od,expand,fold,sum').split(',');
const budget = Number(arg('time', '30'));
const reps = Number(arg('reps', '1'));
const outDir = arg('out', '/tmp/tsklee-bench-arrays-coreutils');
const CONFIG_ARGS = {
  lambda: [],
  'lambda+pre': ['--ilp-precheck'],
  'store-chain': ['--z3-constant-arrays=store-chain'],
  'store-chain+pre': ['--z3-constant-arrays=store-chain', '--ilp-precheck'],
};
const configs = arg('configs', 'lambda,lambda+pre').split(',');
for (const c of configs) if (CONFIG_ARGS[c] === undefined) throw new Error(`--configs: unknown '${c}' (${Object.keys(CONFIG_ARGS).join(', ')})`);
// KLEE's coreutils arguments (README: the coreutils sweep), smaller sizes as in its experiments page
const KLEE_ARGS = ['--sym-args', '0', '1', '10', '--sym-args', '0', '2', '2', '--sym-files', '1', '8', '--sym-stdin', '8', '--sym-stdout'];
mkdirSync(outDir, { recursive: true });

function lastStats(out) {
  const r = spawnSync('sqlite3', ['-header', join(out, 'run.stats'), 'select * from stats order by rowid desc limit 1'], { encoding: 'utf8' });
  const [h, v] = r.stdout.trim().split('\n');
  const row = {};
  h.split('|').forEach((k, i) => (row[k] = Number(v.split('|')[i])));
  return row;
}

const results = [];
for (let rep = 0; rep < reps; rep++) {
  for (const u of utils) {
    const bc = join(bcDir, `${u}.bc`);
    if (!existsSync(bc)) {
      process.stderr.write(`${u}: no ${bc}, skipped\n`);
      continue;
    }
    for (const config of configs) {
      const out = join(outDir, `${u}-${config}-${rep}`);
      rmSync(out, { recursive: true, force: true });
      const args = ['run', '--no-echo-program-output', '--libc=tsklee', '--posix-runtime', `--max-time=${budget}s`, '--max-memory=1000', '--max-solver-time=30s', '--only-output-states-covering-new', `--output-dir=${out}`, ...CONFIG_ARGS[config], bc, ...KLEE_ARGS];
      const r = spawnSync('/usr/bin/time', ['-f', 'cpu %U %S', TSKLEE, ...args], { encoding: 'utf8', maxBuffer: 1 << 26 });
      const cpu = /cpu ([\d.]+) ([\d.]+)/.exec(r.stderr);
      if (r.status !== 0 || !existsSync(join(out, 'run.stats'))) {
        results.push({ util: u, config, rep, failed: r.stderr.split('\n').slice(-4).join(' ') });
        process.stderr.write(`${u} ${config}: failed (${r.status})\n`);
        continue;
      }
      const s = lastStats(out);
      const top = Object.keys(s).find((k) => k.startsWith('SolverLayer') && k.endsWith('Queries'));
      const row = {
        util: u,
        config,
        rep,
        explored: s.States,
        instructions: s.Instructions,
        queries: s[top],
        backend: s.NumQueries,
        solverS: s.SolverTime / 1e6,
        pre: s.SolverLayerIlpPrecheckQueries ?? 0,
        preHits: s.SolverLayerIlpPrecheckHits ?? 0,
        analysisS: (s.SolverLayerIlpAnalysisTime ?? 0) / 1e6,
        ilpS: (s.SolverLayerIlpTime ?? 0) / 1e6,
        guardOffAfter: s.SolverLayerIlpPrecheckOffHits ?? 0,
        cpu: cpu === null ? null : Number(cpu[1]) + Number(cpu[2]),
      };
      results.push(row);
      process.stderr.write(`${JSON.stringify(row)}\n`);
      writeFileSync(join(outDir, 'results.json'), JSON.stringify(results, null, 1));
    }
  }
}

const f = (x, d = 1) => (x === null || x === undefined ? '-' : x.toFixed(d));
const lines = ['| utility | config | paths | instructions | queries | backend | solver s | pre-checked | pre UNSAT | pre own s (ILP s) | guard off after | CPU s |', '|---|---|---|---|---|---|---|---|---|---|---|---|'];
for (const r of results) {
  if (r.failed !== undefined) lines.push(`| ${r.util} | ${r.config} | failed | | | | | | | | | |`);
  else lines.push(`| ${r.util} | ${r.config} | ${r.explored} | ${r.instructions} | ${r.queries} | ${r.backend} | ${f(r.solverS)} | ${r.pre} | ${r.preHits} | ${f(r.analysisS, 2)} (${f(r.ilpS, 2)}) | ${r.guardOffAfter || '-'} | ${f(r.cpu)} |`);
}
writeFileSync(join(outDir, 'results.md'), lines.join('\n') + '\n');
process.stdout.write(lines.join('\n') + '\n');
