/** `tsklee ktest FILE...`: print .ktest files like KLEE's ktest-tool (or as JSON). */
import type { Argv, CommandModule } from 'yargs';
import { InputError } from '../../load.js';
import { KTestError, readKTestFile, writeFileAtomic, type KTest } from '../../output/ktest.js';
import { formatKTestTool, ktestToJson, stringifyWithBigInts } from '../../output/ktest-tool.js';
import type { GlobalArgs } from '../context.js';
import { writeStdout } from '../errors.js';

interface KTestArgs extends GlobalArgs {
  files: string[];
  json?: boolean;
  trimZeros?: boolean;
  extract?: string | string[];
}

/** Reads one test; a malformed file becomes an InputError (one line naming the file). */
function load(path: string): KTest {
  try {
    return readKTestFile(path);
  } catch (e) {
    if (e instanceof KTestError) throw new InputError(path, e.detail);
    throw e;
  }
}

/** ktest-tool's --extract: writes each named object's bytes to FILE.NAME. */
function extract(path: string, t: KTest, names: readonly string[], trimZeros: boolean): void {
  const wanted = new Set(names);
  const found = new Set<string>();
  for (const o of t.objects) {
    if (!wanted.has(o.name)) continue;
    let end = o.bytes.length;
    if (trimZeros) while (end > 0 && o.bytes[end - 1] === 0) end--;
    writeFileAtomic(`${path}.${o.name}`, o.bytes.subarray(0, end));
    found.add(o.name);
  }
  const missing = [...wanted].filter((n) => !found.has(n)).sort();
  if (missing.length > 0) throw new InputError(path, `no object named ${missing.map((n) => `'${n}'`).join(', ')}`);
}

export const ktestCommand: CommandModule<GlobalArgs, KTestArgs> = {
  command: 'ktest <files..>',
  describe: 'Print .ktest test cases (like KLEE\'s ktest-tool)',
  builder: (y: Argv<GlobalArgs>) =>
    y
      .positional('files', { type: 'string', array: true, demandOption: true, describe: '.ktest files' })
      .option('json', { type: 'boolean', describe: 'print a JSON array of {file, args, objects: [{name, size, hex, int, uint, text}]}' })
      .option('trim-zeros', { type: 'boolean', describe: 'drop trailing zero bytes from data, hex and text' })
      .option('extract', {
        type: 'string',
        requiresArg: true,
        describe: 'write the bytes of object NAME to FILE.NAME instead of printing (repeatable)',
      })
      .example('$0 ktest klee-last/test000001.ktest', '')
      .example('$0 ktest --json klee-last/*.ktest', '') as unknown as Argv<KTestArgs>,
  handler: async (argv) => {
    const trimZeros = argv.trimZeros === true;
    // Not an array option: yargs would swallow the file names after it. Repeats still collect.
    const names = argv.extract === undefined ? [] : ([] as string[]).concat(argv.extract);
    if (argv.json) {
      // All files are read first: a bad one fails the command without printing half an array.
      const tests = argv.files.map((f) => ktestToJson(f, load(f), { trimZeros }));
      await writeStdout(`${stringifyWithBigInts(tests)}\n`);
      return;
    }
    for (const f of argv.files) {
      const t = load(f);
      if (names.length > 0) extract(f, t, names, trimZeros);
      else await writeStdout(formatKTestTool(f, t, { trimZeros }));
    }
  },
};
