/**
 * A subject's source tree in the cache: Debian's source package (`apt-get source NAME`, the
 * version of the machine's own release, Debian's patches applied) or a tarball the user
 * names. Fetched once; the unpacked directory is reused by every later call.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync } from 'node:fs';
import { basename, join, resolve } from 'node:path';
import { SubjectError } from './errors.mjs';

const DEB_SRC_HINT =
  "add a deb-src line for this machine's release and update, e.g. " +
  "echo 'deb-src http://deb.debian.org/debian bookworm main' > /etc/apt/sources.list.d/deb-src.list && apt-get update";

/** `coreutils_9.1-1.dsc` → { version: '9.1-1', upstream: '9.1' } from `apt-get source --print-uris`. */
function debianVersion(pkg, cacheDir) {
  const r = spawnSync('apt-get', ['source', '--print-uris', pkg], { cwd: cacheDir, encoding: 'utf8' });
  if (r.error !== undefined) throw new SubjectError(`cannot run apt-get (${r.error.message}): this needs a Debian machine, or --tarball FILE`);
  const out = `${r.stdout}\n${r.stderr}`;
  if (/deb-src/.test(out) && r.status !== 0) throw new SubjectError(`apt-get source ${pkg}: no source packages known: ${DEB_SRC_HINT}`);
  const m = new RegExp(`\\b${pkg}_([^\\s'_]+)\\.dsc\\b`).exec(out);
  if (r.status !== 0 || m === null) throw new SubjectError(`apt-get source --print-uris ${pkg} failed: ${out.trim().split('\n').pop()}`);
  const version = m[1].replace(/^\d+:/, '');
  return { version, upstream: version.replace(/-[^-]+$/, '') };
}

/**
 * The unpacked source directory of `pkg` under `cacheDir`, fetching it when missing.
 * `tarball`: a local .tar.* to unpack instead of Debian's package. `marker`: the file whose
 * presence says the tree is unpacked (`configure`; `CMakeLists.txt` for CMake projects).
 */
export function fetchSource({ pkg, cacheDir, tarball, log, marker = 'configure' }) {
  mkdirSync(cacheDir, { recursive: true });
  if (tarball !== undefined) {
    const file = resolve(tarball);
    if (!existsSync(file)) throw new SubjectError(`--tarball ${tarball}: no such file`);
    const top = execFileSync('tar', ['tf', file], { encoding: 'utf8', maxBuffer: 64 << 20 }).split('\n')[0].split('/')[0];
    if (!top) throw new SubjectError(`--tarball ${tarball}: empty archive`);
    const dir = join(cacheDir, top);
    if (!existsSync(join(dir, marker))) {
      log(`unpacking ${basename(file)} into ${cacheDir}`);
      execFileSync('tar', ['xf', file, '-C', cacheDir], { stdio: 'inherit' });
    }
    return { dir, version: top.replace(new RegExp(`^${pkg}-`), ''), origin: file };
  }
  const { version, upstream } = debianVersion(pkg, cacheDir);
  const dir = join(cacheDir, `${pkg}-${upstream}`);
  if (!existsSync(join(dir, marker))) {
    log(`apt-get source ${pkg} (${version}) into ${cacheDir}`);
    const r = spawnSync('apt-get', ['source', pkg], { cwd: cacheDir, stdio: ['ignore', 'inherit', 'inherit'] });
    if (r.status !== 0 || !existsSync(join(dir, marker))) {
      const have = readdirSync(cacheDir).join(', ');
      throw new SubjectError(`apt-get source ${pkg} did not give ${dir} (the cache holds: ${have || 'nothing'})`);
    }
  }
  return { dir, version, origin: `Debian source package ${pkg} ${version}` };
}
