/**
 * The directory of tsklee's own package: the nearest directory above a module that holds
 * tsklee's package.json. Modules find runtime/, scripts/ and package.json through it rather
 * than by a fixed number of `..`, because the same module runs from the per-module build
 * (dist/engine/prepare/runtime.js) and from the CLI's single-file bundle (dist/cli/), at
 * different depths.
 */
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const PACKAGE_NAME = 'tsklee';
const roots = new Map<string, string>();

/** The package root above the module at `moduleUrl` (its `import.meta.url`). */
export function packageRoot(moduleUrl: string): string {
  const start = dirname(fileURLToPath(moduleUrl));
  let root = roots.get(start);
  if (root === undefined) {
    root = findRoot(start);
    roots.set(start, root);
  }
  return root;
}

function findRoot(start: string): string {
  for (let dir = start; ; dir = dirname(dir)) {
    if (nameOfPackageIn(dir) === PACKAGE_NAME) return dir;
    if (dirname(dir) === dir) throw new Error(`cannot find ${PACKAGE_NAME}'s package.json above ${start}`);
  }
}

function nameOfPackageIn(dir: string): string | undefined {
  let text: string;
  try {
    text = readFileSync(join(dir, 'package.json'), 'utf8');
  } catch {
    return undefined; // no package.json here
  }
  try {
    return (JSON.parse(text) as { name?: string }).name;
  } catch {
    return undefined; // not ours if it is not JSON
  }
}
