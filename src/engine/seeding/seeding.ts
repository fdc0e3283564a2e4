/**
 * Seeding (KLEE's seedMap and what Executor does with it): states follow the concrete values
 * of tests given as seeds. Each seeded state carries the seeds its path condition agrees with;
 * at a fork each seed goes with the side its values take, and a side no seed takes becomes an
 * ordinary state, which waits until the seeding phase is over (seeding/phase.ts). A new
 * symbolic object gets its bytes from each seed's next test object (by position, or by name
 * with namedSeedMatching). A constraint a seed violates (klee_assume, a concretization) patches
 * the seed through the solver.
 */
import { builder, ExprKind, type ConstantExpr, type Expr, type ExprArray } from '../../expr/index.js';
import { constantFromBV } from '../../expr/expr.js';
import type { MemoryObject } from '../../memory/index.js';
import type { ExecutionState } from '../state.js';
import { Termination } from '../errors.js';
import type { Executor } from '../executor.js';
import { patchSeed, type PatchQueries } from './patch.js';
import { seedEvaluate } from './seed-eval.js';
import { SeedInfo, type SeedTest } from './seed-info.js';

/** KLEE's seeding options (EngineOptions.seeding). */
export interface SeedingOptions {
  /** The seeds, in order (--seed-file, then each --seed-dir's .ktest files by name). */
  seeds: SeedTest[];
  /** A fork whose seeds all take one side does not fork (KLEE's --only-replay-seeds): only seeded paths exist. */
  onlyReplaySeeds: boolean;
  /** Stop when the seeding phase ends; the states that did not follow a seed end with a test each (--only-seed). */
  onlySeed: boolean;
  /** Match symbolic objects to test objects by name, not position (--named-seed-matching). */
  namedSeedMatching: boolean;
  /** A seed with no object, or a smaller one, for a symbolic object leaves the missing bytes free (--allow-seed-extension). */
  allowSeedExtension: boolean;
  /** A seed object larger than its symbolic object gives its first bytes (--allow-seed-truncation). */
  allowSeedTruncation: boolean;
  /** Missing seed bytes are zeros (--zero-seed-extension). */
  zeroSeedExtension: boolean;
  /** A state that follows seeds writes its test even when --only-output-states-covering-new would not (--always-output-seeds; default true). */
  alwaysOutputSeeds: boolean;
  /** Seconds the seeding phase may take before the normal search starts (--seed-time; 0 = no limit). */
  seedTime: number;
}

/** Why these options cannot seed, or null: seeding does not yet work together with state merging. */
export function seedingConflict(o: { useMerge?: boolean; stateMerging?: string; mergeMode?: string }): string | null {
  if (o.useMerge === true || (o.stateMerging ?? 'none') !== 'none' || o.mergeMode === 'quantified') {
    return 'seeding (--seed-file, --seed-dir) does not work with state merging (--use-merge, --state-merging, --merge-mode=quantified) yet';
  }
  return null;
}

export class Seeding {
  private readonly seedMap = new Map<ExecutionState, SeedInfo[]>();

  constructor(
    private readonly ex: Executor,
    readonly opts: SeedingOptions,
  ) {}

  /** The first state carries every seed. */
  start(initial: ExecutionState): void {
    this.seedMap.set(
      initial,
      this.opts.seeds.map((t) => new SeedInfo(t)),
    );
  }

  has(st: ExecutionState): boolean {
    return this.seedMap.has(st);
  }

  /** Whether st's test is written whatever --only-output-states-covering-new says. */
  alwaysOutput(st: ExecutionState): boolean {
    return this.opts.alwaysOutputSeeds && this.seedMap.has(st);
  }

  /** States that carry seeds. */
  get stateCount(): number {
    return this.seedMap.size;
  }

  /** Seeds still followed, over all states. */
  get seedCount(): number {
    let n = 0;
    for (const s of this.seedMap.values()) n += s.length;
    return n;
  }

  /** The seeded state after the one numbered `lastId`, round robin by state number (KLEE: the next in its map). */
  next(lastId: number): ExecutionState | null {
    let after: ExecutionState | null = null;
    let first: ExecutionState | null = null;
    for (const st of this.seedMap.keys()) {
      if (first === null || st.id < first.id) first = st;
      if (st.id > lastId && (after === null || st.id < after.id)) after = st;
    }
    return after ?? first;
  }

  /** The state ended. */
  forget(st: ExecutionState): void {
    this.seedMap.delete(st);
  }

  /** The value `cond` takes under the seed on st's path (the solver picks what the seed leaves free). */
  private takes(st: ExecutionState, seed: SeedInfo, cond: Expr): boolean {
    const v = seedEvaluate(cond, seed);
    return this.ex.getValue(st, v).value !== 0n;
  }

  /**
   * Which side of `cond` all of st's seeds take: true, false, or null when they disagree
   * (the fork of --only-replay-seeds and of states with forking disabled).
   */
  agreedSide(st: ExecutionState, cond: Expr): boolean | null {
    let t = false;
    let f = false;
    for (const seed of this.seedMap.get(st) ?? []) {
      if (this.takes(st, seed, cond)) t = true;
      else f = true;
      if (t && f) return null;
    }
    return t;
  }

  /** st forked on `cond` into st (true) and `other` (false), constraints not yet added: each seed goes with its side. */
  split(st: ExecutionState, other: ExecutionState, cond: Expr): void {
    const seeds = this.seedMap.get(st);
    if (seeds === undefined) return;
    const t: SeedInfo[] = [];
    const f: SeedInfo[] = [];
    for (const seed of seeds) (this.takes(st, seed, cond) ? t : f).push(seed);
    if (t.length > 0) this.seedMap.set(st, t);
    else {
      // the seeds all left with the new state: it inherits st's claim to new coverage (KLEE swaps it)
      this.seedMap.delete(st);
      [st.coveredNew, other.coveredNew] = [other.coveredNew, st.coveredNew];
    }
    if (f.length > 0) this.seedMap.set(other, f);
  }

  /**
   * st branched into `states` (states[i] takes conditions[i]; constraints not yet added):
   * each seed goes to the first condition it satisfies, or to one at random (and is patched
   * there). With onlyReplaySeeds, a branch no seed takes ends ("Unseeded path during replay").
   */
  distribute(st: ExecutionState, states: (ExecutionState | null)[], conditions: readonly Expr[]): void {
    const seeds = this.seedMap.get(st);
    if (seeds === undefined) return;
    this.seedMap.delete(st);
    for (const seed of seeds) {
      let i = conditions.findIndex((c) => this.takes(st, seed, c));
      if (i < 0) i = this.ex.rng.nextU32() % conditions.length;
      const s = states[i];
      if (s === null || s === undefined) continue;
      const list = this.seedMap.get(s);
      if (list === undefined) this.seedMap.set(s, [seed]);
      else list.push(seed);
    }
    if (!this.opts.onlyReplaySeeds) return;
    for (let i = 0; i < states.length; i++) {
      const s = states[i];
      if (s !== null && s !== undefined && !this.seedMap.has(s)) {
        this.ex.terminateSilently(s, Termination.Replay);
        states[i] = null;
      }
    }
  }

  /** `cond` is about to join st's path condition: patch the seeds it contradicts (KLEE warns once per constraint). */
  beforeConstraint(st: ExecutionState, cond: Expr): void {
    const seeds = this.seedMap.get(st);
    if (seeds === undefined) return;
    let patched = false;
    for (const seed of seeds) {
      if (!this.ex.mustBeFalse(st, seedEvaluate(cond, seed))) continue;
      patchSeed(seed, cond, this.queries(st));
      patched = true;
    }
    if (patched) this.ex.warning('seeds patched for violating constraint');
  }

  /** Queries under st's path condition plus the patch's own constraints. */
  private queries(st: ExecutionState): PatchQueries {
    const ex = this.ex;
    const constraints = (extra: readonly Expr[]): Expr[] => [...ex.solverConstraints(st), ...extra.map((c) => st.memory.solverView(c))];
    return {
      mustBeFalse: (extra, e) => {
        const expr = st.memory.solverView(builder.not(e));
        if (expr.kind === ExprKind.Constant) return expr.value !== 0n;
        return ex.query(st, () => ex.solver.computeTruth({ constraints: constraints(extra), expr }));
      },
      getValue: (extra, e) => {
        const expr = st.memory.solverView(e);
        if (expr.kind === ExprKind.Constant) return expr;
        const v = ex.query(st, () => ex.solver.computeValue({ constraints: constraints(extra), expr }));
        return constantFromBV(expr.width <= 32 ? Number(v) : v, expr.width);
      },
    };
  }

  /**
   * A new symbolic object on st: each seed binds its next test object to `array`. A seed
   * without one, or with one of another size, ends the state with KLEE's user errors unless
   * the extension / truncation options allow it. Returns false when the state ended.
   */
  bindSymbolic(st: ExecutionState, mo: MemoryObject, name: string, array: ExprArray): boolean {
    const seeds = this.seedMap.get(st);
    if (seeds === undefined) return true;
    const o = this.opts;
    const noNameMatch = (objName: string, objSize: number): void =>
      this.ex.warningOnce(`seed-name:${mo.id}`, `using seed input ${objName}[${objSize}] for: ${name} (no name match)`);
    for (const seed of seeds) {
      const obj = seed.nextInput(name, mo.size, o.namedSeedMatching, noNameMatch);
      if (obj === undefined) {
        if (o.namedSeedMatching) this.ex.warningOnce(`seed-none:${mo.id}`, `no seed input for: ${name}`);
        if (o.zeroSeedExtension) seed.assignment.set(array, new Uint8Array(mo.size));
        else if (!o.allowSeedExtension) {
          this.ex.terminateOnError(st, 'ran out of inputs during seeding', Termination.User);
          return false;
        }
        continue;
      }
      const n = obj.bytes.length;
      if (n !== mo.size && ((n < mo.size && !(o.allowSeedExtension || o.zeroSeedExtension)) || (n > mo.size && !o.allowSeedTruncation))) {
        this.ex.terminateOnError(st, `replace size mismatch: ${name}[${mo.size}] vs ${obj.name}[${n}] in test`, Termination.User);
        return false;
      }
      const bytes = new Uint8Array(o.zeroSeedExtension ? mo.size : Math.min(n, mo.size));
      bytes.set(obj.bytes.subarray(0, Math.min(n, mo.size)));
      seed.assignment.set(array, bytes);
    }
    return true;
  }

  /**
   * klee_get_value on a seeded state (KLEE's executeGetValue): the values `e` takes under
   * each seed, in increasing order; the caller branches on them.
   */
  seedValues(st: ExecutionState, e: Expr): ConstantExpr[] | null {
    const seeds = this.seedMap.get(st);
    if (seeds === undefined) return null;
    const byValue = new Map<bigint, ConstantExpr>();
    for (const seed of seeds) {
      const v = this.ex.getValue(st, seedEvaluate(e, seed));
      byValue.set(v.value, v);
    }
    return [...byValue.values()].sort((a, b) => (a.value < b.value ? -1 : a.value > b.value ? 1 : 0));
  }
}
