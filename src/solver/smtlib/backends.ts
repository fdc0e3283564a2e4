/**
 * The external SMT-LIB2 solvers tsklee can drive as processes (--solver-backend), and how to
 * start each one in interactive (incremental) mode. The binary is looked up on PATH when the
 * solver is made; a missing or unusable one is a one-line SolverSetupError that says where
 * to get it (Debian 12's package, or the project's site where Debian has none or an unusable one).
 */
import { accessSync, constants, statSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import { delimiter, join } from 'node:path';

export const EXTERNAL_BACKENDS = ['z3-native', 'cvc5', 'bitwuzla', 'boolector', 'yices'] as const;
export type ExternalBackendName = (typeof EXTERNAL_BACKENDS)[number];
/** 'z3' is the embedded wasm build; the others are processes. */
export const SOLVER_BACKENDS = ['z3', ...EXTERNAL_BACKENDS] as const;
export type SolverBackendName = (typeof SOLVER_BACKENDS)[number];

export function isExternalBackend(name: string): name is ExternalBackendName {
  return (EXTERNAL_BACKENDS as readonly string[]).includes(name);
}

export class SolverSetupError extends Error {}

export interface BackendSpec {
  name: ExternalBackendName;
  binary: string;
  /** Command-line arguments; `timeoutMs` is the per-query limit (0 = none) for solvers that take it there. */
  args(timeoutMs: number): string[];
  /** Commands sent once after start (and after each reset): options, logic. */
  prelude(timeoutMs: number): string;
  /** Where to get the binary, for the error when it is missing. */
  install: string;
  /** Refuses a binary too old to speak interactive SMT-LIB2 (null = fine). */
  unusable?(binaryPath: string): string | null;
}

const LOGIC = '(set-logic QF_ABV)\n';

const SPECS: Record<ExternalBackendName, BackendSpec> = {
  'z3-native': {
    name: 'z3-native',
    binary: 'z3',
    install: "install Debian's z3 package",
    args: () => ['-in', '-smt2'],
    prelude: (t) => `(set-option :produce-models true)\n${t > 0 ? `(set-option :timeout ${t})\n` : ''}${LOGIC}`,
  },
  cvc5: {
    name: 'cvc5',
    binary: 'cvc5',
    install: "install Debian's cvc5 package",
    args: (t) => ['--lang', 'smt2', '--incremental', ...(t > 0 ? [`--tlimit-per=${t}`] : [])],
    prelude: () => `(set-option :produce-models true)\n${LOGIC}`,
  },
  bitwuzla: {
    name: 'bitwuzla',
    binary: 'bitwuzla',
    install: 'Debian 12 has no package: see https://bitwuzla.github.io',
    args: (t) => ['--lang', 'smt2', ...(t > 0 ? [`--time-limit-per=${t}`] : [])],
    prelude: () => `(set-option :produce-models true)\n${LOGIC}`,
  },
  boolector: {
    name: 'boolector',
    binary: 'boolector',
    install: "version 3.0 or later from https://boolector.github.io: Debian 12's package is too old",
    args: (t) => ['--smt2', '-i', ...(t > 0 ? [`--time=${Math.ceil(t / 1000)}`] : [])],
    prelude: () => `(set-option :produce-models true)\n${LOGIC}`,
    unusable: (path) => {
      // Boolector before 3.0 (Debian 12 ships 1.5) reads SMT-LIB2 only as a batch: no
      // set-option, push/pop or get-value.
      let v = '';
      try {
        v = execFileSync(path, ['--version'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
      } catch {
        return `'${path} --version' failed`;
      }
      const major = Number(/^(\d+)\./.exec(v)?.[1] ?? NaN);
      return major >= 3 ? null : `boolector ${v} cannot answer queries interactively (needs 3.0 or later)`;
    },
  },
  yices: {
    name: 'yices',
    binary: 'yices-smt2',
    install: 'Debian 12 has no package: see https://yices.csl.sri.com',
    args: () => ['--incremental'],
    prelude: () => `(set-option :produce-models true)\n${LOGIC}`,
  },
};

/** The full path of `binary` on PATH, or null. */
export function findOnPath(binary: string, path = process.env['PATH'] ?? ''): string | null {
  for (const dir of path.split(delimiter)) {
    if (dir === '') continue;
    const p = join(dir, binary);
    try {
      accessSync(p, constants.X_OK);
      if (statSync(p).isFile()) return p;
    } catch {
      // not here
    }
  }
  return null;
}

/** The spec of a backend with its binary located, or a SolverSetupError saying what is wrong. */
export function resolveBackend(name: ExternalBackendName): { spec: BackendSpec; path: string } {
  const spec = SPECS[name];
  const path = findOnPath(spec.binary);
  if (path === null) throw new SolverSetupError(`--solver-backend=${name}: '${spec.binary}' not found on PATH (${spec.install})`);
  const why = spec.unusable?.(path) ?? null;
  if (why !== null) throw new SolverSetupError(`--solver-backend=${name}: ${why}`);
  return { spec, path };
}
