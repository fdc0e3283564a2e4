/**
 * Pattern-based merging of a region's leaves (paper 000, §3): the states paused at one exit
 * of a merge region, each with the trace of branch conditions it took since the region's
 * entry (one-sided branches included). Their words are partitioned into regular patterns;
 * each partition's formula pattern (φ1, φ2(x), φ3(x)) is synthesised and the partition
 * becomes one state (Def. 3.6):
 *
 *   pc  = root ∧ (k ∈ {k_j}) ∧ φ1 ∧ (∀ i. 1 ≤ i ≤ k → φ2[i]) ∧ φ3[k]
 *   v   = t[k] when a linear term t fits every leaf's value, else ite(k = k_1, v_1, ite(…))
 *
 * k is a fresh auxiliary count (no .ktest object). Fallback to the merge core's standard
 * merging (ite) when the hash is not valid for the tree, the patterns exceed --max-patterns,
 * or a partition has no formula pattern; per value, the fallback is the ite chain on k.
 */
import { builder, ExprKind, TRUE, freshBoundVar, type Expr } from '../../../expr/index.js';
import type { ConstraintSet } from '../../../solver/layers/constraint-set.js';
import { auxValue, freshCount } from '../../../solver/quantified/instantiate.js';
import { TypeKind, type IntegerType, type Type } from '../../../ir/types.js';
import type { Executor } from '../../executor.js';
import type { ExecutionState } from '../../state.js';
import { Termination } from '../../errors.js';
import { fromExpr, toExpr, type Val } from '../../values.js';
import { liveRegisters, mergeBlocker, mergeInto, sameVal } from '../core.js';
import { hashValid, partitionWords, shapeHash, type Partition } from './patterns.js';
import { synthesize } from './synthesis.js';
import { checkTheorem37 } from './validate.js';

export interface QuantifiedMergeOptions {
  /** More regular patterns than this at one exit: standard merging (--max-patterns). */
  maxPatterns: number;
  /** No quantified merge: ite merging (true) or the states go on unmerged (--quantified-ite-fallback). */
  iteFallback: boolean;
  /** Check Theorem 3.7 on every merge (--debug-validate-solver). */
  validate: boolean;
}

/** What quantified merging did (run statistics). */
export interface QuantifiedCounters {
  regions: number;
  leaves: number;
  /** Partitions merged into one state with a quantified path condition. */
  quantifiedMerges: number;
  /** States merged away into those. */
  quantifiedMergedStates: number;
  /** Values (registers, bytes) that got a linear term / an ite chain on k. */
  linearValues: number;
  iteValues: number;
  /** Fallbacks to standard (ite) merging, by cause. */
  fallbackHash: number;
  fallbackPatterns: number;
  fallbackSynthesis: number;
  theoremChecks: number;
  /** Exits not merged for --max-states-to-merge. */
  tooManyLeaves: number;
  /** Incremental merging (--use-incremental-merging): tree nodes made, merges, joins, states ended with a merged-away subtree. */
  incrementalNodes: number;
  /** Snapshots added to nodes at join points (incremental merging). */
  incrementalSnapshots: number;
  /** Exits whose leaves went on before their region's release (--release-unmerged-early). */
  releasedEarly: number;
  /** Regions that gave incremental merging up (--incremental-merge-give-up). */
  incrementalGaveUp: number;
  incrementalMerges: number;
  incrementalJoins: number;
  incrementalDiscarded: number;
}

export function newQuantifiedCounters(): QuantifiedCounters {
  return { regions: 0, leaves: 0, quantifiedMerges: 0, quantifiedMergedStates: 0, linearValues: 0, iteValues: 0, fallbackHash: 0, fallbackPatterns: 0, fallbackSynthesis: 0, theoremChecks: 0, tooManyLeaves: 0, incrementalNodes: 0, incrementalSnapshots: 0, incrementalGaveUp: 0, releasedEarly: 0, incrementalMerges: 0, incrementalJoins: 0, incrementalDiscarded: 0 };
}

let nextCount = 1;

/**
 * Merge the leaves paused at one exit (their traces start at `root`); returns the states that
 * go on (merged states and leaves left alone). The others end quietly.
 */
export function mergeLeaves(ex: Executor, leaves: ExecutionState[], root: ConstraintSet, o: QuantifiedMergeOptions, c: QuantifiedCounters): ExecutionState[] {
  c.leaves += leaves.length;
  const out: ExecutionState[] = [];
  // structurally compatible groups (same objects, stack, arrays): only these can merge
  const groups: ExecutionState[][] = [];
  for (const l of leaves) {
    const g = groups.find((x) => mergeBlocker(x[0]!, l) === null);
    if (g === undefined) groups.push([l]);
    else g.push(l);
  }
  for (const g of groups) {
    if (g.length === 1) {
      out.push(g[0]!);
      continue;
    }
    const traces = g.map((s) => s.trace ?? []);
    const words = traces.map((t) => t.map(shapeHash));
    if (!hashValid(traces, words)) {
      c.fallbackHash++;
      out.push(...standardMerge(ex, g, o));
      continue;
    }
    const parts = partitionWords(words);
    if (parts.length > o.maxPatterns) {
      c.fallbackPatterns++;
      out.push(...standardMerge(ex, g, o));
      continue;
    }
    for (const p of parts) out.push(...mergePartition(ex, p, g, traces, words, root, o, c));
  }
  return out;
}

/** Longest unrolled core tried when a partition's formula pattern cannot be synthesised. */
const MAX_CORE_UNROLL = 4;

/**
 * One partition as one state. When no formula pattern fits, the body may hold several
 * branches whose conditions hash alike (`s[i] != 0 && s[i] != '/'` makes the core one letter
 * while the loop's period is two): the partition's words are partitioned again with cores of
 * 2, 3, … times the letters, each sub-partition merged on its own; standard merging when none fits.
 */
function mergePartition(
  ex: Executor,
  p: Partition,
  g: ExecutionState[],
  traces: Expr[][],
  words: number[][],
  root: ConstraintSet,
  o: QuantifiedMergeOptions,
  c: QuantifiedCounters,
): ExecutionState[] {
  const members = p.members.map((m) => g[m.leaf]!);
  if (members.length === 1) return members;
  const merged = quantifiedMerge(ex, p, members, traces, root, o, c);
  if (merged !== null) return [merged];
  const unit = p.pattern.core.length;
  for (let m = 2; unit > 0 && m <= MAX_CORE_UNROLL; m++) {
    const leaves = p.members.map((x) => x.leaf);
    const sub = partitionWords(leaves.map((l) => words[l]!), unit * m);
    // only a split whose every multi-member partition has a formula pattern
    if (sub.length > o.maxPatterns || sub.every((s) => s.members.length === 1)) continue;
    const lifted = sub.map((s) => ({ pattern: s.pattern, members: s.members.map((x) => ({ leaf: leaves[x.leaf]!, k: x.k })) }));
    if (!lifted.every((s) => s.members.length === 1 || canSynthesize(s, traces))) continue;
    const out: ExecutionState[] = [];
    for (const s of lifted) out.push(...mergePartition(ex, s, g, traces, words, root, o, c));
    return out;
  }
  c.fallbackSynthesis++;
  return standardMerge(ex, members, o);
}

/** Do φ2 and φ3 of the partition synthesise (the values may still fall back to ite chains)? */
function canSynthesize(part: Partition, allTraces: Expr[][]): boolean {
  const { prefix, core, suffix } = part.pattern;
  const ks = part.members.map((m) => BigInt(m.k));
  const traces = part.members.map((m) => allTraces[m.leaf]!);
  let longest = 0;
  ks.forEach((k, j) => {
    if (k > ks[longest]!) longest = j;
  });
  const K = Number(ks[longest]!);
  const t0 = traces[longest]!;
  const x = freshBoundVar(32);
  const ds = Array.from({ length: K }, (_, s) => BigInt(s + 1));
  for (let q = 0; q < core.length && K >= 1; q++) {
    if (synthesize(ds.map((d) => t0[prefix.length + (Number(d) - 1) * core.length + q]!), ds, x) === null) return false;
  }
  for (let r = 0; r < suffix.length; r++) {
    if (synthesize(traces.map((t, j) => t[prefix.length + Number(ks[j]!) * core.length + r]!), ks, x) === null) return false;
  }
  return true;
}

/**
 * The merge core's merging of compatible states, pairwise into the first; without
 * --quantified-ite-fallback (the default), the states as they are: an ite merge of leaves
 * without a common pattern only makes every later query carry their disjunction.
 */
function standardMerge(ex: Executor, states: ExecutionState[], o: QuantifiedMergeOptions): ExecutionState[] {
  if (!o.iteFallback) return states;
  const base = states[0]!;
  const out = [base];
  for (const s of states.slice(1)) {
    if (mergeBlocker(base, s) === null) {
      mergeInto(ex, base, s, ex.mergeCounters, ex.witnessEvents);
      ex.terminateSilently(s, Termination.Merge);
    } else out.push(s);
  }
  return out;
}

function widthOf(t: Type | null | undefined): number {
  if (t === null || t === undefined) return 0;
  if (t.kind === TypeKind.Integer) return (t as IntegerType).bits;
  if (t.kind === TypeKind.Pointer) return 64;
  return 0;
}

/** A value over k for per-leaf values (all of width w): a linear term, or an ite chain. */
function valueOverK(vals: Expr[], ks: bigint[], k: Expr, c: QuantifiedCounters): Expr {
  const t = synthesize(vals, ks, k);
  if (t !== null) {
    c.linearValues++;
    return t;
  }
  c.iteValues++;
  let e = vals[vals.length - 1]!;
  for (let j = vals.length - 2; j >= 0; j--) e = builder.select(builder.eq(builder.constant(ks[j]!, k.width), k), vals[j]!, e);
  return e;
}

/** One partition as one state, or null when no formula pattern (or a value) can be built. */
function quantifiedMerge(
  ex: Executor,
  part: Partition,
  members: ExecutionState[],
  allTraces: Expr[][],
  root: ConstraintSet,
  o: QuantifiedMergeOptions,
  c: QuantifiedCounters,
): ExecutionState | null {
  const { prefix, core, suffix } = part.pattern;
  const ks = part.members.map((m) => BigInt(m.k));
  const traces = part.members.map((m) => allTraces[m.leaf]!);
  let longest = 0;
  ks.forEach((k, j) => {
    if (k > ks[longest]!) longest = j;
  });
  const K = Number(ks[longest]!);
  const t0 = traces[longest]!;
  const kArr = freshCount(`__k${nextCount++}`, BigInt(K));
  const kExpr = auxValue(kArr);
  const i = freshBoundVar(kExpr.width);
  // φ2: one synthesis per core position, equations from the longest leaf (Lemma 3.10)
  let body: Expr = TRUE;
  if (K >= 1) {
    const ds = Array.from({ length: K }, (_, s) => BigInt(s + 1));
    for (let q = 0; q < core.length; q++) {
      const psis = ds.map((d) => t0[prefix.length + (Number(d) - 1) * core.length + q]!);
      const phi = synthesize(psis, ds, i);
      if (phi === null) return null;
      body = builder.and(body, phi);
    }
  }
  // φ3: one synthesis per suffix position, one equation per leaf
  const phi3: Expr[] = [];
  for (let r = 0; r < suffix.length; r++) {
    const psis = traces.map((t, j) => t[prefix.length + Number(ks[j]!) * core.length + r]!);
    const phi = synthesize(psis, ks, kExpr);
    if (phi === null) return null;
    phi3.push(phi);
  }
  const extra = [kRange(kExpr, ks), ...t0.slice(0, prefix.length), builder.forall(i, kExpr, body), ...phi3];
  const base = members[longest]!;
  const plan = planValues(members, ks, kExpr, c);
  if (plan === null) return null;
  const pc = root.fork();
  for (const e of extra) if (!pc.add(e)) throw new Error('quantified merge: the merged path condition is infeasible');
  if (o.validate) {
    c.theoremChecks++;
    checkTheorem37(ex, root, traces, ks, kExpr, extra, plan.checks);
  }
  // apply: registers, bytes, then the bookkeeping mergeInto does
  plan.apply(base);
  const baseBefore = base.constraints.toArray();
  base.constraints = pc;
  base.auxArrays.push(kArr);
  for (const s of members) {
    if (s === base) continue;
    absorb(ex, base, s);
    ex.terminateSilently(s, Termination.Merge);
  }
  if (base.coveredSinceMerge && ex.opts.mergeWitnessTests && base.witnesses.length < 64) base.witnesses.push({ event: ex.witnessEvents.next++, constraints: baseBefore });
  base.coveredSinceMerge = false;
  c.quantifiedMerges++;
  c.quantifiedMergedStates += members.length - 1;
  ex.mergeCounters.merges += members.length - 1;
  return base;
}

/** k ∈ {k_j}: min ≤ k ≤ max and k ≠ each missing value between. */
function kRange(k: Expr, ks: bigint[]): Expr {
  const w = k.width;
  const set = new Set(ks);
  const lo = ks.reduce((a, b) => (b < a ? b : a));
  const hi = ks.reduce((a, b) => (b > a ? b : a));
  if (lo === hi) return builder.eq(builder.constant(lo, w), k);
  let e = builder.and(builder.ule(builder.constant(lo, w), k), builder.ule(k, builder.constant(hi, w)));
  for (let v = lo + 1n; v < hi; v++) if (!set.has(v)) e = builder.and(e, builder.ne(k, builder.constant(v, w)));
  return e;
}

interface ValuePlan {
  apply(base: ExecutionState): void;
  /** Per merged value: its term over k and each leaf's value (Theorem 3.7's second half). */
  checks: { term: Expr; vals: Expr[] }[];
}

/** The merged registers and bytes of the members, or null when a differing value is not an integer. */
function planValues(members: ExecutionState[], ks: bigint[], k: Expr, c: QuantifiedCounters): ValuePlan | null {
  const base = members[0]!;
  // the console of a path is a record, not a value: partitions whose members printed differently stay apart
  if (members.some((s) => s.console !== base.console)) return null;
  const regWrites: { f: number; r: number; term: Expr }[] = [];
  const byteWrites: { b: number; off: number; term: Expr }[] = [];
  const checks: { term: Expr; vals: Expr[] }[] = [];
  for (let f = 0; f < base.stack.length; f++) {
    const live = liveRegisters(base, f);
    const types = base.stack[f]!.kf.regTypes;
    const nregs = base.stack[f]!.regs.length;
    for (let r = 0; r < nregs; r++) {
      const vals: Val[] = members.map((s) => s.stack[f]!.regs[r]!);
      if (vals.some((v) => v === undefined) || vals.every((v) => sameVal(v, vals[0]!)) || !live(r)) continue;
      const w = widthOf(types[r]);
      if (w === 0 || vals.some((v) => Array.isArray(v))) return null;
      const exprs = vals.map((v) => toExpr(v as number | bigint | Expr, w));
      const term = valueOverK(exprs, ks, k, c);
      checks.push({ term, vals: exprs });
      regWrites.push({ f, r, term });
    }
  }
  // memory: bytes of the objects every member binds
  const bindings = members.map((s) => s.memory.bindings());
  for (let b = 0; b < bindings[0]!.length; b++) {
    const nodes = bindings.map((bs) => bs[b]!);
    if (nodes.some((n) => n.os === null) || nodes.every((n) => n.os === nodes[0]!.os)) continue;
    const size = nodes[0]!.os!.size;
    for (let off = 0; off < size; off++) {
      const bytes = nodes.map((n) => n.os!.read8(off));
      if (bytes.every((x) => x === bytes[0])) continue;
      const exprs = bytes.map((x) => (typeof x === 'number' ? builder.constant(x, 8) : x));
      const term = valueOverK(exprs, ks, k, c);
      checks.push({ term, vals: exprs });
      byteWrites.push({ b, off, term });
    }
  }
  return {
    checks,
    apply(st: ExecutionState): void {
      for (const { f, r, term } of regWrites) {
        let fr = st.stack[f]!;
        if (fr.shares > 1) {
          fr.shares--;
          fr = fr.clone();
          st.stack[f] = fr;
        }
        fr.regs[r] = fromExpr(term);
      }
      const own = st.memory.bindings();
      for (const { b, off, term } of byteWrites) {
        // the state's own object at that address (each path made its own MemoryObject)
        const mo = own[b]!.mo;
        const os = st.memory.writeableOf(mo);
        if (os === null) throw new Error(`quantified merge: object ${mo.id} not bound`);
        os.write8(off, term.kind === ExprKind.Constant ? term.toNumber() : term);
      }
    },
  };
}

/** What mergeInto does for the state's bookkeeping (allocator, depth, multiplicity, witnesses). */
function absorb(ex: Executor, a: ExecutionState, b: ExecutionState): void {
  a.memory.joinAllocation(b.memory);
  a.depth = Math.max(a.depth, b.depth);
  a.coveredNew = a.coveredNew || b.coveredNew;
  a.instsSinceCovNew = Math.min(a.instsSinceCovNew, b.instsSinceCovNew);
  a.queryCostMs += b.queryCostMs;
  a.multiplicity += b.multiplicity;
  a.forkDisabled = a.forkDisabled && b.forkDisabled;
  for (const p of b.cexPreferences) if (!a.cexPreferences.includes(p)) a.cexPreferences.push(p);
  // b's path keeps a test of its own when it covered new code (merge core's witnesses: its
  // whole path condition pins the path)
  if (!ex.opts.mergeWitnessTests) return;
  if (b.coveredSinceMerge && a.witnesses.length < 64) a.witnesses.push({ event: ex.witnessEvents.next++, constraints: b.constraints.toArray() });
  for (const w of b.witnesses) if (!a.witnesses.some((x) => x.event === w.event)) a.witnesses.push(w);
}
