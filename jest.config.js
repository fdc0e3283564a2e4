/** Jest runs the TypeScript sources directly (ts-jest, ESM). Type checking is `npm run build`'s job. */
export const Z3_IN_PROCESS = [
  '/tests/unit/solver/differential\\.test\\.ts$',
  '/tests/unit/solver/z3-solver\\.test\\.ts$',
  '/tests/unit/solver/layers/chain-z3\\.test\\.ts$',
  '/tests/unit/engine/solver-failure\\.test\\.ts$',
];

export default {
  testEnvironment: 'node',
  extensionsToTreatAsEsm: ['.ts'],
  moduleNameMapper: { '^(\\.{1,2}/.*)\\.js$': '$1' },
  transform: {
    '^.+\\.ts$': ['ts-jest', { useESM: true, tsconfig: 'tsconfig.test.json', diagnostics: false }],
  },
  testMatch: ['<rootDir>/tests/**/*.test.ts'],
  // Suites that load the z3 wasm module inside a jest worker: several at once crashed a z3
  // pthread worker and hung the run. They run one at a time with `npm run test:z3`.
  testPathIgnorePatterns: Z3_IN_PROCESS,
  testTimeout: 120000,
  // A suite that leaves a z3 or child-process handle open must not hold CI past the run.
  forceExit: true,
};
