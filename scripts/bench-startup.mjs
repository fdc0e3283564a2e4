#!/usr/bin/env node
/**
 * Start-up of `tsklee run` on tiny programs (README, "Long runs": Start-up): median wall and
 * CPU (user + system, from /usr/bin/time) of N runs of each configuration, the
 * configurations interleaved so that a change in the machine's load hits them alike.
 *
 *   node scripts/bench-startup.mjs [--runs 11] [--tsklee bin/tsklee] [--baseline OTHER/bin/tsklee]
 *
 * Configurations: printf("hi") with --libc=tsklee --posix-runtime, with --libc=tsklee, and
 * `int main(void) { return 0; }` without libc; each with the assembly.ll cache off
 * (TSKLEE_CACHE_DIR=, every run prints) and warm (a cache directory filled by a first run,
 * not timed). --baseline adds the same three runs of another tsklee (e.g. main's checkout),
 * without a cache. Programs are compiled with clang-16 -O0 -g; output goes to a temporary
 * directory.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

const args = process.argv.slice(2);
const opt = (name, dflt) => {
  const i = args.indexOf(name);
  return i >= 0 ? args[i + 1] : dflt;
};
const runs = Number(opt('--runs', '11'));
const tsklee = resolve(opt('--tsklee', 'bin/tsklee'));
const baseline = opt('--baseline', undefined);

const dir = mkdtempSync(join(tmpdir(), 'tsklee-startup-bench-'));
const compile = (name, src) => {
  writeFileSync(join(dir, `${name}.c`), src);
  const r = spawnSync('clang-16', ['-O0', '-g', '-c', '-emit-llvm', join(dir, `${name}.c`), '-o', join(dir, `${name}.bc`)], { encoding: 'utf8' });
  if (r.status !== 0) {
    console.error(`bench-startup: clang-16 failed: ${r.stderr || r.error}`);
    process.exit(2);
  }
  return join(dir, `${name}.bc`);
};
const hi = compile('hi', '#include <stdio.h>\nint main(void) { printf("hi"); return 0; }\n');
const nop = compile('nop', 'int main(void) { return 0; }\n');

const programs = [
  ['printf("hi"), --libc=tsklee --posix-runtime', ['--libc=tsklee', '--posix-runtime', hi]],
  ['printf("hi"), --libc=tsklee', ['--libc=tsklee', hi]],
  ['int main(void) { return 0; } (no libc)', [nop]],
];
const warmCache = join(dir, 'cache');
const configs = [];
for (const [what, argv] of programs) {
  configs.push({ what, mode: 'cache off', bin: tsklee, argv, cache: '' });
  configs.push({ what, mode: 'cache warm', bin: tsklee, argv, cache: warmCache });
  if (baseline !== undefined) configs.push({ what, mode: 'baseline', bin: resolve(baseline), argv, cache: '' });
}
configs.push({ what: 'node -e 0', mode: '', bin: process.execPath, argv: null, cache: '' });

let n = 0;
function once(c) {
  const out = join(dir, `out${n++}`);
  const cmd = c.argv === null ? [c.bin, '-e', '0'] : [c.bin, 'run', `--output-dir=${out}`, ...c.argv];
  const env = { ...process.env, TSKLEE_CACHE_DIR: c.cache };
  // bin/tsklee drops it (node parses that certificate file before any script: ~0.06 s)
  delete env.NODE_EXTRA_CA_CERTS;
  const r = spawnSync('/usr/bin/time', ['-f', '%e %U %S', ...cmd], { encoding: 'utf8', env });
  if (r.error) {
    console.error(`bench-startup: cannot run /usr/bin/time: ${r.error.message}`);
    process.exit(2);
  }
  const last = r.stderr.trim().split('\n').pop() ?? '';
  const [wall, user, sys] = last.split(' ').map(Number);
  if (r.status !== 0 || !Number.isFinite(wall)) {
    console.error(`bench-startup: ${cmd.join(' ')} failed: ${r.stderr.trim().split('\n').slice(-3).join(' | ')}`);
    process.exit(2);
  }
  rmSync(out, { recursive: true, force: true });
  return { wall, cpu: user + sys };
}

for (const c of configs) if (c.cache !== '') once(c); // fill the warm cache
const samples = configs.map(() => []);
for (let i = 0; i < runs; i++) configs.forEach((c, j) => samples[j].push(once(c)));
const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)];
};
console.log(`| program | mode | wall s | CPU s |\n|---|---|---|---|`);
configs.forEach((c, j) => {
  console.log(`| ${c.what} | ${c.mode} | ${median(samples[j].map((s) => s.wall)).toFixed(2)} | ${median(samples[j].map((s) => s.cpu)).toFixed(2)} |`);
});
rmSync(dir, { recursive: true, force: true });
