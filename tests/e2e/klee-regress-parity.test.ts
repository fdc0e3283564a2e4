/**
 * Fixes found by running KLEE's own regression programs through tsklee (README: "KLEE's
 * regression programs"). The programs here are ours, written for each fix.
 */
import { afterAll, describe, expect, it } from '@jest/globals';
import { disposeSolver, errorMessage, int32, objectBytes, runC } from '../unit/engine/support/run-c.js';

afterAll(() => disposeSolver());

const H = '#include <klee/klee.h>\n#include <stdint.h>\n';

describe('vector lanes at a symbolic index', () => {
  it('insertelement: one path per lane value and the out-of-bounds write, no concretization', async () => {
    const r = await runC(`${H}
typedef uint32_t u4 __attribute__((vector_size(16)));
int main(void) {
  u4 v = {10, 20, 30, 40};
  unsigned k;
  klee_make_symbolic(&k, sizeof k, "k");
  v[k] = 7;
  if (v[0] == 7) return 0;
  if (v[1] == 7) return 1;
  if (v[2] == 7) return 2;
  if (v[3] == 7) return 3;
  return 9;
}`);
    expect(r.warnings.join('\\n')).not.toMatch(/concretizing/);
    const oob = r.tests.filter((t) => t.err !== undefined);
    expect(oob.map(errorMessage)).toEqual(['Out of bounds write when inserting element']);
    expect(int32(objectBytes(oob[0]!, 'k')) >>> 0).toBeGreaterThanOrEqual(4);
    const lanes = r.tests.filter((t) => t.err === undefined).map((t) => int32(objectBytes(t, 'k')));
    expect(lanes.sort()).toEqual([0, 1, 2, 3]);
  });

  it('extractelement of a float vector: a path per lane (floats stay concrete), and the out-of-bounds read', async () => {
    const r = await runC(`${H}
typedef float f4 __attribute__((vector_size(16)));
int main(void) {
  f4 v = {1.5f, 2.5f, 3.5f, 4.5f};
  unsigned k;
  klee_make_symbolic(&k, sizeof k, "k");
  float x = v[k];
  if (x == 3.5f) return 1;
  return 0;
}`);
    expect(r.warnings.join('\\n')).not.toMatch(/concretizing/);
    const errs = r.tests.filter((t) => t.err !== undefined).map(errorMessage);
    expect(errs).toEqual(['Out of bounds read when extracting element']);
    const hit = r.tests.filter((t) => t.err === undefined).map((t) => int32(objectBytes(t, 'k')));
    expect(hit.sort()).toEqual([0, 1, 2, 3]);
  });
});
