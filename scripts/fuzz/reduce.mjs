/**
 * Reduces a disagreeing program to a small reproducer with cvise (Debian's `cvise`; creduce
 * works the same way and is used when cvise is missing). The interestingness test is
 * `node scripts/fuzz.mjs --check prog.c …`: the program must still be free of the undefined
 * behaviour a reduction tends to introduce (ASan + UBSan run, uninitialised values, missing
 * returns and declarations are errors) and tsklee must still disagree the same way.
 */
import { chmodSync, copyFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { checkProgram, modeName, nativeFlags } from './case.mjs';
import { ROOT, clang, onPath, run } from './proc.mjs';

/** Warnings that mean the reduced program has undefined behaviour or is not C any more. */
const STRICT = [
  '-Werror=uninitialized',
  '-Werror=sometimes-uninitialized',
  '-Werror=return-type',
  '-Werror=implicit-function-declaration',
  '-Werror=implicit-int',
  '-Werror=incompatible-pointer-types',
  '-Werror=int-conversion',
  '-Werror=pointer-sign',
  '-Werror=tautological-compare',
  '-Werror=array-bounds',
  '-Werror=main-return-type',
];

/** The program still has no undefined behaviour a sanitizer or the compiler can see. */
export async function wellDefined(src, mode, dir) {
  const exe = join(dir, 'sanitized');
  const flags = nativeFlags({ ...mode, opt: 0 }).filter((f) => f !== '-w');
  const b = await run(clang(mode.clang), [...flags, ...STRICT, '-fsanitize=address,undefined', '-fno-sanitize-recover=all', src, '-o', exe], { timeoutMs: 120_000, nice: true });
  if (b.status !== 0) return false;
  const r = await run(exe, [], { timeoutMs: 10_000, env: { ...process.env, ASAN_OPTIONS: 'detect_leaks=0' } });
  return !r.timedOut && r.status === 0 && r.signal === null && !/runtime error|AddressSanitizer/.test(r.stderr);
}

/** The interestingness check: exit 0 when src still shows the same kind of disagreement. */
export async function stillInteresting(src, mode, expect) {
  const dir = mkdtempSync(join(tmpdir(), 'tsklee-fuzz-check-'));
  try {
    if (!(await wellDefined(src, mode, dir))) return false;
    const o = await checkProgram(src, mode, dir, { timeoutMs: 60_000 });
    const [verdict, needle] = expect.split(/:(.*)/s);
    return o.verdict === verdict && (needle === undefined || needle === '' || o.detail.includes(needle));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** What a reduction must keep: the verdict, and for errors the error's message. */
export function expectationOf(outcome) {
  if (outcome.verdict === 'error') {
    const m = /\.err: (.*)$/.exec(outcome.detail);
    return m ? `error:${m[1]}` : 'error';
  }
  return outcome.verdict;
}

/** Reduces caseDir/prog.c in place (keeps prog.orig.c); resolves to the reduced size in lines or null. */
export async function reduce(caseDir, mode, expect, o = {}) {
  const tool = onPath('cvise') ? 'cvise' : onPath('creduce') ? 'creduce' : null;
  if (tool === null) throw new Error('reduction needs cvise or creduce (apt-get install cvise)');
  const src = join(caseDir, 'prog.c');
  copyFileSync(src, join(caseDir, 'prog.orig.c'));
  const script = join(caseDir, 'interesting.sh');
  const modeArgs = [`--clang=${mode.clang}`, `--opt=${mode.opt}`, ...(mode.float ? ['--float'] : [])];
  writeFileSync(
    script,
    `#!/bin/sh\n# ${modeName(mode)}: still "${expect}" and still well defined\nexec node ${JSON.stringify(join(ROOT, 'scripts', 'fuzz.mjs'))} --check prog.c ${modeArgs.join(' ')} --expect ${JSON.stringify(expect)}\n`,
  );
  chmodSync(script, 0o755);
  const args = tool === 'cvise' ? ['--n', '1', '--timeout', '300', '--tidy', script, 'prog.c'] : ['--n', '1', '--timeout', '300', script, 'prog.c'];
  const r = await run(tool, args, { cwd: caseDir, timeoutMs: o.timeoutMs ?? 3_600_000, nice: true });
  if (r.status !== 0 && !r.timedOut) return null;
  return readFileSync(src, 'utf8').split('\n').length;
}
