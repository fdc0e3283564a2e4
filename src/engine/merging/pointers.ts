/**
 * The address rule at run time (--merge-pointers=apart, the default): two states whose live
 * pointer values differ stay apart. QCE's ite term (similarity.ts) keeps apart the variables
 * its static analysis sees feeding addresses: registers and cells at constant offsets of
 * allocas and globals. It cannot see pointers stored in memory reached through other pointers
 * — the FILE of stdout (`stdout->_IO_write_ptr`: one path printed 3 bytes, the other 5), list
 * nodes, cursors in heap structures. Merged, such a cell is `ite(c, p1, p2)`, every access
 * through it is a read or write at a symbolic address, and each of those turns the object it
 * hits into ites over ites: on coreutils these were most of the merged states' z3 time.
 *
 * The rule is dynamic: a value is a pointer when it is concrete and points into (or one past)
 * a live object of the state. An 8-byte aligned cell of a global, heap or fixed object, or a
 * live pointer-typed register, whose values differ with a pointer on either side refuses the
 * merge (stack cells are QCE's: the ite term decides them, knowing which are dead). Integers that happen
 * to equal an address (above 4 MiB, inside an object) are kept apart too: harmless, rare.
 */
import type { Expr } from '../../expr/expr.js';
import { ObjectKind } from '../../memory/memory-object.js';
import type { ExecutionState } from '../state.js';
import type { Val } from '../values.js';
import { liveRegisters, sameVal } from './core.js';

/** Addresses start at 4 MiB (functions; globals, heap and stack above): smaller integers are never pointers. */
const LOWEST_ADDRESS = 0x40_0000;

/** Whether v is a concrete address into, or one past, a live object of st. */
function isPointer(st: ExecutionState, v: number): boolean {
  if (v < LOWEST_ADDRESS || !Number.isSafeInteger(v)) return false;
  return st.memory.objectAt(v) !== null || st.memory.objectAt(v - 1) !== null;
}

function pointerVal(st: ExecutionState, v: Val): boolean {
  if (typeof v === 'number') return isPointer(st, v);
  if (typeof v === 'bigint') return v >= BigInt(LOWEST_ADDRESS) && v <= BigInt(Number.MAX_SAFE_INTEGER) && isPointer(st, Number(v));
  return false;
}

/** The 8 bytes at off as a little-endian number when all are concrete and it fits in 2^53, else null. */
function concreteWord(read8: (i: number) => number | Expr, off: number): number | null {
  let v = 0;
  for (let k = 7; k >= 0; k--) {
    const b = read8(off + k);
    if (typeof b !== 'number') return null;
    if (k >= 7 && b !== 0) return null;
    v = v * 256 + b;
  }
  return v;
}

/**
 * Where a and b (structurally mergeable: mergeBlocker(a, b) is null) hold different pointers,
 * or null when they do not: "register F:rN" or "memory OBJECT+OFFSET".
 */
export function differingPointer(a: ExecutionState, b: ExecutionState): string | null {
  for (let i = 0; i < a.stack.length; i++) {
    const fa = a.stack[i]!;
    const fb = b.stack[i]!;
    if (fa === fb) continue;
    const types = fa.kf.regTypes;
    let live: ((r: number) => boolean) | null = null;
    for (let r = 0; r < fa.regs.length; r++) {
      const va = fa.regs[r];
      const vb = fb.regs[r];
      if (va === undefined || vb === undefined || va === vb || types[r]?.isPointer() !== true) continue;
      if (sameVal(va, vb) || !(pointerVal(a, va) || pointerVal(b, vb))) continue;
      live ??= liveRegisters(a, i);
      if (live(r)) return `register ${fa.kf.name}:r${r}`;
    }
  }
  const na = a.memory.bindings();
  const nb = b.memory.bindings();
  for (let k = 0; k < na.length; k++) {
    const x = na[k]!;
    const y = nb[k]!;
    // stack cells are QCE's (the ite term, with cell liveness: a dead cursor may merge)
    if (x.os === null || y.os === null || x.os === y.os || x.mo.kind === ObjectKind.Stack) continue;
    const osa = x.os;
    const osb = y.os;
    const ra = (i: number): number | Expr => osa.read8(i);
    const rb = (i: number): number | Expr => osb.read8(i);
    // the allocator aligns every object to 8 bytes at least, so a pointer field is an aligned cell
    const cells = Math.floor(osa.size / 8);
    for (let c = 0; c < cells; c++) {
      const off = c * 8;
      let differs = false;
      for (let j = 0; j < 8 && !differs; j++) differs = osa.read8(off + j) !== osb.read8(off + j);
      if (!differs) continue;
      const p = concreteWord(ra, off);
      const q = concreteWord(rb, off);
      if ((p !== null && isPointer(a, p)) || (q !== null && isPointer(b, q))) return `memory ${x.mo.allocInfo()}+${off}`;
    }
  }
  return null;
}
