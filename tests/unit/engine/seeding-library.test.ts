/** Seeding through the library (EngineOptions.seeding), with the states' endings in order. */
import { afterAll, describe, expect, it } from '@jest/globals';
import { disposeSolver, runC } from './support/run-c.js';
import type { SeedingOptions } from '../../../src/engine/seeding/seeding.js';
import { Termination } from '../../../src/engine/errors.js';

afterAll(() => disposeSolver());

const le32 = (v: number): Uint8Array => Uint8Array.from([v & 0xff, (v >>> 8) & 0xff, (v >>> 16) & 0xff, v >>> 24]);

function seeding(values: number[], more: Partial<SeedingOptions> = {}): SeedingOptions {
  return {
    seeds: values.map((v) => ({ source: `x=${v}`, objects: [{ name: 'x', bytes: le32(v) }] })),
    onlyReplaySeeds: false,
    onlySeed: false,
    namedSeedMatching: false,
    allowSeedExtension: false,
    allowSeedTruncation: false,
    zeroSeedExtension: false,
    alwaysOutputSeeds: true,
    seedTime: 0,
    ...more,
  };
}

const PROGRAM = `#include <klee/klee.h>
#include <assert.h>
int main(void) {
  int x; klee_make_symbolic(&x, sizeof x, "x");
  if (x < 0) return 1;
  if (x > 1000) return 2;
  if (x % 97 == 13) assert(0 && "found");
  return 0;
}`;

describe('EngineOptions.seeding', () => {
  it('the seeded paths end first; then the search explores the rest', async () => {
    const free = await runC(PROGRAM);
    const r = await runC(PROGRAM, { seeding: seeding([110, 5000]) });
    expect(r.tests).toHaveLength(free.tests.length);
    // 110 % 97 == 13: the assertion; 5000 > 1000: exit 2 — both before any unseeded path
    const firstTwo = r.ends.slice(0, 2).map((e) => e.kind).sort();
    expect(firstTwo).toEqual([Termination.Exit, Termination.Assert].sort());
    expect(r.messages).toContain('seeding done (2 states remain)');
  });

  it("onlyReplaySeeds: the seeds' paths and no other", async () => {
    const r = await runC(PROGRAM, { seeding: seeding([110, 5000, -3], { onlyReplaySeeds: true }) });
    expect(r.tests).toHaveLength(3);
    expect(r.tests.filter((t) => t.err === 'assert')).toHaveLength(1);
  });

  it('with state merging: refused in one line', async () => {
    await expect(runC(PROGRAM, { seeding: seeding([1]), stateMerging: 'static' })).rejects.toThrow(/does not work with state merging/);
  });

  it('no seeds: no seeding phase', async () => {
    const r = await runC(PROGRAM, { seeding: seeding([]) });
    expect(r.messages.some((m) => m.startsWith('seeding done'))).toBe(false);
    expect(r.tests.length).toBeGreaterThan(3);
  });
});
