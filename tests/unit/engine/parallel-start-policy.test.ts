/** `tsklee run --jobs N`: how many workers may run (engine/parallel/start-policy.ts). */
import { describe, expect, it } from '@jest/globals';
import { startPolicy } from '../../../src/engine/parallel/start-policy.js';

describe('startPolicy', () => {
  it('lets up to one worker per core run when workers start one by one', () => {
    expect(startPolicy(2, 1000, 2)).toEqual({ limit: 2, why: '' });
    expect(startPolicy(3, 1000, 8)).toEqual({ limit: 3, why: '' });
    expect(startPolicy(4, 1000, 2)).toEqual({ limit: 2, why: "no more workers than the machine's 2 cores" });
    expect(startPolicy(4, 1000, 1).limit).toBe(1);
  });

  it('starts every worker asked for when they all start at once', () => {
    expect(startPolicy(4, 0, 2)).toEqual({ limit: 4, why: '' });
  });
});
