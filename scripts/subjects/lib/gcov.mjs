/**
 * Line and branch coverage from gcc's gcov, for a set of objects whose .gcda files were
 * written under a GCOV_PREFIX directory (each utility its own, so utilities replayed side
 * by side and the library objects they share never mix counts).
 *
 * gcov's JSON lines are merged per (file, line): a line is covered when any object executed it
 * (headers are compiled into several objects); a branch is covered when it was taken at least
 * once (gcov's "taken at least once"; exception edges left out, as lcov does).
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, symlinkSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';

/** The .gcda directory gcc's runtime writes for objects under `objDir` with GCOV_PREFIX=`prefix`. */
export function prefixedDir(prefix, objDir) {
  return join(prefix, resolve(objDir));
}

/**
 * Runs gcov on `objects` (absolute paths of .o files of a --coverage build). Their .gcno are
 * linked beside the .gcda under `prefix` (a missing .gcda: gcov counts the object's lines as
 * never run). Returns Map<file, Map<line, { hit, branches: boolean[] }>>.
 */
export function gcovLines(objects, prefix) {
  const byDir = new Map();
  for (const o of objects) {
    const d = dirname(o);
    if (!byDir.has(d)) byDir.set(d, []);
    byDir.get(d).push(o);
  }
  const files = new Map();
  for (const [objDir, objs] of byDir) {
    const dataDir = prefixedDir(prefix, objDir);
    mkdirSync(dataDir, { recursive: true });
    const names = [];
    for (const o of objs) {
      const stem = basename(o, '.o');
      const gcno = join(objDir, `${stem}.gcno`);
      if (!existsSync(gcno)) continue;
      if (!existsSync(join(dataDir, `${stem}.gcno`))) symlinkSync(gcno, join(dataDir, `${stem}.gcno`));
      names.push(`${stem}.o`);
    }
    if (names.length === 0) continue;
    // one JSON document per object on stdout, one per line
    const out = execFileSync('gcov', ['--json-format', '--stdout', '--branch-probabilities', '-o', dataDir, ...names], { cwd: dataDir, encoding: 'utf8', maxBuffer: 512 << 20, stdio: ['ignore', 'pipe', 'ignore'] });
    for (const doc of out.split('\n')) {
      if (doc.trim() === '') continue;
      const j = JSON.parse(doc);
      for (const f of j.files) {
        const file = resolve(j.current_working_directory ?? objDir, f.file);
        if (!files.has(file)) files.set(file, new Map());
        const lines = files.get(file);
        for (const l of f.lines) {
          const branches = l.branches.filter((b) => !b.throw).map((b) => b.count > 0);
          const prev = lines.get(l.line_number);
          if (prev === undefined) lines.set(l.line_number, { hit: l.count > 0, branches });
          else {
            prev.hit ||= l.count > 0;
            // the same line in another object: its branches are the same code compiled again
            if (prev.branches.length === branches.length) prev.branches = prev.branches.map((b, i) => b || branches[i]);
          }
        }
      }
    }
  }
  return files;
}

/** Totals over the files `keep` selects: { lines, linesHit, branches, branchesHit }. */
export function totals(files, keep = () => true) {
  const t = { files: 0, lines: 0, linesHit: 0, branches: 0, branchesHit: 0 };
  for (const [file, lines] of files) {
    if (!keep(file)) continue;
    t.files++;
    for (const l of lines.values()) {
      t.lines++;
      if (l.hit) t.linesHit++;
      t.branches += l.branches.length;
      t.branchesHit += l.branches.filter(Boolean).length;
    }
  }
  return t;
}
