#!/usr/bin/env node
/**
 * Paper 002's ablation on GNU bc (one of the paper's real subjects): fetches Debian's bc
 * source package, builds `bc/bc` with CC="tsklee cc" (whole-program bitcode bc/bc.bc beside
 * the native program), then runs scripts/bench-arrays.mjs on it with a symbolic stdin (bc's
 * program text: the yacc parser's tables are the constant arrays the paper is about).
 *
 *   node scripts/subjects/bc-arrays.mjs [--cache DIR] [--tarball bc-1.07.1.tar.gz]
 *        [--time 60] [--stdin 8] [--solver-time 10s] [--configs lambda,store-chain,...] [--out DIR]
 *
 * --solver-time caps each query (--max-solver-time): without it a run spends most of its budget
 * in the one parser query z3 cannot answer quickly and the configurations differ by that alone.
 * The cache defaults to ~/.cache/tsklee/subjects (the source tree and bc-build/ are kept).
 * Not a test: a benchmark with its results in README (Array constraints section).
 */
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { configure, make } from './lib/autotools.mjs';
import { SubjectError } from './lib/errors.mjs';
import { fetchSource } from './lib/source.mjs';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
const args = process.argv.slice(2);
function opt(name, dflt) {
  const i = args.findIndex((a) => a === `--${name}` || a.startsWith(`--${name}=`));
  if (i < 0) return dflt;
  return args[i].includes('=') ? args[i].slice(args[i].indexOf('=') + 1) : args[i + 1];
}
const log = (m) => process.stderr.write(`bc-arrays: ${m}\n`);

// bc's tarball ships the generated parser and scanner and the docs; its Makefiles would
// still re-run automake/makeinfo when timestamps from the .dsc unpacking look stale.
const NO_REGEN = ['ACLOCAL=:', 'AUTOMAKE=:', 'AUTOCONF=:', 'AUTOHEADER=:', 'MAKEINFO=:', 'YACC=:', 'LEX=:'];

async function buildBc(cacheDir, tarball) {
  const src = fetchSource({ pkg: 'bc', cacheDir, tarball, log });
  const buildDir = join(cacheDir, `bc-${src.version.replace(/-[^-]+$/, '')}-bc`);
  const env = { CC: `${join(ROOT, 'bin', 'tsklee')} cc`, CFLAGS: '-g -O0' };
  await configure({ srcDir: src.dir, buildDir, env, args: [], log });
  for (const sub of ['lib', 'bc']) {
    const r = await make({ buildDir: join(buildDir, sub), targets: [], jobs: 2, vars: NO_REGEN });
    if (r.code !== 0) throw new SubjectError(`make in ${join(buildDir, sub)} failed (exit ${r.code}): see its make.log`);
  }
  const bc = join(buildDir, 'bc', 'bc.bc');
  if (!existsSync(bc)) throw new SubjectError(`the build gave no ${bc}`);
  log(`${src.origin}: ${bc}`);
  return bc;
}

try {
  const cacheDir = resolve(opt('cache', join(homedir(), '.cache', 'tsklee', 'subjects')));
  const bc = await buildBc(cacheDir, opt('tarball', undefined));
  const bench = [
    join(ROOT, 'scripts', 'bench-arrays.mjs'),
    `--bc=bc=${bc}`,
    `--time=${opt('time', '60')}`,
    `--out=${resolve(opt('out', '/tmp/tsklee-bc-arrays'))}`,
    `--tsklee-args=--libc=tsklee --posix-runtime --max-memory=2000 --max-solver-time=${opt('solver-time', '10s')}`,
    `--program-args=--sym-stdin ${opt('stdin', '8')}`,
    ...(opt('configs', undefined) === undefined ? [] : [`--configs=${opt('configs')}`]),
  ];
  const r = spawnSync(process.execPath, bench, { stdio: 'inherit' });
  process.exit(r.status ?? 1);
} catch (e) {
  if (!(e instanceof SubjectError)) throw e;
  process.stderr.write(`bc-arrays: ${e.message}\n`);
  process.exit(1);
}
