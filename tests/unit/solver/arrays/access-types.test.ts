/** Access types (paper 002 §3): recorded per object at symbolic offsets, reached from the object's arrays. */
import { AccessTypes, builder as b, ExprArray, UpdateList } from '../../../../src/expr/index.js';
import { MemoryObject, ObjectKind } from '../../../../src/memory/memory-object.js';
import { ObjectState } from '../../../../src/memory/object-state.js';

test('M(a) is the minimum recorded size; the modulus its power-of-two part', () => {
  const t = new AccessTypes();
  expect(t.modulus).toBe(1); // nothing recorded: no pruning
  t.record(8);
  expect(t.modulus).toBe(8);
  t.record(4);
  expect(t.minSize).toBe(4);
  t.record(12);
  expect(t.minSize).toBe(4);
  t.record(1);
  expect(t.modulus).toBe(1);
});

test('a flushed object state links its constant array to the object\'s access types', () => {
  const mo = new MemoryObject(0x1000, 16, ObjectKind.Global, 16, 'global:a');
  const os = new ObjectState(16, 1);
  os.mo = mo;
  os.recordSymbolicAccess(4);
  const i = b.read(new UpdateList(new ExprArray('i', 1)), b.constant(0, 32));
  os.read8Sym(b.zext(i, 32));
  const arr = os.flush().root;
  expect(arr.access).toBe(mo.accessTypes());
  expect(arr.access!.minSize).toBe(4);
  expect(new ExprArray('x', 1).access).toBeNull();
});
