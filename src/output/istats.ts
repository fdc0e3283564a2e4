/**
 * `run.istats`: per-instruction statistics in the callgrind profile format (the format of
 * valgrind's callgrind, read by KCachegrind and callgrind_annotate), laid out as KLEE's
 * StatsTracker::writeIStats writes it:
 *
 *   version: 1
 *   creator: klee                   (KLEE's word: tools that recognise KLEE's files keep working)
 *   pid: 4242
 *   cmd: prog.bc
 *
 *   positions: instr line           each cost line: instruction position, source line, costs
 *   event: Q : Queries              one line per event, then the events line in column order
 *   events: Q Qv …
 *   ob=…/assembly.ll                what the instruction positions refer to
 *   fl=/src/prog.c                  the function's file, then
 *   fn=main                         the function,
 *   12 5 0 0 …                      and one line per instruction (phis included)
 *   fi=/usr/include/x.h             an instruction from another file (inlined code) …
 *   fe=/src/prog.c                  … and back (callgrind's inline markers; KLEE repeats fl=)
 *   totals: …                       the sum of each event
 *
 * Lines with no source location have line 0, as in KLEE. parseIStats reads such a file back
 * (totals per file and line), for `tsklee stats`, reports and tests.
 */

export interface IStatsEvent {
  /** Column name (KLEE's statistic short name, e.g. Icov). */
  short: string;
  /** What it counts (KLEE's statistic name, e.g. CoveredInstructions). */
  long: string;
}

export interface IStatsLine {
  /** The instruction's file ('' when unknown), position and source line. */
  file: string;
  instr: number;
  line: number;
  /** One value per event, in the events' order. */
  costs: readonly number[];
}

export interface IStatsFunction {
  name: string;
  /** The function's own file ('' when unknown). */
  file: string;
  lines: IStatsLine[];
}

export interface IStatsInput {
  pid: number;
  /** The command (KLEE: the module's identifier). */
  cmd: string;
  /** The file instruction positions refer to (ob=). */
  objectFile: string;
  events: readonly IStatsEvent[];
  functions: readonly IStatsFunction[];
}

/** Costs are whole numbers in callgrind files. */
function cost(v: number): string {
  return Number.isFinite(v) ? String(Math.round(v)) : '0';
}

export function formatIStats(d: IStatsInput): string {
  const out: string[] = [`version: 1`, `creator: klee`, `pid: ${d.pid}`, `cmd: ${d.cmd}`, '', '', 'positions: instr line'];
  for (const e of d.events) out.push(`event: ${e.short} : ${e.long}`);
  out.push(`events: ${d.events.map((e) => e.short).join(' ')}`);
  out.push(`ob=${d.objectFile}`);
  const totals = new Array<number>(d.events.length).fill(0);
  let fl: string | null = null;
  for (const fn of d.functions) {
    if (fn.file !== fl) {
      out.push(`fl=${fn.file}`);
      fl = fn.file;
    }
    out.push(`fn=${fn.name}`);
    let current = fn.file;
    for (const l of fn.lines) {
      if (l.file !== current) {
        out.push(l.file === fn.file ? `fe=${l.file}` : `fi=${l.file}`);
        current = l.file;
      }
      let row = `${l.instr} ${l.line}`;
      for (let i = 0; i < d.events.length; i++) {
        const v = l.costs[i] ?? 0;
        totals[i] += v;
        row += ` ${cost(v)}`;
      }
      out.push(row);
    }
  }
  out.push(`totals: ${totals.map(cost).join(' ')}`);
  return `${out.join('\n')}\n`;
}

export interface ParsedIStats {
  events: string[];
  /** Sum of each event per source file and line ("file:line" → costs). */
  byLine: Map<string, number[]>;
  /** Sum of each event over the whole file. */
  totals: number[];
  /** Sum of each event per function (by name). */
  byFunction: Map<string, number[]>;
}

/** Reads a run.istats (KLEE's or tsklee's): sums per source line and per function. Throws on a malformed file. */
export function parseIStats(text: string): ParsedIStats {
  let events: string[] | null = null;
  const byLine = new Map<string, number[]>();
  const byFunction = new Map<string, number[]>();
  let totals: number[] = [];
  let fnFile = '';
  let file = '';
  let fn = '';
  let skipNext = false;
  const add = (map: Map<string, number[]>, key: string, costs: number[]): void => {
    const cur = map.get(key);
    if (cur === undefined) map.set(key, costs.slice());
    else for (let i = 0; i < costs.length; i++) cur[i]! += costs[i]!;
  };
  const lines = text.split('\n');
  for (let n = 0; n < lines.length; n++) {
    const raw = lines[n]!;
    if (raw === '' || raw.startsWith('#')) continue;
    if (raw.startsWith('events:')) {
      events = raw.slice(7).trim().split(/\s+/);
      totals = new Array<number>(events.length).fill(0);
      continue;
    }
    const eq = /^(fl|fi|fe|fn|ob|cfl|cfi|cfn|cob)=(.*)$/.exec(raw);
    if (eq !== null) {
      const [, key, value] = eq;
      if (key === 'fl') fnFile = file = value!;
      else if (key === 'fi' || key === 'fe') file = value!;
      else if (key === 'fn') {
        fn = value!;
        file = fnFile;
      }
      continue;
    }
    if (raw.startsWith('calls=')) {
      skipNext = true; // the next cost line is the call's inclusive cost, not this function's own
      continue;
    }
    if (/^[a-z]+:/.test(raw)) continue; // version:, creator:, positions:, event:, totals:, …
    if (events === null) throw new Error(`run.istats line ${n + 1}: a cost line before the events line`);
    const parts = raw.trim().split(/\s+/).map(Number);
    if (parts.some((v) => !Number.isFinite(v)) || parts.length < 2) throw new Error(`run.istats line ${n + 1}: not a cost line: ${raw.slice(0, 60)}`);
    if (skipNext) {
      skipNext = false;
      continue;
    }
    const costs = events.map((_, i) => parts[2 + i] ?? 0);
    add(byLine, `${file}:${parts[1]}`, costs);
    add(byFunction, fn, costs);
    for (let i = 0; i < costs.length; i++) totals[i]! += costs[i]!;
  }
  if (events === null) throw new Error('run.istats: no events line');
  return { events, byLine, totals, byFunction };
}
