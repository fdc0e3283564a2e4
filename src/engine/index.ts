/** The symbolic execution engine. */
export { explore, type ExploreSetup, type ExploreResult } from './explore.js';
export { Executor, EngineSetupError, type ExploreEvents, type RunSummary } from './executor.js';
export { DEFAULT_OPTIONS, resolveOptions, type EngineOptions, type LibcKind } from './options.js';
export { MemoryOutput, type RunOutput } from './test-output.js';
export { KModule } from './prepare/kmodule.js';
export { Termination, Msg } from './errors.js';
export { ExecutionState } from './state.js';
