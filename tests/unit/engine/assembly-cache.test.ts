/**
 * The assembly.ll cache's key and entries (src/engine/assembly-cache.ts): the key changes with
 * a file's contents (a rebuilt runtime) and with the options; an entry is only taken for a
 * module of the shape it was written for; a damaged entry is ignored.
 */
import { copyFileSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { cacheDir, cacheEntryName, readCachedAssembly, writeCachedAssembly } from '../../../src/engine/assembly-cache.js';
import { loadModule } from '../../../src/load.js';

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'tsklee-asmcache-'));
});
afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
});

describe('assembly cache', () => {
  it('names an entry by the files\' contents and the options', () => {
    const file = join(dir, 'runtime.bc');
    copyFileSync(resolve('examples/hello.bc'), file);
    const a = cacheEntryName({ files: [file], options: 'x' });
    expect(cacheEntryName({ files: [file], options: 'x' })).toBe(a);
    expect(cacheEntryName({ files: [file], options: 'y' })).not.toBe(a);
    // a rebuilt runtime member: same path, one byte more
    writeFileSync(file, Buffer.concat([readFileSync(file), Buffer.from([0])]));
    expect(cacheEntryName({ files: [file], options: 'x' })).not.toBe(a);
  });

  it('takes an entry only for a module of its shape, and ignores damaged ones', () => {
    const hello = loadModule([resolve('examples/hello.bc')]);
    const bounds = loadModule([resolve('examples/bounds.bc')]);
    const cache = join(dir, 'c');
    writeCachedAssembly(cache, 'e1', hello, { text: 'text é\n', lines: Int32Array.from([3, 4, 5]) });
    const got = readCachedAssembly(cache, 'e1', hello);
    expect(got?.text).toBe('text é\n');
    expect([...got!.lines]).toEqual([3, 4, 5]);
    expect(readCachedAssembly(cache, 'e1', bounds)).toBeNull();
    expect(readCachedAssembly(cache, 'missing', hello)).toBeNull();
    const path = join(cache, 'assembly', 'e1');
    writeFileSync(path, readFileSync(path).subarray(0, 20));
    expect(readCachedAssembly(cache, 'e1', hello)).toBeNull();
    expect(readdirSync(join(cache, 'assembly'))).toEqual(['e1']); // no temporary file left
  });

  it('finds its directory as the subjects cache does', () => {
    expect(cacheDir({ TSKLEE_CACHE_DIR: '' })).toBeNull();
    expect(cacheDir({ TSKLEE_CACHE_DIR: '/x' })).toBe('/x');
    expect(cacheDir({ XDG_CACHE_HOME: '/y' })).toBe('/y/tsklee');
  });
});
