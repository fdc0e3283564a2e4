/**
 * KLEE's command-line conventions for `tsklee run` (LLVM's cl::opt, as `klee` parses them):
 *
 *  - a long option takes one or two dashes: `-search=dfs`, `--search=dfs`;
 *  - an option with a value takes it after `=` or as the next word: `-max-time 10`;
 *  - a boolean is set by its name alone (`-emit-all-errors`) or `=true|false|1|0`; it never
 *    takes the next word (that word is the input or another option);
 *  - the first word that is not an option is the input; every word after it is the
 *    program's, untouched (`prog.bc --sym-args 0 2 4 -n`);
 *  - an option given twice is an error ("may only occur zero or one times", as LLVM says
 *    for a cl::opt) unless its row is `repeatable` (KLEE's cl::list: `--search`, `--seed-file`…).
 *
 * The words are rewritten into one form yargs reads without guessing (`--name=value`, then
 * the input, then `--`, then the program's arguments). An unknown option is one line that
 * names the nearest known one — before this, an unknown option took the next word as its
 * value, so the input went missing and yargs' message named the wrong problem.
 */
import leven from 'leven';
import { UsageError } from './errors.js';
import type { RunOptionSpec } from './commands/run-options.js';

/** Options every command takes (cli.ts), and yargs' own. */
const GLOBAL_VALUE_OPTIONS = new Set(['log-level']);
const PASS_THROUGH = new Set(['help', 'h', 'version', 'V']);

const TRUE_WORDS = new Set(['true', '1']);
const FALSE_WORDS = new Set(['false', '0']);

export interface OptionLookup {
  /** The canonical name and spec of `name` (a name or an alias), or undefined. */
  find(name: string): { name: string; spec: RunOptionSpec } | undefined;
  /** Every name a user may type (for suggestions). */
  names(): string[];
}

/** An OptionLookup over a table of options with aliases. */
export function tableLookup(table: Readonly<Record<string, RunOptionSpec>>): OptionLookup {
  const byName = new Map<string, { name: string; spec: RunOptionSpec }>();
  for (const [name, spec] of Object.entries(table)) {
    byName.set(name, { name, spec });
    for (const a of spec.aliases ?? []) byName.set(a, { name, spec });
  }
  return { find: (n) => byName.get(n), names: () => [...byName.keys()] };
}

/** The known option closest to `name` (edit distance), when it is close enough to be a likely typo. */
export function nearestOption(name: string, known: readonly string[]): string | undefined {
  let best: string | undefined;
  let bestDist = Infinity;
  for (const k of known) {
    const d = leven(name, k);
    if (d < bestDist || (d === bestDist && best !== undefined && k < best)) {
      best = k;
      bestDist = d;
    }
  }
  // a suggestion only when at most about a third of the name differs (else it misleads)
  return best !== undefined && bestDist <= Math.max(2, Math.ceil(name.length / 3)) ? best : undefined;
}

function unknownOption(word: string, name: string, lookup: OptionLookup): UsageError {
  const near = nearestOption(name, lookup.names());
  const hint = near !== undefined ? ` (did you mean --${near}?)` : " (run 'tsklee run --help' for the options)";
  return new UsageError(`unknown option '${word}'${hint}`);
}

function booleanValue(word: string, name: string, value: string): string {
  const v = value.toLowerCase();
  if (TRUE_WORDS.has(v)) return 'true';
  if (FALSE_WORDS.has(v)) return 'false';
  throw new UsageError(`${word}: --${name} is a flag: its value must be true, false, 1 or 0, not '${value}'`);
}

/**
 * Rewrites the words after a command (from `start`, the index after the command's name)
 * into yargs' form. `args[0..start)` (global options, the command name) are kept as they are.
 */
export function normalizeKleeArgs(args: readonly string[], start: number, lookup: OptionLookup): string[] {
  const out = args.slice(0, start);
  const given = new Map<string, string>();
  for (let i = start; i < args.length; i++) {
    const word = args[i]!;
    if (word === '--') {
      // KLEE: everything after `--` is positional; the next word is the input
      if (i + 1 < args.length) out.push(args[i + 1]!, '--', ...args.slice(i + 2));
      return out;
    }
    if (!word.startsWith('-') || word === '-') {
      // a `--` right after the input only separates (tsklee has always dropped it)
      out.push(word, '--', ...args.slice(args[i + 1] === '--' ? i + 2 : i + 1));
      return out;
    }
    const body = word.startsWith('--') ? word.slice(2) : word.slice(1);
    const eq = body.indexOf('=');
    const typed = eq < 0 ? body : body.slice(0, eq);
    const value = eq < 0 ? undefined : body.slice(eq + 1);
    if (PASS_THROUGH.has(typed) && value === undefined) {
      out.push(typed.length === 1 ? `-${typed}` : `--${typed}`);
      continue;
    }
    if (GLOBAL_VALUE_OPTIONS.has(typed)) {
      if (value !== undefined) out.push(`--${typed}=${value}`);
      else if (i + 1 < args.length) out.push(`--${typed}=${args[++i]!}`);
      else throw new UsageError(`${word}: a value is missing`);
      continue;
    }
    let found = lookup.find(typed);
    let negated = false;
    if (found === undefined && typed.startsWith('no-')) {
      // yargs' --no-flag (not KLEE's, but tsklee has always taken it)
      const f = lookup.find(typed.slice(3));
      if (f !== undefined && f.spec.type === 'boolean' && value === undefined) {
        found = f;
        negated = true;
      }
    }
    if (found === undefined) throw unknownOption(word, typed, lookup);
    const { name, spec } = found;
    const earlier = given.get(name);
    if (earlier !== undefined && spec.repeatable !== true) {
      throw new UsageError(`${word}: --${name} may only occur zero or one times (already given as '${earlier}')`);
    }
    given.set(name, word);
    if (spec.type === 'boolean') {
      out.push(`--${name}=${negated ? 'false' : value === undefined ? 'true' : booleanValue(word, name, value)}`);
      continue;
    }
    let v = value;
    if (v === undefined) {
      if (i + 1 >= args.length) throw new UsageError(`${word}: --${name} needs a value`);
      v = args[++i]!;
    }
    if (spec.type === 'number' && (v.trim() === '' || !Number.isFinite(Number(v)))) {
      throw new UsageError(`--${name}=${v}: a number is expected`);
    }
    out.push(`--${name}=${v}`);
  }
  return out;
}
