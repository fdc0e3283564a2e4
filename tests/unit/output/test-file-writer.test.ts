/** Test files written in order (directly, then through the worker thread), exit-status.txt lines, errors. */
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { TestFileWriter } from '../../../src/output/test-file-writer.js';
import { EXIT_STATUS_FILE, formatExitStatusLine, parseExitStatuses, readExitStatuses } from '../../../src/output/exit-status.js';
import { createOutputDir } from '../../../src/output/output-dir.js';
import { readKTestFile, type KTest } from '../../../src/output/ktest.js';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'tsklee-tfw-'));
});
afterEach(() => {
  rmSync(dir, { recursive: true, force: true });
});

const stem = (i: number): string => `test${String(i).padStart(6, '0')}`;

describe('exit-status.txt lines', () => {
  test('format and parse: a status or "-", a cut last line ignored', () => {
    expect(formatExitStatusLine('test000001', 0)).toBe('test000001 0\n');
    expect(formatExitStatusLine('test000002', null)).toBe('test000002 -\n');
    const m = parseExitStatuses('test000001 0\ntest000002 -\ntest000003 255\ntest0000');
    expect([...m]).toEqual([
      ['test000001', 0],
      ['test000002', null],
      ['test000003', 255],
    ]);
  });

  test('a directory without the file has no statuses', () => {
    expect(readExitStatuses(dir).size).toBe(0);
  });
});

describe('TestFileWriter', () => {
  test('hundreds of jobs: every file and line on disk after drain, lines in order, binary data intact', () => {
    const w = new TestFileWriter(join(dir, EXIT_STATUS_FILE));
    const n = 700; // well past the tests written directly: most go through the worker
    for (let i = 1; i <= n; i++) {
      const bytes = Uint8Array.from({ length: 1 + (i % 50) }, (_, k) => (i + k) & 0xff);
      w.write([[join(dir, `${stem(i)}.bin`), bytes], [join(dir, `${stem(i)}.txt`), `t${i}\n`]], i % 3 === 0 ? null : formatExitStatusLine(stem(i), i % 7 === 0 ? null : i & 0xff));
      bytes.fill(0); // the writer keeps its own copy
    }
    w.drain();
    const lines = readFileSync(join(dir, EXIT_STATUS_FILE), 'utf8').trimEnd().split('\n');
    const want = [...Array(n).keys()].map((k) => k + 1).filter((i) => i % 3 !== 0);
    expect(lines).toEqual(want.map((i) => `${stem(i)} ${i % 7 === 0 ? '-' : i & 0xff}`));
    for (let i = 1; i <= n; i++) {
      expect([...readFileSync(join(dir, `${stem(i)}.bin`))]).toEqual(Array.from({ length: 1 + (i % 50) }, (_, k) => (i + k) & 0xff));
      expect(readFileSync(join(dir, `${stem(i)}.txt`), 'utf8')).toBe(`t${i}\n`);
    }
    w.close();
    w.close();
    expect(() => w.write([[join(dir, 'late'), 'x']], null)).toThrow(/closed/);
  });

  test.each([1024, 8192])('a %i-byte ring: jobs wrap around it and fill it, the worker falls behind, bigger jobs are written directly: all in order', (ringBytes) => {
    const w = new TestFileWriter(join(dir, EXIT_STATUS_FILE), ringBytes);
    const pause = new Int32Array(new SharedArrayBuffer(4));
    const n = 1500;
    const size = (i: number): number => (i % 97 === 0 ? ringBytes : i % 13); // every 97th is too big for the ring
    for (let i = 1; i <= n; i++) {
      // let the worker start, so that most jobs go through the ring
      while (i > 100 && !w.workerReady()) Atomics.wait(pause, 0, 0, 5);
      const bytes = Uint8Array.from({ length: size(i) }, (_, k) => (i * 7 + k) & 0xff);
      w.write([[join(dir, `${stem(i)}.bin`), bytes]], i % 5 === 0 ? null : formatExitStatusLine(stem(i), i & 0xff));
    }
    expect(w.workerReady()).toBe(true);
    expect(w.jobsOnWorker).toBeGreaterThan(n / 2);
    expect(w.jobsBehind).toBeGreaterThan(0); // nothing between writes: the worker falls behind, files are then made here
    w.close();
    const lines = readFileSync(join(dir, EXIT_STATUS_FILE), 'utf8').trimEnd().split('\n');
    const want = [...Array(n).keys()].map((k) => k + 1).filter((i) => i % 5 !== 0);
    expect(lines).toEqual(want.map((i) => `${stem(i)} ${i & 0xff}`));
    for (let i = 1; i <= n; i++) expect([...readFileSync(join(dir, `${stem(i)}.bin`))]).toEqual(Array.from({ length: size(i) }, (_, k) => (i * 7 + k) & 0xff));
  });

  test('a line too long for the ring is appended after the lines before it', () => {
    const w = new TestFileWriter(join(dir, EXIT_STATUS_FILE), 1024);
    const pause = new Int32Array(new SharedArrayBuffer(4));
    const long = `${'x'.repeat(600)}\n`;
    for (let i = 1; i <= 300; i++) {
      while (i > 100 && !w.workerReady()) Atomics.wait(pause, 0, 0, 5);
      w.write([[join(dir, `${stem(i)}.t`), 'a']], i % 50 === 0 ? long : `${stem(i)}\n`);
    }
    w.close();
    const want = Array.from({ length: 300 }, (_, k) => (k + 1) % 50 === 0 ? long : `${stem(k + 1)}\n`).join('');
    expect(readFileSync(join(dir, EXIT_STATUS_FILE), 'utf8')).toBe(want);
  });

  test('paths, contents and lines beyond ASCII reach the disk as UTF-8 through the worker', () => {
    const w = new TestFileWriter(join(dir, EXIT_STATUS_FILE));
    const pause = new Int32Array(new SharedArrayBuffer(4));
    const words = ['plain', 'grüße', '€uro', 'a😀b', 'ж'];
    for (let i = 1; i <= 300; i++) {
      while (i > 100 && !w.workerReady()) Atomics.wait(pause, 0, 0, 5);
      const word = words[i % words.length]!;
      w.write([[join(dir, `${stem(i)}-${word}.txt`), `${word}${i}`]], `${stem(i)} ${word}\n`);
    }
    expect(w.jobsOnWorker).toBeGreaterThan(100);
    w.close();
    const lines = readFileSync(join(dir, EXIT_STATUS_FILE), 'utf8').trimEnd().split('\n');
    expect(lines).toEqual(Array.from({ length: 300 }, (_, k) => `${stem(k + 1)} ${words[(k + 1) % words.length]}`));
    for (let i = 1; i <= 300; i++) {
      const word = words[i % words.length]!;
      expect(readFileSync(join(dir, `${stem(i)}-${word}.txt`), 'utf8')).toBe(`${word}${i}`);
    }
  });

  test('a ring size that is not a power of two is refused', () => {
    expect(() => new TestFileWriter(join(dir, EXIT_STATUS_FILE), 1000)).toThrow(/power of two/);
  });

  test('no job, no exit-status.txt', () => {
    const w = new TestFileWriter(join(dir, EXIT_STATUS_FILE));
    w.close();
    expect(readdirSync(dir)).toEqual([]);
  });

  test('an error on the worker comes back as the fs error it was, and nothing is written after it', () => {
    const w = new TestFileWriter(join(dir, EXIT_STATUS_FILE));
    writeFileSync(join(dir, 'taken'), 'x');
    const pause = new Int32Array(new SharedArrayBuffer(4));
    for (let i = 1; i <= 200; i++) {
      // the first jobs are written here until the worker listens: let it start, so the error happens there
      while (i > 100 && !w.workerReady()) Atomics.wait(pause, 0, 0, 5);
      w.write([[join(dir, `${stem(i)}.txt`), 'a']], formatExitStatusLine(stem(i), 0));
    }
    expect(w.workerReady()).toBe(true);
    w.drain(); // the worker is not behind: the next jobs go to it (a job it is far behind on is written here)
    w.write([[join(dir, 'taken'), 'b']], null);
    w.write([[join(dir, 'after'), 'c']], formatExitStatusLine('test999999', 0));
    let err: NodeJS.ErrnoException | undefined;
    try {
      w.drain();
    } catch (e) {
      err = e as NodeJS.ErrnoException;
    }
    expect(err?.code).toBe('EEXIST');
    expect(err?.syscall).toBe('open');
    expect(err?.path).toBe(join(dir, 'taken'));
    expect(existsSync(join(dir, 'after'))).toBe(false);
    expect(readExitStatuses(dir).size).toBe(200);
    expect(() => w.close()).toThrow(/EEXIST/);
  });

  test('an error while writing directly is thrown by that write', () => {
    const w = new TestFileWriter(join(dir, EXIT_STATUS_FILE));
    expect(() => w.write([[join(dir, 'no', 'such', 'dir'), 'x']], null)).toThrow(expect.objectContaining({ code: 'ENOENT' }));
    w.close();
  });
});

describe('OutputDir', () => {
  const T: KTest = { version: 3, args: ['p.bc'], symArgvs: 0, symArgvLen: 0, objects: [{ name: 'x', bytes: new Uint8Array([1, 2, 3, 4]) }] };

  test('one exit-status.txt line per .ktest, after its other files; all on disk once info is written', () => {
    const o = createOutputDir({ outputDir: join(dir, 'out') });
    for (let i = 1; i <= 300; i++) {
      if (i % 10 === 0) o.writeTest(null, { errKind: 'ptr', errText: 'no inputs\n' });
      else if (i % 5 === 0) o.writeTest(T, { errKind: 'ptr', errText: 'Error\n' });
      else o.writeTest(T, { exitStatus: i & 0xff, files: { stdout: new Uint8Array([104, 105]) } });
    }
    o.writeInfo('done\n');
    const statuses = readExitStatuses(o.path);
    const ktests = readdirSync(o.path).filter((n) => n.endsWith('.ktest'));
    expect(ktests).toHaveLength(270);
    expect([...statuses.keys()].map((s) => `${s}.ktest`).sort()).toEqual(ktests.sort());
    expect(statuses.get(stem(5))).toBeNull();
    expect(statuses.get(stem(299))).toBe(299 & 0xff);
    expect(readKTestFile(o.testPath(299, 'ktest'))).toEqual(T);
    expect(readFileSync(o.testPath(299, 'stdout'), 'utf8')).toBe('hi');
    expect(existsSync(o.testPath(10, 'ptr.err'))).toBe(true);
    o.close();
  });
});
