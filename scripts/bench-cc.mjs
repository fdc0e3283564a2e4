#!/usr/bin/env node
// `tsklee cc` against clang on a real package: configure + make of a Debian source package
// (default bc; `apt-get source --download-only NAME` with a deb-src line for bookworm),
// each configuration in a fresh copy of the sources. Wall and CPU seconds (user + system of
// everything the build ran, from GNU time), median of --runs.
//
//   node scripts/bench-cc.mjs --tarball /path/bc_1.07.1.orig.tar.gz [--runs 3] [--make-jobs 1]
//     [--make-args 'MAKEINFO=true']   (bc's docs need makeinfo, which the machine may lack)
//     [--configure-args '--disable-nls'] [--configs clang,bash,node,bash-conf]   (which builds to time)
//
// Configurations: clang-19; bin/tsklee cc (the bash front end); the Node driver
// (TSKLEE_CC_VERBOSE=1 makes bin/tsklee-cc hand every step to Node; its command echo is
// dropped); bash-conf: the bash front end with TSKLEE_CC_CONFIGURE_ONLY=1 for configure only.
// Prints a Markdown table.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
function usageError(message) {
  console.error(`bench-cc: ${message}`);
  process.exit(2);
}
let parsed;
try {
  parsed = parseArgs({
    options: {
      tarball: { type: 'string' },
      runs: { type: 'string', default: '3' },
      'make-jobs': { type: 'string', default: '1' },
      'make-args': { type: 'string', default: 'MAKEINFO=true' },
      'configure-args': { type: 'string', default: '' },
      configs: { type: 'string', default: 'clang,bash,node' },
    },
  });
} catch (e) {
  // e.g. `--configure-args --disable-nls`: a value starting with '-' needs `--configure-args=…`
  usageError(e.message.split('\n')[0] + (e.code === 'ERR_PARSE_ARGS_INVALID_OPTION_VALUE' ? ' (write --option=VALUE when VALUE starts with -)' : ''));
}
const { values } = parsed;
if (values.tarball === undefined) usageError('--tarball PATH (a package .orig.tar.*) is required');
const runs = Number(values.runs);
const TSKLEE = join(ROOT, 'bin', 'tsklee');
const ALL_CONFIGS = {
  clang: { name: 'clang-19', cc: 'clang-19', env: {} },
  bash: { name: 'tsklee cc (bash front end)', cc: `${TSKLEE} cc`, env: {} },
  node: { name: 'tsklee cc (Node driver)', cc: `${TSKLEE} cc`, env: { TSKLEE_CC_VERBOSE: '1' } },
  // gllvm's WLLVM_CONFIGURE_ONLY: configure with clang alone, make with bitcode
  'bash-conf': { name: 'tsklee cc, TSKLEE_CC_CONFIGURE_ONLY=1 for configure', cc: `${TSKLEE} cc`, env: {}, configureEnv: { TSKLEE_CC_CONFIGURE_ONLY: '1' } },
};
const configs = values.configs.split(',').map((k) => {
  if (!(k in ALL_CONFIGS)) usageError(`--configs: '${k}' is not one of ${Object.keys(ALL_CONFIGS).join(', ')}`);
  return ALL_CONFIGS[k];
});
if (configs[0] !== ALL_CONFIGS.clang) usageError('--configs must start with clang (the baseline of the ratios)');

function timed(cmd, cwd, env) {
  // FORCE_UNSAFE_CONFIGURE: coreutils' configure refuses root without it
  const r = spawnSync('/usr/bin/time', ['-f', '%e %U %S', 'sh', '-c', `${cmd} >/dev/null 2>build.err`], { cwd, env: { ...process.env, FORCE_UNSAFE_CONFIGURE: '1', ...env }, encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`${cmd} in ${cwd} failed (${r.status}):\n${r.stderr}`);
  const [wall, user, sys] = r.stderr.trim().split('\n').pop().split(' ').map(Number);
  return { wall, cpu: user + sys };
}

const fmt = (t) => `${t.wall.toFixed(1)} s wall, ${t.cpu.toFixed(1)} s CPU`;
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const results = configs.map((c) => ({ ...c, configure: [], make: [] }));
for (let i = 0; i < runs; i++) {
  for (const r of results) {
    const work = mkdtempSync(join(tmpdir(), 'tsklee-bench-cc-'));
    spawnSync('tar', ['xf', values.tarball, '-C', work], { stdio: 'inherit' });
    const src = join(work, readdirSync(work)[0]);
    r.configure.push(timed(`./configure CC="${r.cc}" ${values['configure-args']}`, src, { ...r.env, ...(r.configureEnv ?? {}) }));
    // each measurement as it ends: a long run stopped midway keeps what it measured
    console.error(`bench-cc: run ${i + 1}, ${r.name}: configure ${fmt(r.configure.at(-1))}`);
    r.make.push(timed(`make -j${values['make-jobs']} ${values['make-args']}`, src, r.env));
    console.error(`bench-cc: run ${i + 1}, ${r.name}: make ${fmt(r.make.at(-1))}`);
    rmSync(work, { recursive: true, force: true });
  }
}
const base = results[0];
const cell = (xs, ys) => `${median(xs.map((x) => x.wall)).toFixed(1)} / ${median(xs.map((x) => x.cpu)).toFixed(1)} s (${(median(xs.map((x) => x.cpu)) / median(ys.map((y) => y.cpu))).toFixed(2)}×)`;
console.log(`| build of ${values.tarball.split('/').pop()} | configure wall / CPU (CPU × clang) | make wall / CPU (CPU × clang) |`);
console.log('|---|---|---|');
for (const r of results) console.log(`| ${r.name} | ${cell(r.configure, base.configure)} | ${cell(r.make, base.make)} |`);
