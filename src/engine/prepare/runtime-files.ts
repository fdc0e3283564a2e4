/**
 * Where the C runtime's bitcode comes from (runtime/build/, linked by runtime.ts).
 *
 * - A source checkout (the runtime's C sources and its build scripts are there): the bitcode
 *   is (re)built on first use when missing or older than its sources (scripts/build-runtime-
 *   *.mjs, a few ms when up to date).
 * - An installed package (npm install -g tsklee): neither is shipped (package.json `files`),
 *   so nothing is ever built there: the package holds the bitcode that `npm pack` built
 *   (scripts/prepack.mjs), its directory may be read-only, and the user needs no clang, since
 *   tsklee's own reader reads the bitcode. The libc ships as its members and their index
 *   (members.ts), without the whole-library libc.bc that only a missing index falls back to.
 */
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { packageRoot } from '../../util/package-root.js';
import { readMemberIndex } from './members.js';

export type RuntimePart = 'libc' | 'posix';

/** The runtime cannot be linked as asked (missing bitcode, incompatible program): one line for the user. */
export class RuntimeSetupError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'RuntimeSetupError';
  }
}

const ROOT = packageRoot(import.meta.url);

/** The script that builds `part` in a source checkout, or undefined in an installed package. */
function buildScript(part: RuntimePart): string | undefined {
  const script = join(ROOT, 'scripts', `build-runtime-${part}.mjs`);
  return existsSync(script) && existsSync(join(ROOT, 'runtime', part)) ? script : undefined;
}

/**
 * Newest modification time of the files under `dir` (recursively) and of `files`; Infinity
 * when one cannot be read (the build script then decides).
 */
function newestMtime(dirs: readonly string[], files: readonly string[]): number {
  let newest = 0;
  const visit = (path: string): void => {
    const st = statSync(path, { throwIfNoEntry: false });
    if (st === undefined) {
      newest = Infinity;
    } else if (st.isDirectory()) {
      for (const name of readdirSync(path)) visit(join(path, name));
    } else if (st.mtimeMs > newest) {
      newest = st.mtimeMs;
    }
  };
  for (const p of [...dirs, ...files]) visit(p);
  return newest;
}

/**
 * Whether root's runtime/build/<part>.bc is surely up to date, checked without the build
 * script: importing an ES module from the bundle starts Node's ES module loader (~20 ms of
 * CPU and more of wall time on every run). The inputs are a superset of the script's own (every file of the
 * part's sources and of runtime/include, and the build scripts), so a false answer only
 * means the script checks again; a true one is never wrong where the script would rebuild.
 */
export function runtimeSurelyUpToDate(root: string, part: RuntimePart): boolean {
  const out = statSync(join(root, 'runtime', 'build', `${part}.bc`), { throwIfNoEntry: false });
  if (out === undefined) return false;
  if (part === 'libc' && !existsSync(join(root, 'runtime', 'build', 'libc.index.json'))) return false;
  const scripts = ['build-runtime-libc.mjs', 'build-runtime-posix.mjs', 'runtime-build-common.mjs', 'runtime-index.mjs'].map((f) => join(root, 'scripts', f));
  return out.mtimeMs >= newestMtime([join(root, 'runtime', part), join(root, 'runtime', 'include')], scripts);
}

/** Path of runtime/build/<part>.bc (for the libc, its member index may stand in for it), built first in a source checkout. */
export async function runtimeBitcode(part: RuntimePart): Promise<string> {
  const rel = `runtime/build/${part}.bc`;
  const bc = join(ROOT, rel);
  const script = buildScript(part);
  if (script !== undefined && !runtimeSurelyUpToDate(ROOT, part)) {
    try {
      const mod = (await import(pathToFileURL(script).href)) as { buildBitcode(o: { quiet: boolean }): string };
      mod.buildBitcode({ quiet: true });
    } catch (e) {
      throw new RuntimeSetupError(`cannot build ${rel}: ${(e as Error).message.split('\n')[0]}`);
    }
  }
  if (existsSync(bc) || (part === 'libc' && readMemberIndex(bc) !== null)) return bc;
  throw new RuntimeSetupError(
    script !== undefined ? `${rel} is missing (run: npm run build:runtime)` : `${rel} is missing from this installation of tsklee (${ROOT}): reinstall the tsklee package`,
  );
}
