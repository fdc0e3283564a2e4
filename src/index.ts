/**
 * tsklee as a library (`import { loadModule, explore } from 'tsklee'`):
 *
 *   const module = loadModule(['prog.bc']);               // or loadProgram for --libc / --posix-runtime
 *   const r = await explore(module, { search: ['dfs'] }, { events: { onStateEnd: (s) => … } });
 *   // r.completedPaths, r.generatedTests, … ; tests in (r.output as MemoryOutput).tests
 *
 * explore() creates (and disposes) a solver unless one is given; tests stay in memory unless
 * an output is given (createOutputDir gives KLEE's klee-out-N layout). Also exported: the
 * bitcode reader, the IR, the module linker and printer, the .ktest format.
 */
export { loadModule, InputError, type LoadOptions } from './load.js';
export { loadProgram, RuntimeSetupError, LIBC_CHOICES, type LibcChoice, type RuntimeChoice } from './engine/prepare/runtime.js';
export { explore, type ExploreSetup, type ExploreResult } from './engine/explore.js';
export { DEFAULT_OPTIONS, resolveOptions, type EngineOptions } from './engine/options.js';
export type { SeedingOptions } from './engine/seeding/seeding.js';
export type { SeedTest } from './engine/seeding/seed-info.js';
export { EngineSetupError, type ExploreEvents, type StateEndInfo, type RunSummary } from './engine/executor.js';
export { Termination, ERR_SUFFIX } from './engine/errors.js';
export { MemoryOutput, type RunOutput } from './engine/test-output.js';
export { SEARCH_NAMES, type SearchName } from './engine/searchers/index.js';
export { createSolver, type Solver, type SolverOptions } from './solver/index.js';
export { createOutputDir, type OutputDir } from './output/output-dir.js';
export { decodeKTest, encodeKTest, readKTestFile, writeKTestFile, KTestError, type KTest, type KTestObject } from './output/ktest.js';
export { readBitcodeModule, readBitcodeFile, readBitcodeArchive } from './bitcode/index.js';
export { BitcodeError } from './bitcode/errors.js';
export { printModule } from './ir/printer/index.js';
export { linkModules, LinkError, replaceGlobalUses, typesEquivalent, type LinkOptions } from './ir/linker.js';
export { DataLayout, DataLayoutError, type StructLayout } from './ir/datalayout.js';
export * from './ir/index.js';
