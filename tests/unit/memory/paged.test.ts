import { afterEach, describe, expect, it } from '@jest/globals';
import { ObjectState } from '../../../src/memory/index.js';
import { setPagedThreshold } from '../../../src/memory/object-state.js';
import { PAGE_SIZE, PAGED_MIN } from '../../../src/memory/pages.js';
import { ExprArray, UpdateList, builder, constant, evaluate, type Expr } from '../../../src/expr/index.js';
import { prng as rng } from '../../support/prng.js';

afterEach(() => {
  setPagedThreshold(PAGED_MIN);
});

function sharedPages(a: ObjectState, b: ObjectState): number {
  let n = 0;
  for (let p = 0; p < a.pages!.length; p++) if (a.pages![p] === b.pages![p]) n++;
  return n;
}

describe('paged object states (copy-on-write per 4 KiB page)', () => {
  it('pages large objects only, and a copy shares every page it does not write', () => {
    expect(new ObjectState(PAGED_MIN - 1, 1).pages).toBeNull();
    const os = new ObjectState(640 * 1024, 1);
    expect(os.bytes).toBeNull();
    expect(os.pages!.length).toBe(160);
    os.write8(5, 1);
    os.write8(3 * PAGE_SIZE, 2);
    const c = os.clone(2);
    expect(sharedPages(os, c)).toBe(160);
    c.write8(3 * PAGE_SIZE + 1, 3); // one page copied
    expect(sharedPages(os, c)).toBe(159);
    expect(os.read8(3 * PAGE_SIZE + 1)).toBe(0);
    expect(c.read8(3 * PAGE_SIZE)).toBe(2);
    // the original, written again (as after adoption), copies too: the copy keeps its bytes
    os.write8(5, 9);
    expect(c.read8(5)).toBe(1);
    expect(os.read8(5)).toBe(9);
    expect(sharedPages(os, c)).toBe(158);
    // a page it now owns is written in place
    const before = os.pages![0];
    os.write8(6, 9);
    expect(os.pages![0]).toBe(before);
  });

  it('fills whole pages with shared pages and keeps symbolic bytes per page', () => {
    const os = new ObjectState(PAGED_MIN + 5 * PAGE_SIZE + 10, 1);
    os.fillConcrete(100, 3 * PAGE_SIZE, 0xab);
    expect(os.read8(99)).toBe(0);
    expect(os.read8(100)).toBe(0xab);
    expect(os.read8(100 + 3 * PAGE_SIZE - 1)).toBe(0xab);
    expect(os.read8(100 + 3 * PAGE_SIZE)).toBe(0);
    expect(os.pages![1]).toBe(os.pages![2]); // the same shared page of 0xab
    const s = builder.read(new UpdateList(new ExprArray('s', 1)), constant(0, 32));
    os.write8(2 * PAGE_SIZE + 7, s);
    expect(os.isConcrete).toBe(false);
    expect(os.rangeConcrete(0, 2 * PAGE_SIZE)).toBe(true);
    expect(os.rangeConcrete(2 * PAGE_SIZE, 8)).toBe(false);
    expect(os.read8(2 * PAGE_SIZE + 7)).toBe(s);
    expect(os.read8(PAGE_SIZE + 7)).toBe(0xab); // the other page sharing the filled one is untouched
    os.write8(2 * PAGE_SIZE + 7, 4);
    expect(os.isConcrete).toBe(true);
    expect(os.pages![2]!.kinds).toBeNull();
  });

  it('behaves as a flat object under random operations, copies and symbolic accesses', () => {
    const size = 3 * PAGE_SIZE + 37;
    const r = rng(19);
    const int = (n: number): number => Math.floor(r() * n);
    const S = new ExprArray('s', 16);
    const K = new ExprArray('k', 1);
    const M = new ExprArray('m', size);
    const assignment = new Map<ExprArray, Uint8Array>([
      [S, Uint8Array.from({ length: 16 }, () => int(256))],
      [K, Uint8Array.of(int(256))],
      [M, Uint8Array.from({ length: size }, () => int(256))],
    ]);
    const value = (v: number | Expr): bigint => (typeof v === 'number' ? BigInt(v) : evaluate(v, assignment));
    const symIndex = (base: number): Expr => builder.add(constant(base, 32), builder.zext(builder.read(new UpdateList(K), constant(0, 32)), 32));
    // an offset near a page boundary half of the time
    const offset = (span = 1): number => {
      const o = r() < 0.5 ? (1 + int(3)) * PAGE_SIZE - 4 + int(8) : int(size);
      return Math.min(o, size - span);
    };
    const pairs: [ObjectState, ObjectState][] = [];
    setPagedThreshold(Infinity);
    const flat = new ObjectState(size, 1);
    setPagedThreshold(1);
    const paged = new ObjectState(size, 1);
    expect(flat.pages).toBeNull();
    expect(paged.pages).not.toBeNull();
    pairs.push([flat, paged]);
    const compare = (): void => {
      for (const [f, p] of pairs) {
        expect(p.nonConcrete).toBe(f.nonConcrete);
        for (let i = 0; i < size; i++) {
          const a = f.read8(i);
          const b = p.read8(i);
          if (typeof a === 'number' && typeof b === 'number') {
            if (a !== b) expect([i, b]).toEqual([i, a]);
          } else if (value(a) !== value(b)) expect([i, value(b)]).toEqual([i, value(a)]);
        }
      }
    };
    for (let step = 0; step < 300; step++) {
      const [f, p] = pairs[int(pairs.length)]!;
      const both = (fn: (os: ObjectState) => void): void => {
        fn(f);
        fn(p);
      };
      const op = int(100);
      if (op < 35) {
        const i = offset();
        const v = int(256);
        both((os) => os.write8(i, v));
      } else if (op < 50) {
        const i = offset();
        const e = builder.read(new UpdateList(S), constant(int(16), 32));
        both((os) => os.write8(i, e));
      } else if (op < 55) {
        const base = offset(256);
        const e = builder.read(new UpdateList(S), constant(int(16), 32));
        both((os) => os.write8Sym(symIndex(base), e));
      } else if (op < 65) {
        const base = offset(256);
        const a = f.read8Sym(symIndex(base));
        const b = p.read8Sym(symIndex(base));
        expect(value(b)).toBe(value(a));
      } else if (op < 75) {
        // at most 8 lineages (each compared whole); past that a copy replaces a random one
        const c: [ObjectState, ObjectState] = [f.clone(2), p.clone(2)];
        if (pairs.length < 8) pairs.push(c);
        else pairs[int(8)] = c;
      } else if (op < 80) {
        const n = 1 + int(2 * PAGE_SIZE);
        const i = Math.min(int(size), size - n);
        const src = Uint8Array.from({ length: n }, () => int(256));
        both((os) => os.setConcrete(i, src));
      } else if (op < 86) {
        const n = 1 + int(2 * PAGE_SIZE + 100);
        const i = Math.min(int(size), size - n);
        const v = int(256);
        both((os) => os.fillConcrete(i, n, v));
      } else if (op < 88) {
        const v = int(256);
        both((os) => os.fill(v));
      } else if (op < 90) {
        both((os) => os.makeSymbolic(M));
      } else {
        const n = 1 + int(300);
        const i = Math.min(offset(), size - n);
        expect(p.rangeConcrete(i, n)).toBe(f.rangeConcrete(i, n));
        if (f.rangeConcrete(i, n)) expect(p.concreteBytes(i, n)).toEqual(f.concreteBytes(i, n).slice());
      }
      if (step % 100 === 99) compare();
    }
    compare();
    expect(pairs.length).toBe(8);
  });
});
