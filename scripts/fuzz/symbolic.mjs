/**
 * The symbolic variant: a csmith program with some of its integer globals made symbolic
 * (klee_make_symbolic at the start of main, before func_1 runs). tsklee explores it; every
 * test of a completed path is then replayed on the natively built program (linked with
 * runtime/replay, which fills the globals from the test) with `tsklee replay --native`, which
 * must reach the same exit status and print the same output. Paths that ended at
 * --max-solver-time (a .solver.err, as KLEE writes) are a limit of the run: not compared; a
 * program all of whose paths ended that way is a `timeout`.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { bitcodeFlags, modeName, nativeFlags, readOutput, runTsklee } from './case.mjs';
import { CLI, ROOT, clang, run } from './proc.mjs';

/** Names of csmith's scalar integer globals (`static [volatile] intN_t g_N = …;`), in order. */
export function scalarGlobals(text) {
  const re = /^static (?:volatile )?u?int(8|16|32|64)_t (g_\d+) = [^;{]*;/gm;
  // narrow ones first: their queries stay small (csmith's safe math on 64-bit values is hard)
  return [...text.matchAll(re)].map((m, i) => ({ name: m[2], bits: Number(m[1]), i })).sort((a, b) => a.bits - b.bits || a.i - b.i).map((g) => g.name);
}

/** The program with up to `count` globals made symbolic; null when it has none. */
export function makeGlobalsSymbolic(text, count) {
  const names = scalarGlobals(text).slice(0, count);
  const at = text.indexOf('    crc32_gentab();');
  if (names.length === 0 || at < 0) return null;
  const calls = names.map((n) => `    klee_make_symbolic((void *)&${n}, sizeof ${n}, "${n}");\n`).join('');
  const withCalls = text.slice(0, at) + calls + text.slice(at);
  return { text: `#include <klee/klee.h>\n${withCalls}`, names };
}

let replayLib = null;

async function buildReplayLib(dir) {
  if (replayLib !== null) return replayLib;
  const build = join(dir, 'replaylib');
  mkdirSync(build, { recursive: true });
  const r = await run('make', ['-s', '-C', join(ROOT, 'runtime', 'replay'), `BUILD=${build}`], { timeoutMs: 120_000 });
  if (r.status !== 0) throw new Error(`building runtime/replay failed: ${r.stderr}`);
  return (replayLib = join(build, 'libtskleeRuntest.a'));
}

/**
 * Explores the symbolic variant of src and replays its tests natively. Resolves to
 * { verdict: 'agree'|'differ'|'skip'|'error'|'timeout', detail, tests }.
 */
export async function checkSymbolic(src, mode, dir, o = {}) {
  const variant = makeGlobalsSymbolic(readFileSync(src, 'utf8'), o.globals ?? 2);
  if (variant === null) return { verdict: 'skip', detail: 'no scalar global to make symbolic', tests: 0 };
  const symSrc = join(dir, 'prog-sym.c');
  writeFileSync(symSrc, variant.text);
  const lib = await buildReplayLib(o.libDir ?? dir);
  const exe = join(dir, `native-sym-${modeName(mode)}`);
  const b = await run(clang(mode.clang), [...nativeFlags(mode), symSrc, lib, '-o', exe], { timeoutMs: 120_000, nice: true });
  if (b.status !== 0) return { verdict: 'skip', detail: `native build failed: ${b.stderr.split('\n')[0]}`, tests: 0 };
  const bc = join(dir, `prog-sym-${modeName(mode)}.bc`);
  const c = await run(clang(mode.clang), [...bitcodeFlags(mode), symSrc, '-o', bc], { timeoutMs: 120_000, nice: true });
  if (c.status !== 0) return { verdict: 'skip', detail: `bitcode build failed: ${c.stderr.split('\n')[0]}`, tests: 0 };
  const out = join(dir, `out-sym-${modeName(mode)}`);
  const seconds = Math.ceil((o.timeoutMs ?? 60_000) / 1000);
  // paths cut by the time limit get no test: only complete paths are replayed
  const t = await runTsklee(bc, out, [`--max-time=${seconds}s`, '--max-solver-time=5s', '--dump-states-on-halt=false'], (3 * seconds + 120) * 1000);
  if (t.timedOut) return { verdict: 'timeout', detail: 'tsklee did not stop at --max-time (killed)', tests: 0 };
  if (t.status !== 0) return { verdict: 'error', detail: `tsklee exited with ${t.status ?? t.signal}: ${t.stderr.trim().split('\n').pop()}`, tests: 0 };
  const got = readOutput(out);
  // a path whose query ran past --max-solver-time ends with a solver error, as in KLEE: a
  // limit of the run, not a finding; its test is not compared (replay says "not compared")
  const findings = got.errs.filter((e) => !e.file.endsWith('.solver.err'));
  if (findings.length > 0) return { verdict: 'error', detail: `${findings[0].file}: ${/^Error: (.*)$/m.exec(findings[0].text)?.[1]}`, tests: got.tests.length };
  const complete = got.tests.length - got.errs.length;
  if (got.tests.length === 0) return { verdict: 'skip', detail: 'no complete path within the time limit', tests: 0 };
  if (complete === 0) return { verdict: 'timeout', detail: `every path ended at --max-solver-time (${got.errs.length} solver errors)`, tests: got.tests.length };
  const r = await run(process.execPath, [CLI, 'replay', '--native', exe, out], { timeoutMs: 600_000, nice: true });
  // `tsklee replay --native` prints a line per test and "replayed N tests natively: A as recorded, D different, …"
  const summary = /replayed (\d+) tests natively: (\d+) as recorded, (\d+) different/.exec(r.stdout);
  if (r.status !== 0 || summary === null || summary[3] !== '0') {
    const first = r.stdout.split('\n').find((l) => /differ|timeout|exit 90/.test(l) && !/replayed/.test(l));
    return { verdict: 'differ', detail: (first ?? summary?.[0] ?? r.stderr.trim().split('\n').pop() ?? '').trim(), tests: got.tests.length };
  }
  const limits = got.errs.length > 0 ? `; ${got.errs.length} paths ended at the solver time limit, not compared` : '';
  return { verdict: 'agree', detail: `${complete} tests replayed (${variant.names.join(', ')} symbolic)${limits}`, tests: got.tests.length };
}
