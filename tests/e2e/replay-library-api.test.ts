/**
 * The library API DESIGN.md promises (`import { loadModule, explore } from 'tsklee'`), used
 * from a child process on the built dist/index.js (the z3 wasm module is not loaded inside
 * jest workers), and type-checked as a user's TypeScript would be.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, expect, it } from '@jest/globals';

const INDEX = resolve('dist/index.js');
let dir: string;

const PROG = `#include <klee/klee.h>
int main(void) {
  unsigned char i;
  int a[4] = {0};
  klee_make_symbolic(&i, sizeof i, "i");
  if (i < 5) a[i] = 1;          /* i == 4: out of bounds */
  if (i == 7) return 2;
  return 0;
}
`;

const USER_TS = `import { loadModule, explore, MemoryOutput, Termination, type EngineOptions, type ExploreResult, type StateEndInfo } from '${INDEX}';
const opts: Partial<EngineOptions> = { search: ['dfs'], seed: 1 };
const ends: StateEndInfo[] = [];
const r: ExploreResult = await explore(loadModule([process.argv[2]!]), opts, { events: { onStateEnd: (s) => ends.push(s) } });
const out = r.output as MemoryOutput;
console.log(JSON.stringify({
  completed: r.completedPaths,
  tests: r.generatedTests,
  errors: r.errors,
  halt: r.haltReason,
  ends: ends.map((e) => [Termination[e.kind], typeof e.exitValue === 'number' ? e.exitValue : null]).sort(),
  objects: out.tests.map((t) => t.ktest?.objects.map((o) => o.name + ':' + o.bytes.length).join(',')),
  errKinds: out.tests.map((t) => t.extras.errKind ?? '').filter((k) => k !== ''),
}));
`;

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'tsklee-api-'));
  writeFileSync(join(dir, 'p.c'), PROG);
  execFileSync('clang-19', ['-emit-llvm', '-c', '-g', '-O0', '-Xclang', '-disable-O0-optnone', `-I${resolve('runtime/include')}`, 'p.c', '-o', 'p.bc'], { cwd: dir });
  writeFileSync(join(dir, 'user.mts'), USER_TS);
});
afterAll(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
});

it('type-checks a user program against dist/index.d.ts', () => {
  const r = spawnSync(
    process.execPath,
    [resolve('node_modules/typescript/bin/tsc'), '--noEmit', '--strict', '--skipLibCheck', '--target', 'es2022', '--module', 'nodenext', '--moduleResolution', 'nodenext', '--types', 'node', '--typeRoots', resolve('node_modules/@types'), join(dir, 'user.mts')],
    { encoding: 'utf8' },
  );
  expect(r.stdout + r.stderr).toBe('');
  expect(r.status).toBe(0);
}, 60_000);

it('explores a program through loadModule and explore in a child process', () => {
  // the same program, as plain JavaScript (types stripped by hand: no build step in the test)
  const js = USER_TS.replace(/, type \w+/g, '')
    .replace(/: Partial<EngineOptions>|: StateEndInfo\[\]|: ExploreResult|!\]/g, (m) => (m === '!]' ? ']' : ''))
    .replace(' as MemoryOutput', '');
  writeFileSync(join(dir, 'user.mjs'), js);
  const r = spawnSync(process.execPath, [join(dir, 'user.mjs'), join(dir, 'p.bc')], { encoding: 'utf8' });
  expect(r.stderr).toBe('');
  expect(r.status).toBe(0);
  const got = JSON.parse(r.stdout) as Record<string, unknown>;
  // paths: i<4 & i!=7 … : i in 0..3 (exit 0), i == 4 (ptr error), i == 7 (exit 2), other i >= 5 (exit 0)
  expect(got).toEqual({
    completed: 3,
    tests: 4,
    errors: 1,
    halt: null,
    ends: [['Exit', 0], ['Exit', 0], ['Exit', 2], ['Ptr', null]],
    objects: ['i:1', 'i:1', 'i:1', 'i:1'],
    errKinds: ['ptr'],
  });
});
