/**
 * `tsklee report` end to end (needs `npm run build`): report.html is self-contained, loads in
 * headless Chromium with the run's counts, and its replay commands reproduce the errors;
 * errors.sarif validates against SARIF 2.1.0's schema; report.json says what the files say.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';

const CLI = resolve('dist/cli/main.js');
let dir: string;

// an out-of-bounds read in a callee and a division by zero
const PROG = `#include <klee/klee.h>
int buf[4];
int get(int i) { return buf[i]; }
int main(void) {
  int i, d;
  klee_make_symbolic(&i, sizeof i, "i");
  klee_make_symbolic(&d, sizeof d, "d");
  if (i > 2 && i < 10) return get(i);
  if (d == 3) return 100 / (d - 3);
  return 0;
}
`;

function run(cmd: string, args: string[]): { code: number | null; stdout: string; stderr: string } {
  const r = spawnSync(cmd, args, { encoding: 'utf8', cwd: dir, maxBuffer: 1 << 26 });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

function tsklee(args: string[]): { code: number | null; stdout: string; stderr: string } {
  return run(process.execPath, [CLI, ...args]);
}

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'tsklee-report-'));
  writeFileSync(join(dir, 'bug.c'), PROG);
  const r = tsklee(['run', '--search=dfs', '--output-dir=out', 'bug.c']);
  if (r.code !== 0) throw new Error(`tsklee run failed: ${r.stderr}`);
  for (const format of ['html', 'sarif', 'json']) {
    const w = tsklee(['report', `--format=${format}`, 'out']);
    if (w.code !== 0) throw new Error(`tsklee report --format=${format} failed: ${w.stderr}`);
  }
}, 60_000);

afterAll(() => rmSync(dir, { recursive: true, force: true }));

const errFiles = (): string[] => readdirSync(join(dir, 'out')).filter((f) => f.endsWith('.err')).sort();

describe('report.html', () => {
  it('is one self-contained page: no script, no stylesheet or image fetched', () => {
    const html = readFileSync(join(dir, 'out', 'report.html'), 'utf8');
    expect(html).not.toMatch(/<script|<link|<img|<iframe/i);
    expect(html).not.toMatch(/\s(src|href)="(https?:)?\/\//i);
    expect(html).toMatch(/<svg[^>]*>/); // the charts
    // each error with its inputs and replay command; the out-of-bounds line marked in the source
    expect(errFiles()).toHaveLength(2);
    for (const f of errFiles()) expect(html).toContain(`id="error-${f.slice(0, 10)}"`);
    expect(html).toMatch(/<tr class="cov err"[^>]*><td class="n">3<\/td>/);
  });

  it('loads in headless Chromium and shows the counts', () => {
    const r = run('chromium', ['--headless', '--no-sandbox', '--disable-gpu', '--enable-logging=stderr', '--dump-dom', `file://${join(dir, 'out', 'report.html')}`]);
    expect(r.code).toBe(0);
    expect(r.stderr).not.toMatch(/CONSOLE\(\d+\)|Uncaught/);
    const count = (id: string): number => Number(new RegExp(`id="${id}">(\\d+)<`).exec(r.stdout)?.[1]);
    expect(count('count-errors')).toBe(2);
    expect(count('count-tests')).toBe(readdirSync(join(dir, 'out')).filter((f) => f.endsWith('.ktest')).length);
    const info = readFileSync(join(dir, 'out', 'info'), 'utf8');
    expect(count('count-instructions')).toBe(Number(/total instructions = (\d+)/.exec(info)![1]));
    expect(count('count-paths')).toBe(Number(/explored paths = (\d+)/.exec(info)![1]));
  }, 60_000);

  it('gives replay commands that reproduce each error', () => {
    const report = JSON.parse(readFileSync(join(dir, 'out', 'report.json'), 'utf8')) as { errors: { test: string; kind: string; message: string; replay: string }[] };
    expect(report.errors.map((e) => e.kind).sort()).toEqual(['div', 'ptr']);
    for (const e of report.errors) {
      const words = e.replay.split(' ');
      expect(words.slice(0, 2)).toEqual(['tsklee', 'replay']);
      const r = tsklee(words.slice(1));
      expect(r.code).toBe(0);
      expect(r.stdout).toContain(e.message);
    }
  });
});

describe('errors.sarif', () => {
  it('validates against the SARIF 2.1.0 schema and locates each error', () => {
    const require = createRequire(import.meta.url);
    const Ajv = require('ajv-draft-04') as new (o: object) => { compile(s: object): ((d: unknown) => boolean) & { errors?: unknown } };
    const schema = require('@microsoft/jest-sarif/lib/schemas/sarif-2.1.0-rtm.5.json') as object;
    const addFormats = require('ajv-formats') as (ajv: object) => void;
    // the schema's language pattern is not valid in a unicode regular expression: ajv compiles them without /u
    const ajv = new Ajv({ allErrors: true, strict: false, unicodeRegExp: false });
    addFormats(ajv); // the schema's uri, uri-reference and date-time formats are checked too
    const validate = ajv.compile(schema);
    const log = JSON.parse(readFileSync(join(dir, 'out', 'errors.sarif'), 'utf8')) as {
      version: string;
      runs: { tool: { driver: { rules: { id: string }[] } }; results: { ruleId: string; locations: { physicalLocation: { artifactLocation: { uri: string }; region: { startLine: number } } }[] }[] }[];
    };
    const ok = validate(log);
    expect(validate.errors ?? null).toBeNull();
    expect(ok).toBe(true);
    expect(log.version).toBe('2.1.0');
    const results = log.runs[0]!.results;
    expect(results.map((r) => r.ruleId).sort()).toEqual(['div', 'ptr']);
    for (const f of errFiles()) {
      const line = Number(/^Line: (\d+)$/m.exec(readFileSync(join(dir, 'out', f), 'utf8'))![1]);
      const kind = f.split('.')[1]!;
      const res = results.find((r) => r.ruleId === kind)!;
      expect(res.locations[0]!.physicalLocation.region.startLine).toBe(line);
      expect(res.locations[0]!.physicalLocation.artifactLocation.uri).toBe(`file://${join(dir, 'bug.c')}`);
    }
    // a schema-invalid log is refused (the validator really checks)
    expect(validate({ version: '2.1.0', runs: [{ results: [] }] })).toBe(false);
  });
});

describe('report.json and bad input', () => {
  it('summarises coverage and tests, and refuses a directory that is no output directory in one line', () => {
    const j = JSON.parse(readFileSync(join(dir, 'out', 'report.json'), 'utf8')) as { coverage: { file: string; lines: { covered: number; total: number } }[]; tests: unknown[] };
    expect(j.coverage.map((c) => c.file)).toEqual([join(dir, 'bug.c')]);
    const lcov = readFileSync(join(dir, 'out', 'coverage.lcov'), 'utf8');
    expect(j.coverage[0]!.lines.total).toBe(Number(/^LF:(\d+)$/m.exec(lcov)![1]));
    expect(j.tests.length).toBe(readdirSync(join(dir, 'out')).filter((f) => f.endsWith('.ktest')).length);
    const bad = tsklee(['report', dir]);
    expect(bad.code).not.toBe(0);
    expect(bad.stderr.trim().split('\n')).toHaveLength(1);
    expect(bad.stderr).toMatch(/not an output directory/);
  });
});
