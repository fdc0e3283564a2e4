/**
 * Choosing which members of the runtime to link, as a linker takes members from an archive:
 * the members defining what the program references, then what those reference, and so on.
 * The runtime libraries are built one bitcode module per C file (runtime/build/<lib>-bc/)
 * with a symbol index beside them (<lib>.index.json, scripts/runtime-index.mjs). Decoding
 * only the members a program needs is most of tsklee's start-up cost with the runtime.
 * A strong definition is preferred to a weak one (the POSIX model's `read` over the libc's
 * ENOSYS fallback); symbols no member defines are left to the engine (special functions) or
 * end as failed external calls.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

interface MemberSymbols {
  defines: string[];
  weak: string[];
  undefined: string[];
}

/** One library's index: member file (relative to `dir`) → its symbols. */
export interface MemberIndex {
  dir: string;
  members: Record<string, MemberSymbols>;
}

/** The index written beside runtime/build/<lib>.bc, or null when there is none (then the whole module is linked). */
export function readMemberIndex(bcPath: string): MemberIndex | null {
  const path = bcPath.replace(/\.bc$/, '.index.json');
  if (!existsSync(path)) return null;
  try {
    const parsed = JSON.parse(readFileSync(path, 'utf8')) as { members?: Record<string, MemberSymbols> };
    const dir = join(bcPath, '..');
    if (parsed.members === undefined || Object.keys(parsed.members).some((m) => !existsSync(join(dir, m)))) return null;
    return { dir, members: parsed.members };
  } catch {
    return null;
  }
}

/**
 * The member files (absolute paths, in index order) needed for the symbols `wanted`, given
 * those the program defines itself. The program's definitions satisfy only its own
 * references: the members' references are to the library's own definitions (as glibc's
 * internal calls go through hidden aliases), so a program's `strlen` does not replace the
 * one printf uses.
 */
export function selectMembers(indexes: readonly MemberIndex[], wanted: Iterable<string>, programDefines: ReadonlySet<string>): string[] {
  const strong = new Map<string, string>();
  const weak = new Map<string, string>();
  const symbols = new Map<string, MemberSymbols>();
  const order: string[] = [];
  for (const ix of indexes) {
    for (const [rel, s] of Object.entries(ix.members)) {
      const path = join(ix.dir, rel);
      symbols.set(path, s);
      order.push(path);
      for (const d of s.defines) if (!strong.has(d)) strong.set(d, path);
      for (const d of s.weak) if (!weak.has(d)) weak.set(d, path);
    }
  }
  const chosen = new Set<string>();
  const resolved = new Set<string>();
  const queue = [...wanted].filter((n) => !programDefines.has(n));
  while (queue.length > 0) {
    const name = queue.pop()!;
    if (resolved.has(name)) continue;
    resolved.add(name);
    const member = strong.get(name) ?? weak.get(name);
    if (member === undefined || chosen.has(member)) continue;
    chosen.add(member);
    const s = symbols.get(member)!;
    for (const d of s.defines) resolved.add(d);
    queue.push(...s.undefined);
  }
  return order.filter((p) => chosen.has(p));
}
