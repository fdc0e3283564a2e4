/**
 * A solver layer's next layer that answers nothing: each call is counted and throws, so a
 * test sees whether (and how often) the layer above passed a question on.
 */
import { Validity, type InitialValues, type Solver, type SolverStats } from '../../src/solver/solver.js';

export class RefusingSolver implements Solver {
  calls = 0;

  constructor(private readonly message = 'undecided') {}

  private no(): never {
    this.calls++;
    throw new Error(this.message);
  }
  computeTruth(): boolean {
    return this.no();
  }
  computeValidity(): Validity {
    return this.no();
  }
  computeValue(): bigint {
    return this.no();
  }
  computeInitialValues(): InitialValues | null {
    return this.no();
  }
  stats(): SolverStats[] {
    return [];
  }
  dispose(): void {}
}
