#!/usr/bin/env node
/**
 * Relocatable addressing (paper 003) on GNU m4, a program of the paper's §4.2: its symbol table
 * (src/symtab.c, unchanged) looked up with a symbolic macro name by a driver of our own
 * (scripts/subjects/addressing/m4_symtab.c).
 *
 *   node scripts/subjects/m4-addressing.mjs [--budget S] [--cache DIR] [--out DIR]
 *                                           [--steps fetch,build,models,k,split] [--defines -DNAMES=16,...]
 *
 * 1. fetch   `apt-get source m4` into the cache (--cache, $TSKLEE_SUBJECTS, else ~/.cache/tsklee/subjects)
 * 2. build   m4 configured beside its source (m4-VERSION-bc, --disable-nls) for config.h and
 *            gnulib's generated headers; the driver, m4's src/symtab.c and gnulib's
 *            lib/xmalloc.c compiled and linked with `tsklee cc` and runtime/replay's library: OUT/m4_symtab
 *            (native, for replay) and OUT/m4_symtab.bc. --defines: the driver's -D settings
 *            (HASH_SIZE, NAMES, KEYLEN; see the driver)
 * 3. models, k, split   as apr-addressing.mjs (lib/addressing-runs.mjs): forking, relocatable
 *            alone, DSMM with neither, either and both optimisations, splitting; resolution
 *            queries by k; partition sizes 512…32. Every test replayed natively.
 * Writes OUT/results.md and OUT/results.json (default OUT: CACHE/m4-VERSION-runs/addressing).
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { configure, make } from './lib/autotools.mjs';
import { fetchSource } from './lib/source.mjs';
import { SubjectError } from './lib/errors.mjs';
import { markdown, must, runMeasurements } from './lib/addressing-runs.mjs';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
const TSKLEE = join(ROOT, 'bin', 'tsklee');
const CLANG = existsSync('/usr/lib/llvm-16/bin/clang') ? '/usr/lib/llvm-16/bin/clang' : 'clang-16';
const STEPS = ['fetch', 'build', 'models', 'k', 'split'];
const DRIVER = 'm4_symtab';

function log(msg) {
  process.stderr.write(`[${new Date().toISOString().slice(11, 19)}] ${msg}\n`);
}

function parseArgs(argv) {
  const o = {};
  const valued = new Set(['--budget', '--cache', '--out', '--steps', '--defines']);
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    const eq = a.indexOf('=');
    const flag = eq < 0 ? a : a.slice(0, eq);
    if (!valued.has(flag)) throw new SubjectError(`unknown argument ${a} (see the comment at the top of scripts/subjects/m4-addressing.mjs)`);
    const v = eq < 0 ? argv[++i] : a.slice(eq + 1);
    if (v === undefined) throw new SubjectError(`${flag} needs a value`);
    o[flag.slice(2)] = v;
  }
  return o;
}

/**
 * m4 configured (once) beside its source, and the headers gnulib generates (lib's
 * BUILT_SOURCES); resolves to the build directory. The driver compiles symtab.c and gnulib's
 * xmalloc.c itself, so nothing else of m4 is built.
 */
async function buildM4(srcDir) {
  const buildDir = `${srcDir}-bc`;
  if (!existsSync(join(buildDir, 'config.status'))) {
    // Debian's patches leave configure.ac newer than configure: make would then want automake
    // 1.16 to regenerate them; the generated files are up to date, so date them in order
    const touch = (files) => must('touch', files.map((f) => join(srcDir, f)), 'touch');
    touch(['aclocal.m4']);
    touch(['configure', 'lib/config.hin']);
    touch(must('find', [srcDir, '-name', 'Makefile.in'], 'find').stdout.trim().split('\n').map((f) => f.slice(srcDir.length + 1)));
  }
  await configure({ srcDir, buildDir, env: { CC: CLANG, CFLAGS: '-g -O0' }, args: ['--disable-nls'], log });
  const lib = join(buildDir, 'lib');
  const headers = must('make', ['-s', '--no-print-directory', '--eval=tsklee-built-sources: ; @echo $(BUILT_SOURCES)', 'tsklee-built-sources'], 'make (BUILT_SOURCES)', { cwd: lib }).stdout.trim().split(/\s+/);
  const r = await make({ buildDir: lib, targets: headers, jobs: 2 });
  if (r.code !== 0) throw new SubjectError(`making gnulib's headers failed in ${lib}: see make.log there`);
  return buildDir;
}

function buildDriver({ srcDir, buildDir, out, defines }) {
  const replayDir = join(out, 'replay-lib');
  must('make', ['-s', '-C', join(ROOT, 'runtime', 'replay'), `BUILD=${replayDir}`], 'building runtime/replay');
  const exe = join(out, DRIVER);
  const src = join(ROOT, 'scripts', 'subjects', 'addressing', `${DRIVER}.c`);
  const inc = [buildDir, join(buildDir, 'lib'), join(srcDir, 'lib'), join(srcDir, 'src'), join(ROOT, 'runtime', 'include')].flatMap((d) => ['-I', d]);
  const m4 = [join(srcDir, 'src', 'symtab.c'), join(srcDir, 'lib', 'xmalloc.c')];
  must(TSKLEE, ['cc', `--clang=${CLANG}`, '-g', '-O0', '-w', ...defines, ...inc, src, ...m4, join(replayDir, 'libtskleeRuntest.a'), '-o', exe], `tsklee cc ${DRIVER}.c`);
  if (!existsSync(`${exe}.bc`)) throw new SubjectError(`tsklee cc ${DRIVER}.c wrote no ${exe}.bc`);
  return { exe, bc: `${exe}.bc` };
}

async function main() {
  const o = parseArgs(process.argv.slice(2));
  const steps = new Set((o.steps ?? STEPS.join(',')).split(','));
  for (const s of steps) if (!STEPS.includes(s)) throw new SubjectError(`--steps: unknown step ${s} (${STEPS.join(', ')})`);
  const budget = Number(o.budget ?? 120);
  if (!(budget > 0)) throw new SubjectError(`--budget ${o.budget}: expected seconds > 0`);
  const defines = (o.defines ?? '').split(',').filter(Boolean);
  for (const d of defines) if (!/^-D(HASH_SIZE|NAMES|KEYLEN)=\d+$/.test(d)) throw new SubjectError(`--defines: ${d} is not -DHASH_SIZE=N, -DNAMES=N or -DKEYLEN=N`);
  if (!existsSync(join(ROOT, 'dist', 'cli', 'launch.cjs'))) throw new SubjectError('dist/ is missing: run npm run build first');
  const cacheDir = resolve(o.cache ?? process.env.TSKLEE_SUBJECTS ?? join(homedir(), '.cache', 'tsklee', 'subjects'));
  const source = fetchSource({ pkg: 'm4', cacheDir, log });
  const out = resolve(o.out ?? join(`${source.dir}-runs`, 'addressing'));
  mkdirSync(out, { recursive: true });
  const resultsFile = join(out, 'results.json');
  const res = existsSync(resultsFile) ? JSON.parse(readFileSync(resultsFile, 'utf8')) : { models: [], k: [], split: [] };
  Object.assign(res, { version: source.version, origin: source.origin, defines });
  const save = () => writeFileSync(resultsFile, `${JSON.stringify(res, null, 2)}\n`);

  const built = new Map();
  if (['build', 'models', 'k', 'split'].some((s) => steps.has(s))) {
    const buildDir = await buildM4(source.dir);
    built.set(DRIVER, buildDriver({ srcDir: source.dir, buildDir, out, defines }));
    log(`built ${DRIVER}.bc in ${out}${defines.length ? ` (${defines.join(' ')})` : ''}`);
  }
  runMeasurements({ res, steps, built, out, budget, save, log, splitDrivers: [DRIVER] });
  const md = markdown(res, `m4${defines.length ? ` (driver ${defines.join(' ')})` : ''}`);
  writeFileSync(join(out, 'results.md'), md);
  process.stdout.write(md);
  log(`results in ${join(out, 'results.md')} (.json)`);
}

try {
  await main();
} catch (e) {
  if (!(e instanceof SubjectError)) throw e;
  process.stderr.write(`m4-addressing: error: ${e.message}\n`);
  process.exitCode = 1;
}
