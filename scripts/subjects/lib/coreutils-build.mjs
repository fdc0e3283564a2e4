/**
 * GNU coreutils built twice from one source tree, as two VPATH build directories beside it:
 *
 *   SRC-bc/    CC="tsklee cc": every src/NAME also gets its whole-program bitcode src/NAME.bc
 *   SRC-gcov/  gcc --coverage -O0: the build the tests are replayed on for line/branch counts
 *
 * Both with CONFIGURE_OPTIONS, chosen so that the bitcode calls only what tsklee's libc and
 * POSIX model provide and both builds take the same code paths.
 *
 * The bc build is configured with the clang `tsklee cc` runs (its native half is exactly that
 * clang with the same flags, so every configure answer is the same) and made with
 * CC="tsklee cc": each of configure's ~1400 checks through tsklee cc would also compile and
 * link bitcode nobody reads (measured here: ~45 checks a minute, over half an hour in all).
 */
import { existsSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { configure, make, makeVariable } from './autotools.mjs';

/**
 * Why each option:
 * - --disable-nls: no gettext/libintl (messages stay the built-in English ones; the model has no catalogs)
 * - --without-selinux, --disable-libsmack, --disable-libcap, --disable-acl, --disable-xattr:
 *   no libselinux/libsmack/libcap/libacl/libattr (chcon/runcon still build, and say SELinux is off)
 * - --without-libgmp: factor and expr use their own arithmetic, not libgmp
 * - --without-openssl: the digest utilities use gnulib's hash code
 * - --disable-threads: no pthread calls in gnulib's locks (tsklee runs one thread)
 * - --with-included-regex: gnulib's regex compiled into the program (tsklee's libc has no regcomp)
 * - --enable-install-program=arch,hostname: the two utilities coreutils leaves out by default
 *   (KLEE's 89 had hostname; `coreutils`, the single-binary multiplexer, is not a utility)
 * - --disable-rpath, --without-lib*-prefix: never look for optional libraries elsewhere
 */
export const CONFIGURE_OPTIONS = [
  '--disable-nls',
  '--without-selinux',
  '--disable-libsmack',
  '--disable-libcap',
  '--disable-acl',
  '--disable-xattr',
  '--without-libgmp',
  '--without-openssl',
  '--disable-threads',
  '--with-included-regex',
  '--enable-install-program=arch,hostname',
  '--disable-rpath',
  '--without-libiconv-prefix',
  '--without-libintl-prefix',
  '--disable-dependency-tracking',
];

/** `[` is `test` under another name; KLEE's list has no `[` either. */
const NOT_UTILITIES = new Set(['[']);

export function buildDirs(srcDir) {
  return { bc: `${srcDir}-bc`, gcov: `${srcDir}-gcov` };
}

/** The utilities the configured tree builds (bin_PROGRAMS), without `src/` and `[`. */
export function utilities(buildDir) {
  const exeext = makeVariable(buildDir, 'EXEEXT');
  return makeVariable(buildDir, 'bin_PROGRAMS')
    .split(/\s+/)
    .filter((p) => p.startsWith('src/'))
    .map((p) => p.slice(4, exeext ? -exeext.length : undefined))
    .filter((p) => !NOT_UTILITIES.has(p))
    .sort();
}

function mtime(p) {
  return existsSync(p) ? statSync(p).mtimeMs : -1;
}

/**
 * Both builds, incremental; resolves to { utilities, bc, gcov } where bc/gcov map each utility
 * to whether its output exists (bc: src/NAME.bc, gcov: the native src/NAME).
 */
export async function buildCoreutils({ srcDir, tsklee, clang, jobs, log }) {
  const dirs = buildDirs(srcDir);
  // configure runs one check at a time: both configure scripts at once use two cores
  await Promise.all([
    configure({ srcDir, buildDir: dirs.bc, env: { CC: clang, CFLAGS: '-g -O0' }, args: CONFIGURE_OPTIONS, log }),
    configure({ srcDir, buildDir: dirs.gcov, env: { CC: 'gcc', CFLAGS: '-g -O0 --coverage', LDFLAGS: '--coverage' }, args: CONFIGURE_OPTIONS, log }),
  ]);
  const names = utilities(dirs.bc);
  const result = { utilities: names, bc: new Map(), gcov: new Map(), dirs };
  for (const [variant, dir] of Object.entries(dirs)) {
    const built = makeVariable(dir, 'BUILT_SOURCES').split(/\s+/).filter((t) => t !== '');
    const targets = names.map((n) => `src/${n}`);
    if (variant === 'bc') {
      // a native program without (or newer than) its bitcode: the link step was cut short; relink it
      for (const t of targets) if (existsSync(join(dir, t)) && mtime(join(dir, `${t}.bc`)) < mtime(join(dir, t))) rmSync(join(dir, t));
    }
    const vars = variant === 'bc' ? [`CC=${tsklee} cc --clang=${clang}`] : [];
    const r = await make({ buildDir: dir, targets: [...built, ...targets], jobs, vars });
    log(r.ran ? `built ${variant} in ${r.seconds.toFixed(0)} s${r.code !== 0 ? ` (make exit ${r.code}: see ${join(dir, 'make.log')})` : ''}` : `${variant} build up to date`);
    for (const n of names) result[variant].set(n, existsSync(join(dir, 'src', variant === 'bc' ? `${n}.bc` : n)));
  }
  return result;
}
