/**
 * Start-up: the runtime's bodies decoded lazily and assembly.ll kept between runs
 * (src/engine/assembly-cache.ts), end to end (`bin/tsklee`, needs `npm run build`). A run with
 * an empty cache (cold) and the same run again (warm, reading the cache) write the same
 * files; the warm run really reads the entry, a damaged one is replaced; a changed input
 * makes a new entry; an empty TSKLEE_CACHE_DIR turns the cache off.
 */
import { spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { compileProgram } from '../support/tsklee-cli.js';

const TSKLEE = resolve('bin/tsklee');
let dir: string;
let bc: string;

const PROG = `#include <stdio.h>
#include <string.h>
#include <assert.h>
int main(int argc, char **argv) {
  printf("args %d\\n", argc);
  if (argc > 1 && strcmp(argv[1], "ab") == 0) assert(0 && "found");
  return 0;
}
`;

function run(out: string, cache: string, program = bc, env: NodeJS.ProcessEnv = {}): void {
  const r = spawnSync(TSKLEE, ['run', `--output-dir=${join(dir, out)}`, '--libc=tsklee', '--posix-runtime', program, '--sym-args', '0', '1', '2'], {
    encoding: 'utf8',
    cwd: dir,
    env: { ...process.env, TSKLEE_CACHE_DIR: cache, ...env },
  });
  expect(r.stderr).not.toMatch(/\n\s+at /); // no stack trace
  expect(r.status).toBe(0);
}

function entries(cache: string): string[] {
  const sub = join(cache, 'assembly');
  return existsSync(sub) ? readdirSync(sub).sort() : [];
}

/** The files of a run, with what differs between two runs of one program taken out (pid, times). */
function outputs(out: string): Map<string, string> {
  const files = new Map<string, string>();
  for (const f of readdirSync(join(dir, out)).sort()) {
    if (f === 'info' || f === 'run.stats' || f === 'messages.txt' || f === 'warnings.txt') continue;
    let text = readFileSync(join(dir, out, f), 'latin1');
    if (f === 'run.istats') {
      text = text
        .split('\n')
        .filter((l) => !l.startsWith('pid:'))
        .map((l) => {
          const cols = l.split(' ');
          // Qtime, Rtime and Stime are measured; the counts are not
          if (/^\d/.test(l) && cols.length > 10) for (const c of [5, 6, 13]) cols[c] = '0';
          if (l.startsWith('totals:')) for (const c of [4, 5, 12]) cols[c] = '0';
          return cols.join(' ');
        })
        .join('\n');
    }
    files.set(f, text);
  }
  return files;
}

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'tsklee-startup-'));
  bc = compileProgram(dir, 'prog', PROG);
});

afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
});

describe('assembly.ll cache', () => {
  it('a warm run writes what a cold run writes, and reads the entry the cold run made', () => {
    const cache = join(dir, 'cache1');
    run('cold', cache);
    expect(entries(cache)).toHaveLength(1);
    run('warm', cache);
    expect(entries(cache)).toHaveLength(1);
    const cold = outputs('cold');
    const warm = outputs('warm');
    expect(cold.has('assembly.ll')).toBe(true);
    expect([...cold.keys()].some((f) => f.endsWith('.assert.err'))).toBe(true);
    expect([...warm.keys()]).toEqual([...cold.keys()]);
    for (const [f, text] of cold) expect({ f, text: warm.get(f) }).toEqual({ f, text });
    // the .err file's assembly.ll line points at the assertion's call in either run
    const err = [...cold.keys()].find((f) => f.endsWith('.assert.err'))!;
    const line = Number(/assembly\.ll line: (\d+)/.exec(cold.get(err)!)?.[1]);
    expect(cold.get('assembly.ll')!.split('\n')[line - 1]).toMatch(/call .*@__assert_fail/);

    // the warm run took its text from the entry (a miss writes a new file in its place)
    const entry = join(cache, 'assembly', entries(cache)[0]!);
    const ino = statSync(entry).ino;
    run('warm2', cache);
    expect(statSync(entry).ino).toBe(ino);

    // a damaged entry is printed again and replaced, never served
    const bytes = readFileSync(entry);
    const at = bytes.indexOf('; ModuleID');
    expect(at).toBeGreaterThan(0);
    bytes.write('; ModuleXX', at, 'latin1');
    writeFileSync(entry, bytes);
    run('damaged', cache);
    expect(outputs('damaged').get('assembly.ll')).toBe(cold.get('assembly.ll'));
    expect(readFileSync(entry).indexOf('; ModuleXX')).toBe(-1);
  });

  it('a changed input is a new entry, and the entry of the old one is not used for it', () => {
    const cache = join(dir, 'cache2');
    const copy = join(dir, 'copy.bc');
    copyFileSync(bc, copy);
    run('first', cache, copy);
    expect(entries(cache)).toHaveLength(1);
    // the same path, other contents (what a rebuilt runtime member is to the key too)
    compileProgram(dir, 'other', PROG.replace('args %d', 'argc=%d'));
    copyFileSync(join(dir, 'other.bc'), copy);
    run('second', cache, copy);
    expect(entries(cache)).toHaveLength(2);
    expect(readFileSync(join(dir, 'second', 'assembly.ll'), 'latin1')).toContain('argc=%d');
    run('uncached', '', copy);
    expect(readFileSync(join(dir, 'second', 'assembly.ll'), 'latin1')).toBe(readFileSync(join(dir, 'uncached', 'assembly.ll'), 'latin1'));
  });

  it('TSKLEE_CACHE_DIR= (empty) keeps no cache, not even the default one', () => {
    const home = join(dir, 'home');
    run('off', '', bc, { HOME: home, XDG_CACHE_HOME: join(home, '.cache') });
    expect(existsSync(home)).toBe(false);
    expect(existsSync(join(dir, 'off', 'assembly.ll'))).toBe(true);
    // unset: $XDG_CACHE_HOME/tsklee
    const env: NodeJS.ProcessEnv = { ...process.env, HOME: home, XDG_CACHE_HOME: join(home, '.cache') };
    delete env.TSKLEE_CACHE_DIR;
    const r = spawnSync(TSKLEE, ['run', `--output-dir=${join(dir, 'default')}`, bc], { encoding: 'utf8', cwd: dir, env });
    expect(r.status).toBe(0);
    expect(entries(join(home, '.cache', 'tsklee'))).toHaveLength(1);
  });
});
