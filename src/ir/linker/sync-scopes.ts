/**
 * Instructions name their synchronization scope by an index into their module's
 * syncScopeNames; in the linked module the indices must refer to the merged list.
 */
import type { Instruction } from '../instructions.js';
import type { Module } from '../module.js';
import type { Function } from '../globals.js';
import { withBody } from '../lazy-body.js';

/** Fills `result.syncScopeNames` from all modules and renumbers the scopes of their atomic instructions. */
export function remapSyncScopes(modules: readonly Module[], result: Module): void {
  const names = [...result.syncScopeNames];
  for (const m of modules) {
    const map = m.syncScopeNames.map((name) => {
      let id = names.indexOf(name);
      if (id < 0) id = names.push(name) - 1;
      return id;
    });
    if (map.every((id, i) => id === i)) continue;
    const remap = (f: Function): void => {
      for (const bb of f.blocks) {
        for (const inst of bb.insts) {
          const scoped = inst as Instruction & { syncScope?: number };
          if (typeof scoped.syncScope === 'number') scoped.syncScope = map[scoped.syncScope] ?? scoped.syncScope;
        }
      }
    };
    for (const f of m.functions) withBody(f, remap);
  }
  result.syncScopeNames = names;
}
