#!/usr/bin/env node
/**
 * The fast solver layer against z3 on the query logs of real runs (issue 12, item 5): every
 * .smt2 file under the given directories (a run's `solver-queries/`, written by
 * `tsklee run --write-smt2s`) is read back and asked of the fast layer alone and of z3
 * (src/solver/smtlib/log-replay.ts). Prints the counts and each disagreement; exits 1 on any.
 *
 *   node scripts/fast-vs-z3-logs.mjs [--budget N] DIR...
 *
 * Log with the fast layer off, so that every query the engine asks reaches the log:
 *   tsklee run --libc=tsklee --posix-runtime --write-smt2s --use-fast-solver=false \
 *     --output-dir=OUT echo.bc --sym-args 0 2 4      # then: fast-vs-z3-logs.mjs OUT/solver-queries
 *
 * Needs `npm run build`.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const args = process.argv.slice(2);
let budget;
const at = args.indexOf('--budget');
if (at >= 0) budget = Number(args.splice(at, 2)[1]);
if (args.length === 0 || (budget !== undefined && !(budget >= 0))) {
  process.stderr.write('usage: node scripts/fast-vs-z3-logs.mjs [--budget N] DIR...\n');
  process.exit(2);
}

function* smt2Files(dir) {
  for (const name of readdirSync(dir).sort()) {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) yield* smt2Files(p);
    else if (name.endsWith('.smt2')) yield { name: p, text: readFileSync(p, 'utf8') };
  }
}

const { replayLogsThroughFast } = await import(join(ROOT, 'dist/solver/smtlib/log-replay.js'));
const { Z3Solver } = await import(join(ROOT, 'dist/solver/z3/z3-solver.js'));
const z3 = await Z3Solver.create({ timeoutMs: 60_000 });
const t0 = performance.now();
let failed = false;
try {
  for (const dir of args) {
    let t;
    try {
      t = replayLogsThroughFast(smt2Files(dir), z3, budget);
    } catch (e) {
      process.stderr.write(`fast-vs-z3-logs: ${dir}: ${e.code === 'ENOENT' ? 'no such directory' : e.message}\n`);
      failed = true;
      continue;
    }
    const reasons = new Map();
    for (const s of t.skipped) reasons.set(s.why, (reasons.get(s.why) ?? 0) + 1);
    process.stdout.write(
      `${dir}: ${t.files} files, ${t.decided} questions decided by the fast layer, ${t.passed} passed on, ` +
        `${t.disagreements.length} disagreements with z3` +
        (reasons.size > 0 ? `; not compared: ${[...reasons].map(([w, n]) => `${n} (${w})`).join(', ')}` : '') +
        '\n',
    );
    for (const d of t.disagreements) process.stdout.write(`  DISAGREE ${d}\n`);
    if (t.disagreements.length > 0) failed = true;
  }
} finally {
  z3.dispose();
}
process.stdout.write(`fast-vs-z3-logs: ${((performance.now() - t0) / 1000).toFixed(1)} s\n`);
process.exit(failed ? 1 : 0);
