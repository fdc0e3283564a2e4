import { describe, expect, it } from '@jest/globals';
import { AddressSpace, Allocator, HEAP_BASE, MemoryObject, ObjectKind, ObjectState, RED_ZONE, STACK_BASE } from '../../../src/memory/index.js';
import { accessInBounds, pointsInto, resolveAllSymbolic, resolveOneSymbolic, type ResolveOracle } from '../../../src/memory/resolve.js';
import { ExprArray, UpdateList, builder, constant, evaluate, type Expr } from '../../../src/expr/index.js';

function obj(addr: number, size: number): MemoryObject {
  return new MemoryObject(addr, size, ObjectKind.Heap, 8, 'test');
}

describe('ObjectState', () => {
  it('keeps concrete bytes concrete and tracks symbolic ones', () => {
    const os = new ObjectState(8, 1);
    os.write8(0, 7);
    expect(os.isConcrete).toBe(true);
    const a = new ExprArray('a', 1);
    const sym = builder.read(new UpdateList(a), constant(0, 32));
    os.write8(3, sym);
    expect(os.isConcrete).toBe(false);
    expect(os.read8(0)).toBe(7);
    expect(os.read8(3)).toBe(sym);
    os.write8(3, 9); // back to all-concrete: the fast path comes back
    expect(os.isConcrete).toBe(true);
    expect(os.read8(3)).toBe(9);
  });

  it('reads and writes at symbolic offsets through an update list', () => {
    const os = new ObjectState(4, 1);
    os.setConcrete(0, Uint8Array.of(10, 20, 30, 40));
    const i = new ExprArray('i', 4);
    const idx = builder.read(new UpdateList(i), constant(0, 32));
    const idx32 = builder.zext(idx, 32);
    const r = os.read8Sym(idx32);
    const at = (k: number): bigint => evaluate(r, new Map([[i, new Uint8Array([k, 0, 0, 0])]]));
    expect([0, 1, 2, 3].map(at)).toEqual([10n, 20n, 30n, 40n]);
    os.write8Sym(idx32, constant(99, 8));
    const b2 = os.read8(2) as Expr;
    expect(evaluate(b2, new Map([[i, new Uint8Array([2, 0, 0, 0])]]))).toBe(99n);
    expect(evaluate(b2, new Map([[i, new Uint8Array([1, 0, 0, 0])]]))).toBe(30n);
  });

  it('is copy-on-write: a clone does not see later writes', () => {
    const os = new ObjectState(4, 1);
    os.write8(0, 1);
    const c = os.clone(2);
    c.write8(0, 2);
    expect(os.read8(0)).toBe(1);
    expect(c.read8(0)).toBe(2);
    expect(c.owner).toBe(2);
  });
});

describe('AddressSpace', () => {
  it('forks in O(1) and copies an object only when a side writes it', () => {
    const as = new AddressSpace();
    const mo = obj(HEAP_BASE, 16);
    const os = as.bindNew(mo);
    os.write8(0, 5);
    const child = as.fork();
    expect(child.stateOf(mo)).toBe(as.stateOf(mo)); // shared
    const w = child.writeable(child.find(mo.address)!);
    w.write8(0, 6);
    expect(as.stateOf(mo)!.read8(0)).toBe(5);
    expect(child.stateOf(mo)!.read8(0)).toBe(6);
    // the parent must copy too: after a fork neither side owns the shared state
    const pw = as.writeable(as.find(mo.address)!);
    expect(pw).not.toBe(os);
  });

  it('finds the object containing an address; freed objects stay known', () => {
    const as = new AddressSpace();
    const a = obj(1000, 10);
    const b = obj(2000, 0);
    as.bindNew(a);
    as.bindNew(b);
    expect(as.resolveOne(1009)!.mo).toBe(a);
    expect(as.resolveOne(1010)).toBeNull();
    expect(as.resolveOne(2000)!.mo).toBe(b); // a size-0 object contains its own address
    as.markFreed(a);
    expect(as.resolveOne(1005)).toBeNull();
    expect(as.find(1005)!.os).toBeNull();
    expect(as.size).toBe(1);
    as.unbind(b);
    expect(as.find(2000)).toBeNull();
  });

  it('stays balanced and ordered with many objects', () => {
    const as = new AddressSpace();
    const mos: MemoryObject[] = [];
    for (let i = 0; i < 500; i++) {
      const mo = obj(10000 + ((i * 7919) % 500) * 64, 32);
      mos.push(mo);
      as.bindNew(mo);
    }
    for (const mo of mos) expect(as.resolveOne(mo.address + 31)!.mo).toBe(mo);
    const addrs = as.bindings().map((n) => n.key);
    expect(addrs).toEqual([...addrs].sort((x, y) => x - y));
    for (const mo of mos.slice(0, 250)) as.unbind(mo);
    expect(as.size).toBe(250);
    for (const mo of mos.slice(250)) expect(as.resolveOne(mo.address)!.mo).toBe(mo);
  });
});

describe('Allocator', () => {
  it('is deterministic, never reuses addresses and leaves red zones', () => {
    const run = (): number[] => {
      const al = new Allocator();
      const out: number[] = [];
      for (const size of [1, 16, 100, 0, 7]) out.push(al.allocate(size, ObjectKind.Heap, 8, 'h')!.address);
      out.push(al.allocate(4, ObjectKind.Stack, 4, 's')!.address);
      return out;
    };
    const a = run();
    expect(run()).toEqual(a);
    expect(a[0]).toBe(HEAP_BASE);
    for (let i = 1; i < 5; i++) expect(a[i]! - a[i - 1]!).toBeGreaterThanOrEqual(RED_ZONE + 1);
    expect(a[5]).toBe(STACK_BASE);
    for (const x of a.slice(0, 5)) expect(x % 16).toBe(0);
  });

  it('forked allocators continue independently from the same point', () => {
    const al = new Allocator();
    al.allocate(10, ObjectKind.Heap, 8, 'h');
    const c = al.clone();
    expect(c.allocate(10, ObjectKind.Heap, 8, 'h')!.address).toBe(al.allocate(10, ObjectKind.Heap, 8, 'h')!.address);
  });

  it('refuses absurd sizes', () => {
    expect(new Allocator().allocate(2 ** 40, ObjectKind.Heap, 8, 'h')).toBeNull();
  });
});

describe('symbolic pointer resolution', () => {
  // An oracle that decides by brute force over a small domain of pointer values.
  function oracleFor(p: Expr, arr: ExprArray, values: number[], base: number): ResolveOracle {
    const models = values.map((v) => new Map([[arr, new Uint8Array([v])]]));
    void base;
    return {
      example: (e) => Number(evaluate(e, models[0]!)),
      mayBeTrue: (c) => models.some((m) => evaluate(c, m) === 1n),
      mustBeTrue: (c) => models.every((m) => evaluate(c, m) === 1n),
    };
  }

  it('finds every object a pointer may point into, in KLEE order', () => {
    const as = new AddressSpace();
    const a = obj(1000, 8);
    const b = obj(1032, 8);
    const c = obj(1064, 8);
    for (const mo of [a, b, c]) as.bindNew(mo);
    const arr = new ExprArray('k', 1);
    const k = builder.zext(builder.read(new UpdateList(arr), constant(0, 32)), 64);
    const p = builder.add(constant(1000, 64), k); // 1000 + k
    const o = oracleFor(p, arr, [34, 0, 4, 70], 1000); // examples: b first, then a, c
    expect(resolveOneSymbolic(as, p, o)!.mo).toBe(b);
    expect(resolveAllSymbolic(as, p, o).map((n) => n.mo)).toEqual([b, a, c]);
    // bounds: a 4-byte access at 1000+4 fits in a, at 1000+6 does not
    expect(evaluate(accessInBounds(a, constant(1004, 64), 4), new Map())).toBe(1n);
    expect(evaluate(accessInBounds(a, constant(1006, 64), 4), new Map())).toBe(0n);
    expect(evaluate(pointsInto(c, constant(1071, 64)), new Map())).toBe(1n);
  });
});
