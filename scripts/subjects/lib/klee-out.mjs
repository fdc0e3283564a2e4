/**
 * What one `tsklee run` output directory says: tests, paths, why it stopped, the errors found
 * (grouped by kind and place), the external functions that ended paths, the functions the
 * program calls that nothing defines (warnings.txt), and whether --max-memory cut forking.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

/** .err kinds that are the program's own bugs; the others are the engine's or the model's limits. */
export const BUG_KINDS = new Set(['ptr', 'free', 'overflow', 'abort', 'assert', 'div', 'overshift', 'read_only', 'bad_vector_access', 'report_error']);

function infoNumber(info, what) {
  const m = new RegExp(`done: ${what} = (\\d+)`).exec(info);
  return m === null ? undefined : Number(m[1]);
}

/** `File:`/`Line:` of an .err file, else its innermost stack frame's function. */
function errPlace(text) {
  const file = /^File: (.*)$/m.exec(text)?.[1];
  const line = /^Line: (\d+)$/m.exec(text)?.[1];
  if (file !== undefined) return `${file.split('/').slice(-2).join('/')}:${line ?? '?'}`;
  return /#\d+ in ([^(]+)\(/.exec(text)?.[1] ?? '?';
}

export function readKleeOut(dir) {
  const files = existsSync(dir) ? readdirSync(dir) : [];
  const read = (f) => (files.includes(f) ? readFileSync(join(dir, f), 'utf8') : '');
  const info = read('info');
  const errors = [];
  const externals = new Map();
  for (const f of files.sort()) {
    const m = /^(test\d+)\.([a-z_]+)\.err$/.exec(f);
    if (m === null) continue;
    const text = readFileSync(join(dir, f), 'utf8');
    const message = (/^Error: (.*)$/m.exec(text)?.[1] ?? '').trim();
    const kind = m[2];
    if (kind === 'external') {
      const name = /failed external call: (\S+)/.exec(message)?.[1] ?? message;
      externals.set(name, (externals.get(name) ?? 0) + 1);
      continue;
    }
    errors.push({ test: m[1], kind, message, place: errPlace(text), bug: BUG_KINDS.has(kind) });
  }
  const warnings = read('warnings.txt');
  const undefinedFunctions = [...warnings.matchAll(/undefined reference to function: (\S+)/g)].map((m) => m[1]);
  return {
    finished: /^Finished: /m.test(info) || /done: generated tests/.test(info),
    halted: /^Halted: (.*)$/m.exec(info)?.[1] ?? null,
    tests: files.filter((f) => f.endsWith('.ktest')).length,
    paths: infoNumber(info, 'explored paths'),
    completedPaths: infoNumber(info, 'completed paths'),
    instructions: infoNumber(info, 'total instructions'),
    errors,
    externals: Object.fromEntries(externals),
    undefinedFunctions: [...new Set(undefinedFunctions)].sort(),
    // --max-memory reached: from then on forks were skipped (KLEE's behaviour at its cap)
    memoryCapped: /skipping fork \(memory cap exceeded\)/.test(warnings),
  };
}
