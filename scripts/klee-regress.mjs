#!/usr/bin/env node
// Runs lit-style test programs (KLEE's test/ directory layout: `// RUN:` lines, FileCheck
// `// CHECK:` lines) through tsklee and prints one verdict line per program. It fetches
// nothing: point it at a directory of such .c files you have (README: "KLEE's regression
// programs"). A probe, not a lit replacement: %-substitutions for the common cases only.
//
//   node scripts/klee-regress.mjs DIR [--out=/tmp/klee-regress] [--flags="..."]
//        [--filecheck=/usr/lib/llvm-14/bin/FileCheck] [--clang=clang-16] [--timeout=60]
//
// tsklee's defaults are KLEE's (`KLEE:` console lines, the program's output echoed), so
// `%klee` is plain `tsklee run`; --klee-prefix is accepted and does nothing (it rewrote the
// older `tsklee:` prefix). Each program's commands and output are in OUT/NAME/log.txt.
import { spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const repo = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const opts = { out: '/tmp/klee-regress', flags: '', filecheck: '', clang: 'clang-16', timeout: 60 };
const dirs = [];
for (const a of process.argv.slice(2)) {
  const m = /^--([a-z-]+)(?:=(.*))?$/.exec(a);
  if (m === null) dirs.push(a);
  else if (m[1] === 'klee-prefix') continue; // the default now
  else if (m[1] in { out: 1, flags: 1, filecheck: 1, clang: 1, timeout: 1 }) opts[m[1]] = m[2] ?? '';
  else throw new Error(`unknown option ${a}`);
}
if (dirs.length === 0) {
  console.error('usage: node scripts/klee-regress.mjs DIR... [--out=DIR] [--flags=...]');
  process.exit(2);
}
const fileCheck = opts.filecheck || ['/usr/lib/llvm-19/bin/FileCheck', '/usr/lib/llvm-16/bin/FileCheck', '/usr/lib/llvm-14/bin/FileCheck'].find(existsSync);
if (fileCheck === undefined) throw new Error('no FileCheck found: give --filecheck=PATH');

// wrappers the RUN lines call by name
const bin = join(resolve(opts.out), 'bin');
mkdirSync(bin, { recursive: true });
const tsklee = `node ${join(repo, 'dist/cli/main.js')}`;
const wrappers = {
  tsklee: `exec ${tsklee} "$@"`,
  klee: `exec ${join(bin, 'tsklee')} run ${opts.flags} "$@"`,
  'ktest-tool': `exec ${tsklee} ktest "$@"`,
  'klee-stats': `exec ${tsklee} stats "$@"`,
  FileCheck: `exec ${fileCheck} "$@"`,
  not: 'if [ "$1" = --crash ]; then shift; "$@"; [ $? -ge 128 ]; exit $?; fi; "$@" && exit 1; exit 0',
};
for (const [name, body] of Object.entries(wrappers)) {
  writeFileSync(join(bin, name), `#!/bin/bash\n${body}\n`);
  chmodSync(join(bin, name), 0o755);
}

const cc = `${opts.clang} -I ${join(repo, 'runtime/include')} -Wno-everything`;
const subs = [
  ['%klee-stats', 'klee-stats'], ['%ktest-tool', 'ktest-tool'], ['%klee', 'klee'], ['%llvmgcc', cc], ['%clang', cc],
  ['%O0opt', '-O0 -Xclang -disable-O0-optnone'], ['%checkdiv', ''],
];

function runLines(text) {
  const out = [];
  let cur = '';
  for (const line of text.split('\n')) {
    const m = /(?:\/\/|;)\s*RUN:\s?(.*)$/.exec(line);
    if (m === null) continue;
    const s = m[1].trimEnd();
    if (s.endsWith('\\')) cur += `${s.slice(0, -1)} `;
    else {
      out.push(cur + s);
      cur = '';
    }
  }
  return out;
}

// [name, file]: a directory's programs are named DIR_SUBDIR_FILE.c
const files = dirs
  .flatMap((d) => (statSync(d).isDirectory() ? readdirSync(d, { recursive: true }).map((f) => [join(basename(resolve(d)), String(f)), resolve(d, String(f))]) : [[basename(d), resolve(d)]]))
  .filter(([, f]) => f.endsWith('.c'))
  .sort();
let passed = 0;
for (const [rel, file] of files) {
  const name = rel.replaceAll('/', '_');
  const work = join(resolve(opts.out), name);
  rmSync(work, { recursive: true, force: true });
  mkdirSync(work, { recursive: true });
  let log = '';
  let verdict = 'pass';
  const text = readFileSync(file, 'utf8');
  const lines = runLines(text);
  if (lines.length === 0) verdict = 'skip (no RUN line)';
  for (const [i, raw] of lines.entries()) {
    let cmd = raw;
    for (const [k, v] of subs) cmd = cmd.replaceAll(k, v);
    cmd = cmd.replaceAll('%s', file).replaceAll('%S', dirname(file)).replaceAll('%t', join(work, 't')).replaceAll('%T', work);
    const r = spawnSync('bash', ['-o', 'pipefail', '-c', cmd], { cwd: work, encoding: 'utf8', timeout: Number(opts.timeout) * 1000, env: { ...process.env, PATH: `${bin}:${process.env.PATH}` } });
    log += `$ ${cmd}\n${r.stdout ?? ''}${r.stderr ?? ''}[status ${r.status ?? r.signal}]\n`;
    if (r.status !== 0) {
      const last = `${r.stdout ?? ''}${r.stderr ?? ''}`.trim().split('\n').pop() ?? '';
      verdict = `FAIL at RUN ${i + 1} (status ${r.status ?? r.signal}): ${last.slice(0, 140)}`;
      break;
    }
  }
  writeFileSync(join(work, 'log.txt'), log);
  // lit's `XFAIL: *`: a failing RUN line is the expected outcome, passing them all is XPASS
  if (/^\/\/ XFAIL: \*$/m.test(text) && lines.length > 0) verdict = verdict === 'pass' ? 'FAIL (XPASS: marked XFAIL, every RUN line passed)' : `pass (XFAIL, as marked: ${verdict.slice(5)})`;
  if (verdict.startsWith('pass')) passed++;
  console.log(`${name.padEnd(60)} ${verdict}`);
}
console.log(`${passed} of ${files.length} passed (logs in ${resolve(opts.out)})`);
