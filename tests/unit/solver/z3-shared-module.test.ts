/**
 * `tsklee run --jobs N` compiles the embedded z3 once and hands the compiled module to its
 * worker threads (sharedZ3Module / useSharedZ3Module): a thread that got it answers queries
 * with instances made over that module (needs `npm run build`: the thread runs dist's modules).
 */
import { Worker } from 'node:worker_threads';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from '@jest/globals';
import { sharedZ3Module } from '../../../src/solver/index.js';

const DIST = pathToFileURL(join(process.cwd(), 'dist', 'solver', 'index.js')).href;
const EXPR = pathToFileURL(join(process.cwd(), 'dist', 'expr', 'index.js')).href;

// in the thread: x[0] * 3 == 51 (mod 256) has a model; x[0] < 2 && x[0] > 5 has none
const THREAD = `
const { workerData, parentPort } = require('node:worker_threads');
(async () => {
  const z3 = await import(workerData.dist);
  const { builder: b, ExprArray, UpdateList, TRUE } = await import(workerData.expr);
  z3.useSharedZ3Module(workerData.module);
  const handle = z3.loadZ3Sync();
  const s = await z3.createBackend('z3');
  const x = new ExprArray('x', 1);
  const rd = b.read(new UpdateList(x), b.constant(0, 32));
  const sat = s.computeInitialValues({ constraints: [b.eq(b.mul(rd, b.constant(3, 8)), b.constant(51, 8))], expr: TRUE }, [x]);
  const unsat = s.computeInitialValues({ constraints: [b.ult(rd, b.constant(2, 8)), b.ugt(rd, b.constant(5, 8))], expr: TRUE }, [x]);
  parentPort.postMessage({ value: sat === null ? null : sat[0][0], unsat: unsat === null, shared: handle.compiledModule === workerData.module, instances: handle.instancesCreated });
  s.dispose();
})().catch((e) => parentPort.postMessage({ error: String(e && e.stack || e) }));
`;

describe('a z3 module compiled once, shared by worker threads', () => {
  it('answers queries in a thread that got the compiled module', async () => {
    const module = await sharedZ3Module();
    const answer = await new Promise<Record<string, unknown>>((resolve, reject) => {
      const w = new Worker(THREAD, { eval: true, workerData: { module, dist: DIST, expr: EXPR } });
      w.once('message', (m: Record<string, unknown>) => {
        void w.terminate();
        resolve(m);
      });
      w.once('error', reject);
    });
    expect(answer.error).toBeUndefined();
    expect((Number(answer.value) * 3) % 256).toBe(51);
    expect(answer.unsat).toBe(true);
    // the thread's handle is over the module it was given (not one it compiled itself)
    expect(answer.shared).toBe(true);
    expect(answer.instances).toBe(1);
  }, 60000);
});
