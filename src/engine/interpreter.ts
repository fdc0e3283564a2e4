/**
 * The hot loop: runs one state until it forks, ends, or has run `budget` instructions.
 *
 * Common instructions on concrete values are executed here, inline, without allocating;
 * anything else (symbolic operands, calls, errors, rarer instructions) goes to the family
 * handlers through execSlow, after which the loop reloads its cached frame.
 */
import { Op, type Edge, type KInst } from './prepare/kinst.js';
import { MemKind, type GepInfo } from './prepare/kmodule.js';
import { FirstCovered, StateStatus, type ExecutionState } from './state.js';
import type { Executor } from './executor.js';
import { icmpConcrete } from './scalar.js';
import { execSlow } from './dispatch.js';
import { fromExpr, wideFromBig, type Val } from './values.js';
import { PAGE_MASK, PAGE_SHIFT, PAGE_SIZE } from '../memory/pages.js';

const MAX_SAFE = Number.MAX_SAFE_INTEGER;
const TWO32 = 0x1_0000_0000;

/** Copy the phi values of an edge (a parallel copy: all sources are read first). */
export function copyPhis(regs: Val[], e: Edge): void {
  const dst = e.phiDst;
  const src = e.phiSrc;
  if (dst.length === 1) {
    regs[dst[0]!] = regs[src[0]!]!;
    return;
  }
  const tmp: Val[] = [];
  for (let i = 0; i < src.length; i++) tmp.push(regs[src[i]!]!);
  for (let i = 0; i < dst.length; i++) regs[dst[i]!] = tmp[i]!;
}

export function interpret(ex: Executor, st: ExecutionState, budget: number): number {
  let frame = st.thawTop();
  let regs = frame.regs;
  let insts = frame.kf.insts;
  let pc = st.pc;
  const covered = ex.covered;
  const edgeTaken = ex.edgeTaken;
  const callPaths = ex.callPaths;
  const blockSteps = ex.blockSteps;
  const as = st.memory.space;
  let n = 0;
  st.yieldStep = false; // a request left from the step that forked this state
  // instsSinceCovNew (KLEE's convention: 0 until the state covers something new, then 1 at
  // that instruction and counting): its value on entry, and the n that covered something new
  const covBase = st.instsSinceCovNew;
  let covAt = 0;
  /** n when the current frame's stretch began (for callPaths). */
  let stretchStart = 0;
  if (st.pendingError !== null) {
    const pe = st.pendingError;
    st.pendingError = null;
    ex.terminateOnError(st, pe.message, pe.kind, pe.info, pe.suffix);
    return 0;
  }
  while (n < budget) {
    const ki: KInst = insts[pc]!;
    n++;
    if (covered[ki.gid]++ === 0) {
      ex.coveredCount++;
      st.coveredNew = true;
      st.coveredSinceMerge = true;
      st.firstCovered = new FirstCovered(ki.gid, st.firstCovered);
      covAt = n;
    }
    switch (ki.op) {
      case Op.Add32: {
        const x = regs[ki.a];
        const y = regs[ki.b];
        if (typeof x === 'number' && typeof y === 'number') {
          regs[ki.dest] = ((x + y) & ki.imm) >>> 0;
          pc++;
          continue;
        }
        break;
      }
      case Op.Sub32: {
        const x = regs[ki.a];
        const y = regs[ki.b];
        if (typeof x === 'number' && typeof y === 'number') {
          regs[ki.dest] = ((x - y) & ki.imm) >>> 0;
          pc++;
          continue;
        }
        break;
      }
      case Op.Mul32: {
        const x = regs[ki.a];
        const y = regs[ki.b];
        if (typeof x === 'number' && typeof y === 'number') {
          regs[ki.dest] = (Math.imul(x, y) & ki.imm) >>> 0;
          pc++;
          continue;
        }
        break;
      }
      case Op.And32: {
        const x = regs[ki.a];
        const y = regs[ki.b];
        if (typeof x === 'number' && typeof y === 'number') {
          regs[ki.dest] = (x & y) >>> 0;
          pc++;
          continue;
        }
        break;
      }
      case Op.Or32: {
        const x = regs[ki.a];
        const y = regs[ki.b];
        if (typeof x === 'number' && typeof y === 'number') {
          regs[ki.dest] = (x | y) >>> 0;
          pc++;
          continue;
        }
        break;
      }
      case Op.Xor32: {
        const x = regs[ki.a];
        const y = regs[ki.b];
        if (typeof x === 'number' && typeof y === 'number') {
          regs[ki.dest] = (x ^ y) >>> 0;
          pc++;
          continue;
        }
        break;
      }
      case Op.Shl32: {
        const x = regs[ki.a];
        const y = regs[ki.b];
        if (typeof x === 'number' && typeof y === 'number' && y < ki.w) {
          regs[ki.dest] = ((x << y) & ki.imm) >>> 0;
          pc++;
          continue;
        }
        break;
      }
      case Op.LShr32: {
        const x = regs[ki.a];
        const y = regs[ki.b];
        if (typeof x === 'number' && typeof y === 'number' && y < ki.w) {
          regs[ki.dest] = x >>> y;
          pc++;
          continue;
        }
        break;
      }
      case Op.AShr32: {
        const x = regs[ki.a];
        const y = regs[ki.b];
        if (typeof x === 'number' && typeof y === 'number' && y < ki.w) {
          const s = 32 - ki.w;
          regs[ki.dest] = (((x << s) >> (s + y)) & ki.imm) >>> 0;
          pc++;
          continue;
        }
        break;
      }
      case Op.UDiv32: {
        const x = regs[ki.a];
        const y = regs[ki.b];
        if (typeof x === 'number' && typeof y === 'number' && y !== 0) {
          regs[ki.dest] = Math.floor(x / y);
          pc++;
          continue;
        }
        break;
      }
      case Op.URem32: {
        const x = regs[ki.a];
        const y = regs[ki.b];
        if (typeof x === 'number' && typeof y === 'number' && y !== 0) {
          regs[ki.dest] = x % y;
          pc++;
          continue;
        }
        break;
      }
      case Op.SDiv32: {
        const x = regs[ki.a];
        const y = regs[ki.b];
        if (typeof x === 'number' && typeof y === 'number' && y !== 0) {
          const s = 32 - ki.w;
          const sx = (x << s) >> s;
          const sy = (y << s) >> s;
          regs[ki.dest] = (Math.trunc(sx / sy) & ki.imm) >>> 0;
          pc++;
          continue;
        }
        break;
      }
      case Op.SRem32: {
        const x = regs[ki.a];
        const y = regs[ki.b];
        if (typeof x === 'number' && typeof y === 'number' && y !== 0) {
          const s = 32 - ki.w;
          const sx = (x << s) >> s;
          const sy = (y << s) >> s;
          regs[ki.dest] = ((sx % sy) & ki.imm) >>> 0;
          pc++;
          continue;
        }
        break;
      }
      case Op.Add64: {
        const x = regs[ki.a];
        const y = regs[ki.b];
        if (typeof x === 'number' && typeof y === 'number') {
          const r = x + y;
          if (r <= MAX_SAFE && r >= -MAX_SAFE) {
            regs[ki.dest] = r;
            pc++;
            continue;
          }
        }
        break;
      }
      case Op.Sub64: {
        const x = regs[ki.a];
        const y = regs[ki.b];
        if (typeof x === 'number' && typeof y === 'number') {
          const r = x - y;
          if (r <= MAX_SAFE && r >= -MAX_SAFE) {
            regs[ki.dest] = r;
            pc++;
            continue;
          }
        }
        break;
      }
      case Op.ICmp32: {
        const x = regs[ki.a];
        const y = regs[ki.b];
        if (typeof x === 'number' && typeof y === 'number') {
          regs[ki.dest] = icmpConcrete(ki.imm, ki.w, x, y) ? 1 : 0;
          pc++;
          continue;
        }
        break;
      }
      case Op.ICmpWide: {
        const x = regs[ki.a];
        const y = regs[ki.b];
        if (typeof x !== 'object' && typeof y !== 'object') {
          regs[ki.dest] = icmpConcrete(ki.imm, ki.w, x as number | bigint, y as number | bigint) ? 1 : 0;
          pc++;
          continue;
        }
        break;
      }
      case Op.ZExt: {
        const x = regs[ki.a];
        if (typeof x === 'number' && ki.w2 <= 32) {
          regs[ki.dest] = x;
          pc++;
          continue;
        }
        break;
      }
      case Op.SExt: {
        const x = regs[ki.a];
        if (typeof x === 'number' && ki.w2 <= 32) {
          const s = 32 - ki.w2;
          const v = (x << s) >> s;
          regs[ki.dest] = ki.w > 32 ? v : ki.w === 32 ? v >>> 0 : v & (2 ** ki.w - 1);
          pc++;
          continue;
        }
        break;
      }
      case Op.Trunc: {
        const x = regs[ki.a];
        if (typeof x === 'number' && ki.w <= 32) {
          const lo = x >>> 0; // exact modulo 2^32 for any integral double
          regs[ki.dest] = ki.w === 32 ? lo : lo & (2 ** ki.w - 1);
          pc++;
          continue;
        }
        break;
      }
      case Op.Copy:
        regs[ki.dest] = regs[ki.a]!;
        pc++;
        continue;
      case Op.Select: {
        const c = regs[ki.a];
        if (typeof c === 'number') {
          regs[ki.dest] = c !== 0 ? regs[ki.b]! : regs[ki.c]!;
          pc++;
          continue;
        }
        break;
      }
      case Op.Br: {
        const e = ki.aux as Edge;
        if (e.phiDst.length !== 0) {
          copyPhis(regs, e);
          n += e.phiCount;
        }
        pc = e.pc;
        if (blockSteps) {
          // merging: the searcher decides at every block entry (the state may merge there)
          st.pc = pc;
          if (callPaths !== null) callPaths.addInstructions(st, n - stretchStart);
          st.instsSinceCovNew = covAt !== 0 ? n - covAt + 1 : covBase !== 0 ? covBase + n : 0;
          return n;
        }
        continue;
      }
      case Op.CondBr: {
        const c = regs[ki.a];
        if (typeof c === 'number') {
          const e = (ki.aux as Edge[])[c !== 0 ? 0 : 1]!;
          if (edgeTaken[e.id]++ === 0) st.coveredSinceMerge = true; // a new branch side
          if (e.phiDst.length !== 0) {
            copyPhis(regs, e);
            n += e.phiCount;
          }
          pc = e.pc;
          if (blockSteps) {
            // merging: the searcher decides at every block entry (the state may merge there)
            st.pc = pc;
            if (callPaths !== null) callPaths.addInstructions(st, n - stretchStart);
            st.instsSinceCovNew = covAt !== 0 ? n - covAt + 1 : covBase !== 0 ? covBase + n : 0;
            return n;
          }
          continue;
        }
        break;
      }
      case Op.GEP: {
        const base = regs[ki.a];
        if (typeof base !== 'number') break;
        const g = ki.aux as GepInfo;
        const r = g.regs;
        let addr = base + ki.imm;
        let ok = true;
        for (let i = 0; i < r.length; i++) {
          const v = regs[r[i]!];
          if (typeof v !== 'number') {
            ok = false;
            break;
          }
          const w = g.widths[i]!;
          const sv = w > 32 ? v : w === 32 ? v | 0 : (v << (32 - w)) >> (32 - w);
          addr += sv * g.scales[i]!;
        }
        if (!ok || addr > MAX_SAFE || addr < -MAX_SAFE) break;
        regs[ki.dest] = addr;
        pc++;
        continue;
      }
      case Op.Load: {
        const p = regs[ki.a];
        if (typeof p !== 'number') break;
        const node = as.find(p);
        if (node === null) break;
        const os = node.os;
        if (os === null) break;
        const off = p - node.mo.address;
        if (off + ki.w > os.size) break;
        if (os.nonConcrete !== 0) {
          // symbolic contents at a constant offset: no resolution, no fork; an i8 (a character
          // of a symbolic string) is its byte, without the general path's closure
          if (ki.w2 === MemKind.Small && ki.imm === 0xff) {
            const b = os.read8(off);
            regs[ki.dest] = typeof b === 'number' ? b : fromExpr(b);
          } else regs[ki.dest] = ex.km.io.read(os, off, ki.aux as import('../ir/types.js').Type);
          pc++;
          continue;
        }
        let view = os.view;
        let bytes = os.bytes;
        let o = off;
        if (view === null) {
          // a paged object (memory/pages.ts): the access within one page, else byte by byte
          o = off & PAGE_MASK;
          if (o + ki.w > PAGE_SIZE) {
            regs[ki.dest] = ex.km.io.read(os, off, ki.aux as import('../ir/types.js').Type);
            pc++;
            continue;
          }
          const pg = os.pages![off >>> PAGE_SHIFT]!;
          view = pg.view;
          bytes = pg.bytes;
        }
        switch (ki.w2) {
          case MemKind.Small:
            regs[ki.dest] =
              ki.w === 1 ? bytes![o]! & ki.imm : ki.w === 2 ? view.getUint16(o, true) & ki.imm : (view.getUint32(o, true) & ki.imm) >>> 0;
            break;
          case MemKind.I64: {
            const lo = view.getUint32(o, true);
            const hi = view.getInt32(o + 4, true);
            // numbers only for |v| ≤ 2^53 − 1 (values.ts): −2^53 itself (hi = −2^21, lo = 0) is a bigint
            regs[ki.dest] = hi > -0x200000 && hi < 0x200000 ? hi * TWO32 + lo : wideFromBig(view.getBigInt64(o, true));
            break;
          }
          case MemKind.F32:
            regs[ki.dest] = view.getFloat32(o, true);
            break;
          case MemKind.F64:
            regs[ki.dest] = view.getFloat64(o, true);
            break;
          default:
            regs[ki.dest] = ex.km.io.read(os, off, ki.aux as import('../ir/types.js').Type);
        }
        pc++;
        continue;
      }
      case Op.Store: {
        const p = regs[ki.b];
        if (typeof p !== 'number') break;
        const v = regs[ki.a]!;
        const node = as.find(p);
        if (node === null) break;
        let os = node.os;
        if (os === null || os.readOnly) break;
        const off = p - node.mo.address;
        if (off + ki.w > os.size) break;
        if (os.owner !== as.cowKey) os = as.writeable(node); // copy-on-write after a fork
        if (typeof v === 'object' || os.nonConcrete !== 0 || os.ul !== null) {
          // a symbolic value, or an object with symbolic bytes: byte-level write
          ex.km.io.write(os, off, ki.aux as import('../ir/types.js').Type, v);
          pc++;
          continue;
        }
        let view = os.view;
        let bytes = os.bytes;
        let o = off;
        if (view === null) {
          // a paged object: its page, copied first if shared with another state's copy
          o = off & PAGE_MASK;
          if (o + ki.w > PAGE_SIZE) {
            ex.km.io.write(os, off, ki.aux as import('../ir/types.js').Type, v);
            pc++;
            continue;
          }
          let pg = os.pages![off >>> PAGE_SHIFT]!;
          if (pg.epoch !== os.epoch) pg = os.ownPage(off >>> PAGE_SHIFT);
          view = pg.view;
          bytes = pg.bytes;
        }
        switch (ki.w2) {
          case MemKind.Small:
            if (ki.w === 1) bytes![o] = v as number;
            else if (ki.w === 2) view.setUint16(o, v as number, true);
            else view.setUint32(o, v as number, true);
            break;
          case MemKind.I64:
            if (typeof v === 'number') {
              view.setUint32(o, v >>> 0, true);
              view.setInt32(o + 4, Math.floor(v / TWO32), true);
            } else view.setBigInt64(o, v as bigint, true);
            break;
          case MemKind.F32:
            view.setFloat32(o, v as number, true);
            break;
          case MemKind.F64:
            view.setFloat64(o, v as number, true);
            break;
          default:
            ex.km.io.write(os, off, ki.aux as import('../ir/types.js').Type, v);
        }
        pc++;
        continue;
      }
      case Op.Nop:
        pc++;
        continue;
      default:
        break;
    }
    // The general path: the handler may call, return, fork, or end the state.
    if (callPaths !== null) {
      callPaths.addInstructions(st, n - stretchStart);
      stretchStart = n;
    }
    st.prevPc = pc;
    st.pc = pc + 1;
    // up to date before the handler: a fork copies it
    st.instsSinceCovNew = covAt !== 0 ? n - covAt + 1 : covBase !== 0 ? covBase + n : 0;
    execSlow(ex, st, ki);
    if (st.status !== StateStatus.Running || ex.added.length !== 0 || st.yieldStep) {
      st.yieldStep = false;
      return n;
    }
    frame = st.thawTop();
    regs = frame.regs;
    insts = frame.kf.insts;
    pc = st.pc;
  }
  st.pc = pc;
  if (callPaths !== null) callPaths.addInstructions(st, n - stretchStart);
  st.instsSinceCovNew = covAt !== 0 ? n - covAt + 1 : covBase !== 0 ? covBase + n : 0;
  return n;
}
