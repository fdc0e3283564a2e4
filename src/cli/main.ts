#!/usr/bin/env node
/**
 * `node dist/cli/main.js`: the CLI through Node's ES module loader, for those who run the
 * package's files directly. It only loads launch.cjs (which starts the CLI); `bin/tsklee`, the
 * `tsklee` command, runs launch.cjs itself and so skips setting up the ES module loader.
 */
import { createRequire } from 'node:module';

createRequire(import.meta.url)('./launch.cjs');
