/**
 * KLEE's seeding options (issue 21): their rows of the option table and how they become
 * EngineOptions.seeding. The seed files are read here, before the output directory exists,
 * so a missing or unreadable seed is one line and nothing is written.
 */
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { KTestError, readKTestFile } from '../../output/ktest.js';
import type { SeedingOptions } from '../../engine/seeding/seeding.js';
import type { SeedTest } from '../../engine/seeding/seed-info.js';
import { UsageError } from '../errors.js';
import type { RunOptionSpec } from './run-options.js';
import { parseTimeSpan } from './time-span.js';

export const SEED_OPTIONS: Record<string, RunOptionSpec> = {
  'seed-file': { type: 'string', describe: 'a .ktest whose values the states follow first (repeatable)', aliases: ['seed-out'], repeatable: true },
  'seed-dir': { type: 'string', describe: 'a directory whose .ktest files are all seeds (repeatable; e.g. an earlier output directory)', aliases: ['seed-out-dir'], repeatable: true },
  'only-replay-seeds': { type: 'boolean', describe: 'no paths but the seeded ones: a branch the seeds do not take is not explored' },
  'only-seed': { type: 'boolean', describe: 'stop when the seeds are done; the states that left them end with a test each' },
  'named-seed-matching': { type: 'boolean', describe: 'match symbolic objects to seed objects by name, not position' },
  'allow-seed-extension': { type: 'boolean', describe: 'a seed object smaller than its symbolic object (or none) leaves the missing bytes symbolic' },
  'allow-seed-truncation': { type: 'boolean', describe: 'a seed object larger than its symbolic object gives its first bytes' },
  'zero-seed-extension': { type: 'boolean', describe: 'missing seed bytes are zeros' },
  'always-output-seeds': { type: 'boolean', describe: 'a state that follows seeds writes its test even under --only-output-states-covering-new (default true)' },
  'seed-time': { type: 'string', describe: 'time for following seeds before the normal search (e.g. 30s; default 0: until they are done)' },
};

export interface SeedArgs {
  seedFile?: string | string[];
  seedDir?: string | string[];
  onlyReplaySeeds?: boolean;
  onlySeed?: boolean;
  namedSeedMatching?: boolean;
  allowSeedExtension?: boolean;
  allowSeedTruncation?: boolean;
  zeroSeedExtension?: boolean;
  seedTime?: string;
  alwaysOutputSeeds?: boolean;
}

function all(v: string | string[] | undefined): string[] {
  return v === undefined ? [] : ([] as string[]).concat(v);
}

function readSeed(path: string, option: string): SeedTest {
  try {
    const t = readKTestFile(path);
    return { source: path, objects: t.objects };
  } catch (e) {
    if (e instanceof KTestError) throw new UsageError(`--${option}: unable to read seed ${e.message}`);
    const err = e as NodeJS.ErrnoException;
    throw new UsageError(`--${option}: unable to open ${path}: ${err.code === 'ENOENT' ? 'no such file' : err.code === 'EISDIR' ? 'is a directory' : err.message}`);
  }
}

/** A seed directory's .ktest files, by name (KLEE takes every .ktest of the directory). */
function seedDirFiles(dir: string): string[] {
  let names: string[];
  try {
    if (!statSync(dir).isDirectory()) throw new UsageError(`--seed-dir=${dir}: not a directory`);
    names = readdirSync(dir);
  } catch (e) {
    if (e instanceof UsageError) throw e;
    const err = e as NodeJS.ErrnoException;
    throw new UsageError(`--seed-dir=${dir}: ${err.code === 'ENOENT' ? 'no such directory' : err.message}`);
  }
  const files = names.filter((n) => n.endsWith('.ktest')).sort();
  if (files.length === 0) throw new UsageError(`--seed-dir=${dir}: seeds directory is empty (no .ktest files)`);
  return files.map((n) => join(dir, n));
}

/** EngineOptions.seeding for these options; undefined without seeds (the other seeding options then do nothing, as in KLEE). */
export function seedingOptions(a: SeedArgs): SeedingOptions | undefined {
  const seeds = [...all(a.seedFile).map((f) => readSeed(f, 'seed-file')), ...all(a.seedDir).flatMap((d) => seedDirFiles(d).map((f) => readSeed(f, 'seed-dir')))];
  const seedTime = a.seedTime !== undefined ? parseTimeSpan(a.seedTime, 'seed-time') : 0;
  if (seeds.length === 0) return undefined;
  return {
    seeds,
    onlyReplaySeeds: a.onlyReplaySeeds === true,
    onlySeed: a.onlySeed === true,
    namedSeedMatching: a.namedSeedMatching === true,
    allowSeedExtension: a.allowSeedExtension === true,
    allowSeedTruncation: a.allowSeedTruncation === true,
    zeroSeedExtension: a.zeroSeedExtension === true,
    alwaysOutputSeeds: a.alwaysOutputSeeds !== false,
    seedTime,
  };
}
