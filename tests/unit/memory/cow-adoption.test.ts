import { describe, expect, it } from '@jest/globals';
import { AddressSpace, HEAP_BASE, MemoryObject, ObjectKind, ObjectState } from '../../../src/memory/index.js';

function obj(addr: number, size: number): MemoryObject {
  return new MemoryObject(addr, size, ObjectKind.Heap, 8, 'test');
}

/** The object state `as` may write for mo. */
function writeable(as: AddressSpace, mo: MemoryObject): ObjectState {
  return as.writeable(as.find(mo.address)!);
}

describe('AddressSpace copy-on-write after the other side ended', () => {
  it('writes in place once the sibling is released, and copies while it lives', () => {
    const as = new AddressSpace();
    const mo = obj(HEAP_BASE, 8);
    const os = as.bindNew(mo);
    os.write8(0, 1);
    const child = as.fork();
    expect(writeable(as, mo)).not.toBe(os); // the child still shares it
    const other = obj(HEAP_BASE + 64, 8);
    const os2 = as.bindNew(other);
    os2.write8(0, 5);
    const child2 = as.fork();
    child2.release();
    const w = writeable(as, other);
    expect(w).toBe(os2); // adopted: no copy
    w.write8(0, 6);
    expect(as.stateOf(other)!.read8(0)).toBe(6);
    expect(writeable(as, other)).toBe(os2); // and owned from now on
    // the first child still sees its own (shared) contents
    expect(child.stateOf(mo)!.read8(0)).toBe(1);
  });

  it('adopts an object of a grandparent only when every other branch below it ended', () => {
    const root = new AddressSpace();
    const mo1 = obj(HEAP_BASE, 4);
    const mo2 = obj(HEAP_BASE + 64, 4);
    const os1 = root.bindNew(mo1);
    const os2 = root.bindNew(mo2);
    const b = root.fork();
    const c = b.fork(); // root, b and c share os1 and os2
    root.release();
    expect(writeable(c, mo1)).not.toBe(os1); // b still reads it
    b.release();
    const w = writeable(c, mo2);
    expect(w).toBe(os2); // c is the last holder
    w.write8(0, 3);
    expect(c.stateOf(mo2)!.read8(0)).toBe(3);
  });

  it('never lets a released address space write a shared object in place', () => {
    const as = new AddressSpace();
    const mo = obj(HEAP_BASE, 4);
    const os = as.bindNew(mo);
    const child = as.fork();
    as.release();
    const w = writeable(as, mo);
    expect(w).not.toBe(os);
    w.write8(0, 9);
    expect(child.stateOf(mo)!.read8(0)).toBe(0);
    // the survivor now holds the original alone
    expect(writeable(child, mo)).toBe(os);
  });

  it('keeps every side of a fork tree isolated while they live', () => {
    const root = new AddressSpace();
    const mo = obj(HEAP_BASE, 1);
    root.bindNew(mo);
    const spaces = [root];
    for (let round = 0; round < 3; round++) for (const s of [...spaces]) spaces.push(s.fork());
    spaces.forEach((s, i) => writeable(s, mo).write8(0, i));
    spaces.forEach((s, i) => expect(s.stateOf(mo)!.read8(0)).toBe(i));
    // end all but one, in any order: the last one then writes in place
    for (let i = 1; i < spaces.length; i += 2) spaces[i]!.release();
    for (let i = 2; i < spaces.length; i += 2) spaces[i]!.release();
    const last = spaces[0]!;
    const mine = last.stateOf(mo)!;
    expect(writeable(last, mo)).toBe(mine);
    expect(mine.read8(0)).toBe(0);
  });
});
