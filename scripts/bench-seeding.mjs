#!/usr/bin/env node
// Time to the first error with and without a seed (KLEE's --seed-file), on bench/seeding/magic.c:
// a bug behind a scored header of HEADER bytes and a 4-byte magic number. Each run stops at the
// first error (--exit-on-error); CPU seconds (user + system, /usr/bin/time) and wall seconds.
//
// Usage: node scripts/bench-seeding.mjs [--header N] [--runs N] [-- tsklee run options]
//   e.g. node scripts/bench-seeding.mjs --header 8 --runs 3
// Needs a built tsklee (npm run build) and clang-19.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { writeKTestFile } from '../dist/output/ktest.js';

const args = process.argv.slice(2);
const dash = args.indexOf('--');
const runOptions = dash >= 0 ? args.splice(dash).slice(1) : [];
const opt = (name, dflt) => {
  const i = args.indexOf(name);
  return i >= 0 ? Number(args.splice(i, 2)[1]) : dflt;
};
const header = opt('--header', 8);
const runs = opt('--runs', 1);
if (!(header >= 2 && header % 2 === 0) || !(runs >= 1) || args.length > 0) {
  console.error('usage: node scripts/bench-seeding.mjs [--header EVEN_N] [--runs N] [-- tsklee run options]');
  process.exit(2);
}
const work = mkdtempSync(join(existsSync('/dev/shm') ? '/dev/shm' : tmpdir(), 'tsklee-seeding-'));
const root = resolve(new URL('..', import.meta.url).pathname);
const env = { ...process.env };
delete env.NODE_EXTRA_CA_CERTS;
try {
  const bc = join(work, 'magic.bc');
  const cc = spawnSync('clang-19', ['-emit-llvm', '-c', '-g', '-O0', '-Xclang', '-disable-O0-optnone', `-I${join(root, 'runtime/include')}`, `-DHEADER=${header}`, join(root, 'bench/seeding/magic.c'), '-o', bc], { encoding: 'utf8' });
  if (cc.status !== 0) throw new Error(`clang-19: ${cc.stderr}`);
  // half upper case (2 each), half lower case (1 each): the score HEADER * 3 / 2; then the magic, little-endian
  const text = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ'.slice(0, header / 2) + 'abcdefghijklmnopqrstuvwxyz'.slice(0, header / 2);
  const seed = join(work, 'seed.ktest');
  writeKTestFile(seed, { version: 3, args: [bc], symArgvs: 0, symArgvLen: 0, objects: [{ name: 'in', bytes: Uint8Array.from([...Buffer.from(text), 0x45, 0x45, 0x4c, 0x4b]) }] });
  const measure = (label, extra) => {
    const rows = [];
    for (let r = 0; r < runs; r++) {
      const out = join(work, `${label}-${r}`);
      const argv = [join(root, 'dist/cli/launch.cjs'), 'run', '--no-echo-program-output', '--exit-on-error', `--output-dir=${out}`, ...extra, ...runOptions, bc];
      const t0 = performance.now();
      const p = spawnSync('/usr/bin/time', ['-f', 'BENCH-CPU %U %S', process.execPath, ...argv], { encoding: 'utf8', env, maxBuffer: 1 << 26 });
      const wall = (performance.now() - t0) / 1000;
      // --exit-on-error: status 1 when the run stopped at an error
      if (p.status !== 1 || !/EXITING ON ERROR: ASSERTION FAIL/.test(p.stderr)) throw new Error(`${label}: no error found (exit ${p.status})\n${p.stderr.slice(-2000)}`);
      const m = /BENCH-CPU ([\d.]+) ([\d.]+)/.exec(p.stderr);
      rows.push({ cpu: Number(m[1]) + Number(m[2]), wall });
    }
    const med = (xs) => xs.sort((a, b) => a - b)[Math.floor(xs.length / 2)];
    return { cpu: med(rows.map((r) => r.cpu)), wall: med(rows.map((r) => r.wall)) };
  };
  const seeded = measure('seeded', [`--seed-file=${seed}`]);
  const unseeded = measure('unseeded', []);
  const fmt = (x) => x.toFixed(2).padStart(8);
  console.log(`bench/seeding/magic.c, HEADER=${header}, median of ${runs}; tsklee run --exit-on-error ${runOptions.join(' ')}`);
  console.log('                 CPU s   wall s');
  console.log(`without seed  ${fmt(unseeded.cpu)} ${fmt(unseeded.wall)}`);
  console.log(`with seed     ${fmt(seeded.cpu)} ${fmt(seeded.wall)}`);
  console.log(`ratio         ${fmt(unseeded.cpu / seeded.cpu)} ${fmt(unseeded.wall / seeded.wall)}`);
} finally {
  rmSync(work, { recursive: true, force: true });
}
