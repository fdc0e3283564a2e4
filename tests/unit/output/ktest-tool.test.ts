/** ktest-tool's text format, and Python's repr() checked against python3 where it is installed. */
import { spawnSync } from 'node:child_process';
import type { KTest } from '../../../src/output/ktest.js';
import { formatKTestTool, ktestInts, ktestToJson, pyBytesRepr, pyListRepr, pyStrRepr, stringifyWithBigInts } from '../../../src/output/ktest-tool.js';

const bytes = (...b: number[]): Uint8Array => new Uint8Array(b);

describe('formatKTestTool', () => {
  test('golden: the example in ktest-tool\'s help', () => {
    const t: KTest = { version: 3, args: ['get_sign.bc'], symArgvs: 0, symArgvLen: 0, objects: [{ name: 'a', bytes: bytes(0, 0, 0, 0x80) }] };
    expect(formatKTestTool('klee-last/test000003.ktest', t)).toBe(
      "ktest file : 'klee-last/test000003.ktest'\n" +
        "args       : ['get_sign.bc']\n" +
        'num objects: 1\n' +
        "object 0: name: 'a'\n" +
        'object 0: size: 4\n' +
        "object 0: data: b'\\x00\\x00\\x00\\x80'\n" +
        'object 0: hex : 0x00000080\n' +
        'object 0: int : -2147483648\n' +
        'object 0: uint: 2147483648\n' +
        'object 0: text: ....\n',
    );
  });

  test('index width follows the largest index; int/uint only for 1, 2, 4, 8 bytes; trim-zeros', () => {
    const objects = Array.from({ length: 11 }, (_, i) => ({ name: `o${i}`, bytes: bytes(i) }));
    objects[10] = { name: 'buf', bytes: bytes(0x41, 0x27, 0x0a, 0, 0) };
    const t: KTest = { version: 3, args: ['p.bc', "it's"], symArgvs: 0, symArgvLen: 0, objects };
    const text = formatKTestTool('x.ktest', t, { trimZeros: true });
    expect(text).toContain('args       : [\'p.bc\', "it\'s"]\n');
    expect(text).toContain("object  0: name: 'o0'\nobject  0: size: 1\nobject  0: data: b''\nobject  0: hex : 0x\nobject  0: int : 0\nobject  0: uint: 0\nobject  0: text: \n");
    expect(text).toContain(
      "object 10: name: 'buf'\nobject 10: size: 5\nobject 10: data: b\"A'\\n\"\nobject 10: hex : 0x41270a\nobject 10: text: A'.\n",
    );
    expect(text).not.toContain('object 10: int');
  });

  test('ints are little-endian, signed and unsigned', () => {
    expect(ktestInts(bytes(0xff))).toEqual({ int: -1n, uint: 255n });
    expect(ktestInts(bytes(0x34, 0x12))).toEqual({ int: 0x1234n, uint: 0x1234n });
    expect(ktestInts(bytes(0, 0, 0, 0, 0, 0, 0, 0x80))).toEqual({ int: -(2n ** 63n), uint: 2n ** 63n });
    expect(ktestInts(bytes(1, 2, 3))).toBeUndefined();
  });

  test('JSON keeps 8-byte values exact', () => {
    const t: KTest = { version: 3, args: [], symArgvs: 0, symArgvLen: 0, objects: [{ name: 'v', bytes: bytes(0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff) }] };
    const text = stringifyWithBigInts([ktestToJson('f', t)]);
    expect(text).toContain('"int": -1');
    expect(text).toContain('"uint": 18446744073709551615');
    expect(JSON.parse(text)[0].objects[0]).toMatchObject({ name: 'v', size: 8, hex: 'ffffffffffffffff', text: '........' });
  });
});

describe("Python's repr", () => {
  test('fixed cases', () => {
    expect(pyBytesRepr(bytes())).toBe("b''");
    expect(pyBytesRepr(bytes(0x27))).toBe('b"\'"');
    expect(pyBytesRepr(bytes(0x27, 0x22))).toBe("b'\\'\"'");
    expect(pyBytesRepr(bytes(0x5c, 9, 10, 13, 0x7f, 0x20))).toBe("b'\\\\\\t\\n\\r\\x7f '");
    expect(pyStrRepr('a\'b"c')).toBe("'a\\'b\"c'");
    expect(pyStrRepr('é\u0085\u00a0☃')).toBe("'é\\x85\\xa0☃'");
    expect(pyListRepr([])).toBe('[]');
  });

  const python = spawnSync('python3', ['-c', 'print(1)'], { encoding: 'utf8' });
  const haveP = python.status === 0;
  (haveP ? test : test.skip)('matches python3 on every byte value and on awkward strings', () => {
    const samples: number[][] = [Array.from({ length: 256 }, (_, i) => i), [0x27], [0x22], [0x27, 0x22], [0x5c, 0x27], []];
    for (let i = 0; i < 20; i++) samples.push(Array.from({ length: 12 }, (_, j) => (i * 97 + j * 61) % 256).concat(i % 3 === 0 ? [0x27] : []));
    const strings = ["it's", 'say "hi"', 'both \' and "', 'tab\tnew\nline\\', 'é\u0085\u00a0\u00ad☃\u2028', '\u0000\u001f\u007f'];
    const script = [
      'import json, sys',
      'data = json.load(sys.stdin)',
      'print(json.dumps({"b": [repr(bytes(x)) for x in data["b"]], "s": [repr(s) for s in data["s"]], "l": repr(data["s"])}))',
    ].join('\n');
    const r = spawnSync('python3', ['-c', script], { input: JSON.stringify({ b: samples, s: strings }), encoding: 'utf8' });
    expect(r.status).toBe(0);
    const want = JSON.parse(r.stdout) as { b: string[]; s: string[]; l: string };
    expect(samples.map((s) => pyBytesRepr(new Uint8Array(s)))).toEqual(want.b);
    expect(strings.map(pyStrRepr)).toEqual(want.s);
    expect(pyListRepr(strings)).toBe(want.l);
  });
});
