/**
 * Stack objects live on a persistent stack beside the address space's tree
 * (src/memory/stack-bindings.ts). Checked against a plain sorted list over random
 * operations: calls and returns (pushes and pops, with forks sharing prefixes), frees out of
 * order, copy-on-write rebinding of deep objects, stack objects bound below the top (they go
 * to the tree), heap and global objects between them; every lookup (find, next, prev,
 * stateOf, bindings) agrees.
 */
import { describe, expect, it } from '@jest/globals';
import { AddressSpace, GLOBALS_BASE, HEAP_BASE, MemoryObject, ObjectKind, STACK_BASE, type ObjectState } from '../../../src/memory/index.js';
import { sFloor, sPush, sReplace, sToAscending, type SNode } from '../../../src/memory/stack-bindings.js';
import { Rng } from '../../../src/util/rng.js';

interface Model {
  /** Bound objects by address: the object and whether it is freed. */
  objs: Map<number, { mo: MemoryObject; freed: boolean }>;
}

function sortedKeys(m: Model): number[] {
  return [...m.objs.keys()].sort((a, b) => a - b);
}

function expectSame(as: AddressSpace, m: Model, rng: Rng): void {
  const keys = sortedKeys(m);
  expect(as.bindings().map((n) => n.key)).toEqual(keys);
  expect(as.bindings().map((n) => n.os === null)).toEqual(keys.map((k) => m.objs.get(k)!.freed));
  expect(as.size).toBe(keys.filter((k) => !m.objs.get(k)!.freed).length);
  for (let t = 0; t < 8; t++) {
    // probe near objects (inside, at the edges, in the gaps) and anywhere
    const base = keys.length > 0 && rng.nextInt(4) !== 0 ? keys[rng.nextInt(keys.length)]! : [GLOBALS_BASE, HEAP_BASE, STACK_BASE][rng.nextInt(3)]!;
    const a = base + rng.nextInt(40) - 8;
    const hit = keys.find((k) => m.objs.get(k)!.mo.contains(a));
    expect(as.find(a)?.key).toBe(hit);
    expect(as.next(a)?.key).toBe(keys.find((k) => k > a));
    expect(as.prev(a)?.key).toBe([...keys].reverse().find((k) => k < a));
  }
  for (const k of keys) {
    const { mo, freed } = m.objs.get(k)!;
    expect(as.stateOf(mo) === null).toBe(freed);
  }
}

describe('stack bindings', () => {
  it('floor lookups over a deep stack agree with a scan and take O(log n) jumps', () => {
    let top: SNode | null = null;
    const n = 5000;
    for (let i = 0; i < n; i++) top = sPush(top, new MemoryObject(STACK_BASE + i * 32, 8, ObjectKind.Stack, 8, 't'), null);
    const all = sToAscending(top!);
    expect(all.map((x) => x.key)).toEqual(Array.from({ length: n }, (_, i) => STACK_BASE + i * 32));
    for (const a of [STACK_BASE - 1, STACK_BASE, STACK_BASE + 5, STACK_BASE + 31 * 32 + 9, STACK_BASE + (n - 1) * 32 + 100]) {
      const { floor, above } = sFloor(top!, a);
      const want = [...all].reverse().find((x) => x.key <= a) ?? null;
      expect(floor).toBe(want);
      expect(above).toBe(want === null ? all[0] : (all.find((x) => x.key > a) ?? null));
    }
    // the bottom object is found in O(log n) steps, not n
    let steps = 0;
    let cur: SNode | null = top;
    while (cur !== null && cur.key > STACK_BASE) {
      const j: SNode | null = cur.jump;
      cur = j !== null && j.key > STACK_BASE ? j : cur.below;
      steps++;
    }
    expect(steps).toBeLessThan(4 * Math.log2(n));
  });

  it('replacing or removing a node in the middle keeps the others', () => {
    let top: SNode | null = null;
    const mos = Array.from({ length: 6 }, (_, i) => new MemoryObject(STACK_BASE + i * 32, 8, ObjectKind.Stack, 8, 't'));
    for (const mo of mos) top = sPush(top, mo, null);
    const third = sToAscending(top!)[2]!;
    const removed = sReplace(top!, third, undefined)!;
    expect(sToAscending(removed).map((x) => x.mo)).toEqual([mos[0], mos[1], mos[3], mos[4], mos[5]]);
    expect(sToAscending(top!).map((x) => x.mo)).toEqual(mos); // persistent
  });

  it('an address space with stack, heap and global objects agrees with a sorted list', () => {
    const rng = new Rng(12);
    for (let round = 0; round < 10; round++) {
      const spaces: { as: AddressSpace; m: Model; frames: MemoryObject[][]; stack: number; heap: number }[] = [
        { as: new AddressSpace(), m: { objs: new Map() }, frames: [[]], stack: STACK_BASE, heap: HEAP_BASE },
      ];
      const g = new MemoryObject(GLOBALS_BASE, 16, ObjectKind.Global, 8, 'g');
      spaces[0]!.as.bindNew(g);
      spaces[0]!.m.objs.set(g.address, { mo: g, freed: false });
      for (let step = 0; step < 120; step++) {
        const s = spaces[rng.nextInt(spaces.length)]!;
        const op = rng.nextInt(10);
        if (op < 3) {
          // an alloca in the top frame
          const size = 1 + rng.nextInt(24);
          const mo = new MemoryObject(s.stack, size, ObjectKind.Stack, 8, 'a');
          s.stack += size + 16;
          s.as.bindNew(mo);
          s.m.objs.set(mo.address, { mo, freed: false });
          s.frames[s.frames.length - 1]!.push(mo);
        } else if (op === 3) {
          s.frames.push([]); // a call
        } else if (op === 4 && s.frames.length > 1) {
          // a return: newest first, as the executor frees them
          const f = s.frames.pop()!;
          for (let i = f.length - 1; i >= 0; i--) {
            s.as.unbind(f[i]!);
            s.m.objs.delete(f[i]!.address);
          }
        } else if (op === 5) {
          const mo = new MemoryObject(s.heap, 8 + rng.nextInt(8), ObjectKind.Heap, 16, 'h');
          s.heap += 64;
          s.as.bindNew(mo);
          s.m.objs.set(mo.address, { mo, freed: false });
        } else if (op === 6) {
          // free a heap object, or unbind any object (out of order for stack ones)
          const live = sortedKeys(s.m).filter((k) => !s.m.objs.get(k)!.freed);
          if (live.length === 0) continue;
          const { mo } = s.m.objs.get(live[rng.nextInt(live.length)]!)!;
          if (mo.kind === ObjectKind.Heap) {
            s.as.markFreed(mo);
            s.m.objs.get(mo.address)!.freed = true;
          } else if (mo.kind === ObjectKind.Stack) {
            s.as.unbind(mo);
            s.m.objs.delete(mo.address);
            for (const f of s.frames) {
              const i = f.indexOf(mo);
              if (i >= 0) f.splice(i, 1);
            }
          }
        } else if (op === 7) {
          // write a random live object (copy-on-write rebinding after a fork)
          const live = sortedKeys(s.m).filter((k) => !s.m.objs.get(k)!.freed);
          if (live.length === 0) continue;
          const { mo } = s.m.objs.get(live[rng.nextInt(live.length)]!)!;
          const w: ObjectState = s.as.writeableOf(mo)!;
          w.write8(0, step & 255);
          expect(s.as.stateOf(mo)!.read8(0)).toBe(step & 255);
        } else if (op === 8 && spaces.length < 6) {
          spaces.push({ as: s.as.fork(), m: { objs: new Map([...s.m.objs].map(([k, v]) => [k, { ...v }])) }, frames: s.frames.map((f) => [...f]), stack: s.stack, heap: s.heap });
        } else if (op === 9) {
          // a stack object below the top (a split object's chunk): it goes to the tree
          const stackKeys = sortedKeys(s.m).filter((k) => s.m.objs.get(k)!.mo.kind === ObjectKind.Stack);
          if (stackKeys.length < 2) continue;
          const under = s.m.objs.get(stackKeys[rng.nextInt(stackKeys.length - 1)]!)!.mo;
          const at = under.end + 4; // in its red zone
          if (sortedKeys(s.m).some((k) => k === at || s.m.objs.get(k)!.mo.contains(at))) continue;
          const mo = new MemoryObject(at, 1, ObjectKind.Stack, 1, 'chunk');
          s.as.bindNew(mo);
          s.m.objs.set(mo.address, { mo, freed: false });
        }
        expectSame(s.as, s.m, rng);
      }
      for (const s of spaces) expectSame(s.as, s.m, rng);
    }
  });
});
