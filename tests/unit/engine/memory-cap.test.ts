/**
 * --max-memory's policy (src/engine/memory-cap.ts) on a scripted memory measure: where
 * forking stops, how many states end and which, and how forced collections are spaced.
 */
import { describe, expect, it } from '@jest/globals';
import { MemoryCap, statesToEnd, type CappedState } from '../../../src/engine/memory-cap.js';
import { Rng } from '../../../src/util/rng.js';

const MB = 1024 * 1024;

/**
 * A cap over a memory that is `live` MB after a collection and `live + garbage` before;
 * `resident` MB more are resident, or `rss` MB in all when it is set.
 */
function scripted(capMB: number, inhibit = true, collectMs = 5) {
  const m = { live: 0, garbage: 0, clock: 0, collections: 0, resident: 0, rss: null as number | null };
  const cap = new MemoryCap({
    capMB,
    inhibit,
    measure: () => (m.live + m.garbage) * MB,
    collect: () => {
      m.collections++;
      m.garbage = 0;
      m.clock += collectMs; // a collection takes 5 ms unless told
      return true;
    },
    now: () => m.clock,
    resident: () => (m.rss ?? m.live + m.garbage + m.resident) * MB,
  });
  return { cap, m };
}

describe('MemoryCap', () => {
  it('does nothing without a cap', () => {
    const { cap, m } = scripted(0);
    m.live = 5000;
    expect(cap.enabled).toBe(false);
    expect(cap.check(100)).toEqual({ used: 5000 * MB, atLimit: false, statesToEnd: 0 });
    expect(m.collections).toBe(0);
  });

  it('inhibits forking above cap − 10 % (at most 100 MB) and ends states only above the cap', () => {
    const { cap, m } = scripted(1000);
    m.live = 899;
    expect(cap.check(10)).toMatchObject({ atLimit: false, statesToEnd: 0 });
    m.live = 901;
    m.clock += 1000;
    expect(cap.check(10)).toMatchObject({ atLimit: true, statesToEnd: 0 });
    m.live = 999;
    m.clock += 200;
    expect(cap.check(10)).toMatchObject({ atLimit: true, statesToEnd: 0 });
    m.live = 800;
    expect(cap.check(10)).toMatchObject({ atLimit: false, statesToEnd: 0 });
    // a large cap: the margin is KLEE's 100 MB
    const big = scripted(4000);
    big.m.live = 3850;
    expect(big.cap.check(10)).toMatchObject({ atLimit: false });
    big.m.live = 3950;
    expect(big.cap.check(10)).toMatchObject({ atLimit: true, statesToEnd: 0 });
  });

  it('keeps the share of states that fits under cap − 2·margin (KLEE: N·cap/used), at least one', () => {
    const { cap, m } = scripted(1000);
    m.live = 2000;
    // 100 states at 2000 MB: 40 fit in 800 MB
    expect(cap.check(100)).toMatchObject({ used: 2000 * MB, statesToEnd: 60 });
    m.clock += 1000;
    m.live = 1001; // just over the cap: down to 800 MB too
    expect(cap.check(100).statesToEnd).toBe(21);
    m.clock += 1000;
    expect(cap.check(1).statesToEnd).toBe(1);
    m.clock += 1000;
    expect(cap.check(0).statesToEnd).toBe(0);
  });

  it('counts live memory only: a reading over the threshold is confirmed after a collection', () => {
    const { cap, m } = scripted(1000);
    m.live = 500;
    m.garbage = 2000;
    expect(cap.check(100)).toEqual({ used: 500 * MB, atLimit: false, statesToEnd: 0 });
    expect(m.collections).toBe(1);
  });

  it('spaces forced collections to at most ~10 % of the time, keeping the last decision between them', () => {
    const { cap, m } = scripted(1000);
    m.live = 950;
    expect(cap.check(10).atLimit).toBe(true);
    expect(m.collections).toBe(1);
    m.live = 1500; // over the cap, but the last collection was just now
    m.clock += 50;
    expect(cap.check(10)).toMatchObject({ atLimit: true, statesToEnd: 0 });
    expect(m.collections).toBe(1);
    m.clock += 100; // 10 × 5 ms, at least 100 ms, have passed
    expect(cap.check(10).statesToEnd).toBe(5); // 10 − ⌊10·800/1500⌋
    expect(m.collections).toBe(2);
    expect(cap.collections).toBe(2);
  });

  it('--max-memory-inhibit=false: never inhibits forking, still ends states over the cap', () => {
    const { cap, m } = scripted(1000, false);
    m.live = 950;
    expect(cap.check(10).atLimit).toBe(false);
    m.clock += 1000;
    m.live = 2000;
    expect(cap.check(10)).toMatchObject({ atLimit: false, statesToEnd: 6 });
  });

  it('lets the states left after an ending fork at once, until a collection finds usage near the cap again', () => {
    const { cap, m } = scripted(1000);
    m.live = 1200;
    expect(cap.check(10)).toMatchObject({ atLimit: false, statesToEnd: 4 });
    expect(cap.endings).toBe(1);
    expect(cap.peakConfirmed).toBe(1200 * MB);
    // usage after the ending, garbage not collected yet and no collection due: forking goes on
    m.live = 800;
    m.garbage = 300;
    m.clock += 10;
    expect(cap.check(6)).toMatchObject({ atLimit: false, statesToEnd: 0 });
    // the next collection finds it near the cap: forking stops, nothing ends
    m.live = 950;
    m.clock += 1000;
    expect(cap.check(6)).toMatchObject({ used: 950 * MB, atLimit: true, statesToEnd: 0 });
    expect(cap.summary(4)).toBe('memory cap 1000 MB: 4 states ended at 1 check, highest usage after a collection 1200 MB, highest resident size 1250 MB, 2 forced collections (0.0 s)');
  });

  it('between collections, estimates live usage from the last collection\'s memory per state', () => {
    const { cap, m } = scripted(1000);
    m.live = 950; // 100 states, 9.5 MB each (the base, measured at construction, is 0 here)
    expect(cap.check(100)).toMatchObject({ used: 950 * MB, atLimit: true, statesToEnd: 0 });
    expect(m.collections).toBe(1);
    // no collection due: 130 states make ~1235 MB, under the 2000 MB the reading counts
    m.live = 1200;
    m.garbage = 800;
    m.clock += 10;
    expect(cap.check(130)).toMatchObject({ used: 1235 * MB, atLimit: false, statesToEnd: 130 - Math.floor((130 * 800) / 1235) });
    expect(m.collections).toBe(1);
    // the estimate never exceeds the reading (garbage included), which bounds what is live
    m.live = 600;
    m.garbage = 0;
    expect(cap.check(200)).toMatchObject({ used: 600 * MB, atLimit: false, statesToEnd: 0 });
    // states fewer than 16 at the last collection: no estimate, the last decision stands
    const few = scripted(1000, true, 50); // collections 50 ms long, so 500 ms apart
    few.m.live = 950;
    expect(few.cap.check(10).atLimit).toBe(true);
    few.m.garbage = 5000;
    few.m.clock += 10;
    expect(few.cap.check(1000)).toMatchObject({ atLimit: true, statesToEnd: 0 });
    // …until the spell of inhibiting is over: then the reading decides (no collection due yet)
    few.m.garbage = 0;
    few.m.clock += 250;
    expect(few.cap.check(10)).toMatchObject({ used: 950 * MB, atLimit: false, statesToEnd: 10 - Math.floor((10 * 800) / 950) });
    expect(few.m.collections).toBe(1);
  });

  it('inhibits forking for 250 ms at most, then ends states down to cap − 2·margin', () => {
    const { cap, m } = scripted(1000);
    m.live = 950;
    expect(cap.check(100)).toMatchObject({ atLimit: true, statesToEnd: 0 });
    m.clock += 150;
    expect(cap.check(100)).toMatchObject({ atLimit: true, statesToEnd: 0 });
    m.clock += 150; // 300 ms inhibited: 100 − ⌊100·800/950⌋ states end, forking resumes
    expect(cap.check(100)).toMatchObject({ atLimit: false, statesToEnd: 16 });
    // the spell starts again when usage next goes over the threshold
    m.clock += 600;
    expect(cap.check(84)).toMatchObject({ atLimit: true, statesToEnd: 0 });
    // without inhibiting, the band below the cap changes nothing
    const off = scripted(1000, false);
    off.m.live = 950;
    off.cap.check(100);
    off.m.clock += 5000;
    expect(off.cap.check(100)).toMatchObject({ atLimit: false, statesToEnd: 0 });
  });

  it('counts what is resident beyond the usage after each collection', () => {
    const { cap, m } = scripted(1000);
    m.live = 905;
    m.resident = 60; // node's code, stacks, the allocator's overhead: learnt at the first collection
    expect(cap.check(100)).toMatchObject({ used: 965 * MB, atLimit: true, statesToEnd: 0 });
    // counted from then on, also in readings between collections
    m.live = 820;
    m.clock += 10;
    expect(cap.check(100)).toMatchObject({ used: 880 * MB, atLimit: false });
    // more than a margin when the resident size grows (fragmentation): states end for it
    m.live = 880;
    m.resident = 300;
    m.clock += 1000;
    // (the overhead does not shrink with the states: the 880 MB they make go to 500 MB)
    expect(cap.check(100)).toMatchObject({ used: 1180 * MB, statesToEnd: 100 - Math.floor((100 * 500) / 880) });
    // at most half the cap, so that states keep half of it
    m.resident = 5000;
    m.clock += 1000;
    expect(cap.check(100)).toMatchObject({ used: 1380 * MB });
  });

  it('does not count as overhead what an ending freed and the process keeps resident', () => {
    const { cap, m } = scripted(1000);
    m.live = 1100;
    m.resident = 100;
    expect(cap.check(100)).toMatchObject({ used: 1200 * MB, statesToEnd: 100 - Math.floor((100 * 700) / 1100) });
    // the ending freed 400 MB, all of it still resident (kept by the allocators for reuse); a
    // reading with garbage goes over the threshold, and the collection finds 700 MB live
    m.live = 700;
    m.garbage = 200;
    m.rss = 1200;
    m.clock += 1000;
    expect(cap.check(67)).toMatchObject({ used: 800 * MB, atLimit: false, statesToEnd: 0 });
    // usage grows back into the freed memory: the resident size stays, nothing more ends
    m.live = 850;
    m.clock += 1000;
    expect(cap.check(80)).toMatchObject({ used: 950 * MB, atLimit: true, statesToEnd: 0 });
    // memory given back lowers the overhead
    m.rss = 900;
    m.clock += 1000;
    expect(cap.check(80)).toMatchObject({ used: 900 * MB, atLimit: false });
    expect(cap.peakResident).toBe(1200 * MB);
    expect(cap.summary(33)).toBe('memory cap 1000 MB: 33 states ended at 1 check, highest usage after a collection 1200 MB, highest resident size 1200 MB, 3 forced collections (0.0 s)');
  });

  it('ends states for what states use, the overhead staying: one ending, not one after another', () => {
    const { cap, m } = scripted(1000);
    m.live = 950;
    m.resident = 400;
    // 1350 MB, 400 of them overhead (counted as at most half of cap − 2·margin: 400 MB):
    // the states' 950 MB go to 400 MB
    const keep = Math.floor((100 * 400) / 950);
    expect(cap.check(100)).toMatchObject({ used: 1350 * MB, statesToEnd: 100 - keep });
    // what the states freed stays resident; the collection then finds usage under the
    // threshold: forking goes on, nothing more ends
    m.live = (950 * keep) / 100;
    m.garbage = 300;
    m.rss = 1350;
    m.clock += 1000;
    const after = cap.check(keep);
    expect(after).toMatchObject({ atLimit: false, statesToEnd: 0 });
    expect(after.used / MB).toBeCloseTo((950 * keep) / 100 + 400);
    expect(m.collections).toBe(2);
  });

  it('reads the resident size once a second, not in the moments after a forced collection', () => {
    const { cap, m } = scripted(1000);
    m.live = 950;
    m.resident = 20;
    expect(cap.check(100)).toMatchObject({ used: 970 * MB });
    expect(m.collections).toBe(1);
    m.clock = 950; // a collection is due, a reading of the resident size is not
    m.resident = 90;
    expect(cap.check(100)).toMatchObject({ used: 970 * MB });
    expect(m.collections).toBe(2);
    // a second after the last reading, but just after the collection: V8 still holds the
    // pages it compacted out of (a passing 1500 MB here), so the reading waits
    m.clock = 1100;
    m.rss = 1500;
    expect(cap.check(100)).toMatchObject({ used: 970 * MB });
    expect(m.collections).toBe(3);
    m.clock = 1700; // 595 ms after that collection
    m.rss = null;
    expect(cap.check(100)).toMatchObject({ used: 1040 * MB });
    expect(cap.peakResident).toBe(1040 * MB);
  });

  it('counts the garbage resident between collections, which the estimate of live usage leaves out', () => {
    const { cap, m } = scripted(1000, false, 200); // collections 200 ms long, so 2 s apart
    m.live = 950;
    expect(cap.check(100)).toMatchObject({ used: 950 * MB, statesToEnd: 0 });
    // 300 MB of garbage, resident: the estimate says 950 MB live, the process holds 1250 MB
    m.garbage = 300;
    m.clock = 1300;
    const keep = Math.floor((100 * (800 - 300)) / (1250 - 300));
    expect(cap.check(100)).toMatchObject({ used: 1250 * MB, statesToEnd: 100 - keep });
    expect(m.collections).toBe(1);
  });

  it('sees a resident size that creeps up by less than half a margin between collections', () => {
    const { cap, m } = scripted(1000);
    m.live = 905;
    expect(cap.check(100)).toMatchObject({ used: 905 * MB, atLimit: true });
    // +20 MB per collection with usage flat: counted once over 50 MB (half the margin) have built up
    const used: number[] = [];
    for (let i = 1; i <= 4; i++) {
      m.resident = 20 * i;
      m.clock += 1000;
      used.push(cap.check(100).used / MB);
    }
    expect(used).toEqual([905, 905, 965, 965]);
  });

  it('has no summary when no reading came near the cap', () => {
    const { cap, m } = scripted(1000);
    m.live = 100;
    cap.check(1);
    expect(cap.summary(0)).toBeNull();
  });
});

describe('statesToEnd', () => {
  const state = (name: string, coveredNew: boolean, instsSinceCovNew: number): CappedState & { name: string } => ({ name, coveredNew, instsSinceCovNew });

  it('ends states that covered nothing new first, the longest without new coverage first', () => {
    const states = [state('new-recent', true, 5), state('old-1', false, 900), state('new-old', true, 5000), state('old-2', false, 10), state('old-3', false, 50_000)];
    const names = (n: number): string[] => statesToEnd(states, n, new Rng(1)).map((s) => s.name);
    expect(names(2)).toEqual(['old-3', 'old-1']);
    expect(names(4)).toEqual(['old-3', 'old-1', 'old-2', 'new-old']);
    expect(names(9)).toHaveLength(5);
  });

  it('breaks ties with the run\'s generator: the same seed, the same choice', () => {
    const states = Array.from({ length: 20 }, (_, i) => state(`s${i}`, false, 100));
    const pick = (seed: number): string[] => statesToEnd(states, 5, new Rng(seed)).map((s) => s.name);
    expect(pick(7)).toEqual(pick(7));
    expect(new Set([pick(1).join(), pick(2).join(), pick(3).join()]).size).toBeGreaterThan(1);
  });
});
