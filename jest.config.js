/** Jest runs the TypeScript sources directly (ts-jest, ESM). Type checking is `npm run build`'s job. */
export default {
  testEnvironment: 'node',
  extensionsToTreatAsEsm: ['.ts'],
  moduleNameMapper: { '^(\\.{1,2}/.*)\\.js$': '$1' },
  transform: {
    '^.+\\.ts$': ['ts-jest', { useESM: true, tsconfig: 'tsconfig.test.json', diagnostics: false }],
  },
  testMatch: ['<rootDir>/tests/**/*.test.ts'],
  testTimeout: 120000,
  // tsklee's caches go to a temporary directory per test run (tests/global-setup.mjs)
  globalSetup: '<rootDir>/tests/global-setup.mjs',
  // A suite that leaves a child process or worker handle open must not hold CI past the run.
  forceExit: true,
};
