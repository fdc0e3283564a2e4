/**
 * Libraries from Debian source packages for the quantified-merging experiment (paper 000's
 * json-c and libtasn1), each built twice beside its source as a static library:
 *
 *   SRC-bc/    CC="tsklee cc" (clang): every object carries its bitcode, so a driver linked
 *              against the archive with `tsklee cc` gets whole-program bitcode DRIVER.bc
 *   SRC-gcov/  gcc --coverage -O0: the archive the tests are replayed on natively
 *
 * Both builds are incremental (a stamp of the settings; make decides the rest).
 */
import { spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { configure, make } from './autotools.mjs';
import { SubjectError } from './errors.mjs';

/**
 * json-c: no thread-local storage or extra libraries; the hash seed fixed (json-c's own
 * OVERRIDE_GET_RANDOM_SEED hook: glibc's arc4random has no model, and a fixed seed makes the
 * native replay take the interpreter's hash-table order); PRECISE_MEMORY_ACCESS: json-c's
 * switch for hashlittle's word reads past the end of a key (out of bounds, which tsklee
 * reports as a memory error on every object insertion).
 */
const JSONC_FLAGS = '-g -O0 -DOVERRIDE_GET_RANDOM_SEED=return+0x5eed -DPRECISE_MEMORY_ACCESS';
const JSONC_CMAKE = ['-DCMAKE_BUILD_TYPE=None', '-DBUILD_SHARED_LIBS=OFF', '-DBUILD_STATIC_LIBS=ON', '-DBUILD_TESTING=OFF', '-DBUILD_APPS=OFF', '-DDISABLE_THREAD_LOCAL_STORAGE=ON', '-DDISABLE_WERROR=ON', '-DDISABLE_EXTRA_LIBS=ON'];
/** APR as scripts/subjects/apr-addressing.mjs builds it: static, no threads, no DSO. */
const APR_CONFIGURE = ['--disable-shared', '--enable-static', '--disable-threads', '--disable-dso'];
const TASN1_CONFIGURE = ['--disable-shared', '--enable-static', '--disable-doc', '--disable-valgrind-tests', '--disable-dependency-tracking'];

function logged(cmd, args, cwd, logFile, env = process.env) {
  const r = spawnSync(cmd, args, { cwd, env, encoding: 'utf8', maxBuffer: 64 << 20 });
  writeFileSync(logFile, `$ ${[cmd, ...args].join(' ')}\n${r.stdout ?? ''}${r.stderr ?? ''}`, { flag: 'a' });
  if (r.error !== undefined) throw new SubjectError(`cannot run ${cmd}: ${r.error.message}`);
  return r.status;
}

/** CMake wants one compiler executable: a two-line wrapper around `tsklee cc --clang=CLANG`. */
function tskleeCcWrapper(dir, tsklee, clang) {
  const file = join(dir, 'tsklee-cc.sh');
  writeFileSync(file, `#!/bin/sh\nexec ${tsklee} cc --clang=${clang} "$@"\n`);
  chmodSync(file, 0o755);
  return file;
}

async function cmakeBuild({ srcDir, buildDir, cc, flags, target, log }) {
  mkdirSync(buildDir, { recursive: true });
  const settings = JSON.stringify({ srcDir, cc, flags, args: JSONC_CMAKE });
  const stamp = join(buildDir, 'tsklee-cmake.json');
  if (!existsSync(stamp) || readFileSync(stamp, 'utf8') !== settings) {
    log(`cmake in ${buildDir} (CC=${cc}; log: cmake.log)`);
    const code = logged('cmake', [srcDir, `-DCMAKE_C_COMPILER=${cc}`, `-DCMAKE_C_FLAGS=${flags}`, ...JSONC_CMAKE], buildDir, join(buildDir, 'cmake.log'));
    if (code !== 0) throw new SubjectError(`cmake failed in ${buildDir}: see ${join(buildDir, 'cmake.log')}`);
    writeFileSync(stamp, settings);
  }
  const code = logged('make', ['-j2', target], buildDir, join(buildDir, 'make.log'));
  if (code !== 0) throw new SubjectError(`make ${target} failed in ${buildDir}: see ${join(buildDir, 'make.log')}`);
}

async function autotoolsBuild({ srcDir, buildDir, env, makeVars, log, args = TASN1_CONFIGURE, subdir = 'lib', targets = ['all'] }) {
  await configure({ srcDir, buildDir, env, args, log });
  // libtasn1's 'all': the gnulib subdirectory (gl/, which makes limits.h's WORD_BIT) comes first
  const r = await make({ buildDir: join(buildDir, subdir), targets, jobs: 2, vars: makeVars });
  if (r.code !== 0) throw new SubjectError(`make failed in ${join(buildDir, subdir)}: see its make.log`);
}

export const LIBS = {
  'json-c': {
    pkg: 'json-c',
    marker: 'CMakeLists.txt',
    async build({ srcDir, tsklee, clang, log }) {
      const bc = `${srcDir}-bc`;
      mkdirSync(bc, { recursive: true });
      await cmakeBuild({ srcDir, buildDir: bc, cc: tskleeCcWrapper(bc, tsklee, clang), flags: JSONC_FLAGS, target: 'json-c', log });
      await cmakeBuild({ srcDir, buildDir: `${srcDir}-gcov`, cc: 'gcc', flags: `${JSONC_FLAGS} --coverage`, target: 'json-c', log });
    },
    archive: (buildDir) => join(buildDir, 'libjson-c.a'),
    includes: (srcDir, buildDir) => [srcDir, buildDir],
    /** The object of source file `file` (gcov finds FILE.gcno/gcda beside it). */
    object: (buildDir, file) => join(buildDir, 'CMakeFiles', 'json-c.dir', `${file}.o`),
  },
  libtasn1: {
    pkg: 'libtasn1-6',
    marker: 'configure',
    async build({ srcDir, tsklee, clang, log }) {
      // configured with the clang `tsklee cc` runs, made with tsklee cc (as the coreutils build)
      await autotoolsBuild({ srcDir, buildDir: `${srcDir}-bc`, env: { CC: clang, CFLAGS: '-g -O0' }, makeVars: [`CC=${tsklee} cc --clang=${clang}`], log });
      await autotoolsBuild({ srcDir, buildDir: `${srcDir}-gcov`, env: { CC: 'gcc', CFLAGS: '-g -O0 --coverage', LDFLAGS: '--coverage' }, makeVars: [], log });
    },
    archive: (buildDir) => join(buildDir, 'lib', '.libs', 'libtasn1.a'),
    includes: (srcDir, buildDir) => [join(srcDir, 'lib', 'includes'), join(buildDir, 'lib', 'includes')],
    object: (buildDir, file) => join(buildDir, 'lib', file.replace(/\.c$/, '.o')),
  },
  // the paper's apr subjects (its strings module): APR configured as apr-addressing.mjs does
  apr: {
    pkg: 'apr',
    marker: 'configure',
    async build({ srcDir, tsklee, clang, log }) {
      const apr = { args: APR_CONFIGURE, subdir: '.', targets: ['libapr-1.la'] };
      await autotoolsBuild({ srcDir, buildDir: `${srcDir}-bc`, env: { CC: clang, CFLAGS: '-g -O0' }, makeVars: [`CC=${tsklee} cc --clang=${clang}`], log, ...apr });
      await autotoolsBuild({ srcDir, buildDir: `${srcDir}-gcov`, env: { CC: 'gcc', CFLAGS: '-g -O0 --coverage', LDFLAGS: '--coverage' }, makeVars: [], log, ...apr });
    },
    archive: (buildDir) => join(buildDir, '.libs', 'libapr-1.a'),
    includes: (srcDir, buildDir) => [join(srcDir, 'include'), join(buildDir, 'include')],
    libs: ['-luuid', '-lcrypt'],
    object: (buildDir, file) => join(buildDir, 'strings', file.replace(/\.c$/, '.o')),
  },
};

/**
 * The drivers (bench/quantified-debian/NAME.c): the library and the source files whose line
 * coverage is reported (the API's own file).
 */
export const DRIVERS = [
  { name: 'jsonc_tokener', lib: 'json-c', files: ['json_tokener.c'] },
  { name: 'jsonc_escape', lib: 'json-c', files: ['json_object.c'] },
  { name: 'jsonc_pointer', lib: 'json-c', files: ['json_pointer.c'] },
  { name: 'tasn1_length', lib: 'libtasn1', files: ['decoding.c'] },
  { name: 'tasn1_tag', lib: 'libtasn1', files: ['decoding.c'] },
  { name: 'tasn1_octet', lib: 'libtasn1', files: ['decoding.c'] },
  { name: 'tasn1_oid', lib: 'libtasn1', files: ['coding.c'] },
  { name: 'apr_cpystrn', lib: 'apr', files: ['apr_cpystrn.c'] },
  { name: 'apr_collapse', lib: 'apr', files: ['apr_cpystrn.c'] },
  { name: 'apr_natcmp', lib: 'apr', files: ['apr_strnatcmp.c'] },
  { name: 'apr_strtok', lib: 'apr', files: ['apr_strtok.c'] },
  { name: 'apr_newlines', lib: 'apr', files: ['apr_cstr.c'] },
  { name: 'apr_casecmp', lib: 'apr', files: ['apr_cstr.c'] },
];

