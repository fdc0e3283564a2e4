/**
 * The experiment file: programs × configurations × repetitions, in YAML or JSON, checked
 * against a JSON schema (ajv) so that a mistake is one line naming the place in the file.
 *
 *   name: merging-sizes
 *   repetitions: 3
 *   timeout: 60s                 # each cell's --max-time (the runner kills at 2× + 30 s)
 *   baseline: none               # the configuration ratios are taken against (default: the first)
 *   options: [--search=dfs]      # tsklee run options of every cell
 *   programs:
 *     - name: echo
 *       source: ../fixtures/merging/echo.c      # C (compiled once per size), or bitcode: x.bc
 *       sizes: [1, 2, 3]                        # {size} is replaced in cflags, options and args
 *       cflags: [-DN={size}]
 *       args: []                                # the program's arguments
 *   configurations:
 *     - { name: none, options: [] }
 *     - { name: static, options: [--state-merging=static] }
 *     - { name: random, options: [--search=random-path, '--seed={rep}'] }   # {rep}: 1, 2, 3
 *
 * Paths are relative to the experiment file, with `~` and `${VAR:-default}` expanded. Results
 * go to `output` (default: the file's name without extension, `-results`, beside it).
 */
import { readFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { basename, dirname, extname, join, resolve } from 'node:path';
import { Ajv, type ErrorObject } from 'ajv';
import { parse as parseYaml, YAMLParseError } from 'yaml';

export interface ProgramEntry {
  name: string;
  /** A C file, compiled to bitcode by the runner (once per size). */
  source?: string;
  /** Bitcode (.bc) or textual IR (.ll), used as it is. */
  bitcode?: string;
  /** Input sizes: one program instance per size; `{size}` is substituted. */
  sizes?: (number | string)[];
  cflags?: string[];
  /** tsklee run options of this program (e.g. --libc=tsklee --posix-runtime). */
  options?: string[];
  /** The program's arguments (after the input: --sym-args 0 2 4 …). */
  args?: string[];
}

export interface ConfigurationEntry {
  name: string;
  options: string[];
}

export interface ExperimentFile {
  name: string;
  description?: string;
  output?: string;
  repetitions?: number;
  timeout?: string | number;
  jobs?: number;
  baseline?: string;
  clang?: string;
  cflags?: string[];
  options?: string[];
  programs: ProgramEntry[];
  configurations: ConfigurationEntry[];
}

/** An experiment file as loaded: paths resolved, defaults filled in. */
export interface Experiment extends ExperimentFile {
  /** The file it came from (absolute). */
  file: string;
  /** The results directory (absolute). */
  outputDir: string;
  repetitions: number;
  baseline: string;
}

const NAME = { type: 'string', pattern: '^[A-Za-z0-9][A-Za-z0-9_.+-]*$' } as const;
const WORDS = { type: 'array', items: { type: 'string' } } as const;

/** The schema of an experiment file (JSON Schema draft-07, as ajv reads it by default). */
export const EXPERIMENT_SCHEMA = {
  type: 'object',
  additionalProperties: false,
  required: ['name', 'programs', 'configurations'],
  properties: {
    name: NAME,
    description: { type: 'string' },
    output: { type: 'string', minLength: 1 },
    repetitions: { type: 'integer', minimum: 1, maximum: 1000 },
    timeout: { anyOf: [{ type: 'number', exclusiveMinimum: 0 }, { type: 'string', pattern: '^[0-9.]+(ms|s|min|h)?([0-9.]+(ms|s|min|h))*$' }] },
    jobs: { type: 'integer', minimum: 1 },
    baseline: NAME,
    clang: { type: 'string' },
    cflags: WORDS,
    options: WORDS,
    programs: {
      type: 'array',
      minItems: 1,
      items: {
        type: 'object',
        additionalProperties: false,
        required: ['name'],
        oneOf: [{ required: ['source'] }, { required: ['bitcode'] }],
        properties: {
          name: NAME,
          source: { type: 'string', pattern: '\\.c$' },
          bitcode: { type: 'string', pattern: '\\.(bc|ll)$' },
          sizes: { type: 'array', minItems: 1, items: { type: ['number', 'string'] } },
          cflags: WORDS,
          options: WORDS,
          args: WORDS,
        },
      },
    },
    configurations: {
      type: 'array',
      minItems: 1,
      items: {
        type: 'object',
        additionalProperties: false,
        required: ['name', 'options'],
        properties: { name: NAME, options: WORDS },
      },
    },
  },
} as const;

/** A bad experiment file: the message is one line, starting with the file's name. */
export class ExperimentFileError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ExperimentFileError';
  }
}

let validator: ReturnType<Ajv['compile']> | undefined;

/** The place of an ajv error in the file's terms: `programs[1].sizes`. */
function errorPlace(e: ErrorObject): string {
  const parts = e.instancePath.split('/').slice(1);
  let s = '';
  for (const p of parts) s += /^\d+$/.test(p) ? `[${p}]` : s === '' ? p : `.${p}`;
  return s === '' ? 'the file' : s;
}

/** One line for the most useful of ajv's errors. */
function describeSchemaError(errors: ErrorObject[]): string {
  // oneOf's own error says little; its branches say which key is missing
  const e = errors.find((x) => x.keyword === 'additionalProperties') ?? errors.find((x) => x.keyword === 'pattern') ?? errors.find((x) => x.keyword !== 'oneOf' && x.keyword !== 'anyOf' && x.keyword !== 'required') ?? errors[0]!;
  const where = errorPlace(e);
  switch (e.keyword) {
    case 'additionalProperties':
      return `${where}: unknown key '${(e.params as { additionalProperty: string }).additionalProperty}'`;
    case 'required':
      if (errors.some((x) => x.keyword === 'oneOf')) return `${where}: needs 'source' (a .c file) or 'bitcode' (a .bc or .ll file), not both`;
      return `${where}: missing '${(e.params as { missingProperty: string }).missingProperty}'`;
    case 'oneOf':
      return `${where}: needs 'source' (a .c file) or 'bitcode' (a .bc or .ll file), not both`;
    case 'pattern':
      if (where.endsWith('source')) return `${where}: expected a .c file`;
      if (where.endsWith('bitcode')) return `${where}: expected a .bc or .ll file`;
      if (where.endsWith('timeout')) return `${where}: expected a time span such as 60, 90s, 5min or 1h30min`;
      return `${where}: '${String(e.data)}' is not a name (letters, digits, _ . + -)`;
    default:
      return `${where}: ${e.message ?? 'invalid'}`;
  }
}

/**
 * A program path with `~` (the home directory) and `${NAME}` / `${NAME:-default}` (the
 * environment) expanded: bitcode built outside the repository (scripts/subjects/ caches it in
 * `${TSKLEE_SUBJECTS:-~/.cache/tsklee/subjects}`).
 */
export function expandPath(p: string, file: string): string {
  const expanded = p.replace(/\$\{([A-Za-z_][A-Za-z0-9_]*)(?::-([^}]*))?\}/g, (_, name: string, dflt: string | undefined) => {
    const v = process.env[name];
    if (v !== undefined && v !== '') return v;
    if (dflt !== undefined) return dflt;
    throw new ExperimentFileError(`${file}: \${${name}} in '${p}' is not set`);
  });
  return expanded === '~' || expanded.startsWith('~/') ? homedir() + expanded.slice(1) : expanded;
}

/** Parses and checks an experiment file's text (YAML, of which JSON is a part). */
export function parseExperiment(text: string, file: string): Experiment {
  let data: unknown;
  try {
    data = extname(file) === '.json' ? JSON.parse(text) : parseYaml(text);
  } catch (e) {
    if (e instanceof YAMLParseError) {
      const pos = e.linePos?.[0];
      throw new ExperimentFileError(`${file}${pos !== undefined ? `:${pos.line}:${pos.col}` : ''}: not valid YAML (${e.message.split('\n')[0]!.replace(/ at line \d+, column \d+:?$/, '')})`);
    }
    throw new ExperimentFileError(`${file}: not valid JSON (${(e as Error).message})`);
  }
  validator ??= new Ajv({ allErrors: true, verbose: true, strict: true, strictRequired: false, allowUnionTypes: true }).compile(EXPERIMENT_SCHEMA);
  if (!validator(data)) throw new ExperimentFileError(`${file}: ${describeSchemaError(validator.errors ?? [])}`);
  const x = data as ExperimentFile;
  const dir = dirname(resolve(file));
  const unique = (what: string, names: string[]): void => {
    const seen = new Set<string>();
    for (const n of names) {
      if (seen.has(n)) throw new ExperimentFileError(`${file}: two ${what} are named '${n}'`);
      seen.add(n);
    }
  };
  unique('programs', x.programs.map((p) => p.name));
  unique('configurations', x.configurations.map((c) => c.name));
  const baseline = x.baseline ?? x.configurations[0]!.name;
  if (!x.configurations.some((c) => c.name === baseline)) throw new ExperimentFileError(`${file}: baseline '${baseline}' is not one of the configurations (${x.configurations.map((c) => c.name).join(', ')})`);
  const path = (p: string): string => resolve(dir, expandPath(p, file));
  const programs = x.programs.map((p) => ({
    ...p,
    ...(p.source !== undefined ? { source: path(p.source) } : {}),
    ...(p.bitcode !== undefined ? { bitcode: path(p.bitcode) } : {}),
  }));
  const stem = basename(file, extname(file));
  return {
    ...x,
    programs,
    file: resolve(file),
    outputDir: x.output !== undefined ? resolve(dir, x.output) : join(dir, `${stem}-results`),
    repetitions: x.repetitions ?? 1,
    baseline,
  };
}

/** Reads and checks an experiment file. */
export function loadExperiment(file: string): Experiment {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    throw new ExperimentFileError(`${file}: cannot read the experiment file${code !== undefined ? ` (${code})` : ''}`);
  }
  return parseExperiment(text, file);
}
