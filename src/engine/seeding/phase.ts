/**
 * The seeding phase (the first part of KLEE's Executor::run when seeds are given): while some
 * state carries seeds, only seeded states run, in turn (round robin by state number). States
 * forked off without seeds wait; when the phase ends they, and any seeded states left by
 * --seed-time, go to the searcher for the normal search. --only-seed stops there instead:
 * the waiting states end with a test each, as KLEE's doDumpStates does.
 *
 * KLEE gives each seeded state one instruction per turn; here a turn is a step (up to the
 * next fork, the end of the state, or the quantum). Which seeded path ends first can differ;
 * the set of paths, tests and errors does not.
 */
import type { Searcher } from '../searchers/searcher.js';
import type { ExecutionState } from '../state.js';
import type { Executor } from '../executor.js';
import type { Seeding } from './seeding.js';

/** The searcher of the seeding phase: it only keeps the states, in creation order, for the real searcher. */
export class HoldingSearcher implements Searcher<ExecutionState> {
  readonly name = 'seeding';
  private readonly states = new Set<ExecutionState>();

  selectState(): ExecutionState {
    throw new Error('HoldingSearcher: the seeding phase picks its states itself');
  }

  update(_current: ExecutionState | null, added: readonly ExecutionState[], removed: readonly ExecutionState[]): void {
    for (const s of added) this.states.add(s);
    for (const s of removed) this.states.delete(s);
  }

  empty(): boolean {
    return this.states.size === 0;
  }

  /** The states held, oldest first. */
  held(): ExecutionState[] {
    return [...this.states].sort((a, b) => a.id - b.id);
  }
}

/** A progress message at most every 10 s, or when 10 seeds fewer remain (KLEE's). */
const PROGRESS_MS = 10_000;

/**
 * Run the seeded states until none is left, the run halts, or --seed-time expires.
 * `poll` checks the run's limits and yields to the event loop now and then.
 */
export async function runSeedingPhase(ex: Executor, seeding: Seeding, initial: ExecutionState, poll: () => Promise<void> | undefined): Promise<void> {
  seeding.start(initial);
  ex.message(`using ${seeding.opts.seeds.length} seeds`);
  const start = Date.now();
  const seedTimeMs = seeding.opts.seedTime > 0 ? seeding.opts.seedTime * 1000 : Infinity;
  let lastId = 0;
  let lastCount = seeding.opts.seeds.length + 10;
  let lastTime = start;
  let lastThousands = 0;
  while (seeding.stateCount > 0 && ex.haltReason === null) {
    const st = seeding.next(lastId)!;
    lastId = st.id;
    if (!ex.runStep(st)) break;
    const turn = poll();
    if (turn !== undefined) await turn;
    const now = Date.now();
    if (now - start > seedTimeMs) {
      ex.warning(`seed time expired, ${seeding.seedCount} seeds remain over ${seeding.stateCount} states`);
      break;
    }
    // KLEE looks at its progress each 1000 instructions (counting the seeds walks every seeded state)
    const thousands = Math.floor(ex.instructions / 1000);
    if (thousands === lastThousands) continue;
    lastThousands = thousands;
    const count = seeding.seedCount;
    if (count <= lastCount - 10 || now - lastTime >= PROGRESS_MS) {
      lastCount = count;
      lastTime = now;
      ex.message(`${count} seeds remaining over: ${seeding.stateCount} states`);
    }
  }
  if (ex.haltReason !== null) return;
  ex.message(`seeding done (${ex.liveStateCount} states remain)`);
  if (seeding.opts.onlySeed) await ex.dumpRemainingStates(Infinity);
}
