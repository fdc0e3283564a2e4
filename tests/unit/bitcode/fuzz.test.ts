/**
 * Robustness: random truncations, bit flips and byte smears of real bitcode
 * must make the decoder either succeed or throw a BitcodeError, quickly.
 */
import { readArArchive } from '../../../src/bitcode/archive.js';
import { dumpBitstream } from '../../../src/bitcode/dump.js';
import { BitcodeError } from '../../../src/bitcode/errors.js';
import { CONFIGS, PROGRAMS, clang, compileToBitcode, haveCommand, makeTmpDir, removeDir, run } from './toolchain.js';
import fs from 'node:fs';
import path from 'node:path';
import { prng as rng } from '../../support/prng.js';

type Mutator = (src: Uint8Array, rand: () => number) => Uint8Array;

const truncate: Mutator = (src, rand) => {
  // Mostly anywhere; sometimes on a word boundary (so the damage is structural, not an odd tail).
  let n = Math.floor(rand() * src.length);
  if (rand() < 0.3) n &= ~3;
  return src.slice(0, n);
};

const flipBits: Mutator = (src, rand) => {
  const out = src.slice();
  const flips = 1 + Math.floor(rand() * 4);
  for (let i = 0; i < flips; i++) {
    // Rarely touch the magic / wrapper header.
    const lo = rand() < 0.02 ? 0 : 4;
    const bit = lo * 8 + Math.floor(rand() * (out.length - lo) * 8);
    out[bit >> 3] ^= 1 << (bit & 7);
  }
  return out;
};

const smear: Mutator = (src, rand) => {
  const out = src.slice();
  const len = 1 + Math.floor(rand() * 16);
  const at = 4 + Math.floor(rand() * Math.max(1, out.length - 4 - len));
  for (let i = 0; i < len && at + i < out.length; i++) out[at + i] = Math.floor(rand() * 256);
  return out;
};

const garbage: Mutator = (_src, rand) => {
  const n = 4 + Math.floor(rand() * 2000);
  const out = new Uint8Array(n);
  for (let i = 4; i < n; i++) out[i] = Math.floor(rand() * 256);
  // Often start with a plausible ENTER_SUBBLOCK so the garbage reaches the cursor.
  out.set([0x42, 0x43, 0xc0, 0xde]);
  if (rand() < 0.5 && n > 8) out[4] = 0x35;
  return out;
};

interface Outcome {
  ok: number;
  errors: number;
  maxMs: number;
  slowest: string;
  /** Inputs that took longer than SLOW_MS (re-timed at the end, to tell slow inputs from scheduling noise). */
  slow: { buf: Uint8Array; what: string }[];
}

/** "A few ms": typical cases take well under 1 ms. */
const SLOW_MS = 20;

/**
 * CPU time in ms (user + system) of this process: unlike wall time, it does not grow when the
 * machine is loaded by other processes.
 */
function cpuMs(): number {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
}

function runCase(buf: Uint8Array, what: string, o: Outcome, decode: (b: Uint8Array) => unknown): void {
  const t0 = cpuMs();
  try {
    decode(buf);
    o.ok++;
  } catch (e) {
    if (!(e instanceof BitcodeError)) {
      throw new Error(`${what}: threw ${e instanceof Error ? `${e.name}: ${e.message}\n${e.stack}` : String(e)}`);
    }
    // Every error must be printable on one line.
    expect(e.oneLine()).not.toContain('\n');
    o.errors++;
  }
  const ms = cpuMs() - t0;
  if (ms > SLOW_MS) o.slow.push({ buf, what });
  if (ms > o.maxMs) {
    o.maxMs = ms;
    o.slowest = what;
  }
}

/** Re-times inputs that were slow once; an input that is slow every time is a real problem. */
function expectNoSlowInputs(o: Outcome, decode: (b: Uint8Array) => unknown, factor = 1): void {
  for (const { buf, what } of o.slow) {
    let best = Infinity;
    for (let i = 0; i < 3 && best > SLOW_MS * factor; i++) {
      const t0 = cpuMs();
      try {
        decode(buf);
      } catch {
        // already checked
      }
      best = Math.min(best, cpuMs() - t0);
    }
    if (best > SLOW_MS * factor) {
      if (process.env.TSKLEE_FUZZ_SAVE) fs.writeFileSync(process.env.TSKLEE_FUZZ_SAVE, buf);
      throw new Error(`${what} consistently takes ${best.toFixed(1)} ms`);
    }
  }
}

const haveClang = haveCommand(clang(19));
(haveClang ? describe : describe.skip)('fuzz: mutated real bitcode', () => {
  let dir = '';
  const corpus: Uint8Array[] = [];
  let archive = new Uint8Array(0);

  beforeAll(async () => {
    dir = makeTmpDir('fuzz');
    const picks = CONFIGS.filter((c) => ['basic-O0-g', 'kitchen-O2', 'cxx-O1-darwin-wrapped'].includes(c.label));
    for (const cfg of picks) {
      const p = PROGRAMS[cfg.program];
      corpus.push(await compileToBitcode(clang(19), dir, p.file, p.source, `${cfg.label}.bc`, cfg.flags));
    }
    if (haveCommand('llvm-ar-19')) {
      await run('llvm-ar-19', ['rc', 'lib.a', ...picks.map((c) => `${c.label}.bc`)], dir);
      archive = new Uint8Array(fs.readFileSync(path.join(dir, 'lib.a')));
    }
  });
  afterAll(() => {
    if (dir) removeDir(dir);
  });

  test('the unmutated corpus decodes', () => {
    for (const bc of corpus) expect(dumpBitstream(bc).length).toBeGreaterThan(1000);
  });

  test('2000 mutations end in success or BitcodeError, each within a few ms', () => {
    const seed = 20240611;
    const rand = rng(seed);
    const mutators: [string, Mutator, number][] = [
      ['truncate', truncate, 700],
      ['flip', flipBits, 900],
      ['smear', smear, 250],
      ['garbage', garbage, 150],
    ];
    // Warm up the JIT so timings reflect steady state.
    for (let i = 0; i < 20; i++) for (const bc of corpus) dumpBitstream(bc);
    const o: Outcome = { ok: 0, errors: 0, maxMs: 0, slowest: '', slow: [] };
    let iter = 0;
    for (const [name, mut, count] of mutators) {
      for (let i = 0; i < count; i++, iter++) {
        const src = corpus[iter % corpus.length];
        const buf = mut(src, rand);
        runCase(buf, `seed ${seed} iteration ${iter} (${name}, ${buf.length} bytes)`, o, dumpBitstream);
      }
    }
    expect(o.ok + o.errors).toBe(2000);
    // Most mutations must be detected (flips in operand values can go unnoticed).
    expect(o.errors).toBeGreaterThan(1000);
    expectNoSlowInputs(o, dumpBitstream);
    if (process.env.TSKLEE_FUZZ_STATS) console.log({ ...o, slow: o.slow.length });
  });

  test('mutated archives end in success or BitcodeError', () => {
    if (archive.length === 0) return;
    const rand = rng(7);
    const o: Outcome = { ok: 0, errors: 0, maxMs: 0, slowest: '', slow: [] };
    const decodeAll = (b: Uint8Array): void => {
      for (const m of readArArchive(b)) {
        try {
          dumpBitstream(m.data);
        } catch (e) {
          if (!(e instanceof BitcodeError)) throw e;
        }
      }
    };
    for (let i = 0; i < 300; i++) {
      const mut = i % 3 === 0 ? truncate : i % 3 === 1 ? smear : flipBits;
      runCase(mut(archive, rand), `archive iteration ${i}`, o, decodeAll);
    }
    expect(o.ok + o.errors).toBe(300);
    expectNoSlowInputs(o, decodeAll, 5);
  });
});
