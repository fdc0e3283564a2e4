/**
 * The `tsklee` launchers (bin/tsklee, src/cli/launch.cts, src/cli/main.ts) and the bundle + code cache that `npm run build`
 * makes (scripts/bundle.mjs), through copies of the built package in temporary directories:
 * the bundle alone (no src/, no per-module dist) must be enough, with node_modules; it must
 * behave exactly like the per-module build; a corrupt or foreign code cache and a stale bundle
 * must not break a run.
 */
import { spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join, resolve } from 'node:path';
import { Script } from 'node:vm';
import { crc32 } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';

const ROOT = resolve('.');
const BUNDLE_FILES = ['main.js', 'launch.cjs', 'tsklee-bundle.cjs', 'tsklee-bundle.cache'];
const CACHE_FILE = 'tsklee-bundle.cache';
const PROGRAM = join(ROOT, 'examples', 'bounds.bc');
let dir: string;

interface Result {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** A package copy at dir/name: package.json, node_modules (linked) and what `populate` puts in dist. */
function packageCopy(name: string, populate: (dist: string) => void): string {
  const pkg = join(dir, name);
  mkdirSync(join(pkg, 'dist', 'cli'), { recursive: true });
  cpSync(join(ROOT, 'package.json'), join(pkg, 'package.json'));
  symlinkSync(join(ROOT, 'node_modules'), join(pkg, 'node_modules'));
  populate(join(pkg, 'dist'));
  return pkg;
}

function tsklee(pkg: string, args: string[], env: NodeJS.ProcessEnv = {}): Result {
  const cwd = join(pkg, 'work');
  mkdirSync(cwd, { recursive: true });
  const r = spawnSync(process.execPath, [join(pkg, 'dist', 'cli', 'main.js'), ...args], { encoding: 'utf8', cwd, env: { ...process.env, ...env } });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

/** A run of the example into `out` (under the copy's work dir): exit code, messages and the files written. */
function runExample(pkg: string, out: string): Result & { files: string[] } {
  const r = tsklee(pkg, ['run', '--search=dfs', `--output-dir=${out}`, PROGRAM]);
  // the console names the output directory, which differs between package copies
  return { ...r, stderr: r.stderr.replaceAll(pkg, '<pkg>'), files: r.code === 0 ? readdirSync(join(pkg, 'work', out)).sort() : [] };
}

/** yargs reads the locale from the first of these that is set. */
const GERMAN = { LC_ALL: '', LC_MESSAGES: '', LANG: 'de_DE.UTF-8' };

let bundled: string;
let modules: string;

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'tsklee-bundle-test-'));
  // only the launcher, the bundle and its cache, with their build times
  bundled = packageCopy('bundled', (dist) => {
    for (const f of BUNDLE_FILES) cpSync(join(ROOT, 'dist', 'cli', f), join(dist, 'cli', f), { preserveTimestamps: true });
  });
  // the per-module build without the bundle
  modules = packageCopy('modules', (dist) => {
    cpSync(join(ROOT, 'dist'), dist, { recursive: true, filter: (src) => !basename(src).startsWith('tsklee-bundle.') });
  });
});

afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
});

describe('the bundled CLI', () => {
  it('runs a program from a copy holding only the launcher, the bundle and the cache', () => {
    const r = runExample(bundled, 'out');
    expect(r.code).toBe(0);
    expect(r.stderr).toMatch(/^KLEE: ERROR: .*bounds\.c:9: memory error: out of bound pointer$/m);
    expect(r.stderr).toMatch(/^KLEE: done: generated tests = 3$/m);
    expect(r.files.filter((f) => f.endsWith('.ktest'))).toHaveLength(3);
    expect(r.files.filter((f) => f.endsWith('.ptr.err'))).toHaveLength(1);
  });

  it('behaves like the per-module build: run, help, version, usage and input errors', () => {
    const cases = [['--help'], ['run', '--help'], ['--version'], [], ['frobnicate'], ['run', '--no-such-option', PROGRAM], ['dis', 'missing.bc']];
    for (const args of cases) {
      const b = tsklee(bundled, args);
      const m = tsklee(modules, args);
      expect({ args, ...b }).toEqual({ args, ...m });
    }
    const b = runExample(bundled, 'same');
    const m = runExample(modules, 'same');
    expect(b).toEqual(m);
    expect(b.code).toBe(0);
  });

  it("prints yargs's translations (its locale files are found from the bundle)", () => {
    const b = tsklee(bundled, ['--help'], GERMAN);
    expect(b.stdout).toContain('Kommandos:');
    expect(b).toEqual(tsklee(modules, ['--help'], GERMAN));
  });

  it('prints the version from package.json', () => {
    const version = (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string }).version;
    expect(tsklee(bundled, ['--version']).stdout).toBe(`${version}\n`);
  });

  it('ships a code cache that V8 accepts for the bundle as the launcher reads it', () => {
    const cli = join(ROOT, 'dist', 'cli');
    const cache = readFileSync(join(cli, 'tsklee-bundle.cache'));
    const bundle = readFileSync(join(cli, 'tsklee-bundle.cjs'));
    expect(cache.readUInt32LE(0)).toBe(crc32(bundle));
    expect(cache.readUInt32LE(4)).toBe(crc32(cache.subarray(8)));
    const script = new Script(bundle.toString('latin1'), { filename: join(cli, 'tsklee-bundle.cjs'), cachedData: cache.subarray(8) });
    expect(script.cachedDataRejected).toBe(false);
  });

  it('runs the same with a damaged or truncated code cache, and with none', () => {
    const good = readFileSync(join(ROOT, 'dist', 'cli', 'tsklee-bundle.cache'));
    const flipped = Buffer.from(good);
    flipped[good.length - 100] ^= 1; // V8 alone would take this one
    const caches: [string, Buffer | undefined][] = [
      ['damaged', flipped],
      ['truncated', good.subarray(0, good.length >> 1)],
      ['none', undefined],
    ];
    const expected = runExample(bundled, 'ref');
    for (const [name, cache] of caches) {
      const pkg = packageCopy(`cache-${name}`, (dist) => {
        for (const f of BUNDLE_FILES.filter((f) => f !== CACHE_FILE)) cpSync(join(ROOT, 'dist', 'cli', f), join(dist, 'cli', f), { preserveTimestamps: true });
        if (cache !== undefined) writeFileSync(join(dist, 'cli', 'tsklee-bundle.cache'), cache);
      });
      expect({ name, ...runExample(pkg, 'ref') }).toEqual({ name, ...expected });
    }
  });

  it('does not run a cache made for another bundle of the same length', () => {
    const pkg = packageCopy('other-bundle', (dist) => {
      for (const f of BUNDLE_FILES) cpSync(join(ROOT, 'dist', 'cli', f), join(dist, 'cli', f), { preserveTimestamps: true });
      const file = join(dist, 'cli', 'tsklee-bundle.cjs');
      const text = readFileSync(file, 'latin1');
      expect(text).toContain('done: generated tests = ');
      writeFileSync(file, text.replace('done: generated tests = ', 'done: generated TESTS = '), 'latin1');
    });
    const r = runExample(pkg, 'out');
    expect(r.code).toBe(0);
    expect(readFileSync(join(pkg, 'work', 'out', 'info'), 'utf8')).toMatch(/^KLEE: done: generated TESTS = 3$/m);
  });

  it('falls back to the per-module build when the bundle is older than it in a source checkout (tsc run alone)', () => {
    const pkg = packageCopy('stale', (dist) => {
      cpSync(join(ROOT, 'dist'), dist, { recursive: true, filter: (src) => !basename(src).startsWith('tsklee-bundle.') });
      // a bundle that would fail if it were loaded
      writeFileSync(join(dist, 'cli', 'tsklee-bundle.cjs'), "(function () { throw new Error('stale bundle loaded'); })");
      const old = new Date(Date.now() - 3600_000);
      utimesSync(join(dist, 'cli', 'tsklee-bundle.cjs'), old, old);
    });
    mkdirSync(join(pkg, 'src', 'cli'), { recursive: true });
    cpSync(join(ROOT, 'src', 'cli', 'cli.ts'), join(pkg, 'src', 'cli', 'cli.ts'));
    const r = runExample(pkg, 'out');
    expect(r.stderr).not.toContain('stale bundle loaded');
    expect(r.code).toBe(0);
    expect(r.files.filter((f) => f.endsWith('.ktest'))).toHaveLength(3);
  });

  it('uses the bundle whatever the file times in an installed package (no src/: npm unpacks files in any order)', () => {
    const pkg = packageCopy('installed', (dist) => {
      cpSync(join(ROOT, 'dist'), dist, { recursive: true });
      const text = readFileSync(join(dist, 'cli', 'tsklee-bundle.cjs'), 'latin1');
      expect(text).toContain('done: generated tests = ');
      writeFileSync(join(dist, 'cli', 'tsklee-bundle.cjs'), text.replace('done: generated tests = ', 'done: BUNDLED tests = '), 'latin1');
      const old = new Date(Date.now() - 3600_000);
      utimesSync(join(dist, 'cli', 'tsklee-bundle.cjs'), old, old);
    });
    const r = runExample(pkg, 'out');
    expect(r.code).toBe(0);
    expect(r.stderr).toMatch(/^KLEE: done: BUNDLED tests = 3$/m);
  });

  it('runs as the tsklee command (bin/tsklee, also through a link) without NODE_EXTRA_CA_CERTS', () => {
    const pkg = packageCopy('command', (dist) => {
      for (const f of BUNDLE_FILES) cpSync(join(ROOT, 'dist', 'cli', f), join(dist, 'cli', f), { preserveTimestamps: true });
    });
    mkdirSync(join(pkg, 'bin'));
    cpSync(join(ROOT, 'bin', 'tsklee'), join(pkg, 'bin', 'tsklee'));
    const link = join(dir, 'tsklee-link');
    symlinkSync(join(pkg, 'bin', 'tsklee'), link); // what npm link puts on the PATH
    // Node warns on stderr about a certificate file it cannot load: only `node main.js` reads it
    const env = { ...process.env, NODE_EXTRA_CA_CERTS: join(dir, 'no-such-certificates.pem') };
    const viaNode = spawnSync(process.execPath, [join(pkg, 'dist', 'cli', 'main.js'), '--version'], { encoding: 'utf8', env });
    expect(viaNode.stderr).toContain('no-such-certificates.pem');
    for (const command of [join(pkg, 'bin', 'tsklee'), link]) {
      const r = spawnSync(command, ['--version'], { encoding: 'utf8', env });
      expect({ command, code: r.status, stdout: r.stdout, stderr: r.stderr }).toEqual({ command, code: 0, stdout: viaNode.stdout, stderr: '' });
    }
    const cwd = join(pkg, 'work');
    mkdirSync(cwd, { recursive: true });
    const run = spawnSync(link, ['run', '--search=dfs', '--output-dir=out', PROGRAM], { encoding: 'utf8', cwd, env });
    expect(run.status).toBe(0);
    expect(run.stderr).toMatch(/^KLEE: done: generated tests = 3$/m);
    expect(readdirSync(join(cwd, 'out')).filter((f) => f.endsWith('.ktest'))).toHaveLength(3);
  });

  it('bin/tsklee starts node with a fixed malloc mmap threshold, unless one is set', () => {
    // a `node` first on the PATH that prints what bin/tsklee gave it
    const fake = join(dir, 'fake-node');
    mkdirSync(fake, { recursive: true });
    writeFileSync(join(fake, 'node'), '#!/bin/sh\necho "threshold=${MALLOC_MMAP_THRESHOLD_-unset}"\n', { mode: 0o755 });
    const env: NodeJS.ProcessEnv = { ...process.env, PATH: `${fake}:${process.env.PATH ?? ''}` };
    delete env.MALLOC_MMAP_THRESHOLD_;
    const bin = join(ROOT, 'bin', 'tsklee');
    expect(spawnSync(bin, ['--version'], { encoding: 'utf8', env }).stdout).toBe('threshold=131072\n');
    expect(spawnSync(bin, ['--version'], { encoding: 'utf8', env: { ...env, MALLOC_MMAP_THRESHOLD_: '65536' } }).stdout).toBe('threshold=65536\n');
  });
});
