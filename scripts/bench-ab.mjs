#!/usr/bin/env node
// Compares tsklee builds on one program, runs interleaved (A, B, A, B, …) so that a noisy
// machine's slow spells hit every build alike; prints each build's median and fastest wall
// time. A build is a directory holding a built tsklee (dist/cli/main.js).
//
// Usage: node scripts/bench-ab.mjs [--runs N] [--cpu] PROGRAM.bc BUILD_DIR[:NODE_FLAGS]... [-- tsklee run options]
// --cpu measures user + system CPU seconds (/usr/bin/time) instead of wall time: on a machine
// shared with other work, CPU time is what a build changes.
//   e.g. node scripts/bench-ab.mjs --runs 11 /tmp/paths.bc /tmp/old-build . -- --search=dfs
// NODE_FLAGS, comma-separated, go to node for that build (`.:--max-semi-space-size=32`). A V8
// flag makes V8 reject a code cache made without it, so train that build's cache under the
// same flags first, or the comparison measures the lost cache.
// Each build runs as bin/tsklee runs it: dist/cli/launch.cjs (dist/cli/main.js in builds older
// than it) without NODE_EXTRA_CA_CERTS. Builds from 2026-11-27 on echo the program's output by
// default (KLEE's console): to compare with an older build, pass `-- --search=dfs
// --no-echo-program-output` when every build knows the flag, or keep in mind that only the
// newer one writes it (the program's output is discarded here either way).
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

const args = process.argv.slice(2);
const dash = args.indexOf('--');
const runOptions = dash >= 0 ? args.splice(dash).slice(1) : ['--search=dfs'];
let runs = 9;
const runsAt = args.indexOf('--runs');
if (runsAt >= 0) runs = Number(args.splice(runsAt, 2)[1]);
const cpuAt = args.indexOf('--cpu');
const cpu = cpuAt >= 0;
if (cpu) args.splice(cpuAt, 1);
const [program, ...specs] = args;
const builds = specs.map((spec) => spec.split(':')[0]);
const nodeFlags = specs.map((spec) => spec.split(':').slice(1).join(':').split(',').filter(Boolean));
if (program === undefined || builds.length === 0 || !(runs > 0)) {
  console.error('usage: node scripts/bench-ab.mjs [--runs N] PROGRAM.bc BUILD_DIR[:NODE_FLAGS]... [-- tsklee run options]');
  process.exit(2);
}
for (const b of builds) {
  if (!existsSync(join(b, 'dist/cli/main.js'))) {
    console.error(`bench-ab: ${b}: no dist/cli/main.js (not a built tsklee)`);
    process.exit(2);
  }
}
// tmpfs when there is one: creating files on a busy disk measures the disk
const work = mkdtempSync(join(existsSync('/dev/shm') ? '/dev/shm' : tmpdir(), 'tsklee-ab-'));
const times = builds.map(() => []);
const entries = builds.map((b) => join(resolve(b), existsSync(join(b, 'dist/cli/launch.cjs')) ? 'dist/cli/launch.cjs' : 'dist/cli/main.js'));
const env = { ...process.env };
delete env.NODE_EXTRA_CA_CERTS;
try {
  for (let r = 0; r < runs; r++) {
    builds.forEach((b, i) => {
      const out = join(work, `out-${r}-${i}`);
      const t0 = performance.now();
      const argv = [...nodeFlags[i], entries[i], 'run', ...runOptions, `--output-dir=${out}`, resolve(program)];
      const p = cpu
        ? spawnSync('/usr/bin/time', ['-f', 'BENCH-CPU %U %S', process.execPath, ...argv], { encoding: 'utf8', env, stdio: ['ignore', 'ignore', 'pipe'] })
        : spawnSync(process.execPath, argv, { stdio: 'ignore', env });
      let s = (performance.now() - t0) / 1000;
      if (p.status !== 0) throw new Error(`${b}: tsklee exited with ${p.status ?? p.signal}`);
      if (cpu) {
        const m = /BENCH-CPU ([\d.]+) ([\d.]+)/.exec(p.stderr);
        if (m === null) throw new Error('bench-ab: --cpu needs /usr/bin/time');
        s = Number(m[1]) + Number(m[2]);
      }
      times[i].push(s);
      rmSync(out, { recursive: true, force: true });
    });
  }
} finally {
  rmSync(work, { recursive: true, force: true });
}
specs.forEach((b, i) => {
  const t = times[i].sort((x, y) => x - y);
  console.log(`${b}: median ${t[Math.floor(t.length / 2)].toFixed(3)} ${cpu ? 'CPU ' : ''}s, fastest ${t[0].toFixed(3)} s (${t.length} runs)`);
});
