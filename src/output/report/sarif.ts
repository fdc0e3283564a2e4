/**
 * errors.sarif: a run's errors as a SARIF 2.1.0 log (OASIS's Static Analysis Results
 * Interchange Format), which code-scanning services and editors read. One rule per error
 * kind (the .err suffix), one result per error: its message, its source location, its stack
 * (SARIF's `stacks`), and in `properties` the test, its input bytes and the replay command.
 * The machine-readable summary (--format=json) is `reportJson`.
 */
import { pathToFileURL } from 'node:url';
import type { ReportError, RunReport } from './model.js';

const RULES: Record<string, string> = {
  ptr: 'memory error: an access through an out-of-bounds, null or freed pointer',
  free: 'invalid free: of a pointer not from malloc, or freed twice',
  div: 'division by zero',
  overshift: 'shift by at least the bit width',
  assert: 'assertion failure',
  abort: 'abort() called',
  user: 'invalid use of a klee_* function',
  exec: 'execution error: an unsupported or unreachable instruction, or a stack overflow',
  external: 'call to a function neither the program nor the runtime defines',
  model: 'a value the memory model cannot handle (e.g. a symbolic allocation size)',
  overflow: 'integer overflow',
  read_only: 'write to read-only memory',
  report_error: 'error reported by klee_report_error',
  solver: 'the solver failed or timed out on a query',
};

interface SarifLocation {
  physicalLocation?: { artifactLocation: { uri: string }; region?: { startLine: number } };
  logicalLocations?: { name: string; kind: string }[];
  message?: { text: string };
}

function location(file: string | undefined, line: number | undefined, fn?: string): SarifLocation {
  const loc: SarifLocation = {};
  if (file !== undefined && file !== '') {
    loc.physicalLocation = { artifactLocation: { uri: file.startsWith('/') ? pathToFileURL(file).href : file } };
    if (line !== undefined && line >= 1) loc.physicalLocation.region = { startLine: line };
  }
  if (fn !== undefined && fn !== '') loc.logicalLocations = [{ name: fn, kind: 'function' }];
  return loc;
}

function result(e: ReportError, ruleIndex: number): object {
  const frames = e.stack.map((f) => ({ location: { ...location(f.file, f.line, f.fn), message: { text: f.text } } }));
  return {
    ruleId: e.kind,
    ruleIndex,
    level: 'error',
    message: { text: e.message },
    locations: [location(e.file, e.line, e.stack[0]?.fn)],
    ...(frames.length > 0 ? { stacks: [{ message: { text: 'call stack, innermost frame first' }, frames }] } : {}),
    properties: { test: e.test, replay: e.replay, inputs: e.inputs.map((o) => ({ name: o.name, hex: o.hex })) },
  };
}

export function reportSarif(r: RunReport, version: string): object {
  const kinds = [...new Set(r.errors.map((e) => e.kind))].sort();
  return {
    $schema: 'https://json.schemastore.org/sarif-2.1.0.json',
    version: '2.1.0',
    runs: [
      {
        tool: {
          driver: {
            name: 'tsklee',
            version,
            informationUri: 'https://klee-se.org',
            rules: kinds.map((k) => ({ id: k, shortDescription: { text: RULES[k] ?? `error reported as ${k}` } })),
          },
        },
        invocations: [{ commandLine: r.command, executionSuccessful: true }],
        results: r.errors.map((e) => result(e, kinds.indexOf(e.kind))),
      },
    ],
  };
}

/** The machine-readable summary of a run (--format=json). */
export function reportJson(r: RunReport): object {
  const lastRow: Record<string, number> = {};
  if (r.stats !== null && r.stats.rows.length > 0) r.stats.columns.forEach((c, i) => (lastRow[c] = r.stats!.rows[r.stats!.rows.length - 1]![i]!));
  return {
    dir: r.dir,
    command: r.command,
    haltReason: r.haltReason ?? null,
    done: r.done,
    coverage: r.sources.map((s) => ({
      file: s.path,
      lines: { covered: s.lines.filter((l) => l.hits > 0).length, total: s.lines.length },
      branches: { covered: s.branches.filter((b) => b.taken !== null && b.taken > 0).length, total: s.branches.length },
      functions: s.functions.map((f) => ({ name: f.name, line: f.line, calls: f.hits })),
      uncoveredLines: s.lines.filter((l) => l.hits === 0).map((l) => l.line),
    })),
    errors: r.errors,
    tests: r.tests,
    stats: lastRow,
  };
}
