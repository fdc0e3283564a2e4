/**
 * The one seeded pseudo-random number generator of a run (DESIGN decision 7: all randomness
 * comes from one seed, so the same program, options and seed give the same tests).
 *
 * Algorithm: xoshiro128** (Blackman & Vigna), 128 bits of state, period 2^128 − 1, using only
 * 32-bit integer operations (fast in JavaScript: no bigint, no allocation). The state is
 * initialised from the seed with splitmix32.
 *
 * KLEE's own RNG is a Mersenne Twister whose default seed is 5489 (`--rng-initial-seed`);
 * tsklee keeps that default seed but not the generator, so random choices are reproducible
 * within tsklee, not bit-identical to KLEE's.
 */

/** KLEE's default seed (mt19937's default, KLEE's `--rng-initial-seed`). */
export const DEFAULT_SEED = 5489;

const TWO_POW_32 = 0x1_0000_0000;
const TWO_POW_53 = 2 ** 53;

function rotl(x: number, k: number): number {
  return (x << k) | (x >>> (32 - k));
}

export class Rng {
  private s0 = 0;
  private s1 = 0;
  private s2 = 0;
  private s3 = 0;

  /** `seed`: any safe integer (negative ones too); the same seed gives the same sequence. */
  constructor(seed: number = DEFAULT_SEED) {
    this.reseed(seed);
  }

  /** A generator continuing from a state captured with getState(). */
  static fromState(state: readonly number[]): Rng {
    if (state.length !== 4) throw new RangeError(`Rng.fromState: expected 4 words, got ${state.length}`);
    const r = new Rng(0);
    r.s0 = state[0]! | 0;
    r.s1 = state[1]! | 0;
    r.s2 = state[2]! | 0;
    r.s3 = state[3]! | 0;
    if ((r.s0 | r.s1 | r.s2 | r.s3) === 0) throw new RangeError('Rng.fromState: the all-zero state is invalid');
    return r;
  }

  /** Restart the sequence from `seed`. */
  reseed(seed: number): void {
    if (!Number.isSafeInteger(seed)) throw new RangeError(`Rng: the seed must be a safe integer, got ${seed}`);
    const lo = seed >>> 0;
    const hi = Math.floor(seed / TWO_POW_32) >>> 0;
    // splitmix32 over the low word, then over the low word mixed with the high word.
    let z = lo;
    const next = (): number => {
      z = (z + 0x9e3779b9) | 0;
      let t = z ^ (z >>> 16);
      t = Math.imul(t, 0x21f0aaad);
      t ^= t >>> 15;
      t = Math.imul(t, 0x735a2d97);
      t ^= t >>> 15;
      return t | 0;
    };
    this.s0 = next();
    this.s1 = next();
    z ^= Math.imul(hi, 0x85ebca6b);
    this.s2 = next();
    this.s3 = next();
    if ((this.s0 | this.s1 | this.s2 | this.s3) === 0) this.s0 = 1;
  }

  /** The four state words (unsigned), for getState()/fromState() round trips. */
  getState(): [number, number, number, number] {
    return [this.s0 >>> 0, this.s1 >>> 0, this.s2 >>> 0, this.s3 >>> 0];
  }

  /** An independent generator in the same state (it will produce the same sequence). */
  clone(): Rng {
    return Rng.fromState(this.getState());
  }

  /** A uniform integer in [0, 2^32). */
  nextU32(): number {
    const s0 = this.s0;
    const s1 = this.s1;
    const result = Math.imul(rotl(Math.imul(s1, 5), 7), 9) >>> 0;
    const t = s1 << 9;
    this.s2 ^= s0;
    this.s3 ^= s1;
    this.s1 = s1 ^ this.s2;
    this.s0 = s0 ^ this.s3;
    this.s2 ^= t;
    this.s3 = rotl(this.s3, 11);
    return result;
  }

  /** A uniform double in [0, 1) with 53 random bits (two draws). */
  nextFloat(): number {
    const a = this.nextU32() >>> 5; // 27 bits
    const b = this.nextU32() >>> 6; // 26 bits
    return (a * 67108864 + b) / TWO_POW_53;
  }

  /** A uniform integer in [0, n), without modulo bias; `n`: a safe integer ≥ 1. */
  nextInt(n: number): number {
    if (!Number.isSafeInteger(n) || n < 1) throw new RangeError(`Rng.nextInt: n must be a safe integer >= 1, got ${n}`);
    if (n <= TWO_POW_32) {
      // Reject the top partial block so every residue is equally likely.
      const limit = TWO_POW_32 - (TWO_POW_32 % n);
      for (;;) {
        const r = this.nextU32();
        if (r < limit) return r % n;
      }
    }
    const limit = TWO_POW_53 - (TWO_POW_53 % n);
    for (;;) {
      const r = this.nextFloat() * TWO_POW_53;
      if (r < limit) return r % n;
    }
  }

  /** A fair coin. */
  nextBool(): boolean {
    return (this.nextU32() & 0x8000_0000) !== 0;
  }
}
