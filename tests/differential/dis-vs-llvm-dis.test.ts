/**
 * Differential test of `tsklee dis` against llvm-dis.
 *
 * For every fixture (fixtures/dis/*.c and fixtures/large/large.c, each built by clang 14,
 * 16 and 19 at -O0 and -O2 with -g; see scripts/build-fixtures.mjs), the .bc is decoded
 * with our reader and printed with our printer, and every defined function's normalised
 * instruction sequence (tests/support/llvm-normalize.ts) must equal llvm-dis's of the same
 * LLVM version. The set of defined functions must be equal too.
 *
 * One test per fixture (failure messages name the fixture, the function and the first
 * differing line), then a summary test that prints overall counts and requires 100 %.
 *
 * Environment: TSKLEE_CLANG_VERSIONS=14,19 restricts the clang versions;
 * TSKLEE_DIFF_FILTER=<regexp> restricts the fixtures by id (`cf_loops clang19 O2`).
 */
import { readFileSync } from 'node:fs';
import { readBitcodeModule } from '../../src/bitcode/index.js';
import { BitcodeError } from '../../src/bitcode/errors.js';
import { printModule } from '../../src/ir/printer/index.js';
import { diffBodies, functionBodies } from '../support/llvm-normalize.js';
import { ensureFixturesBuilt, fixtureId, listFixtures, type FixtureBitcode } from '../support/fixtures.js';

const filter = process.env.TSKLEE_DIFF_FILTER ? new RegExp(process.env.TSKLEE_DIFF_FILTER) : null;
const fixtures = listFixtures({ large: true }).filter((f) => !filter || filter.test(fixtureId(f)));

interface Outcome {
  id: string;
  /** Defined functions in llvm-dis's output. */
  expected: number;
  /** Of those, functions whose normalised body is identical in our output. */
  matched: number;
  /** Why the fixture failed as a whole (decode/print error, function set mismatch), if it did. */
  failure?: string;
}

const outcomes: Outcome[] = [];

function describeError(e: unknown): string {
  if (e instanceof BitcodeError) return `BitcodeError: ${e.oneLine()}`;
  if (e instanceof Error) return `${e.name}: ${e.message}\n${(e.stack ?? '').split('\n').slice(1, 6).join('\n')}`;
  return String(e);
}

function check(f: FixtureBitcode): void {
  const id = fixtureId(f);
  const expected = functionBodies(readFileSync(f.llPath, 'utf8'));
  const outcome: Outcome = { id, expected: expected.size, matched: 0 };
  outcomes.push(outcome);

  let printed: string;
  try {
    const module = readBitcodeModule(new Uint8Array(readFileSync(f.bcPath)), f.bcPath);
    printed = printModule(module);
  } catch (e) {
    outcome.failure = describeError(e);
    throw new Error(`${id} (${f.bcPath}): could not decode/print:\n${outcome.failure}`);
  }

  const actual = functionBodies(printed);
  for (const [name, body] of expected) {
    const mine = actual.get(name);
    if (mine && mine.length === body.length && mine.every((l, i) => l === body[i])) outcome.matched++;
  }
  const expectedNames = [...expected.keys()].sort();
  const actualNames = [...actual.keys()].sort();
  if (expectedNames.join('\n') !== actualNames.join('\n')) outcome.failure = 'defined functions differ';

  const report = diffBodies(expected, actual);
  if (report !== null) {
    throw new Error(
      `${id}: ${outcome.matched}/${outcome.expected} functions match llvm-dis-${f.clang}\n` +
        `  bitcode:   ${f.bcPath}\n  reference: ${f.llPath}\n${report}`,
    );
  }
}

beforeAll(async () => {
  await ensureFixturesBuilt({ large: true });
}, 20 * 60 * 1000);

describe('tsklee dis vs llvm-dis', () => {
  test('the corpus is complete', () => {
    const programs = new Set(fixtures.filter((f) => f.name !== 'large').map((f) => f.name));
    if (!filter) {
      expect(programs.size).toBeGreaterThanOrEqual(48);
      expect(fixtures.some((f) => f.name === 'large')).toBe(true);
    }
    expect(fixtures.length).toBeGreaterThan(0);
  });

  test.each(fixtures.map((f) => [fixtureId(f), f] as const))('%s', (_id, f) => {
    check(f);
  });

  test('summary: 100 % of defined functions match', () => {
    const fns = outcomes.reduce((n, o) => n + o.expected, 0);
    const matched = outcomes.reduce((n, o) => n + o.matched, 0);
    const failed = outcomes.filter((o) => o.matched !== o.expected || o.failure);
    const groups = new Map<string, { files: number; ok: number; fns: number; matched: number }>();
    for (const o of outcomes) {
      const key = o.id.split(' ').slice(1).join(' '); // `clang19 O2`
      const g = groups.get(key) ?? { files: 0, ok: 0, fns: 0, matched: 0 };
      g.files++;
      if (o.matched === o.expected && !o.failure) g.ok++;
      g.fns += o.expected;
      g.matched += o.matched;
      groups.set(key, g);
    }
    const lines = [
      `dis vs llvm-dis: ${outcomes.length - failed.length}/${outcomes.length} fixtures identical, ` +
        `${matched}/${fns} functions (${fns ? ((100 * matched) / fns).toFixed(2) : '0.00'} %)`,
      ...[...groups.entries()]
        .sort()
        .map(([k, g]) => `  ${k.padEnd(10)} ${g.ok}/${g.files} fixtures, ${g.matched}/${g.fns} functions`),
    ];
    if (failed.length) {
      lines.push('  failing fixtures:');
      for (const o of failed.slice(0, 40)) {
        lines.push(`    ${o.id}: ${o.matched}/${o.expected}${o.failure ? ` (${o.failure.split('\n')[0]})` : ''}`);
      }
      if (failed.length > 40) lines.push(`    … and ${failed.length - 40} more`);
    }
    console.log(lines.join('\n'));
    expect(outcomes.length).toBe(fixtures.length);
    expect(failed.map((o) => o.id)).toEqual([]);
    expect(matched).toBe(fns);
  });
});
