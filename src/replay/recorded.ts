/**
 * What `tsklee run` recorded about a test, beside its .ktest (runtime/posix/README.md, "Contract
 * with the engine"): testN.stdout / testN.stderr (console output; missing = empty), its line in
 * the directory's exit-status.txt (src/output/exit-status.ts: the exit status as a shell sees
 * it, for paths that exited), and the .err / .early reports of paths that did not.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { readExitStatuses } from '../output/exit-status.js';

export interface RecordedOutcome {
  /** Exit status, when the path exited. */
  exit?: number;
  stdout: Buffer;
  /** The kind of the .err file (`ptr`, `abort`, `assert`, …), when the path ended with an error. */
  errKind?: string;
  /** The path was stopped early (.early). */
  early: boolean;
  /** Whether any recording exists (a test copied out of its directory has none). */
  present: boolean;
}

/** One output directory's records, read once for all its tests. */
export class RecordedDir {
  private readonly names: ReadonlySet<string>;
  /** Test stem → the kind of its .err file. */
  private readonly errKinds = new Map<string, string>();
  private readonly statuses: Map<string, number | null>;

  constructor(readonly dir: string) {
    const names = readdirSync(dir);
    this.names = new Set(names);
    for (const n of names) {
      const m = /^(test\d+)\.(.+)\.err$/.exec(n);
      if (m !== null) this.errKinds.set(m[1]!, m[2]!);
    }
    this.statuses = readExitStatuses(dir);
  }

  /** The record of the test `ktestPath` (a file of this directory). */
  outcome(ktestPath: string): RecordedOutcome {
    const stem = basename(ktestPath, '.ktest');
    const status = this.statuses.get(stem);
    const hasStdout = this.names.has(`${stem}.stdout`);
    const stdout = hasStdout ? readFileSync(join(this.dir, `${stem}.stdout`)) : Buffer.alloc(0);
    const errKind = this.errKinds.get(stem);
    const early = this.names.has(`${stem}.early`);
    return { exit: status ?? undefined, stdout, errKind, early, present: status !== undefined || errKind !== undefined || early || hasStdout };
  }
}
