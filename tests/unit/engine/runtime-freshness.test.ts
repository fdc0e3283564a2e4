/**
 * runtimeSurelyUpToDate (src/engine/prepare/runtime-files.ts): the check that lets a run skip
 * importing the runtime's build script. It must answer false whenever the script would
 * rebuild (an input newer than the bitcode, the bitcode or the libc's index missing).
 */
import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import { mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { runtimeSurelyUpToDate } from '../../../src/engine/prepare/runtime-files.js';

let root: string;

/** Writes root/rel with the given modification time (seconds). */
function file(rel: string, time: number): void {
  const p = join(root, rel);
  mkdirSync(dirname(p), { recursive: true });
  writeFileSync(p, rel);
  utimesSync(p, time, time);
}

beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'tsklee-runtime-fresh-'));
  for (const s of ['build-runtime-libc.mjs', 'build-runtime-posix.mjs', 'runtime-build-common.mjs', 'runtime-index.mjs']) file(`scripts/${s}`, 1000);
  file('runtime/libc/string/str.c', 1000);
  file('runtime/libc/internal.h', 1000);
  file('runtime/posix/fd.c', 1000);
  file('runtime/include/klee/klee.h', 1000);
  file('runtime/build/libc.bc', 2000);
  file('runtime/build/libc.index.json', 2000);
  file('runtime/build/posix.bc', 2000);
});

afterEach(() => rmSync(root, { recursive: true, force: true }));

describe('runtimeSurelyUpToDate', () => {
  it('is true when the bitcode is newer than every input', () => {
    expect(runtimeSurelyUpToDate(root, 'libc')).toBe(true);
    expect(runtimeSurelyUpToDate(root, 'posix')).toBe(true);
  });

  it('is false when a source in a subdirectory is newer', () => {
    file('runtime/libc/string/str.c', 3000);
    expect(runtimeSurelyUpToDate(root, 'libc')).toBe(false);
    expect(runtimeSurelyUpToDate(root, 'posix')).toBe(true);
  });

  it('is false when a header, runtime/include or a build script is newer', () => {
    file('runtime/include/klee/klee.h', 3000);
    expect(runtimeSurelyUpToDate(root, 'posix')).toBe(false);
    file('runtime/include/klee/klee.h', 1000);
    file('scripts/runtime-build-common.mjs', 3000);
    expect(runtimeSurelyUpToDate(root, 'posix')).toBe(false);
    expect(runtimeSurelyUpToDate(root, 'libc')).toBe(false);
  });

  it('is false when the bitcode or the libc index is missing', () => {
    rmSync(join(root, 'runtime/build/libc.index.json'));
    expect(runtimeSurelyUpToDate(root, 'libc')).toBe(false);
    rmSync(join(root, 'runtime/build/posix.bc'));
    expect(runtimeSurelyUpToDate(root, 'posix')).toBe(false);
  });

  it('is false when a build script is missing (the script decides)', () => {
    rmSync(join(root, 'scripts/runtime-index.mjs'));
    expect(runtimeSurelyUpToDate(root, 'posix')).toBe(false);
  });
});
