/**
 * Robustness of the bitcode reader (and printer) on corrupted input.
 *
 * From the corpus's .bc files (fixtures/dis/build), a seeded PRNG derives thousands of
 * variants: truncations at random offsets, single and multiple bit flips, runs of bytes
 * zeroed or duplicated, random byte overwrites. Each variant is decoded with
 * readBitcodeModule and, when that succeeds, printed with printModule. The outcome must be
 *  - a Module that prints without throwing, or
 *  - a BitcodeError whose oneLine() is one line naming the file and a position;
 * anything else (another exception type, a multi-line message, no file name or position,
 * more than 2 s for one variant) fails the test. Counts of decoded/rejected variants are
 * reported per mutation kind.
 *
 * A watchdog thread aborts the process (after writing which variant hung to stderr) if a
 * single variant runs for more than a minute, so that an infinite loop in the decoder
 * cannot hang the test run silently.
 *
 * Environment: TSKLEE_FUZZ_VARIANTS=<n per kind> (default 560), TSKLEE_FUZZ_SEED=<n>.
 */
import { readFileSync, existsSync } from 'node:fs';
import { basename } from 'node:path';
import { performance } from 'node:perf_hooks';
import { Worker } from 'node:worker_threads';
import { readBitcodeModule } from '../../src/bitcode/index.js';
import { BitcodeError } from '../../src/bitcode/errors.js';
import { printModule } from '../../src/ir/printer/index.js';
import { ensureFixturesBuilt } from '../support/fixtures.js';

const PER_KIND = Number(process.env.TSKLEE_FUZZ_VARIANTS ?? 560);
const SEED = Number(process.env.TSKLEE_FUZZ_SEED ?? 0x7e57c0de);
const TIME_LIMIT_MS = 2000;
const WATCHDOG_MS = 60_000;

// ---------------------------------------------------------------------------------------
// Deterministic PRNG (mulberry32)

class Rng {
  private s: number;
  constructor(seed: number) {
    this.s = seed >>> 0;
  }
  next(): number {
    this.s = (this.s + 0x6d2b79f5) >>> 0;
    let t = this.s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }
  /** Integer in [lo, hi]. */
  int(lo: number, hi: number): number {
    return lo + Math.floor(this.next() * (hi - lo + 1));
  }
}

// ---------------------------------------------------------------------------------------
// Mutations

type Kind = 'truncate' | 'bitflip' | 'multiflip' | 'zero-run' | 'dup-run' | 'byte-set';
const KINDS: readonly Kind[] = ['truncate', 'bitflip', 'multiflip', 'zero-run', 'dup-run', 'byte-set'];

interface Variant {
  kind: Kind;
  source: string;
  detail: string;
  data: Uint8Array;
}

function mutate(kind: Kind, src: Uint8Array, rng: Rng): { data: Uint8Array; detail: string } {
  const n = src.length;
  switch (kind) {
    case 'truncate': {
      const len = rng.int(0, n - 1);
      return { data: src.slice(0, len), detail: `len=${len}` };
    }
    case 'bitflip': {
      const d = src.slice();
      const bit = rng.int(0, n * 8 - 1);
      d[bit >> 3] ^= 1 << (bit & 7);
      return { data: d, detail: `bit=${bit}` };
    }
    case 'multiflip': {
      const d = src.slice();
      const count = rng.int(2, 24);
      const clustered = rng.next() < 0.5;
      const base = rng.int(0, n * 8 - 1);
      const bits: number[] = [];
      for (let i = 0; i < count; i++) {
        const bit = clustered ? Math.min(n * 8 - 1, base + rng.int(0, 511)) : rng.int(0, n * 8 - 1);
        d[bit >> 3] ^= 1 << (bit & 7);
        bits.push(bit);
      }
      return { data: d, detail: `bits=${bits.slice(0, 6).join(',')}${bits.length > 6 ? ',…' : ''}(${count})` };
    }
    case 'zero-run': {
      const d = src.slice();
      const pos = rng.int(0, n - 1);
      const len = Math.min(n - pos, rng.int(1, 256));
      d.fill(0, pos, pos + len);
      return { data: d, detail: `pos=${pos},len=${len}` };
    }
    case 'dup-run': {
      const pos = rng.int(0, n - 1);
      const len = Math.min(n - pos, rng.int(1, 256));
      const d = new Uint8Array(n + len);
      d.set(src.subarray(0, pos + len), 0);
      d.set(src.subarray(pos, pos + len), pos + len);
      d.set(src.subarray(pos + len), pos + 2 * len);
      return { data: d, detail: `pos=${pos},len=${len}` };
    }
    case 'byte-set': {
      const d = src.slice();
      const count = rng.int(1, 8);
      const at: number[] = [];
      for (let i = 0; i < count; i++) {
        const p = rng.int(0, n - 1);
        d[p] = rng.int(0, 255);
        at.push(p);
      }
      return { data: d, detail: `at=${at.join(',')}` };
    }
  }
}

function makeVariants(kind: Kind, sources: { name: string; data: Uint8Array }[], count: number): Variant[] {
  // One PRNG stream per kind, so that changing one kind's count leaves the others alone.
  const rng = new Rng(SEED ^ (KINDS.indexOf(kind) * 0x9e3779b1));
  const out: Variant[] = [];
  for (let i = 0; i < count; i++) {
    const src = sources[rng.int(0, sources.length - 1)];
    const { data, detail } = mutate(kind, src.data, rng);
    out.push({ kind, source: src.name, detail, data });
  }
  return out;
}

// ---------------------------------------------------------------------------------------
// Watchdog: a plain-JS worker that aborts the process if one variant runs too long.

const shared = new SharedArrayBuffer(4 * 4 + 512);
const state = new Int32Array(shared, 0, 4); // [sequence, active, descriptionLength, -]
const descBytes = new Uint8Array(shared, 16, 512);
let watchdog: Worker | undefined;

const WATCHDOG_SOURCE = `
const { workerData } = require('node:worker_threads');
const fs = require('node:fs');
const state = new Int32Array(workerData.shared, 0, 4);
const desc = new Uint8Array(workerData.shared, 16, 512);
let lastSeq = -1, since = Date.now();
setInterval(() => {
  const seq = Atomics.load(state, 0);
  if (seq !== lastSeq || Atomics.load(state, 1) === 0) { lastSeq = seq; since = Date.now(); return; }
  if (Date.now() - since > workerData.limitMs) {
    const text = Buffer.from(desc.slice(0, Atomics.load(state, 2))).toString('utf8');
    fs.writeSync(2, '\\nrobustness watchdog: variant did not finish within ' + workerData.limitMs + ' ms: ' + text + '\\n');
    process.kill(process.pid, 'SIGABRT');
  }
}, 500);
`;

function beginVariant(description: string): void {
  const bytes = new TextEncoder().encode(description).slice(0, descBytes.length);
  descBytes.set(bytes);
  Atomics.store(state, 2, bytes.length);
  Atomics.add(state, 0, 1);
  Atomics.store(state, 1, 1);
}

function endVariant(): void {
  Atomics.store(state, 1, 0);
}

// ---------------------------------------------------------------------------------------

interface Tally {
  decoded: number;
  rejected: number;
  failures: string[];
  slowest: number;
}

const tallies = new Map<Kind, Tally>();

function describe1(v: Variant): string {
  return `${v.source} [${v.kind} ${v.detail}]`;
}

function runVariant(v: Variant, index: number, t: Tally): void {
  const fileName = `fuzz-${v.kind}-${index}-${v.source}`;
  beginVariant(describe1(v));
  const start = performance.now();
  let problem: string | null = null;
  try {
    const m = readBitcodeModule(v.data, fileName);
    try {
      printModule(m);
      t.decoded++;
    } catch (e) {
      problem = `decoded, but printModule threw ${(e as Error)?.name ?? typeof e}: ${String((e as Error)?.message ?? e).split('\n')[0]}`;
    }
  } catch (e) {
    if (!(e instanceof BitcodeError)) {
      const err = e as Error;
      problem = `threw ${err?.constructor?.name ?? typeof e} instead of BitcodeError: ${String(err?.message ?? e).split('\n')[0]}`;
      const frame = (err?.stack ?? '').split('\n').find((l) => l.includes('/src/'));
      if (frame) problem += ` @ ${frame.trim()}`;
    } else {
      const line = e.oneLine();
      if (/[\r\n]/.test(line)) problem = `multi-line BitcodeError message: ${JSON.stringify(line)}`;
      else if (!line.includes(fileName)) problem = `BitcodeError message does not name the file: ${line}`;
      else if (!/\bat byte 0x[0-9a-f]+/.test(line)) problem = `BitcodeError message has no position: ${line}`;
      else t.rejected++;
    }
  } finally {
    endVariant();
  }
  const ms = performance.now() - start;
  t.slowest = Math.max(t.slowest, ms);
  if (problem === null && ms > TIME_LIMIT_MS) problem = `took ${ms.toFixed(0)} ms (limit ${TIME_LIMIT_MS} ms)`;
  if (problem !== null) t.failures.push(`${describe1(v)}: ${problem}`);
}

let sources: { name: string; data: Uint8Array }[] = [];

beforeAll(async () => {
  const fixtures = await ensureFixturesBuilt();
  sources = fixtures
    .filter((f) => existsSync(f.bcPath))
    .map((f) => ({ name: basename(f.bcPath), data: new Uint8Array(readFileSync(f.bcPath)) }));
  watchdog = new Worker(WATCHDOG_SOURCE, { eval: true, workerData: { shared, limitMs: WATCHDOG_MS } });
  watchdog.unref();
}, 20 * 60 * 1000);

afterAll(async () => {
  await watchdog?.terminate();
});

describe('reader robustness on corrupted bitcode', () => {
  test('has corpus bitcode to mutate', () => {
    expect(sources.length).toBeGreaterThan(0);
    // every source must decode cleanly, otherwise the mutations test nothing
    for (const s of sources.slice(0, 12)) expect(() => readBitcodeModule(s.data, s.name)).not.toThrow();
  });

  test.each(KINDS.map((k) => [k]))('%s variants', (kind) => {
    const t: Tally = { decoded: 0, rejected: 0, failures: [], slowest: 0 };
    tallies.set(kind, t);
    const variants = makeVariants(kind, sources, PER_KIND);
    variants.forEach((v, i) => runVariant(v, i, t));
    const shown = t.failures.slice(0, 15).join('\n  ');
    if (t.failures.length) {
      throw new Error(
        `${kind}: ${t.failures.length}/${variants.length} variants failed ` +
          `(${t.decoded} decoded, ${t.rejected} rejected cleanly):\n  ${shown}` +
          (t.failures.length > 15 ? `\n  … and ${t.failures.length - 15} more` : ''),
      );
    }
  });

  test('summary', () => {
    const rows = [...tallies.entries()].map(
      ([k, t]) =>
        `  ${k.padEnd(10)} ${String(t.decoded).padStart(5)} decoded ${String(t.rejected).padStart(5)} rejected ` +
        `${String(t.failures.length).padStart(5)} failed  (slowest ${t.slowest.toFixed(0)} ms)`,
    );
    const total = [...tallies.values()].reduce(
      (a, t) => ({ d: a.d + t.decoded, r: a.r + t.rejected, f: a.f + t.failures.length }),
      { d: 0, r: 0, f: 0 },
    );
    console.log(
      [
        `robustness: ${total.d + total.r + total.f} variants of ${sources.length} files (seed 0x${SEED.toString(16)}): ` +
          `${total.d} decoded, ${total.r} rejected with BitcodeError, ${total.f} failed`,
        ...rows,
      ].join('\n'),
    );
    expect(total.d + total.r + total.f).toBe(PER_KIND * KINDS.length);
    expect(total.f).toBe(0);
  });
});
