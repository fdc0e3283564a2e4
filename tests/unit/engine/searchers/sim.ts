/**
 * A tiny executor loop for the searcher tests: states explore a complete binary tree of forks
 * (KLEE's protocol: the current state continues as the right child, the forked state is
 * added; PTree.fork during the step, Searcher.update, then PTree.remove).
 */
import type { PTree } from '../../../../src/engine/searchers/ptree.js';
import type { Searcher } from '../../../../src/engine/searchers/searcher.js';
import { FakeState } from './fake-state.js';

export class PathState extends FakeState {
  path = '';
  steps = 0;
}

export interface SimResult {
  /** Paths in the order the states ended. */
  ended: string[];
  /** Ids of the selected states, one per step. */
  selected: number[];
}

/**
 * Run until the searcher is empty. A state forks when it has run `stepsPerFork` steps since
 * its last fork and its path is shorter than `depth`; a state whose path has `depth` branches
 * ends after one more step.
 */
export function simulate(
  searcher: Searcher<PathState>,
  root: PathState,
  opts: { depth: number; stepsPerFork?: number; ptree?: PTree<PathState>; maxSteps?: number; onStep?: () => void },
): SimResult {
  const stepsPerFork = opts.stepsPerFork ?? 1;
  let nextId = root.id + 1;
  const ended: string[] = [];
  const selected: number[] = [];
  searcher.update(null, [root], []);
  let steps = 0;
  while (!searcher.empty()) {
    if (++steps > (opts.maxSteps ?? 1e6)) throw new Error('simulation does not end');
    const cur = searcher.selectState();
    selected.push(cur.id);
    cur.steps++;
    const added: PathState[] = [];
    const removed: PathState[] = [];
    if (cur.path.length >= opts.depth) {
      removed.push(cur);
    } else if (cur.steps >= stepsPerFork) {
      const other = new PathState(nextId++, { depth: cur.depth + 1 });
      other.path = cur.path + '0';
      cur.path += '1';
      cur.depth += 1;
      cur.steps = 0;
      opts.ptree?.fork(cur, other, cur);
      added.push(other);
    }
    searcher.update(cur, added, removed);
    for (const s of removed) {
      opts.ptree?.remove(s);
      ended.push(s.path);
    }
    opts.onStep?.();
  }
  return { ended, selected };
}
