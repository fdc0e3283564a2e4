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
}

/** What a variable holds in a state: a concrete value, or SYMBOLIC. */
type Observed = number | bigint | string | typeof SYMBOLIC | typeof ABSENT;
const SYMBOLIC = Symbol('symbolic');
const ABSENT = Symbol('absent');

export class QceSimilarity implements Similarity {
  private readonly hotAt = new Map<string, FrameHot[]>();
  /** Hot variables seen (statistics). */
  lastHotCount = 0;

  constructor(
    private readonly ex: Executor,
    private readonly analysis: QceAnalysis,
  ) {}

  /** The hot variables of each frame of st's location. */
  hot(st: ExecutionState): FrameHot[] {
    const key = locationKey(st);
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
    const threshold = this.analysis.params.alpha * qt;
    h = [];
    // what the caller will do with a frame's return value: its count at the return site
    let returned = 0;
    for (let i = 0; i < frames.length; i++) {
      const { frame, fq, pc } = frames[i]!;
      const callerReturned = returned;
      returned = 0;
      if (fq === null || pc >= fq.kf.insts.length) continue;
      const counts = fq.countsAt(pc);
      if (i + 1 < frames.length) {
        const dest = fq.kf.insts[pc - 1]?.dest ?? -1; // the call this frame waits in
        if (dest >= 0) returned = counts.get(dest) + (fq.returnDeps.has(dest) ? callerReturned : 0);
      }
      const live = livenessOf(fq.kf).liveAt(pc);
      const vars: number[] = [];
      const consider = (v: number, q: number): void => {
        if (!(q > threshold)) return;
        if (fq.isCell(v) ? !fq.cellLive(pc, v) : !live.has(v)) return;
        vars.push(v);
      };
      for (const [v, q] of counts.add) consider(v, q + (callerReturned > 0 && fq.returnDeps.has(v) ? callerReturned : 0));
      if (callerReturned > 0) for (const v of fq.returnDeps) if (!counts.add.has(v)) consider(v, callerReturned);
      vars.sort((a, b) => a - b);
      h.push({ frame, fq, vars });
    }
    this.hotAt.set(key, h);
    return h;
  }

  similar(a: ExecutionState, b: ExecutionState): boolean {
    const hot = this.hot(a);
    let n = 0;
    for (let i = 0; i < hot.length; i++) {
      const { frame, fq, vars } = hot[i]!;
      for (const v of vars) {
        n++;
        const x = this.observe(a, frame, fq, v);
        if (x === SYMBOLIC) continue;
        const y = this.observe(b, frame, fq, v);
        if (y === SYMBOLIC) continue;
        if (x !== y) {
          this.lastHotCount = n;
          return false;
        }
      }
    }
    this.lastHotCount = n;
    return true;
  }

  /** The hot variables' values (null where symbolic), in a fixed order per location: DSM's history entries. */
  values(st: ExecutionState): (string | number | bigint | null)[] {
    const out: (string | number | bigint | null)[] = [];
    for (const { frame, fq, vars } of this.hot(st)) {
      for (const v of vars) {
        const x = this.observe(st, frame, fq, v);
        out.push(x === SYMBOLIC ? null : x === ABSENT ? '-' : x);
      }
    }
    return out;
  }

  /**
   * DSM's h over the hot variables: equal for similar states with no symbolic hot variable.
   * The lowest bit says whether a hot variable was symbolic (only then can a state of another
   * hash be similar).
   */
  hash(st: ExecutionState): number {
    let star = 0;
    let h = 0x811c9dc5;
    const mix = (s: string): void => {
      for (let i = 0; i < s.length; i++) h = Math.imul(h ^ s.charCodeAt(i), 0x01000193);
    };
    const hot = this.hot(st);
    for (const { frame, fq, vars } of hot) {
      for (const v of vars) {
        const x = this.observe(st, frame, fq, v);
        if (x === SYMBOLIC) star = 1;
        mix(`${v}=${x === SYMBOLIC ? '*' : x === ABSENT ? '-' : String(x)};`);
      }
    }
    return ((h & ~1) | star) >>> 0;
  }

  private observe(st: ExecutionState, frame: number, fq: FunctionQce, v: number): Observed {
    const f = st.stack[frame];
    if (f === undefined) return ABSENT;
    if (!fq.isCell(v)) return observeVal(f.regs[v]);
    const cell = fq.cell(v);
    let base: number;
    if (cell.global !== null) {
      const mo = this.ex.km.globalObjects.get(cell.global);
      if (mo === undefined) return ABSENT;
      base = mo.address;
    } else {
      const r = f.regs[cell.alloca];
      if (typeof r !== 'number' || r === 0) return ABSENT; // the alloca has not run in this frame yet
      base = r;
    }
    const node = st.memory.bindingAt(base + cell.offset);
    if (node === null || node.os === null) return ABSENT;
    const off = base + cell.offset - node.mo.address;
    let s = '';
    for (let i = 0; i < cell.size && off + i < node.os.size; i++) {
      const byte = node.os.read8(off + i);
      if (typeof byte !== 'number') return SYMBOLIC;
      s += `${byte},`;
    }
    return s;
  }
}

function observeVal(x: Val | undefined): Observed {
  if (x === undefined) return ABSENT;
  if (typeof x === 'number') return Number.isNaN(x) ? 'NaN' : Object.is(x, -0) ? '-0' : x;
  if (typeof x === 'bigint') return x;
  if (Array.isArray(x)) {
    let s = '[';
    for (const e of x) {
      const o = observeVal(e);
      if (o === SYMBOLIC) return SYMBOLIC;
      s += `${String(o)},`;
    }
    return `${s}]`;
  }
  void (x as Expr);
  return SYMBOLIC;
}
