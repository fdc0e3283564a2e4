#!/usr/bin/env node
/**
 * The relocatable addressing model's overhead on GNU coreutils (paper 003 §4.1-4.2 in shape:
 * "paths identical, 4 % average, 16 % worst"). Each utility runs twice with KLEE's symbolic
 * arguments (lib/coreutils-args.mjs), `--search=dfs` and the same instruction budget: once
 * under KLEE's forking model, once under `--addressing=relocatable` alone. DFS with tsklee's
 * deterministic allocator makes both explore the same instructions, so their completed
 * paths, tests and queries must be equal (the paper's method: both models up to the
 * instruction count of one run); CPU seconds (user + system, GNU time) give the ratio.
 * One run at a time.
 *
 *   node scripts/bench-addressing-coreutils.mjs [--bc-dir DIR] [--utils cat,echo,...]
 *        [--instructions 300000] [--time 300] [--json FILE]
 *
 * DIR: the src/ folder of a `tsklee cc` build of coreutils (scripts/subjects/coreutils.mjs
 * makes one; default ~/.cache/tsklee/subjects/coreutils-9.1-bc/src). --time is only a guard:
 * a run it cuts is marked, and its paths are then no model's answer.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { programArgs } from './subjects/lib/coreutils-args.mjs';
import { arg } from './lib/args.mjs';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const TSKLEE = join(ROOT, 'bin', 'tsklee');

const bcDir = arg('bc-dir', join(homedir(), '.cache/tsklee/subjects/coreutils-9.1-bc/src'));
if (!existsSync(bcDir)) {
  process.stderr.write(`bench-addressing-coreutils: no ${bcDir} (build coreutils with scripts/subjects/coreutils.mjs, or give --bc-dir)\n`);
  process.exit(2);
}
const utils = arg('utils', 'cat,echo,basename,wc,tr,cut,seq,sleep').split(',');
const instructions = Number(arg('instructions', '300000'));
const guard = Number(arg('time', '300'));
const jsonOut = arg('json', undefined);
if (!Number.isInteger(instructions) || instructions <= 0 || !(guard > 0)) {
  process.stderr.write('bench-addressing-coreutils: --instructions must be a positive integer and --time positive\n');
  process.exit(2);
}
const work = mkdtempSync(join(existsSync('/dev/shm') ? '/dev/shm' : tmpdir(), 'tsklee-addr-cu-'));

const value = (text, re) => {
  const m = re.exec(text);
  return m ? Number(m[1]) : null;
};

/** One run: completed paths, tests, queries, instructions, CPU seconds, peak RSS MB, cut by the guard. */
function run(bc, util, model) {
  const out = join(work, `${util}-${model}`);
  const modelArgs = model === 'relocatable' ? ['--addressing=relocatable'] : [];
  const argv = ['-f', 'BENCH %U %S %M', TSKLEE, 'run', '--no-echo-program-output', `--output-dir=${out}`, '--libc=tsklee', '--posix-runtime', '--search=dfs', '--dump-states-on-halt=false', `--max-instructions=${instructions}`, `--max-time=${guard}s`, ...modelArgs, bc, ...programArgs(util)];
  const r = spawnSync('/usr/bin/time', argv, { encoding: 'utf8', maxBuffer: 1 << 28 });
  const m = /BENCH ([\d.]+) ([\d.]+) (\d+)/.exec(r.stderr);
  const info = existsSync(join(out, 'info')) ? readFileSync(join(out, 'info'), 'utf8') : '';
  if (r.status !== 0 || m === null || info === '') throw new Error(`${util} (${model}) failed (${r.status}):\n${r.stderr.slice(-1500)}`);
  rmSync(out, { recursive: true, force: true });
  return {
    paths: value(info, /done: completed paths = (\d+)/),
    partial: value(info, /done: partially completed paths = (\d+)/),
    tests: value(info, /done: generated tests = (\d+)/),
    queries: value(info, /done: total queries = (\d+)/),
    instructions: value(info, /done: total instructions = (\d+)/),
    cpu: Number(m[1]) + Number(m[2]),
    rssMb: Number(m[3]) / 1024,
    cut: /^Halted: HaltTimer/m.test(info),
    info,
  };
}

const rows = [];
try {
  for (const u of utils) {
    const bc = join(bcDir, `${u}.bc`);
    if (!existsSync(bc)) {
      process.stderr.write(`${u}: no ${bc}, skipped\n`);
      continue;
    }
    const c = run(bc, u, 'forking');
    const r = run(bc, u, 'relocatable');
    const differ = ['paths', 'partial', 'tests', 'queries', 'instructions'].filter((k) => c[k] !== r[k]);
    const same = differ.length === 0;
    if (!same) process.stderr.write(`${u}: ${differ.map((k) => `${k} ${c[k]} vs ${r[k]}`).join(', ')}\n`);
    delete c.info;
    delete r.info;
    rows.push({ util: u, forking: c, relocatable: r, same });
    process.stderr.write(`${u}: ${c.paths}/${r.paths} paths, ${c.cpu.toFixed(2)}/${r.cpu.toFixed(2)} CPU s${same ? '' : ' DIFFERENT'}\n`);
  }
} finally {
  rmSync(work, { recursive: true, force: true });
}
if (jsonOut !== undefined) writeFileSync(jsonOut, `${JSON.stringify(rows, null, 1)}\n`);
const f = (x) => x.toFixed(2);
const lines = [
  '| utility | instructions | paths (forking / relocatable) | tests | queries | equal | CPU s forking | CPU s relocatable | ratio | RSS MB forking / relocatable |',
  '|---|---|---|---|---|---|---|---|---|---|',
];
for (const { util, forking: c, relocatable: r, same } of rows) {
  const cut = c.cut || r.cut ? ' (cut by --time)' : '';
  lines.push(`| ${util} | ${c.instructions} | ${c.paths} / ${r.paths}${cut} | ${c.tests} / ${r.tests} | ${c.queries} / ${r.queries} | ${same ? 'yes' : '**no**'} | ${f(c.cpu)} | ${f(r.cpu)} | ${f(r.cpu / c.cpu)} | ${c.rssMb.toFixed(0)} / ${r.rssMb.toFixed(0)} |`);
}
const ratios = rows.map((x) => x.relocatable.cpu / x.forking.cpu);
const sumC = rows.reduce((s, x) => s + x.forking.cpu, 0);
const sumR = rows.reduce((s, x) => s + x.relocatable.cpu, 0);
if (rows.length > 0) {
  lines.push('', `${rows.length} utilities, --search=dfs --max-instructions=${instructions}: ratio of CPU sums ${f(sumR / sumC)}, mean of ratios ${f(ratios.reduce((s, x) => s + x, 0) / ratios.length)}, worst ${f(Math.max(...ratios))}; runs whose paths, tests, queries or instructions differ: ${rows.filter((x) => !x.same).length}`);
}
process.stdout.write(`${lines.join('\n')}\n`);
