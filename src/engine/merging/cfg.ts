/**
 * Control-flow facts of one function for state merging (paper 001): successors and
 * predecessors by block index, dominators, natural loops, and a topological order of the
 * blocks in which every loop's blocks are contiguous and come right after its header.
 *
 * That order is what static state merging explores in (a state runs only once every state
 * that could still reach its block has arrived, so all paths into a join meet there) and what
 * dynamic merging fast-forwards in. Loop bodies come before the loop's exits, so the states
 * leaving a loop after different numbers of iterations all gather at the exit before any goes
 * on. Retreating edges whose target does not dominate their source (irreducible control flow)
 * are dropped like back edges; blocks the order cannot place then follow in reverse post-order.
 */
import type { Function } from '../../ir/globals.js';
import { successors } from '../../ir/instructions.js';

export interface Loop {
  readonly header: number;
  /** Blocks of the loop, the header and nested loops' blocks included. */
  readonly blocks: ReadonlySet<number>;
  /** Sources of the back edges into the header. */
  readonly latches: readonly number[];
  /** The innermost loop containing this one, or null. */
  parent: Loop | null;
  depth: number;
}

export class FunctionCfg {
  readonly size: number;
  readonly succ: number[][];
  readonly pred: number[][];
  /** Immediate dominator of each block (the entry's is itself; -1 if unreachable). */
  readonly idom: Int32Array;
  /** Reverse post-order index of each block (-1 if unreachable). */
  readonly rpo: Int32Array;
  /** Edges ignored by the topological order (back edges and irreducible retreating edges), as from*size+to. */
  readonly backEdges = new Set<number>();
  readonly loops: Loop[] = [];
  /** Innermost loop of each block, or null. */
  readonly loopOf: (Loop | null)[];
  /** Position of each block in the loop-contiguous topological order. */
  readonly topoRank: Int32Array;

  /** A graph of `succ.length` blocks, block 0 the entry; duplicate successors are dropped. */
  constructor(succ: readonly (readonly number[])[]) {
    const n = succ.length;
    this.size = n;
    this.succ = succ.map((out) => [...new Set(out)]);
    this.pred = this.succ.map(() => [] as number[]);
    for (let i = 0; i < n; i++) for (const s of this.succ[i]!) this.pred[s]!.push(i);
    const order = this.postOrder();
    this.rpo = new Int32Array(n).fill(-1);
    const rpoList = order.slice().reverse();
    rpoList.forEach((b, i) => (this.rpo[b] = i));
    this.idom = this.dominators(rpoList);
    this.findLoops(rpoList);
    this.loopOf = new Array<Loop | null>(n).fill(null);
    // innermost = deepest loop containing the block
    for (const l of this.loops) for (const b of l.blocks) if (this.loopOf[b] === null || this.loopOf[b]!.depth < l.depth) this.loopOf[b] = l;
    this.topoRank = this.topologicalOrder(rpoList);
  }

  static of(fn: Function): FunctionCfg {
    return new FunctionCfg(
      fn.blocks.map((b) => {
        const t = b.terminator;
        return t === undefined ? [] : successors(t).map((s) => s.index);
      }),
    );
  }

  /** Whether a dominates b. */
  dominates(a: number, b: number): boolean {
    if (this.rpo[b] === -1) return false;
    for (let x = b; ; x = this.idom[x]!) {
      if (x === a) return true;
      if (x === this.idom[x]) return false;
    }
  }

  isBackEdge(from: number, to: number): boolean {
    return this.backEdges.has(from * this.size + to);
  }

  private postOrder(): number[] {
    const n = this.size;
    const out: number[] = [];
    if (n === 0) return out;
    const seen = new Uint8Array(n);
    const stack: [number, number][] = [[0, 0]];
    seen[0] = 1;
    while (stack.length > 0) {
      const top = stack[stack.length - 1]!;
      const ss = this.succ[top[0]]!;
      if (top[1] < ss.length) {
        const s = ss[top[1]++]!;
        if (seen[s] === 0) {
          seen[s] = 1;
          stack.push([s, 0]);
        }
      } else {
        out.push(top[0]);
        stack.pop();
      }
    }
    return out;
  }

  /** Cooper, Harvey and Kennedy's iterative algorithm over reverse post-order. */
  private dominators(rpoList: number[]): Int32Array {
    const idom = new Int32Array(this.size).fill(-1);
    if (rpoList.length === 0) return idom;
    idom[0] = 0;
    const intersect = (a: number, b: number): number => {
      while (a !== b) {
        while (this.rpo[a]! > this.rpo[b]!) a = idom[a]!;
        while (this.rpo[b]! > this.rpo[a]!) b = idom[b]!;
      }
      return a;
    };
    for (let changed = true; changed; ) {
      changed = false;
      for (const b of rpoList) {
        if (b === 0) continue;
        let d = -1;
        for (const p of this.pred[b]!) {
          if (idom[p] === -1) continue;
          d = d === -1 ? p : intersect(p, d);
        }
        if (d !== -1 && idom[b] !== d) {
          idom[b] = d;
          changed = true;
        }
      }
    }
    return idom;
  }

  private findLoops(rpoList: number[]): void {
    const byHeader = new Map<number, { blocks: Set<number>; latches: number[] }>();
    for (const b of rpoList) {
      for (const s of this.succ[b]!) {
        if (this.rpo[s]! > this.rpo[b]!) continue; // forward edge
        this.backEdges.add(b * this.size + s);
        if (!this.dominates(s, b)) continue; // irreducible: ignored by the order, no natural loop
        let l = byHeader.get(s);
        if (l === undefined) {
          l = { blocks: new Set([s]), latches: [] };
          byHeader.set(s, l);
        }
        l.latches.push(b);
        // the natural loop: the header and every block that reaches the latch without passing it
        const work = [b];
        while (work.length > 0) {
          const x = work.pop()!;
          if (l.blocks.has(x)) continue;
          l.blocks.add(x);
          for (const p of this.pred[x]!) if (this.rpo[p] !== -1) work.push(p);
        }
      }
    }
    for (const [header, l] of byHeader) this.loops.push({ header, blocks: l.blocks, latches: l.latches, parent: null, depth: 1 });
    // nesting: the parent is the smallest strictly larger loop containing the header
    for (const l of this.loops) {
      let best: Loop | null = null;
      for (const o of this.loops) {
        if (o === l || !o.blocks.has(l.header) || o.blocks.size <= l.blocks.size) continue;
        if (best === null || o.blocks.size < best.blocks.size) best = o;
      }
      l.parent = best;
    }
    for (const l of this.loops) {
      let d = 1;
      for (let p = l.parent; p !== null; p = p.parent) d++;
      l.depth = d;
    }
  }

  /** Kahn's algorithm over loops collapsed to single units, recursively inside each loop. */
  private topologicalOrder(rpoList: number[]): Int32Array {
    const rank = new Int32Array(this.size).fill(-1);
    let next = 0;
    const place = (b: number): void => {
      if (rank[b] === -1) rank[b] = next++;
    };
    // the unit of block b inside region `region` (null = the whole function): b itself, or the outermost loop below region containing b
    const unitOf = (b: number, region: Loop | null): number | Loop => {
      let l = this.loopOf[b] ?? null;
      if (l === null || l === region) return b;
      while (l.parent !== region && l.parent !== null) l = l.parent;
      return l.parent === region ? l : b;
    };
    const orderRegion = (members: Iterable<number>, region: Loop | null): void => {
      const unitKey = (u: number | Loop): number => (typeof u === 'number' ? u : -1 - u.header);
      const units = new Map<number, number | Loop>();
      for (const b of members) {
        if (this.rpo[b] === -1) continue;
        const u = unitOf(b, region);
        units.set(unitKey(u), u);
      }
      const indeg = new Map<number, number>();
      const out = new Map<number, Set<number>>();
      for (const k of units.keys()) {
        indeg.set(k, 0);
        out.set(k, new Set());
      }
      const blocksOf = (u: number | Loop): Iterable<number> => (typeof u === 'number' ? [u] : u.blocks);
      for (const [k, u] of units) {
        for (const b of blocksOf(u)) {
          for (const s of this.succ[b]!) {
            if (this.isBackEdge(b, s) || this.rpo[s] === -1) continue;
            const su = units.get(unitKey(unitOf(s, region)));
            if (su === undefined) continue; // leaves the region
            const sk = unitKey(su);
            if (sk === k || out.get(k)!.has(sk)) continue;
            out.get(k)!.add(sk);
            indeg.set(sk, indeg.get(sk)! + 1);
          }
        }
      }
      const headerRpo = (u: number | Loop): number => this.rpo[typeof u === 'number' ? u : u.header]!;
      const ready = [...units.entries()].filter(([k]) => indeg.get(k) === 0).map(([, u]) => u);
      while (ready.length > 0) {
        // deterministic: the ready unit earliest in reverse post-order
        ready.sort((x, y) => headerRpo(y) - headerRpo(x));
        const u = ready.pop()!;
        if (typeof u === 'number') place(u);
        else {
          place(u.header);
          orderRegion([...u.blocks].filter((b) => b !== u.header), u);
        }
        for (const sk of out.get(unitKey(u))!) {
          const d = indeg.get(sk)! - 1;
          indeg.set(sk, d);
          if (d === 0) ready.push(units.get(sk)!);
        }
      }
    };
    orderRegion(rpoList, null);
    for (const b of rpoList) place(b); // what a cycle of units kept out (irreducible regions)
    for (let b = 0; b < this.size; b++) place(b); // unreachable blocks last
    return rank;
  }
}
