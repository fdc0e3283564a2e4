/**
 * V8 settings under which z3's 35 MB wasm module is compiled and instantiated.
 *
 * - `--wasm-lazy-validation`: V8 otherwise validates every function of the module when it is
 *   compiled, though it compiles each one only on first call. Measured: compiling the module
 *   took 150–230 ms of CPU, 17–60 ms with lazy validation (the module is z3-solver's own
 *   build, valid; a function is still validated when it is first compiled).
 * - `--wasm-tiering-budget`: how much code a function runs on V8's baseline compiler
 *   (Liftoff) before V8 compiles it again with its optimising one (TurboFan), in the
 *   background. z3's functions are large and many run warm, so with V8's default (1.8 M)
 *   a run spends more CPU on TurboFan compiling z3 than it saves. Measured: CPU ms of the
 *   embedded z3 answering strparse.c's backend queries (--use-fast-solver=false; then also
 *   --use-cex-cache=false: 201 queries; then also --use-independent-solver=false: 96),
 *   replayed on a new instance in a fresh process, 2-3 runs each, 2-core machine at load ~4;
 *   the last column replays the 201 queries 6 times in one process (first round, then each
 *   later one):
 *
 *     budget          41 queries   201 queries   96 queries   201 queries x 6
 *     default 1.8 M   1845-2049    2775-3009     2837-3037    3068, then 1110-1450
 *     60 M            1389-1609    1736-2068     1966-2062    2135, then 1160-1630
 *     200 M           1364-1466    1654-2142     2056-2564    1654, then 1070-1540
 *     600 M           1311-1421    1588-2043     1794-1954    1588, then 1010-1540
 *     2000 M          -            2259          1958-1987    2259, then 1630-1800
 *     Liftoff only    1201-1369    1624-1802     1991-2063    1758, then 1700-1950
 *
 *   At 600 M only z3's hottest functions (SAT propagation, rewriting) reach TurboFan: long
 *   runs keep TurboFan's speed, short ones skip most of its compile cost.
 *
 * Both are process-wide V8 flags. Each is set only around z3's compile and instantiation and
 * then put back to V8's default: V8 rejects a code cache made under other flags, and tsklee's
 * launcher relies on one (dist/cli/tsklee-bundle.cache, written at the end of a training
 * run). V8 reads the tiering budget when an instance is made, so it still applies afterwards.
 * A flag the user gave node (command line or NODE_OPTIONS) is left alone.
 */
import { createRequire } from 'node:module';

/** node:v8, loaded with z3 (this module is part of every start-up; z3 is loaded only on demand). */
function setFlagsFromString(flags: string): void {
  (createRequire(import.meta.url)('node:v8') as typeof import('node:v8')).setFlagsFromString(flags);
}

interface Flag {
  /** The name as written on node's command line. */
  name: string;
  value: string;
  /** V8's default (Node 20's V8 11.3). */
  original: string;
}

const FLAGS: readonly Flag[] = [
  { name: 'wasm-lazy-validation', value: '--wasm-lazy-validation', original: '--no-wasm-lazy-validation' },
  { name: 'wasm-tiering-budget', value: '--wasm-tiering-budget=600000000', original: '--wasm-tiering-budget=1800000' },
];

let applicable: readonly Flag[] | undefined;

/** The flags the user did not set themselves. */
function flagsToSet(): readonly Flag[] {
  if (applicable !== undefined) return applicable;
  const given = [...process.execArgv, ...(process.env['NODE_OPTIONS'] ?? '').split(/\s+/)].join(' ').replace(/_/g, '-');
  return (applicable = FLAGS.filter((f) => !given.includes(f.name)));
}

/** Runs `f` (synchronous) under z3's V8 flags. */
export function withZ3Flags<T>(f: () => T): T {
  const flags = flagsToSet();
  for (const flag of flags) setFlagsFromString(flag.value);
  try {
    return f();
  } finally {
    for (const flag of flags) setFlagsFromString(flag.original);
  }
}

/** Runs `f` (asynchronous) under z3's V8 flags. */
export async function withZ3FlagsAsync<T>(f: () => Promise<T>): Promise<T> {
  const flags = flagsToSet();
  for (const flag of flags) setFlagsFromString(flag.value);
  try {
    return await f();
  } finally {
    for (const flag of flags) setFlagsFromString(flag.original);
  }
}
