/**
 * `tsklee replay prog.bc|prog.c TEST.ktest|klee-out-N …`: re-executes each test concretely in
 * the interpreter and prints where it ends (`test000001.ktest: exit 0`, `…: error: ptr: …`).
 * Exit 0 when every test replayed (errors found included); 1 for an unreadable test or one
 * whose objects do not fit the program's klee_make_symbolic calls.
 *
 * `tsklee replay --native BINARY TEST… `: runs a natively built program on each test (KLEE's
 * klee-replay) and compares its exit status and stdout with what `tsklee run` recorded beside
 * the test (src/replay/recorded.ts); exit 1 on any difference.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import type { Argv, CommandModule } from 'yargs';
import { InputError } from '../../load.js';
import { readTests, type TestInput } from '../../replay/tests.js';
import { replayConcrete } from '../../replay/concrete.js';
import { nativeInputs, PosixInputsError } from '../../replay/posix-inputs.js';
import { runNative } from '../../replay/native.js';
import { RecordedDir } from '../../replay/recorded.js';
import { compareRun, type Verdict } from '../../replay/compare.js';
import { LIBC_CHOICES, loadProgram, RuntimeSetupError, type LibcChoice } from '../../engine/prepare/runtime.js';
import type { GlobalArgs } from '../context.js';
import { UsageError, writeStdout } from '../errors.js';
import { parseTimeSpan } from './time-span.js';
import { readEnvironFile } from './run-klee-options.js';
import { DEFAULT_ENVIRONMENT } from '../../engine/options.js';
import { inputBitcode, needsTranslation } from '../input-file.js';

interface ReplayArgs extends GlobalArgs {
  program: string;
  tests: string[];
  native?: boolean;
  timeout?: string;
  libc?: string;
  posixRuntime?: boolean;
  entryPoint?: string;
  environ?: string;
}

/** Every recorded outcome needs its directory's listing and exit-status.txt: read each directory once. */
function recordedDirs(tests: readonly TestInput[]): Map<string, RecordedDir> {
  const m = new Map<string, RecordedDir>();
  for (const t of tests) {
    const d = dirname(t.path);
    if (!m.has(d)) m.set(d, new RecordedDir(d));
  }
  return m;
}

async function replayNative(binary: string, tests: TestInput[], timeoutMs: number, environment: readonly string[]): Promise<void> {
  const recorded = recordedDirs(tests);
  const counts: Record<Verdict, number> = { match: 0, differ: 0, 'not compared': 0 };
  for (const t of tests) {
    const rec = recorded.get(dirname(t.path))!.outcome(t.path);
    let inputs;
    try {
      inputs = nativeInputs(t.ktest);
    } catch (e) {
      if (!(e instanceof PosixInputsError)) throw e;
      // a path stopped early (--max-time) or ended by an error while the model was still making
      // its inputs has no complete argv to replay; any other test must have one
      if (!rec.early && rec.errKind === undefined) throw new InputError(t.path, e.message);
      counts['not compared']++;
      await writeStdout(`${basename(t.path)}: not replayed: the path ${rec.early ? 'was stopped early' : `ended with a ${rec.errKind} error`} before all its inputs were made (${e.message})\n`);
      continue;
    }
    const r = runNative(binary, inputs, { argv0: t.ktest.args[0] ?? binary, ktestPath: t.path, timeoutMs, environment });
    const c = compareRun(rec, r, timeoutMs, !inputs.symStdout);
    counts[c.verdict]++;
    const mark = c.verdict === 'differ' ? 'DIFFERS: ' : '';
    await writeStdout(`${basename(t.path)}: ${mark}${c.text}\n`);
  }
  await writeStdout(`tsklee: replayed ${tests.length} tests natively: ${counts.match} as recorded, ${counts.differ} different, ${counts['not compared']} not compared\n`);
  if (counts.differ > 0) throw new UsageError(`${counts.differ} of ${tests.length} tests did not replay as recorded`);
}

/** `timeoutS`: time limit per test (0: none). */
async function replayInInterpreter(argv: ReplayArgs, tests: TestInput[], timeoutS: number, environment: readonly string[]): Promise<void> {
  const libc = (argv.libc ?? 'none') as LibcChoice;
  if (!(LIBC_CHOICES as readonly string[]).includes(libc)) throw new UsageError(`--libc=${argv.libc}: expected one of ${LIBC_CHOICES.join(', ')}`);
  let tmp: string | undefined;
  let bc = argv.program;
  try {
    if (needsTranslation(bc)) {
      tmp = mkdtempSync(join(tmpdir(), 'tsklee-cc-'));
      bc = inputBitcode(bc, tmp);
    }
    let loaded;
    try {
      loaded = await loadProgram([bc], { libc, posixRuntime: argv.posixRuntime === true });
    } catch (e) {
      if (e instanceof RuntimeSetupError) throw new UsageError(e.message);
      throw e;
    }
    const entryPoint = argv.entryPoint ?? loaded.entryPoint;
    const entry = loaded.module.getFunction(entryPoint);
    if (entry === undefined || entry.isDeclaration) throw new UsageError(`entry point '${entryPoint}' not found in the module`);
    for (const t of tests) {
      const r = await replayConcrete(loaded.module, t.ktest, {
        entryPoint,
        programName: argv.program,
        libc: loaded.libc,
        posixRuntime: argv.posixRuntime === true,
        maxTime: timeoutS,
        environment: [...environment],
      });
      if (r.mismatch !== undefined) throw new InputError(t.path, `object mismatch: ${r.mismatch}`);
      const unused = r.unusedObjects > 0 ? ` (${r.unusedObjects} test object${r.unusedObjects > 1 ? 's' : ''} not used)` : '';
      await writeStdout(`${basename(t.path)}: ${r.summary}${unused}\n`);
    }
  } finally {
    if (tmp !== undefined) rmSync(tmp, { recursive: true, force: true });
  }
}

export const replayCommand: CommandModule<GlobalArgs, ReplayArgs> = {
  command: 'replay <program> <tests..>',
  describe: 'Re-execute tests concretely and say where each ends; --native: run a native build on them and compare with the recording (like klee-replay)',
  builder: (y: Argv<GlobalArgs>) =>
    y
      .positional('program', { type: 'string', demandOption: true, describe: 'bitcode (.bc) or C file; with --native, the executable' })
      .positional('tests', { type: 'string', array: true, demandOption: true, describe: '.ktest files or klee-out directories' })
      .option('native', { type: 'boolean', describe: 'run PROGRAM (a native executable) on each test and compare exit status and stdout with what tsklee run recorded' })
      .option('timeout', { type: 'string', describe: 'time limit per test (default: 10s with --native, none in the interpreter)' })
      .option('libc', { type: 'string', describe: `C library to link, as for run: ${LIBC_CHOICES.join(', ')}` })
      .option('posix-runtime', { type: 'boolean', describe: 'link the POSIX environment model, as for run' })
      .option('entry-point', { type: 'string', describe: 'function to start in (default main)' })
      .option('environ', { type: 'string', describe: "the program's environment, as for run: a file of NAME=VALUE lines (default: run's fixed one)", alias: 'env-file' })
      .example('$0 replay prog.bc klee-last', '')
      .example('$0 replay --native ./prog klee-last/*.ktest', '') as unknown as Argv<ReplayArgs>,
  handler: async (argv) => {
    const timeoutS = argv.timeout !== undefined ? parseTimeSpan(argv.timeout, 'timeout') : 10;
    if (!(timeoutS > 0)) throw new UsageError('--timeout: must be more than 0');
    const tests = readTests(argv.tests);
    const environment = argv.environ !== undefined ? readEnvironFile(argv.environ) : DEFAULT_ENVIRONMENT;
    if (argv.native) {
      if (argv.libc !== undefined || argv.posixRuntime !== undefined || argv.entryPoint !== undefined) {
        throw new UsageError('--libc, --posix-runtime and --entry-point are for replay in the interpreter, not --native');
      }
      await replayNative(argv.program, tests, timeoutS * 1000, environment);
      return;
    }
    await replayInInterpreter(argv, tests, argv.timeout !== undefined ? timeoutS : 0, environment);
  },
};
