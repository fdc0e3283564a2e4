/**
 * `--search=nurs:*`: non-uniform random search (KLEE's WeightedRandomSearcher). Each state has
 * a weight; the next state is drawn with probability weight / total from a DiscretePDF.
 *
 * The weights are KLEE's (lib/Core/Searcher.cpp, WeightedRandomSearcher::getWeight):
 *
 * | name          | weight                                                                       |
 * |---------------|------------------------------------------------------------------------------|
 * | `nurs:depth`  | depth                                                                        |
 * | `nurs:rp`     | 0.5^depth                                                                    |
 * | `nurs:icnt`   | (1 / max(1, count))², count = times the instruction at the pc has executed (all states) |
 * | `nurs:cpicnt` | 1 / max(1, count), count = instructions executed in the current call path (all states) |
 * | `nurs:qc`     | 1 if queryCost < 0.1 s, else 1 / queryCost (seconds)                         |
 * | `nurs:md2u`   | (1 / md2u)², md2u = min distance to uncovered, 10000 when none is reachable  |
 * | `nurs:covnew` | (1 / md2u)² + c², c = 0 if instsSinceCovNew = 0, else 1 / max(1, instsSinceCovNew − 1000) |
 *
 * As in KLEE, the weights of `depth` and `rp` are fixed when a state is added (a state's depth
 * only changes when it forks, and a fork re-adds nothing: KLEE leaves updateWeights off for
 * them); for the others the weight of the state that just ran (`current`, unless it was
 * removed) is recomputed on every update() — KLEE's `updateWeights`. Other states keep the
 * weight computed when they were last added or run.
 *
 * Conventions of the inputs (those of KLEE's statistics):
 * - `instsSinceCovNew` is 0 while the state has never covered new code, and is set to 1 when it
 *   covers a new instruction, then counts up;
 * - the coverage oracle's distance counts the uncovered instruction itself as 1 (KLEE's
 *   minDistToUncovered); Infinity means none is reachable (KLEE encodes that as 0) and maps to
 *   KLEE's 10000. A finite distance below 1 (an oracle counting from 0) is taken as 1.
 *
 * If every weight is 0 (e.g. `nurs:depth` with only the initial state, depth 0), KLEE's
 * DiscretePDF walk ends at the greatest state in its order (state ids); tsklee picks the state
 * with the greatest id too (a linear scan, only in that degenerate case).
 */
import type { Rng } from '../../util/rng.js';
import { DiscretePDF } from './discrete-pdf.js';
import type { CoverageOracle, Searcher, SearchableState } from './searcher.js';

export const WEIGHT_TYPES = ['covnew', 'md2u', 'depth', 'rp', 'icnt', 'cpicnt', 'qc'] as const;
/** The part after `nurs:` in the searcher's name. */
export type WeightType = (typeof WEIGHT_TYPES)[number];

/** KLEE's stand-in distance when no uncovered instruction is reachable. */
export const MD2U_UNREACHABLE = 10000;

/** Whether the weight type reads the coverage oracle. */
export function weightNeedsOracle(type: WeightType): boolean {
  return type === 'covnew' || type === 'md2u' || type === 'icnt' || type === 'cpicnt';
}

/** Whether KLEE recomputes the current state's weight on each update (all but depth and rp). */
export function weightIsUpdated(type: WeightType): boolean {
  return type !== 'depth' && type !== 'rp';
}

/** `count` as KLEE's `max(1, count)`; a non-number counts as 1, Infinity stays (weight 0). */
function atLeastOne(count: number): number {
  return count > 1 ? count : 1;
}

/** KLEE's md2u for a distance from the oracle (see the module comment). */
export function md2uOf(distance: number): number {
  if (!(distance >= 0) || distance === Infinity) return MD2U_UNREACHABLE; // none reachable (NaN, < 0 too)
  return distance < 1 ? 1 : distance;
}

/** KLEE's weight of `state` for `type`. `oracle` is required for covnew, md2u, icnt, cpicnt. */
export function kleeWeight<S extends SearchableState>(
  type: WeightType,
  state: S,
  oracle: CoverageOracle<S> | undefined,
): number {
  switch (type) {
    case 'depth':
      return state.depth;
    case 'rp':
      return Math.pow(0.5, state.depth);
    case 'qc': {
      const seconds = state.queryCostMs / 1000;
      return seconds < 0.1 ? 1 : 1 / seconds;
    }
    case 'icnt': {
      const inv = 1 / atLeastOne(need(oracle, type).instructionCount(state));
      return inv * inv;
    }
    case 'cpicnt':
      return 1 / atLeastOne(need(oracle, type).callPathInstructionCount(state));
    case 'md2u':
    case 'covnew': {
      const invMD2U = 1 / md2uOf(need(oracle, type).minDistToUncovered(state));
      if (type === 'md2u') return invMD2U * invMD2U;
      let invCovNew = 0;
      if (state.instsSinceCovNew > 0) invCovNew = 1 / Math.max(1, state.instsSinceCovNew - 1000);
      return invCovNew * invCovNew + invMD2U * invMD2U;
    }
  }
}

function need<S extends SearchableState>(oracle: CoverageOracle<S> | undefined, type: WeightType): CoverageOracle<S> {
  if (oracle === undefined) throw new Error(`nurs:${type} needs a coverage oracle`);
  return oracle;
}

export class WeightedRandomSearcher<S extends SearchableState> implements Searcher<S> {
  readonly name: string;
  private readonly pdf: DiscretePDF<S>;
  private readonly updateWeights: boolean;

  constructor(
    readonly type: WeightType,
    private readonly rng: Rng,
    private readonly oracle?: CoverageOracle<S>,
  ) {
    if (!(WEIGHT_TYPES as readonly string[]).includes(type)) throw new Error(`invalid weight type '${String(type)}'`);
    if (weightNeedsOracle(type) && oracle === undefined) throw new Error(`nurs:${type} needs a coverage oracle`);
    this.name = `nurs:${type}`;
    this.pdf = new DiscretePDF<S>(this.name);
    this.updateWeights = weightIsUpdated(type);
  }

  selectState(): S {
    if (this.pdf.empty()) throw new Error(`${this.name}: selectState() on an empty searcher`);
    return this.pdf.choose(this.rng.nextFloat()) ?? this.greatestId();
  }

  update(current: S | null, added: readonly S[], removed: readonly S[]): void {
    if (current !== null && this.updateWeights && !removed.includes(current)) {
      this.pdf.update(current, this.weight(current));
    }
    for (const s of added) this.pdf.insert(s, this.weight(s));
    for (const s of removed) this.pdf.remove(s);
  }

  empty(): boolean {
    return this.pdf.empty();
  }

  /** The weight this searcher currently holds for a member (for tests and statistics). */
  weightOf(state: S): number {
    return this.pdf.weightOf(state);
  }

  private weight(state: S): number {
    return kleeWeight(this.type, state, this.oracle);
  }

  private greatestId(): S {
    let best: S | undefined;
    for (const [s] of this.pdf.entries()) if (best === undefined || s.id > best.id) best = s;
    return best!;
  }
}
