/**
 * The tests a replay runs: .ktest files named on the command line, and every
 * `test*.ktest` of a klee-out directory (in test-number order).
 */
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { InputError } from '../load.js';
import { KTestError, readKTestFile, type KTest } from '../output/ktest.js';

export interface TestInput {
  /** The path as given (or inside the given directory). */
  path: string;
  ktest: KTest;
}

/** Expands directories to their .ktest files; a directory without tests is an error. */
export function listTestFiles(paths: readonly string[]): string[] {
  const out: string[] = [];
  for (const p of paths) {
    let isDir = false;
    try {
      isDir = statSync(p).isDirectory();
    } catch (e) {
      const err = e as NodeJS.ErrnoException;
      if (err.path === undefined) err.path = p;
      throw err;
    }
    if (!isDir) {
      out.push(p);
      continue;
    }
    const tests = readdirSync(p)
      .filter((n) => /^test\d+\.ktest$/.test(n))
      .sort();
    if (tests.length === 0) throw new InputError(p, 'no test*.ktest files in this directory');
    for (const n of tests) out.push(join(p, n));
  }
  return out;
}

/** Reads every test first, so that a bad file stops the replay before anything runs. */
export function readTests(paths: readonly string[]): TestInput[] {
  return listTestFiles(paths).map((path) => {
    try {
      return { path, ktest: readKTestFile(path) };
    } catch (e) {
      if (e instanceof KTestError) throw new InputError(path, e.detail);
      throw e;
    }
  });
}
