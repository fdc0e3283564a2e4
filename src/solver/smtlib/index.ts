export { SmtLibSolver, type SmtLibSolverOptions, type SmtLibMode, type SmtLibCounters } from './smtlib-solver.js';
export {
  EXTERNAL_BACKENDS,
  SOLVER_BACKENDS,
  SolverSetupError,
  findOnPath,
  isExternalBackend,
  resolveBackend,
  type ExternalBackendName,
  type SolverBackendName,
} from './backends.js';
