/**
 * The pre-check's budget (paper 002 §8: the ILP overhead made 29 of its 75 programs slower).
 * Three limits keep the pre-check from slowing a run down:
 *  - maxSize: a linearised system with more variables + non-zeros than this gets exact
 *    propagation only, no HiGHS run;
 *  - ilpTimeMs: HiGHS's time limit per run (an unfinished run answers nothing);
 *  - the hit-rate guard: over the last `window` queries the pre-check analysed, fewer than
 *    `minHitRate` of them answered UNSAT ⇒ the pre-check switches itself off for the rest of
 *    the run (queries then go straight to the layer below).
 */

export interface PrecheckBudget {
  maxSize: number;
  ilpTimeMs: number;
  /** Queries the guard looks back over (it judges only once it has seen that many). */
  window: number;
  /** Smallest fraction of UNSAT answers in the window that keeps the pre-check on; 0: never off. */
  minHitRate: number;
}

export const DEFAULT_PRECHECK_BUDGET: PrecheckBudget = { maxSize: 5000, ilpTimeMs: 50, window: 100, minHitRate: 0.01 };

/** The running hit rate over the last `window` analysed queries. */
export class HitRateGuard {
  private readonly ring: Uint8Array;
  private next = 0;
  private seen = 0;
  private hitsInWindow = 0;
  /** Set once the guard has switched the pre-check off (then it stays off). */
  offAfter: number | null = null;

  constructor(
    private readonly window: number,
    private readonly minHitRate: number,
  ) {
    this.ring = new Uint8Array(Math.max(1, window));
  }

  get off(): boolean {
    return this.offAfter !== null;
  }

  /** Records one analysed query's outcome; returns whether the pre-check is now off. */
  record(hit: boolean): boolean {
    if (this.offAfter !== null) return true;
    const n = this.ring.length;
    if (this.seen >= n) this.hitsInWindow -= this.ring[this.next]!;
    this.ring[this.next] = hit ? 1 : 0;
    this.hitsInWindow += hit ? 1 : 0;
    this.next = (this.next + 1) % n;
    this.seen++;
    if (this.minHitRate > 0 && this.seen >= n && this.hitsInWindow < this.minHitRate * n) this.offAfter = this.seen;
    return this.offAfter !== null;
  }
}
