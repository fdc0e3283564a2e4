/**
 * Lazily decoded function bodies (src/ir/lazy-body.ts): the runtime linked and pruned with
 * bodies decoded on first use prints exactly as with every body decoded up front, through
 * the linker's type unification, declaration replacement and local renaming; a pending body
 * gets the linker's rewrites queued before it was decoded.
 */
import { existsSync, readdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from '@jest/globals';
import { loadModule } from '../../../src/load.js';
import { linkModules } from '../../../src/ir/linker.js';
import { printModule } from '../../../src/ir/printer/index.js';
import { isBodyPending, materialize } from '../../../src/ir/lazy-body.js';
import { pruneUnreferenced } from '../../../src/engine/prepare/prune.js';
import type { GlobalValue } from '../../../src/ir/globals.js';
import type { Module } from '../../../src/ir/module.js';

const BUILD = resolve('runtime/build');
const built = existsSync(join(BUILD, 'posix.bc')) && existsSync(join(BUILD, 'libc-bc'));

/** posix.bc and every libc member linked as runtime.ts does, pruned to what `roots` reach. */
function linked(lazy: boolean, roots: string[]): Module {
  const load = (f: string): Module => loadModule([f], { lazyBodies: lazy });
  const posix = load(join(BUILD, 'posix.bc'));
  const members = readdirSync(join(BUILD, 'libc-bc'))
    .filter((f) => f.endsWith('.bc'))
    .sort()
    .map((f) => load(join(BUILD, 'libc-bc', f)));
  const libc = linkModules(members);
  const all = new Set<GlobalValue>();
  for (const m of [posix, libc]) for (const g of [...m.functions, ...m.globals, ...m.aliases, ...m.ifuncs]) all.add(g);
  const m = linkModules([posix, libc]);
  pruneUnreferenced(m, all, roots);
  return m;
}

(built ? describe : describe.skip)('lazy function bodies', () => {
  it('print the pruned runtime as eager decoding does', () => {
    for (const roots of [['__tsklee_posix_main', 'exit'], ['printf', 'qsort', 'strtod', 'getopt_long']]) {
      const eager = linked(false, roots);
      const lazy = linked(true, roots);
      expect(lazy.functions.some((f) => isBodyPending(f))).toBe(false);
      expect(lazy.functions.filter((f) => !f.isDeclaration).length).toBeGreaterThan(5);
      expect(printModule(lazy)).toBe(printModule(eager));
    }
  });

  it('leaves unreached bodies undecoded, and decodes one on materialize', () => {
    const m = loadModule([join(BUILD, 'posix.bc')], { lazyBodies: true });
    const defined = m.functions.filter((f) => !f.isDeclaration);
    expect(defined.length).toBeGreaterThan(50);
    expect(defined.every((f) => isBodyPending(f) && f.blocks.length === 0)).toBe(true);
    const f = defined[0]!;
    materialize(f);
    expect(isBodyPending(f)).toBe(false);
    expect(f.blocks.length).toBeGreaterThan(0);
  });
});
