#!/usr/bin/env node
/**
 * State merging on real GNU coreutils at a fixed budget (paper 001 §5.3/§5.5 in shape): each
 * utility explored with the same symbolic arguments for --max-time seconds without merging
 * (KLEE's default searcher), with static merging and with dynamic merging (driven by the same
 * default searcher), one run at a time. Reports paths (completed states and the sum of the
 * multiplicities of the ended states), tests, queries, merges, and the utility's own line
 * coverage as tsklee measured it (info's "program coverage": runtime and libc excluded).
 *
 *   node scripts/bench-merging-coreutils.mjs --bc-dir DIR [--utils echo,sleep,...]
 *        [--time 60] [--args "--sym-args 0 2 4 --sym-stdin 8"] [--modes none,static,dynamic] [--out DIR]
 *
 * DIR is the src/ folder of a `tsklee cc` build of coreutils (scripts/subjects/coreutils.mjs
 * makes one). Times are wall seconds of the budget; CPU seconds (GNU time) are kept too.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { arg } from './lib/args.mjs';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const TSKLEE = join(ROOT, 'bin', 'tsklee');

const bcDir = arg('bc-dir', undefined);
if (bcDir === undefined || !existsSync(bcDir)) {
  process.stderr.write('bench-merging-coreutils: --bc-dir DIR (the src/ folder of a tsklee cc build of coreutils) is required\n');
  process.exit(2);
}
const utils = arg('utils', 'echo,sleep,basename,seq,printf,tr,wc,cut').split(',');
const budget = Number(arg('time', '60'));
const symArgs = arg('args', '--sym-args 0 2 4 --sym-stdin 8').split(/\s+/).filter(Boolean);
const modes = arg('modes', 'none,static,dynamic').split(',');
const outDir = arg('out', '/tmp/tsklee-bench-merging-coreutils');
mkdirSync(outDir, { recursive: true });

const MODE_ARGS = { none: [], static: ['--state-merging=static'], dynamic: ['--state-merging=dynamic'] };

function value(text, re) {
  const m = re.exec(text);
  return m ? Number(m[1]) : null;
}

const results = [];
for (const u of utils) {
  const bc = join(bcDir, `${u}.bc`);
  if (!existsSync(bc)) {
    process.stderr.write(`${u}: no ${bc}, skipped\n`);
    continue;
  }
  for (const mode of modes) {
    const out = join(outDir, `${u}-${mode}`);
    rmSync(out, { recursive: true, force: true });
    const timeFile = join(outDir, 'time.txt');
    const t0 = Date.now();
    const argv = ['-f', '%U %S', '-o', timeFile, TSKLEE, 'run', '--no-echo-program-output', `--output-dir=${out}`, '--libc=tsklee', '--posix-runtime', `--max-time=${budget}s`, ...MODE_ARGS[mode], bc, ...symArgs];
    const r = spawnSync('/usr/bin/time', argv, { encoding: 'utf8', maxBuffer: 1 << 28 });
    const wall = (Date.now() - t0) / 1000;
    const [user, sys] = existsSync(timeFile) ? readFileSync(timeFile, 'utf8').trim().split(/\s+/).slice(-2).map(Number) : [NaN, NaN];
    const info = existsSync(join(out, 'info')) ? readFileSync(join(out, 'info'), 'utf8') : '';
    const row = {
      util: u,
      mode,
      status: r.status,
      wall,
      cpu: user + sys,
      completed: value(info, /done: completed paths = (\d+)/),
      explored: value(info, /done: explored paths = (\d+)/),
      tests: value(info, /done: generated tests = (\d+)/),
      queries: value(info, /done: total queries = (\d+)/),
      merges: value(info, /done: merged states = (\d+)/),
      multiplicity: value(info, /done: path multiplicity = (\d+)/),
      lineCov: value(info, /program coverage \(runtime excluded\):.* lines \d+\/\d+ \(([\d.]+)%\)/),
      branchCov: value(info, /program coverage \(runtime excluded\):.* branches \d+\/\d+ \(([\d.]+)%\)/),
      finished: !/Halted:/.test(info),
    };
    results.push(row);
    process.stderr.write(
      `${u} ${mode}: ${row.completed} completed, multiplicity ${row.multiplicity ?? row.completed}, ${row.tests} tests, lines ${row.lineCov}%, branches ${row.branchCov}%, ${row.queries} queries${row.finished ? ' (finished)' : ''}\n`,
    );
  }
}
writeFileSync(join(outDir, 'merging-coreutils.json'), JSON.stringify(results, null, 1));
const lines = [
  `| utility | ${modes.map((m) => `${m}: paths (multiplicity)`).join(' | ')} | ${modes.map((m) => `${m}: lines %`).join(' | ')} | ${modes.map((m) => `${m}: queries`).join(' | ')} |`,
];
lines.push(`|${' --- |'.repeat(1 + 3 * modes.length)}`);
for (const u of utils) {
  const by = Object.fromEntries(modes.map((m) => [m, results.find((r) => r.util === u && r.mode === m)]));
  if (Object.values(by).every((r) => r === undefined)) continue;
  const paths = (r) => (r === undefined ? '' : `${r.completed}${r.multiplicity !== null && r.multiplicity !== r.completed ? ` (${r.multiplicity})` : ''}${r.finished ? ' ✓' : ''}`);
  lines.push(`| ${u} | ${modes.map((m) => paths(by[m])).join(' | ')} | ${modes.map((m) => by[m]?.lineCov ?? '').join(' | ')} | ${modes.map((m) => by[m]?.queries ?? '').join(' | ')} |`);
}
lines.push('', `${budget} s per run, arguments \`${symArgs.join(' ')}\`; ✓: the exploration finished within the budget.`);
writeFileSync(join(outDir, 'merging-coreutils.md'), `${lines.join('\n')}\n`);
process.stdout.write(`${lines.join('\n')}\n`);
