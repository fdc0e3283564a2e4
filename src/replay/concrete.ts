/**
 * Concrete replay of one test in the interpreter: klee_make_symbolic hands out the test's
 * objects in order (EngineOptions.replay), so the program follows the test's path without
 * forking, and the outcome says where that path ends (exit status, error with location).
 */
import type { Module } from '../ir/module.js';
import { explore } from '../engine/explore.js';
import type { EngineOptions } from '../engine/options.js';
import { ERR_SUFFIX, Termination } from '../engine/errors.js';
import { REPLAY_MISMATCH_PREFIX } from '../engine/executor.js';
import { MemoryOutput } from '../engine/test-output.js';
import { SolverFailure, SolverFailureKind, type Solver } from '../solver/solver.js';
import type { KTest } from '../output/ktest.js';
import type { Val } from '../engine/values.js';

export interface ConcreteOutcome {
  /** How the path ended: `exit 0`, `abort`, `error: ptr: memory error: … at f.c:12`, … */
  summary: string;
  /** The test's objects do not fit the program's klee_make_symbolic calls (the message says how). */
  mismatch?: string;
  /** The low 8 bits of the exit value, for paths that exited. */
  exitCode?: number;
  /** Test objects the program never asked for. */
  unusedObjects: number;
}

/** A replayed path is concrete: any query means a value was left symbolic. */
class NoSolver implements Solver {
  asked = false;
  private fail(): never {
    this.asked = true;
    throw new SolverFailure(SolverFailureKind.Unknown, 'replay: a value on the replayed path is still symbolic');
  }
  computeTruth(): boolean {
    return this.fail();
  }
  computeValidity(): never {
    return this.fail();
  }
  computeValue(): bigint {
    return this.fail();
  }
  computeInitialValues(): null {
    return this.fail();
  }
  stats(): [] {
    return [];
  }
  dispose(): void {}
}

/** The exit status a shell would see for main's / exit()'s value. */
function exitStatus(v: Val | undefined): number | undefined {
  if (typeof v === 'number') return v & 0xff;
  if (typeof v === 'bigint') return Number(BigInt.asUintN(8, v));
  return undefined; // no value (void main) or symbolic
}

/**
 * Replays `ktest` on `module`. `options` are the run's options (entry point, libc, …);
 * argv comes from the test (its first argument is the program name).
 */
export async function replayConcrete(module: Module, ktest: KTest, options: Partial<EngineOptions>): Promise<ConcreteOutcome> {
  let lastErrorLine = '';
  let ended: { kind: Termination; message?: string; exitValue?: Val } | undefined;
  const objects = ktest.objects;
  let used = 0;
  const solver = new NoSolver();
  const r = await explore(
    module,
    {
      ...options,
      programName: ktest.args[0] ?? options.programName,
      programArgs: ktest.args.slice(1),
      search: ['dfs'],
      replay: {
        // counts how far klee_make_symbolic got through the objects (the engine reads them by index)
        objects: new Proxy(objects, {
          get(target, prop, receiver) {
            if (typeof prop === 'string' && /^\d+$/.test(prop)) used = Math.max(used, Number(prop) + 1);
            return Reflect.get(target, prop, receiver) as unknown;
          },
        }),
      },
    },
    {
      solver,
      output: new MemoryOutput(),
      events: {
        onLog: (line, kind) => {
          if (kind === 'error') lastErrorLine = line;
          else if (kind === 'print') process.stderr.write(`${line}\n`);
        },
        onStateEnd: (info) => {
          // one path: the first state to end is the test's (a fork would be a replay bug)
          ended ??= { kind: info.kind, message: info.message, exitValue: info.exitValue };
        },
      },
    },
  );
  const unusedObjects = Math.max(0, objects.length - used);
  if (ended === undefined) return { summary: `no outcome (${r.haltReason ?? 'the path did not end'})`, unusedObjects };
  const { kind, message = '' } = ended;
  if (solver.asked) return { summary: 'error: a value on the replayed path is still symbolic (an input the test does not give?)', unusedObjects };
  if (message.startsWith(REPLAY_MISMATCH_PREFIX)) {
    return { summary: 'object mismatch', mismatch: message.slice(REPLAY_MISMATCH_PREFIX.length), unusedObjects };
  }
  switch (kind) {
    case Termination.Exit: {
      const code = exitStatus(ended.exitValue);
      return { summary: code === undefined ? 'exit' : `exit ${code}`, exitCode: code, unusedObjects };
    }
    case Termination.Abort:
      return { summary: 'abort', unusedObjects };
    case Termination.SilentExit:
      return { summary: 'silent exit (klee_silent_exit)', unusedObjects };
    default: {
      const suffix = ERR_SUFFIX[kind];
      if (kind === Termination.Interrupted) {
        const why = r.haltReason === 'HaltTimer invoked' ? `timeout after ${options.maxTime} s` : (r.haltReason ?? message);
        return { summary: `stopped: ${why}`, unusedObjects };
      }
      if (suffix === undefined) return { summary: `ended early: ${message}`, unusedObjects };
      return { summary: `error: ${suffix}: ${message}${errorLocation(lastErrorLine, message)}`, unusedObjects };
    }
  }
}

/** " at f.c:12" from the engine's "ERROR: f.c:12: message" line ('' when it has no location). */
function errorLocation(line: string, message: string): string {
  const m = /^ERROR: (.*): /.exec(line.endsWith(message) ? line.slice(0, line.length - message.length) : '');
  return m !== null && !m[1]!.startsWith('(location') ? ` at ${m[1]}` : '';
}
