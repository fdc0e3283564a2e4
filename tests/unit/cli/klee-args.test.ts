/**
 * KLEE's option spellings for `tsklee run` (src/cli/klee-args.ts) over the real option table.
 */
import { describe, expect, it } from '@jest/globals';
import { nearestOption, normalizeKleeArgs, tableLookup } from '../../../src/cli/klee-args.js';
import { RUN_OPTIONS } from '../../../src/cli/commands/run-options.js';
import { separateProgramArgs } from '../../../src/cli/commands/run.js';

const lookup = tableLookup(RUN_OPTIONS);
const norm = (...words: string[]): string[] => normalizeKleeArgs(['run', ...words], 1, lookup);

describe('KLEE option spellings', () => {
  it('accepts -name=value, -name value, --name=value and --name value alike', () => {
    const want = ['run', '--search=dfs', 'prog.bc', '--'];
    expect(norm('-search=dfs', 'prog.bc')).toEqual(want);
    expect(norm('-search', 'dfs', 'prog.bc')).toEqual(want);
    expect(norm('--search=dfs', 'prog.bc')).toEqual(want);
    expect(norm('--search', 'dfs', 'prog.bc')).toEqual(want);
  });

  it('takes booleans by name alone, never swallowing the next word', () => {
    expect(norm('-emit-all-errors', 'prog.bc', 'x')).toEqual(['run', '--emit-all-errors=true', 'prog.bc', '--', 'x']);
    expect(norm('--check-div-zero=false', '-posix-runtime=1', 'prog.bc')).toEqual(['run', '--check-div-zero=false', '--posix-runtime=true', 'prog.bc', '--']);
    expect(norm('--no-use-cex-cache', 'prog.bc')).toEqual(['run', '--use-cex-cache=false', 'prog.bc', '--']);
  });

  it("leaves everything after the input to the program, dashes included", () => {
    expect(norm('-max-time=10', 'prog.bc', '--sym-args', '0', '2', '4', '-n', '--search=bfs')).toEqual([
      'run',
      '--max-time=10',
      'prog.bc',
      '--',
      '--sym-args',
      '0',
      '2',
      '4',
      '-n',
      '--search=bfs',
    ]);
    // `--` ends the options: the next word is the input even if it starts with a dash
    expect(norm('--', '-odd.bc', 'a')).toEqual(['run', '-odd.bc', '--', 'a']);
  });

  it('names the nearest known option for an unknown one', () => {
    expect(() => norm('-serch=dfs', 'prog.bc')).toThrow("unknown option '-serch=dfs' (did you mean --search?)");
    expect(() => norm('--max-tme', '10', 'prog.bc')).toThrow('did you mean --max-time?');
    expect(() => norm('--zzzzzzzzzzzz', 'prog.bc')).toThrow("unknown option '--zzzzzzzzzzzz' (run 'tsklee run --help' for the options)");
  });

  it('refuses a flag value that is not a truth value and a number option that is not a number', () => {
    expect(() => norm('-emit-all-errors=maybe', 'prog.bc')).toThrow("must be true, false, 1 or 0, not 'maybe'");
    expect(() => norm('-max-forks=ten', 'prog.bc')).toThrow('--max-forks=ten: a number is expected');
    expect(() => norm('-max-forks')).toThrow('-max-forks: --max-forks needs a value');
  });

  it('refuses an option given twice, of every type, as LLVM does for a cl::opt', () => {
    const twice = 'may only occur zero or one times';
    expect(() => norm('--max-solver-time=1s', '--max-solver-time=2s', 'prog.bc')).toThrow(`--max-solver-time=2s: --max-solver-time ${twice} (already given as '--max-solver-time=1s')`);
    expect(() => norm('-max-forks=1', '--max-forks', '2', 'prog.bc')).toThrow(`--max-forks ${twice}`);
    expect(() => norm('-emit-all-errors', '--emit-all-errors=false', 'prog.bc')).toThrow(`--emit-all-errors ${twice}`);
    expect(() => norm('--use-cex-cache', '--no-use-cex-cache', 'prog.bc')).toThrow(`--use-cex-cache ${twice}`);
    // an alias is the same option
    expect(() => norm('--seed=1', '--rng-initial-seed=2', 'prog.bc')).toThrow(`--seed ${twice}`);
    // every non-repeatable row of the table, each type
    for (const [name, spec] of Object.entries(RUN_OPTIONS)) {
      if (spec.repeatable === true) continue;
      const w = spec.type === 'boolean' ? `--${name}` : `--${name}=1`;
      expect(() => norm(w, w, 'prog.bc')).toThrow(`--${name} ${twice}`);
    }
  });

  it("lets KLEE's list options repeat (each occurrence adds)", () => {
    expect(norm('-search=dfs', '-search=bfs', 'p.bc')).toEqual(['run', '--search=dfs', '--search=bfs', 'p.bc', '--']);
    expect(norm('--seed-file=a.ktest', '--seed-out=b.ktest', '--seed-dir=d', '--seed-dir=e', 'p.bc')).toEqual([
      'run',
      '--seed-file=a.ktest',
      '--seed-file=b.ktest',
      '--seed-dir=d',
      '--seed-dir=e',
      'p.bc',
      '--',
    ]);
    const lists = Object.entries(RUN_OPTIONS)
      .filter(([, s]) => s.repeatable === true)
      .map(([n]) => n)
      .sort();
    expect(lists).toEqual(['debug-print-instructions', 'exit-on-error-type', 'function-alias', 'search', 'seed-dir', 'seed-file', 'use-query-log']);
  });

  it('keeps global options and help as they are', () => {
    expect(separateProgramArgs(['--log-level', 'info', 'run', '-search', 'dfs', 'p.bc', '-x'])).toEqual(['--log-level', 'info', 'run', '--search=dfs', 'p.bc', '--', '-x']);
    expect(separateProgramArgs(['run', '-h'])).toEqual(['run', '-h']);
    expect(separateProgramArgs(['dis', '-x', 'f.bc'])).toEqual(['dis', '-x', 'f.bc']);
  });

  it("maps KLEE's other names onto tsklee's", () => {
    expect(norm('-rng-initial-seed=7', 'p.bc')).toEqual(['run', '--seed=7', 'p.bc', '--']);
    expect(norm('--env-file', 'e.txt', 'p.bc')).toEqual(['run', '--environ=e.txt', 'p.bc', '--']);
  });

  it('suggests only close names', () => {
    expect(nearestOption('serch', ['search', 'seed'])).toBe('search');
    expect(nearestOption('completely-different', ['search', 'seed'])).toBeUndefined();
  });
});
