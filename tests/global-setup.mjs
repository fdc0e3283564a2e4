// Runs once before the test files: every tsklee the tests start keeps its assembly.ll cache
// in one temporary directory of this run, not in the user's ~/.cache/tsklee.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export default function globalSetup() {
  if (process.env.TSKLEE_CACHE_DIR === undefined) process.env.TSKLEE_CACHE_DIR = mkdtempSync(join(tmpdir(), 'tsklee-test-cache-'));
}
