/**
 * `tsklee ktest`, end to end through the built CLI (`node dist/cli/main.js`; run
 * `npm run build` first): ktest-tool's text, --json, --trim-zeros, --extract, bad files.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { encodeKTest, writeKTestFile, type KTest } from '../../src/output/ktest.js';

const CLI = resolve('dist/cli/main.js');
let dir: string;

function tsklee(args: string[], cwd?: string): { code: number | null; stdout: string; stderr: string } {
  const r = spawnSync(process.execPath, [CLI, ...args], { encoding: 'utf8', cwd });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

const T: KTest = {
  version: 3,
  args: ['prog.bc', '--sym-arg', '3'],
  symArgvs: 0,
  symArgvLen: 0,
  objects: [
    { name: 'x', bytes: new Uint8Array([1, 0, 0, 0]) },
    { name: 'buf', bytes: new Uint8Array([0x68, 0x69, 0x27, 0, 0, 0]) },
  ],
};

beforeAll(() => {
  if (!existsSync(CLI)) throw new Error(`${CLI} is missing: run \`npm run build\` before the e2e tests (npm run build && npm test)`);
  dir = mkdtempSync(join(tmpdir(), 'tsklee-cli-ktest-'));
  writeKTestFile(join(dir, 'test000001.ktest'), T);
  writeKTestFile(join(dir, 'test000002.ktest'), { ...T, objects: [{ name: 'n', bytes: new Uint8Array([0xfe, 0xff]) }] });
});
afterAll(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
});

test('prints like ktest-tool, file after file', () => {
  const r = tsklee(['ktest', 'test000001.ktest', 'test000002.ktest'], dir);
  expect(r.stderr).toBe('');
  expect(r.code).toBe(0);
  expect(r.stdout).toBe(
    "ktest file : 'test000001.ktest'\n" +
      "args       : ['prog.bc', '--sym-arg', '3']\n" +
      'num objects: 2\n' +
      "object 0: name: 'x'\n" +
      'object 0: size: 4\n' +
      "object 0: data: b'\\x01\\x00\\x00\\x00'\n" +
      'object 0: hex : 0x01000000\n' +
      'object 0: int : 1\n' +
      'object 0: uint: 1\n' +
      'object 0: text: ....\n' +
      "object 1: name: 'buf'\n" +
      'object 1: size: 6\n' +
      'object 1: data: b"hi\'\\x00\\x00\\x00"\n' +
      'object 1: hex : 0x686927000000\n' +
      "object 1: text: hi'...\n" +
      "ktest file : 'test000002.ktest'\n" +
      "args       : ['prog.bc', '--sym-arg', '3']\n" +
      'num objects: 1\n' +
      "object 0: name: 'n'\n" +
      'object 0: size: 2\n' +
      "object 0: data: b'\\xfe\\xff'\n" +
      'object 0: hex : 0xfeff\n' +
      'object 0: int : -2\n' +
      'object 0: uint: 65534\n' +
      'object 0: text: ..\n',
  );
});

test('--trim-zeros', () => {
  const r = tsklee(['ktest', '--trim-zeros', join(dir, 'test000001.ktest')]);
  expect(r.code).toBe(0);
  expect(r.stdout).toContain('object 1: data: b"hi\'"\nobject 1: hex : 0x686927\nobject 1: text: hi\'\n');
  expect(r.stdout).toContain('object 0: data: b\'\\x01\'\nobject 0: hex : 0x01\nobject 0: int : 1\n');
});

test('--json', () => {
  const r = tsklee(['ktest', '--json', 'test000001.ktest', 'test000002.ktest'], dir);
  expect(r.code).toBe(0);
  expect(JSON.parse(r.stdout)).toEqual([
    {
      file: 'test000001.ktest',
      version: 3,
      args: ['prog.bc', '--sym-arg', '3'],
      symArgvs: 0,
      symArgvLen: 0,
      objects: [
        { name: 'x', size: 4, hex: '01000000', int: 1, uint: 1, text: '....' },
        { name: 'buf', size: 6, hex: '686927000000', text: "hi'..." },
      ],
    },
    { file: 'test000002.ktest', version: 3, args: ['prog.bc', '--sym-arg', '3'], symArgvs: 0, symArgvLen: 0, objects: [{ name: 'n', size: 2, hex: 'feff', int: -2, uint: 65534, text: '..' }] },
  ]);
});

test('--extract writes FILE.NAME', () => {
  const r = tsklee(['ktest', '--extract', 'buf', '--trim-zeros', 'test000001.ktest'], dir);
  expect(r.code).toBe(0);
  expect(r.stdout).toBe('');
  expect(readFileSync(join(dir, 'test000001.ktest.buf'), 'latin1')).toBe("hi'");
  const two = tsklee(['ktest', '--extract', 'x', '--extract', 'buf', 'test000001.ktest'], dir);
  expect(two.code).toBe(0);
  expect(Array.from(readFileSync(join(dir, 'test000001.ktest.x')))).toEqual([1, 0, 0, 0]);
  expect(readFileSync(join(dir, 'test000001.ktest.buf'), 'latin1')).toBe("hi'\0\0\0");
  const missing = tsklee(['ktest', '--extract', 'nope', 'test000001.ktest'], dir);
  expect(missing.code).toBe(1);
  expect(missing.stderr).toBe("tsklee: error: test000001.ktest: no object named 'nope'\n");
});

describe('bad files: one line naming the file, exit 1', () => {
  const cases: [string, Uint8Array | null, RegExp][] = [
    ['garbage.ktest', new TextEncoder().encode('hello, world'), /not a \.ktest file \(bad magic "hello", expected "KTEST"\)$/],
    ['short.ktest', encodeKTest(T).subarray(0, 30), /truncated \.ktest: /],
    ['v9.ktest', (() => { const b = encodeKTest(T); b[8] = 9; return b; })(), /unsupported \.ktest version 9/],
    ['missing.ktest', null, /no such file or directory$/],
  ];
  test.each(cases)('%s', (name, bytes, pattern) => {
    const p = join(dir, name);
    if (bytes) writeFileSync(p, bytes);
    for (const args of [['ktest', p], ['ktest', '--json', p]]) {
      const r = tsklee(args);
      expect(r.code).toBe(1);
      expect(r.stdout).toBe('');
      const lines = r.stderr.trimEnd().split('\n');
      expect(lines).toHaveLength(1);
      expect(lines[0].startsWith(`tsklee: error: ${p}: `)).toBe(true);
      expect(lines[0]).toMatch(pattern);
    }
  });

  test('a directory', () => {
    const r = tsklee(['ktest', dir]);
    expect(r.code).toBe(1);
    expect(r.stderr).toBe(`tsklee: error: ${dir}: is a directory\n`);
  });
});
