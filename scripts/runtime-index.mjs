// The symbol index of a runtime library's members (runtime/build/<lib>-bc/*.bc), written
// beside the linked module as <lib>.index.json, so that tsklee can link only the members a
// program needs, as a linker takes members from an archive (src/engine/prepare/runtime.ts).
//
//   { "members": { "<file relative to runtime/build>": { "defines": [...], "weak": [...], "undefined": [...] } } }
//
// defines: strong external definitions (functions, variables, aliases); weak: weak ones
// (the libc's fallbacks that the POSIX model's definitions replace); undefined: references.

import { execFileSync } from 'node:child_process';
import { renameSync, writeFileSync } from 'node:fs';
import { relative } from 'node:path';

/** Writes the index of `members` (absolute paths under `buildDir`) to `indexPath`. */
export function writeMemberIndex(llvmNm, members, buildDir, indexPath) {
  const out = execFileSync(llvmNm, ['--format=posix', '--extern-only', ...members], { encoding: 'utf8', maxBuffer: 64 << 20 });
  const index = { members: {} };
  let cur = null;
  for (const line of out.split('\n')) {
    if (line.trim() === '') continue;
    if (line.endsWith(':') && !line.includes(' ')) {
      cur = { defines: [], weak: [], undefined: [] };
      index.members[relative(buildDir, line.slice(0, -1))] = cur;
      continue;
    }
    const [name, type] = line.split(' ');
    if (cur === null || name === undefined || type === undefined) continue;
    if (type === 'U') cur.undefined.push(name);
    else if (type === 'W' || type === 'V' || type === 'w' || type === 'v') cur.weak.push(name);
    else cur.defines.push(name);
  }
  const tmp = `${indexPath}.tmp-${process.pid}`;
  writeFileSync(tmp, JSON.stringify(index) + '\n');
  renameSync(tmp, indexPath);
}
