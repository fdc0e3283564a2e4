/**
 * QCE's similarity relation at run time (paper 001 Eq. 1–2): two states at the same location
 * are similar when every hot variable is equal in both or symbolic in at least one, where a
 * variable is hot at ℓ when its estimated query count exceeds α times the total:
 *
 *   H(ℓ) = { v | Qadd(ℓ, v) > α · Qt(ℓ) },   Qt(ℓ) = local count + Σ counts at the callers' return sites.
 *
 * For a frame below the top, its variables' counts are those at the instruction after the call
 * (§3.2: "local counts exclude queries issued after the function returns"; the dynamic part
 * adds the callers'). A register counts only where it is live. The hot set depends only on the
 * location, so it is kept per location key. `hash` is DSM's h: a hash of the hot variables'
 * values with every symbolic value mapped to one mark (§4.3).
 *
 * The ite term (the digest's §3.4, Eq. 7: (ζ−1)·max Qite + max Qadd < Qt/σ, which the paper's
 * prototype dropped), with ζ large for one kind of query, ζ = 1 for the rest: a hot variable
 * that feeds memory addresses (FunctionQce.addressDeps) is ite-hot, and two states whose
 * values of it differ with a symbolic side (s1[v] ≠s s2[v]) stay apart too. Without it, one
 * merge makes a pointer symbolic and every later state merges into it ("symbolic in one
 * state"), so each access through it is a read at an ite-chain index (coreutils: 10–450 ms in
 * z3 each, where unmerged states read at constant offsets). Arithmetic ites (the paper's
 * `sleep` accumulation) still merge.
 *
 * Scope: the paper's Qt is the global count (this frame's and every caller's return site's).
 * Under Eq. 3 counts grow as (2β)^branches, so in a real program the callers' counts dwarf a
 * callee's (basename's Qt saturates at 1e300 in last_component) and no callee variable is ever
 * hot at α = 1e-12; scope 'frame' compares each frame's variables with the queries that frame
 * still makes (its callees' and its returned value's uses included). Even a frame's own count
 * saturates when it calls into large code (basename's base_name: 8e299, through malloc), so the
 * ite term does not compare counts: a live variable that feeds an address is hot.
 */
import type { Expr } from '../../expr/expr.js';
import type { Executor } from '../executor.js';
import type { ExecutionState } from '../state.js';
import type { Val } from '../values.js';
import type { Similarity } from './auto.js';
import { livenessOf } from './liveness.js';
import { framePc, locationKey } from './location.js';
import type { FunctionQce, QceAnalysis } from './qce.js';

/** Hot variables of one frame. */
interface FrameHot {
  /** Index of the frame in the stack (states at one location have the same stack shape). */
  frame: number;
  fq: FunctionQce;
  vars: number[];
  /** Per variable: ite-hot (its count exceeds iteAlpha·Qt: it must not become an ite). */
  ite: boolean[];
}

/** Run-time choices of the relation (--qce-scope, --qce-ite-term). */
export interface QceRuntimeOptions {
  /** Qt of the hot test: the whole call stack's (the paper's global count) or the variable's frame's. */
  scope: 'stack' | 'frame';
  /** Whether a hot variable feeding memory addresses must not become an ite. */
  iteTerm: boolean;
}

/** What a variable holds in a state: a concrete value, or SYMBOLIC. */
type Observed = number | bigint | string | typeof SYMBOLIC | typeof ABSENT;
const SYMBOLIC = Symbol('symbolic');
const ABSENT = Symbol('absent');

export class QceSimilarity implements Similarity {
  private readonly hotAt = new Map<string, FrameHot[]>();
  /** Hot variables seen (statistics). */
  lastHotCount = 0;
  /** Why the last refused pair was refused: a hot variable's concrete values differ, or an ite-hot one would become an ite. */
  lastRefusal: 'concrete' | 'ite' = 'concrete';

  constructor(
    private readonly ex: Executor,
    private readonly analysis: QceAnalysis,
    private readonly options: QceRuntimeOptions = { scope: 'stack', iteTerm: false },
  ) {}

  /** The hot variables of each frame of st's location. */
  hot(st: ExecutionState, key: string = locationKey(st)): FrameHot[] {
    let h = this.hotAt.get(key);
    if (h !== undefined) return h;
    const frames: { frame: number; fq: FunctionQce | null; pc: number }[] = [];
    let qt = 0;
    for (let i = 0; i < st.stack.length; i++) {
      const kf = st.stack[i]!.kf;
      const fq = this.analysis.of(kf);
      const top = i === st.stack.length - 1;
      const pc = top ? st.pc : framePc(st, i) + 1;
      frames.push({ frame: i, fq, pc });
      if (fq !== null && pc < kf.insts.length) qt += fq.countsAt(pc).qt;
    }
    const alpha = this.analysis.params.alpha;
    h = [];
    // what the caller will do with a frame's return value: its count at the return site, and
    // whether it feeds an address there
    let returned = 0;
    let returnedAddress = false;
    for (let i = 0; i < frames.length; i++) {
      const { frame, fq, pc } = frames[i]!;
      const callerReturned = returned;
      const callerAddress: boolean = returnedAddress;
      returned = 0;
      returnedAddress = false;
      if (fq === null || pc >= fq.kf.insts.length) continue;
      const counts = fq.countsAt(pc);
      if (i + 1 < frames.length) {
        const dest = fq.kf.insts[pc - 1]?.dest ?? -1; // the call this frame waits in
        if (dest >= 0) {
          const passes = fq.returnDeps.has(dest);
          returned = counts.get(dest) + (passes ? callerReturned : 0);
          returnedAddress = fq.addressDeps.has(dest) || (passes && callerAddress);
        }
      }
      // 'frame': against the queries this frame still makes (its callees' and its returned
      // value's included), not the rest of the program's, which dwarf a callee's at any α
      const threshold = alpha * (this.options.scope === 'frame' ? counts.qt + callerReturned : qt);
      const live = livenessOf(fq.kf).liveAt(pc);
      const found: { v: number; ite: boolean }[] = [];
      const consider = (v: number, q: number): void => {
        // with the ite term, a variable that feeds addresses is hot at any count (ζ ≫ 1 for
        // symbolic addresses; the counts saturate in real programs, see above)
        const address = this.options.iteTerm && q > 0 && (fq.addressDeps.has(v) || (callerAddress && fq.returnDeps.has(v)));
        if (!(q > threshold) && !address) return;
        if (fq.isCell(v) ? !fq.cellLive(pc, v) : !live.has(v)) return;
        found.push({ v, ite: address });
      };
      for (const [v, q] of counts.add) consider(v, q + (callerReturned > 0 && fq.returnDeps.has(v) ? callerReturned : 0));
      if (callerReturned > 0) for (const v of fq.returnDeps) if (!counts.add.has(v)) consider(v, callerReturned);
      found.sort((a, b) => a.v - b.v);
      h.push({ frame, fq, vars: found.map((x) => x.v), ite: found.map((x) => x.ite) });
    }
    this.hotAt.set(key, h);
    return h;
  }

  similar(a: ExecutionState, b: ExecutionState): boolean {
    const hot = this.hot(a);
    let n = 0;
    for (let i = 0; i < hot.length; i++) {
      const { frame, fq, vars, ite } = hot[i]!;
      for (let k = 0; k < vars.length; k++) {
        const v = vars[k]!;
        n++;
        const x = this.observe(a, frame, fq, v);
        const y = this.observe(b, frame, fq, v);
        if (x !== SYMBOLIC && y !== SYMBOLIC) {
          if (x === y) continue;
          this.refuse(n, 'concrete');
          return false;
        }
        // ≠s: symbolic on a side; only an ite-hot variable must then be the same expression in both
        if (ite[k]! && this.observe(a, frame, fq, v, true) !== this.observe(b, frame, fq, v, true)) {
          this.refuse(n, 'ite');
          return false;
        }
      }
    }
    this.lastHotCount = n;
    return true;
  }

  private refuse(n: number, why: 'concrete' | 'ite'): void {
    this.lastHotCount = n;
    this.lastRefusal = why;
  }

  /**
   * DSM's h over the hot variables: equal for similar states with no symbolic hot variable.
   * The lowest bit says whether a hot variable was symbolic (only then can a state of another
   * hash be similar); an ite-hot variable's symbolic value is hashed as its expression. Mixed
   * from the values themselves (no strings: this runs for every state at every block).
   */
  hash(st: ExecutionState, key?: string): number {
    let star = 0;
    let h = 0x811c9dc5;
    for (const { frame, fq, vars, ite } of this.hot(st, key)) {
      const f = st.stack[frame];
      for (let k = 0; k < vars.length; k++) {
        const v = vars[k]!;
        h = mix(h, v);
        if (f === undefined) {
          h = mix(h, ABSENT_MARK);
          continue;
        }
        const x = fq.isCell(v) ? this.cellHash(st, f.regs, fq, v, ite[k]!) : valHash(f.regs[v], ite[k]!);
        if (x === SYMBOLIC_MARK) star = 1;
        h = mix(h, x);
      }
    }
    return ((h & ~1) | star) >>> 0;
  }

  /** Where a cell's object starts: its global's address, or its alloca's (null before the alloca ran or without the global). */
  private cellBase(regs: readonly Val[], cell: ReturnType<FunctionQce['cell']>): number | null {
    if (cell.global !== null) return this.ex.km.globalObjects.get(cell.global)?.address ?? null;
    const r = regs[cell.alloca];
    return typeof r !== 'number' || r === 0 ? null : r;
  }

  /** A cell's bytes hashed (SYMBOLIC_MARK when a byte is symbolic and !exact; ABSENT_MARK when not allocated). */
  private cellHash(st: ExecutionState, regs: readonly Val[], fq: FunctionQce, v: number, exact: boolean): number {
    const cell = fq.cell(v);
    const base = this.cellBase(regs, cell);
    if (base === null) return ABSENT_MARK;
    const node = st.memory.bindingAt(base + cell.offset);
    if (node === null || node.os === null) return ABSENT_MARK;
    const off = base + cell.offset - node.mo.address;
    let h = 0x9e3779b9;
    for (let i = 0; i < cell.size && off + i < node.os.size; i++) {
      const byte = node.os.read8(off + i);
      if (typeof byte === 'number') h = mix(h, byte);
      else if (!exact) return SYMBOLIC_MARK;
      else h = mix(h, 0x100 + byte.id);
    }
    return h;
  }

  /**
   * v's value in st: concrete, or SYMBOLIC; with `exact`, a symbolic value is its expressions'
   * identity instead (hash-consed: equal expressions, equal keys).
   */
  private observe(st: ExecutionState, frame: number, fq: FunctionQce, v: number, exact = false): Observed {
    const f = st.stack[frame];
    if (f === undefined) return ABSENT;
    if (!fq.isCell(v)) return observeVal(f.regs[v], exact);
    const cell = fq.cell(v);
    const base = this.cellBase(f.regs, cell);
    if (base === null) return ABSENT;
    const node = st.memory.bindingAt(base + cell.offset);
    if (node === null || node.os === null) return ABSENT;
    const off = base + cell.offset - node.mo.address;
    let s = '';
    for (let i = 0; i < cell.size && off + i < node.os.size; i++) {
      const byte = node.os.read8(off + i);
      if (typeof byte !== 'number') {
        if (!exact) return SYMBOLIC;
        s += `e${byte.id},`;
      } else s += `${byte},`;
    }
    return s;
  }
}

/** Hash values standing for "symbolic" and "not there" (collisions with real values are harmless: the full check follows). */
const SYMBOLIC_MARK = 0x2a2a2a2a;
const ABSENT_MARK = 0x2d2d2d2d;

function mix(h: number, x: number): number {
  h = Math.imul(h ^ (x | 0), 0x01000193);
  // the high part of wide numbers (addresses, 64-bit values)
  const hi = Math.floor(x / 0x1_0000_0000);
  return hi === 0 ? h : Math.imul(h ^ (hi | 0), 0x01000193);
}

/** A register value hashed: SYMBOLIC_MARK for a symbolic one unless exact (then its expression's id). */
function valHash(x: Val | undefined, exact: boolean): number {
  if (x === undefined) return ABSENT_MARK;
  if (typeof x === 'number') return Number.isNaN(x) ? 0x7ff8 : Object.is(x, -0) ? 0x8000 : Number.isFinite(x) ? mix(0, x) : x > 0 ? 0x7ff0 : 0xfff0;
  if (typeof x === 'bigint') return mix(mix(0, Number(BigInt.asUintN(32, x))), Number(BigInt.asUintN(32, x >> 32n)));
  if (Array.isArray(x)) {
    let h = 0x5bd1e995;
    for (const e of x) {
      const o = valHash(e, exact);
      if (o === SYMBOLIC_MARK) return SYMBOLIC_MARK;
      h = mix(h, o);
    }
    return h;
  }
  return exact ? mix(0x100, (x as Expr).id) : SYMBOLIC_MARK;
}

function observeVal(x: Val | undefined, exact: boolean): Observed {
  if (x === undefined) return ABSENT;
  if (typeof x === 'number') return Number.isNaN(x) ? 'NaN' : Object.is(x, -0) ? '-0' : x;
  if (typeof x === 'bigint') return x;
  if (Array.isArray(x)) {
    let s = '[';
    for (const e of x) {
      const o = observeVal(e, exact);
      if (o === SYMBOLIC) return SYMBOLIC;
      s += `${String(o)},`;
    }
    return `${s}]`;
  }
  return exact ? `e${(x as Expr).id}` : SYMBOLIC;
}
