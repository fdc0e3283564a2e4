/** What a run writes: tests (.ktest), error reports, info, messages and run.stats. */
export * from './ktest.js';
export * from './ktest-tool.js';
export * from './err-file.js';
export * from './info.js';
export * from './run-stats.js';
export * from './output-dir.js';
