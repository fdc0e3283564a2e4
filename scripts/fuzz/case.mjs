/**
 * One random program in one mode: generate it with csmith, build it natively and as bitcode
 * with the same clang and optimisation level, run both (tsklee concretely: csmith programs
 * read no input) and compare what they print (the checksum) and their exit status.
 *
 * A mode is { clang: 16|19, opt: 0|2, float: bool }. Verdicts:
 *   agree    same stdout and exit status, one completed path, no error report
 *   differ   tsklee printed or returned something else (a semantic bug, or a reduction target)
 *   error    tsklee reported an error (an .err file), ended abnormally or wrote no test
 *   timeout  tsklee did not finish within its budget (counted, not a disagreement)
 *   fail-both the native program died of a signal and tsklee reported an error (at -O2 clang
 *            turns a loop it proves endless, undefined in C11, into `unreachable`)
 *   ub       the program is undefined, so no answer is wrong: the native program exited, and
 *            tsklee reached an `unreachable` instruction on every path (clang compiled undefined
 *            behaviour it proved, an endless loop without side effects, into `unreachable`, and
 *            the native code runs off the end of the function into whatever follows: seed 1002
 *            at clang-19 -O2, exit 132, no output); or the two differ and the native build with
 *            -fsanitize=undefined reports undefined behaviour (seed 1361 at clang-19 -O0
 *            --float: a float constant out of uint8_t's range)
 *   skip     the program is unusable: csmith or clang failed, or the native run used more
 *            than a second of CPU (csmith programs may loop for hours; tsklee interprets
 *            ~7 M LLVM instructions per second, so a second of native work is minutes of its)
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { CSMITH_INCLUDE, INCLUDE, LAUNCHER, clang, run, tskleeEnv } from './proc.mjs';

/**
 * Native runs using more CPU than this are skipped. CPU time, not wall time: on a loaded
 * machine a short program can take seconds of wall time. The wall-clock limit only catches
 * a program that sleeps or blocks.
 */
export const NATIVE_CPU_S = 1;
const NATIVE_WALL_MS = 60_000;

export function modeName(m) {
  return `clang${m.clang}-O${m.opt}${m.float ? '-float' : ''}`;
}

/** csmith's program for a seed, written to dir/prog.c; null when csmith fails. */
export async function generate(seed, mode, dir) {
  const src = join(dir, 'prog.c');
  // csmith writes platform.info into its working directory
  const r = await run('csmith', ['--seed', String(seed), ...(mode.float ? ['--float'] : []), '-o', src], { cwd: dir, timeoutMs: 60_000, nice: true });
  return r.status === 0 && existsSync(src) ? src : null;
}

const COMMON = ['-w', '-I', CSMITH_INCLUDE, '-I', INCLUDE, '--target=x86_64-unknown-linux-gnu'];

export function nativeFlags(mode) {
  return [`-O${mode.opt}`, ...COMMON];
}

export function bitcodeFlags(mode) {
  return [`-O${mode.opt}`, '-g', '-c', '-emit-llvm', ...COMMON];
}

/** The first test's recorded stdout and exit status, the .err files and the totals of a tsklee output directory. */
export function readOutput(dir) {
  const files = existsSync(dir) ? readdirSync(dir) : [];
  const errs = files.filter((f) => f.endsWith('.err'));
  const tests = files.filter((f) => f.endsWith('.ktest')).sort();
  const statusFile = join(dir, 'exit-status.txt');
  const statuses = new Map();
  if (existsSync(statusFile)) {
    for (const line of readFileSync(statusFile, 'utf8').split('\n')) {
      const [t, s] = line.trim().split(/\s+/);
      if (t) statuses.set(t, Number(s));
    }
  }
  const first = tests[0]?.replace(/\.ktest$/, '');
  const stdoutFile = first ? join(dir, `${first}.stdout`) : '';
  return {
    tests,
    errs: errs.map((f) => ({ file: f, text: readFileSync(join(dir, f), 'utf8') })),
    stdout: stdoutFile && existsSync(stdoutFile) ? readFileSync(stdoutFile, 'utf8') : '',
    status: first ? statuses.get(first) : undefined,
    info: existsSync(join(dir, 'info')) ? readFileSync(join(dir, 'info'), 'utf8') : '',
  };
}

/**
 * Builds and runs the native program; { ok, stdout, status, ms }, { ok: false, crashed:
 * signal, why } when it died of a signal, or { ok: false, why }.
 */
export async function runNative(src, mode, dir) {
  const exe = join(dir, `native-${modeName(mode)}`);
  const b = await run(clang(mode.clang), [...nativeFlags(mode), src, '-o', exe], { timeoutMs: 120_000, nice: true });
  if (b.status !== 0) return { ok: false, why: `native build failed: ${b.stderr.split('\n')[0]}` };
  // soft limit: SIGXCPU at NATIVE_CPU_S; the hard one (a second later) kills a program that catches it
  const r = await run('prlimit', [`--cpu=${NATIVE_CPU_S}:${NATIVE_CPU_S + 1}`, exe], { timeoutMs: NATIVE_WALL_MS });
  if (r.signal === 'SIGXCPU' || (r.signal === 'SIGKILL' && !r.timedOut)) return { ok: false, why: `native run over ${NATIVE_CPU_S} s of CPU` };
  if (r.timedOut) return { ok: false, why: `native run over ${NATIVE_WALL_MS / 1000} s (blocked?)` };
  if (r.signal !== null) return { ok: false, crashed: r.signal, why: `native run died of ${r.signal}` };
  return { ok: true, stdout: r.stdout, status: r.status, ms: r.ms, exe };
}

/** Compiles src to bitcode for the mode; the .bc path or { why }. */
export async function buildBitcode(src, mode, dir, extra = []) {
  const bc = join(dir, `prog-${modeName(mode)}.bc`);
  const b = await run(clang(mode.clang), [...bitcodeFlags(mode), ...extra, src, '-o', bc], { timeoutMs: 120_000, nice: true });
  return b.status === 0 ? bc : { why: `bitcode build failed: ${b.stderr.split('\n')[0]}` };
}

/**
 * What the comparison never reads: assembly.ll, run.istats and run.stats (on a long csmith
 * run, formatting them was ~14 % of tsklee's CPU time).
 */
const QUIET = ['--output-source=false', '--istats-write-interval=0', '--stats-write-interval=0'];

/** `tsklee run` on a bitcode file into outDir. */
export function runTsklee(bc, outDir, args, timeoutMs) {
  return run(process.execPath, [LAUNCHER, 'run', '--no-echo-program-output', '--libc=tsklee', '--search=dfs', ...QUIET, `--output-dir=${outDir}`, ...args, bc], { timeoutMs, nice: true, env: tskleeEnv() });
}

/**
 * Compares tsklee with the native program on one source; resolves to
 * { verdict, detail, nativeMs?, tskleeMs? }. A difference in a program UBSan finds undefined
 * is `ub`, not `differ`: such a program has no one right answer (csmith's float mode assigns
 * out-of-range float constants to integers, which clang folds to poison and the native code
 * stores as whatever a register held).
 */
export async function checkProgram(src, mode, dir, o = {}) {
  const outcome = await compareProgram(src, mode, dir, o);
  if (outcome.verdict !== 'differ') return outcome;
  const ub = await undefinedBehaviour(src, mode, dir);
  return ub === null ? outcome : { ...outcome, verdict: 'ub', detail: `${outcome.detail}; undefined: ${ub}` };
}

/** The first UBSan report of the native program built with -fsanitize=undefined, or null. */
export async function undefinedBehaviour(src, mode, dir) {
  const exe = join(dir, `ubsan-${modeName(mode)}`);
  const b = await run(clang(mode.clang), [...nativeFlags(mode), '-fsanitize=undefined', src, '-o', exe], { timeoutMs: 120_000, nice: true });
  if (b.status !== 0) return null;
  const env = { ...process.env, UBSAN_OPTIONS: 'print_stacktrace=0:halt_on_error=1' };
  const r = await run('prlimit', [`--cpu=${4 * NATIVE_CPU_S}:${4 * NATIVE_CPU_S + 1}`, exe], { timeoutMs: NATIVE_WALL_MS, env });
  const m = /runtime error: (.*)/.exec(r.stderr);
  return m === null ? null : m[1].trim();
}

async function compareProgram(src, mode, dir, o) {
  const timeoutMs = o.timeoutMs ?? 120_000;
  const native = await runNative(src, mode, dir);
  if (!native.ok && native.crashed === undefined) return { verdict: 'skip', detail: native.why };
  const bc = await buildBitcode(src, mode, dir);
  if (typeof bc !== 'string') return { verdict: 'skip', detail: bc.why };
  const out = join(dir, `out-${modeName(mode)}`);
  const t = await runTsklee(bc, out, [`--max-time=${Math.ceil(timeoutMs / 1000)}s`, '--dump-states-on-halt=false'], timeoutMs + 30_000);
  const res = { nativeMs: native.ms, tskleeMs: t.ms };
  if (t.timedOut) return { ...res, verdict: 'timeout', detail: 'tsklee killed after its budget' };
  const got = readOutput(out);
  if (/halted|max-time|interrupted/i.test(got.info) && got.tests.length === 0) return { ...res, verdict: 'timeout', detail: 'tsklee stopped at --max-time' };
  if (t.status !== 0) return { ...res, verdict: 'error', detail: `tsklee exited with ${t.status ?? t.signal}: ${lastLines(t.stderr)}` };
  const report = got.errs.length > 0 ? `${got.errs[0].file}: ${/^Error: (.*)$/m.exec(got.errs[0].text)?.[1] ?? got.errs[0].text.split('\n')[0]}` : null;
  if (!native.ok) {
    // the native program crashed: tsklee must report an error too (on every path it ran)
    if (report !== null && got.errs.length === got.tests.length) return { ...res, verdict: 'fail-both', detail: `${native.why}; tsklee ${report}` };
    return { ...res, verdict: 'differ', detail: `${native.why}; tsklee ${report ?? `completed, printed ${JSON.stringify(got.stdout.trim())}`}` };
  }
  if (report !== null && got.errs.length === got.tests.length && got.errs.every((e) => UNREACHABLE.test(e.text))) return { ...res, verdict: 'ub', detail: `native exited with ${native.status}; tsklee ${report}` };
  if (report !== null) return { ...res, verdict: 'error', detail: report };
  if (got.tests.length !== 1) return { ...res, verdict: 'error', detail: `${got.tests.length} tests (expected 1)` };
  if (got.stdout !== native.stdout) return { ...res, verdict: 'differ', detail: `stdout: tsklee ${JSON.stringify(got.stdout.trim())}, native ${JSON.stringify(native.stdout.trim())}` };
  if (got.status !== native.status) return { ...res, verdict: 'differ', detail: `exit status: tsklee ${got.status}, native ${native.status}` };
  return { ...res, verdict: 'agree', detail: native.stdout.trim() };
}

const UNREACHABLE = /reached "unreachable" instruction/;

function lastLines(s) {
  return s.trim().split('\n').slice(-2).join(' | ');
}

/** Writes a reproducer directory: the program and a README with the commands and what differed. */
export function saveCase(root, seed, mode, src, outcome) {
  const dir = join(root, `${modeName(mode)}-seed${seed}`);
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'prog.c'), readFileSync(src));
  const cmd = [
    `# ${outcome.verdict}: ${outcome.detail}`,
    `${clang(mode.clang)} ${nativeFlags(mode).join(' ')} prog.c -o native && ./native`,
    `${clang(mode.clang)} ${bitcodeFlags(mode).join(' ')} prog.c -o prog.bc && bin/tsklee run --libc=tsklee prog.bc`,
    '',
  ].join('\n');
  writeFileSync(join(dir, 'README'), cmd);
  return dir;
}
