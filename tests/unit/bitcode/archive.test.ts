import fs from 'node:fs';
import path from 'node:path';
import { isArArchive, isThinArchive, readArArchive } from '../../../src/bitcode/archive.js';
import { walkBitstream } from '../../../src/bitcode/dump.js';
import { BitcodeError } from '../../../src/bitcode/errors.js';
import { isBitcode } from '../../../src/bitcode/wrapper.js';
import { clang, compileToBitcode, haveCommand, makeTmpDir, removeDir, run } from './toolchain.js';

const enc = (s: string): Uint8Array => new TextEncoder().encode(s);

function concat(parts: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let o = 0;
  for (const p of parts) {
    out.set(p, o);
    o += p.length;
  }
  return out;
}

/** A member header: name[16] date[12] uid[6] gid[6] mode[8] size[10] "`\n". */
function header(name: string, size: number | string, term = '`\n'): Uint8Array {
  const f = (s: string, n: number): string => (s + ' '.repeat(n)).slice(0, n);
  return enc(f(name, 16) + f('0', 12) + f('0', 6) + f('0', 6) + f('644', 8) + f(String(size), 10) + term);
}

function member(name: string, data: Uint8Array): Uint8Array {
  const parts = [header(name, data.length), data];
  if (data.length % 2 === 1) parts.push(enc('\n'));
  return concat(parts);
}

function expectBitcodeError(fn: () => unknown, msg: RegExp): void {
  let caught: unknown;
  try {
    fn();
  } catch (e) {
    caught = e;
  }
  expect(caught).toBeInstanceOf(BitcodeError);
  expect((caught as BitcodeError).message).toMatch(msg);
}

describe('ar archives: hand-built', () => {
  test('GNU names, long-name table, symbol tables, odd sizes', () => {
    const longNames = enc('a_member_with_a_long_name.bc/\nanother_long_member_name.o/\n');
    const a = enc('hello'); // odd size -> pad byte
    const b = enc('world!');
    const c = enc('xyz');
    const d = enc('long2');
    const ar = concat([
      enc('!<arch>\n'),
      member('/', new Uint8Array([0, 0, 0, 0])),
      member('/SYM64/', new Uint8Array(8)),
      member('//', longNames),
      member('short.bc/', a),
      member('/0', b),
      member('nosuffix', c),
      member('/30', d),
    ]);
    expect(isArArchive(ar)).toBe(true);
    const ms = readArArchive(ar);
    expect(ms.map((m) => m.name)).toEqual(['short.bc', 'a_member_with_a_long_name.bc', 'nosuffix', 'another_long_member_name.o']);
    expect(ms.map((m) => new TextDecoder().decode(m.data))).toEqual(['hello', 'world!', 'xyz', 'long2']);
    // Views, not copies.
    expect(ms[0].data.buffer).toBe(ar.buffer);
  });

  test('BSD names and symbol tables', () => {
    const name = 'a_long_bsd_member_name.bc';
    const body = enc('BSDDATA');
    const ar = concat([
      enc('!<arch>\n'),
      member('#1/20', concat([enc('__.SYMDEF SORTED\0\0\0\0'), new Uint8Array(8)])),
      member(`#1/${name.length + 3}`, concat([enc(name + '\0\0\0'), body])),
      member('short.o', enc('x')),
    ]);
    const ms = readArArchive(ar);
    expect(ms.map((m) => m.name)).toEqual([name, 'short.o']);
    expect(new TextDecoder().decode(ms[0].data)).toBe('BSDDATA');
  });

  test('empty archive and trailing pad byte', () => {
    expect(readArArchive(enc('!<arch>\n'))).toEqual([]);
    expect(readArArchive(enc('!<arch>\n\n'))).toEqual([]);
  });

  test('malformed archives are BitcodeErrors', () => {
    const good = concat([enc('!<arch>\n'), member('a.bc/', enc('abcd'))]);
    expect(readArArchive(good).length).toBe(1);
    expectBitcodeError(() => readArArchive(enc('!<arch')), /not an ar archive/);
    expectBitcodeError(() => readArArchive(enc('BC\xc0\xde')), /not an ar archive/);
    expectBitcodeError(() => readArArchive(good.subarray(0, 40)), /truncated member header/);
    expectBitcodeError(() => readArArchive(good.subarray(0, good.length - 1)), /extends past the end/);
    expectBitcodeError(
      () => readArArchive(concat([enc('!<arch>\n'), header('a/', 4, 'XX'), enc('abcd')])),
      /header terminator/,
    );
    expectBitcodeError(() => readArArchive(concat([enc('!<arch>\n'), header('a/', '12x'), enc('abcd')])), /size/);
    expectBitcodeError(() => readArArchive(concat([enc('!<arch>\n'), header('a/', '-4'), enc('abcd')])), /size/);
    expectBitcodeError(() => readArArchive(concat([enc('!<arch>\n'), member('/5', enc('ab'))])), /name table/);
    expectBitcodeError(
      () => readArArchive(concat([enc('!<arch>\n'), member('//', enc('x/\n')), member('/50', enc('ab'))])),
      /offset out of range/,
    );
    expectBitcodeError(() => readArArchive(concat([enc('!<arch>\n'), member('#1/10', enc('abc'))])), /BSD name/);
    expectBitcodeError(() => readArArchive(enc('!<thin>\n')), /thin archives are not supported/);
    expect(isThinArchive(enc('!<thin>\n'))).toBe(true);
    expect(isArArchive(enc('!<thin>\n'))).toBe(false);
  });
});

const haveTools = haveCommand(clang(19)) && haveCommand('llvm-ar-19');
(haveTools ? describe : describe.skip)('ar archives: built by ar / llvm-ar', () => {
  let dir = '';
  const names = ['a.bc', 'b.bc', 'member_with_a_name_longer_than_16.bc'];
  const contents = new Map<string, Uint8Array>();

  beforeAll(async () => {
    dir = makeTmpDir('ar');
    const srcs = [
      'int a(int x) { return x + 1; }\n',
      'double b(double y) { return y * 2.5; }\nconst char *s = "odd";\n',
      'long long c[3] = {1, 2, 3};\nint main(void) { return (int)c[1]; }\n',
    ];
    await Promise.all(
      names.map(async (n, i) => {
        contents.set(n, await compileToBitcode(clang(19), dir, n.replace(/\.bc$/, '.c'), srcs[i], n, ['-O1']));
      }),
    );
  });
  afterAll(() => {
    if (dir) removeDir(dir);
  });

  const check = (archive: string): void => {
    const buf = new Uint8Array(fs.readFileSync(path.join(dir, archive)));
    expect(isArArchive(buf)).toBe(true);
    const ms = readArArchive(buf);
    expect(ms.map((m) => m.name)).toEqual(names);
    for (const m of ms) {
      expect(Buffer.from(m.data).equals(Buffer.from(contents.get(m.name)!))).toBe(true);
      expect(isBitcode(m.data)).toBe(true);
      expect(walkBitstream(m.data).length).toBeGreaterThan(0);
    }
  };

  test('llvm-ar (GNU format, with symbol table)', async () => {
    await run('llvm-ar-19', ['rc', 'gnu.a', ...names], dir);
    check('gnu.a');
  });

  test('llvm-ar --format=bsd', async () => {
    await run('llvm-ar-19', ['rc', '--format=bsd', 'bsd.a', ...names], dir);
    check('bsd.a');
  });

  test('llvm-ar --format=darwin', async () => {
    await run('llvm-ar-19', ['rc', '--format=darwin', 'darwin.a', ...names], dir);
    check('darwin.a');
  });

  test('llvm-ar without symbol table (S)', async () => {
    await run('llvm-ar-19', ['rcS', 'nosym.a', ...names], dir);
    check('nosym.a');
  });

  (haveCommand('ar') ? test : test.skip)('GNU ar', async () => {
    await run('ar', ['rcS', 'binutils.a', ...names], dir);
    check('binutils.a');
  });

  test('thin archives are rejected with a clear error', async () => {
    await run('llvm-ar-19', ['rc', '--thin', 'thin.a', ...names], dir);
    const buf = new Uint8Array(fs.readFileSync(path.join(dir, 'thin.a')));
    expect(isThinArchive(buf)).toBe(true);
    expectBitcodeError(() => readArArchive(buf), /thin archives are not supported/);
  });
});
