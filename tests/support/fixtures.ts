/**
 * Access to the clang-built bitcode fixtures from tests.
 *
 * The build itself lives in scripts/build-fixtures.mjs (plain Node, also run by
 * `npm run fixtures`); this module mirrors its naming scheme to find the outputs, and
 * runs the script when any output is missing or older than its source.
 */
import { execFile } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';

export type FixtureMode = 'O0' | 'O2';

export interface FixtureBitcode {
  /** Program name: the C file's base name (`cf_loops`, `large`). */
  name: string;
  /** Major version of the clang that produced the bitcode (14, 16 or 19). */
  clang: number;
  mode: FixtureMode;
  /** The bitcode file. */
  bcPath: string;
  /** The reference disassembly of bcPath by llvm-dis of the same version. */
  llPath: string;
}

export const CLANG_VERSIONS: readonly number[] = [14, 16, 19];
export const MODES: readonly FixtureMode[] = ['O0', 'O2'];

function findRoot(): string {
  let dir = resolve(process.cwd());
  for (;;) {
    if (existsSync(join(dir, 'scripts', 'build-fixtures.mjs')) && existsSync(join(dir, 'package.json'))) return dir;
    const up = dirname(dir);
    if (up === dir) throw new Error('tests/support/fixtures: cannot find the repository root from ' + process.cwd());
    dir = up;
  }
}

export const REPO_ROOT = findRoot();
export const DIS_DIR = join(REPO_ROOT, 'fixtures', 'dis');
export const LARGE_DIR = join(REPO_ROOT, 'fixtures', 'large');
const SCRIPT = join(REPO_ROOT, 'scripts', 'build-fixtures.mjs');

/** Clang versions selected by TSKLEE_CLANG_VERSIONS (e.g. "14,19"), default all. */
export function selectedClangVersions(): number[] {
  const env = process.env.TSKLEE_CLANG_VERSIONS;
  if (!env) return [...CLANG_VERSIONS];
  return env
    .split(',')
    .map((s) => Number(s.trim()))
    .filter((v) => CLANG_VERSIONS.includes(v));
}

interface PlannedFixture extends FixtureBitcode {
  src: string;
}

function plan(large: boolean, onlyLarge = false): PlannedFixture[] {
  const sources: { src: string; outDir: string }[] = [];
  if (!onlyLarge) {
    for (const f of readdirSync(DIS_DIR).sort()) {
      if (f.endsWith('.c')) sources.push({ src: join(DIS_DIR, f), outDir: join(DIS_DIR, 'build') });
    }
  }
  if (large || onlyLarge) sources.push({ src: join(LARGE_DIR, 'large.c'), outDir: join(LARGE_DIR, 'build') });
  const out: PlannedFixture[] = [];
  for (const { src, outDir } of sources) {
    const name = basename(src, '.c');
    for (const clang of selectedClangVersions()) {
      for (const mode of MODES) {
        const stem = join(outDir, `${name}.clang${clang}.${mode}`);
        out.push({ name, clang, mode, src, bcPath: `${stem}.bc`, llPath: `${stem}.ll` });
      }
    }
  }
  return out;
}

function mtime(path: string): number {
  try {
    return statSync(path).mtimeMs;
  } catch {
    return -1;
  }
}

function isStale(f: PlannedFixture, scriptTime: number): boolean {
  const newest = Math.max(mtime(f.src), scriptTime);
  return mtime(f.bcPath) < newest || mtime(f.llPath) < newest;
}

function runBuildScript(args: string[]): Promise<void> {
  return new Promise((resolvePromise, reject) => {
    execFile(
      process.execPath,
      [SCRIPT, ...args],
      { cwd: REPO_ROOT, maxBuffer: 64 * 1024 * 1024, timeout: 15 * 60 * 1000 },
      (err, _stdout, stderr) => {
        if (err) reject(new Error(`scripts/build-fixtures.mjs ${args.join(' ')} failed:\n${stderr || err.message}`));
        else resolvePromise();
      },
    );
  });
}

const cache = new Map<string, Promise<FixtureBitcode[]>>();

async function ensure(large: boolean, onlyLarge: boolean): Promise<FixtureBitcode[]> {
  const planned = plan(large, onlyLarge);
  const scriptTime = mtime(SCRIPT);
  if (planned.some((f) => isStale(f, scriptTime))) {
    await runBuildScript([...(onlyLarge ? ['--only-large'] : large ? ['--large'] : [])]);
    const still = planned.filter((f) => isStale(f, scriptTime));
    if (still.length) throw new Error(`fixtures still missing after build: ${still.map((f) => f.bcPath).join(', ')}`);
  }
  return planned.map(({ name, clang, mode, bcPath, llPath }) => ({ name, clang, mode, bcPath, llPath }));
}

/**
 * Makes sure every corpus fixture (fixtures/dis/*.c × clang × mode) is built and returns
 * them, sorted by program, clang, mode. With `{ large: true }` the large program
 * (fixtures/large/large.c) is included too; `{ onlyLarge: true }` returns just that one.
 */
export function ensureFixturesBuilt(opts: { large?: boolean; onlyLarge?: boolean } = {}): Promise<FixtureBitcode[]> {
  const large = opts.large ?? false;
  const onlyLarge = opts.onlyLarge ?? false;
  const key = `${large}:${onlyLarge}:${selectedClangVersions().join(',')}`;
  let p = cache.get(key);
  if (!p) {
    p = ensure(large, onlyLarge);
    cache.set(key, p);
    p.catch(() => cache.delete(key));
  }
  return p;
}

/**
 * The fixtures ensureFixturesBuilt() would return, computed synchronously without
 * building anything (for `test.each`, which needs its table at collection time).
 */
export function listFixtures(opts: { large?: boolean; onlyLarge?: boolean } = {}): FixtureBitcode[] {
  return plan(opts.large ?? false, opts.onlyLarge ?? false).map(({ name, clang, mode, bcPath, llPath }) => ({
    name,
    clang,
    mode,
    bcPath,
    llPath,
  }));
}

/** Human-readable id used in test names and failure messages: `cf_loops clang19 O2`. */
export function fixtureId(f: FixtureBitcode): string {
  return `${f.name} clang${f.clang} ${f.mode}`;
}
