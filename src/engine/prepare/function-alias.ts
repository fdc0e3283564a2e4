/**
 * KLEE's --function-alias=REGEX:NAME (and what klee_alias_function does at run time, here
 * applied once before execution): every use of a function whose whole name matches REGEX —
 * calls and addresses taken — becomes a use of the function NAME. NAME itself is never
 * replaced, so `--function-alias=.*:target` leaves target's own calls alone.
 */
import type { Function } from '../../ir/globals.js';
import { replaceGlobalUses } from '../../ir/linker.js';
import type { Module } from '../../ir/module.js';

export interface FunctionAlias {
  pattern: string;
  target: string;
}

/** A --function-alias value that cannot be applied: one line for the user. */
export class FunctionAliasError extends Error {
  override readonly name = 'FunctionAliasError';
}

/** Parses `REGEX:NAME` (the last colon separates: a regular expression may contain colons). */
export function parseFunctionAlias(text: string): FunctionAlias {
  const colon = text.lastIndexOf(':');
  if (colon <= 0 || colon === text.length - 1) throw new FunctionAliasError(`--function-alias=${text}: expected REGEX:NAME`);
  const alias = { pattern: text.slice(0, colon), target: text.slice(colon + 1) };
  compile(alias);
  return alias;
}

function compile(a: FunctionAlias): RegExp {
  try {
    return new RegExp(`^(?:${a.pattern})$`);
  } catch (e) {
    throw new FunctionAliasError(`--function-alias=${a.pattern}:${a.target}: invalid regular expression (${(e as Error).message})`);
  }
}

/** Applies the aliases to `module` in place; returns what was replaced, as `old → new` pairs. */
export function applyFunctionAliases(module: Module, aliases: readonly FunctionAlias[]): [string, string][] {
  const replaced: [string, string][] = [];
  for (const a of aliases) {
    const target = module.getFunction(a.target);
    if (target === undefined) throw new FunctionAliasError(`--function-alias: no function named '${a.target}' in the module`);
    const re = compile(a);
    const map = new Map<Function, Function>();
    for (const fn of module.functions) {
      if (fn !== target && re.test(fn.name)) map.set(fn, target);
    }
    if (map.size === 0) continue;
    replaceGlobalUses(module, map);
    for (const fn of map.keys()) replaced.push([fn.name, target.name]);
  }
  return replaced;
}
