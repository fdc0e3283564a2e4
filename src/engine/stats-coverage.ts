/**
 * What coverage is measured over (KLEE's StatsTracker set-up): every instruction the engine
 * keeps, phis included, in module order ("sites"), with its source line and whether it can be
 * covered at all, and every branch with the edges of each of its sides.
 *
 * The hot loop counts only per prepared instruction (Executor.covered) and per edge taken out
 * of a branch (Executor.edgeTaken); everything here is derived from those counts when a
 * statistic is written, so measuring coverage costs the interpreter nothing more:
 *  - a phi runs each time its block is entered, i.e. as often as the block's first other
 *    instruction (its "count gid");
 *  - an `unreachable` right after a call to a noreturn function cannot be covered (KLEE's
 *    instructionIsCoverable) and is left out of the covered/uncovered counts;
 *  - branches: a conditional `br` has two sides (KLEE's NumBranches/FullBranches/
 *    PartialBranches count only these); a `switch` has one side per distinct target block
 *    (default included) and `indirectbr` one per destination, which line coverage reports
 *    (lcov's BRDA records) also show.
 * A function is the program's unless it came from tsklee's runtime (libc, POSIX model):
 * `programOnly` summaries leave the runtime's functions out.
 */
import { baseInst } from './prepare/poison.js';
import { Opcode, ValueKind, type CallInst, type Function, type Instruction } from '../ir/index.js';
import { scopeFile, type DISubprogram } from '../ir/metadata.js';
import { Op, type Edge, type KFunction } from './prepare/kinst.js';
import type { KModule, SwitchInfo } from './prepare/kmodule.js';
import { isRuntimeFunction } from './prepare/runtime-functions.js';

export interface FunctionSites {
  kf: KFunction;
  name: string;
  /** From tsklee's runtime (libc, POSIX model), not the program. */
  runtime: boolean;
  /** Index in CoverageModel.files of the function's own file (-1: unknown), and its first line. */
  file: number;
  line: number;
  /** Its sites are [start, end). */
  start: number;
  end: number;
}

export interface BranchSite {
  /** The branch instruction's gid, function index, file index (-1: unknown) and line. */
  gid: number;
  fn: number;
  file: number;
  line: number;
  /** A conditional br (KLEE's notion of a branch); otherwise a switch or an indirectbr. */
  conditional: boolean;
  /** Per side (true, false for a br; per target block for a switch), the edges that take it. */
  sides: number[][];
}

/** Covered lines of the module (of lineCount), and the program's own covered / all instructions, lines and branch sides. */
export interface DetailedCounts {
  lines: number;
  programInstructions: number;
  programCoveredInstructions: number;
  programLines: number;
  programCoveredLines: number;
  programBranchSides: number;
  programCoveredBranchSides: number;
}

export class CoverageModel {
  /** Distinct source file paths (absolute when the debug info says so). */
  readonly files: string[] = [];
  readonly functions: FunctionSites[] = [];
  readonly siteInst: Instruction[] = [];
  /** Executor.covered index holding the site's execution count. */
  readonly siteCountGid: Int32Array;
  /** The site's own prepared instruction (per-instruction statistics), -1 for a phi. */
  readonly siteGid: Int32Array;
  readonly siteFile: Int32Array;
  readonly siteLine: Int32Array;
  readonly siteCoverable: Uint8Array;
  readonly siteFn: Int32Array;
  readonly branches: BranchSite[] = [];
  /** Coverable sites in all functions. */
  readonly coverableCount: number;
  /** Per site, its source line's number among all (file, line) pairs (-1: no location). */
  readonly siteLineId: Int32Array;
  /** Distinct source lines, and which of them hold code of the program (not only the runtime's). */
  readonly lineCount: number;
  readonly programLine: Uint8Array;
  /** Sites whose count is another instruction's (phis) or that are not coverable: what coveredCount alone misses. */
  private readonly adjustSites: number[] = [];
  private readonly fileIndex = new Map<string, number>();

  constructor(readonly km: KModule) {
    const sites: { inst: Instruction; countGid: number; gid: number; file: number; line: number; coverable: boolean; fn: number }[] = [];
    for (const kf of km.functions.values()) {
      if (kf.isDeclaration || kf.insts.length === 0) continue;
      const fnIndex = this.functions.length;
      const sp = kf.fn.subprogram as DISubprogram | null;
      const spFile = sp !== null ? (scopeFile(sp)?.path ?? '') : '';
      const start = sites.length;
      const blocks = kf.fn.blocks;
      for (let b = 0; b < blocks.length; b++) {
        const bb = blocks[b]!;
        const first = kf.blockPc[b]!;
        const last = b + 1 < blocks.length ? kf.blockPc[b + 1]! : kf.insts.length;
        const entryGid = first < last ? kf.insts[first]!.gid : -1;
        for (const inst of bb.insts) {
          if (inst.opcode !== Opcode.Phi) break;
          const loc = inst.debugLoc;
          const file = loc !== null ? this.file(scopeFile(loc.scope)?.path ?? '') : -1;
          sites.push({ inst, countGid: entryGid, gid: -1, file, line: loc?.line ?? 0, coverable: entryGid >= 0, fn: fnIndex });
        }
        for (let pc = first; pc < last; pc++) {
          const ki = kf.insts[pc]!;
          const file = this.file(ki.file);
          sites.push({ inst: ki.inst, countGid: ki.gid, gid: ki.gid, file, line: ki.line, coverable: isCoverable(ki.inst), fn: fnIndex });
          const bk = baseInst(ki); // a poison check wraps the branch it guards
          const branch = branchSides(bk.op, bk.aux);
          if (branch !== null) this.branches.push({ gid: ki.gid, fn: fnIndex, file, line: ki.line, conditional: bk.op === Op.CondBr || bk.op === Op.CondBrSlow, sides: branch });
        }
      }
      const firstLine = sp?.line ?? sites[start]?.line ?? 0;
      this.functions.push({ kf, name: kf.name, runtime: isRuntimeFunction(kf.fn), file: spFile !== '' ? this.file(spFile) : (sites[start]?.file ?? -1), line: firstLine, start, end: sites.length });
    }
    const n = sites.length;
    this.siteCountGid = new Int32Array(n);
    this.siteGid = new Int32Array(n);
    this.siteFile = new Int32Array(n);
    this.siteLine = new Int32Array(n);
    this.siteCoverable = new Uint8Array(n);
    this.siteFn = new Int32Array(n);
    let coverable = 0;
    sites.forEach((s, i) => {
      this.siteInst.push(s.inst);
      this.siteCountGid[i] = s.countGid;
      this.siteGid[i] = s.gid;
      this.siteFile[i] = s.file;
      this.siteLine[i] = s.line;
      this.siteCoverable[i] = s.coverable ? 1 : 0;
      this.siteFn[i] = s.fn;
      if (s.coverable) coverable++;
      if (s.gid < 0 || !s.coverable) this.adjustSites.push(i);
    });
    this.coverableCount = coverable;
    this.siteLineId = new Int32Array(n).fill(-1);
    const lineIds = new Map<number, number>();
    const program: number[] = [];
    for (let i = 0; i < n; i++) {
      const file = this.siteFile[i]!;
      const line = this.siteLine[i]!;
      if (file < 0 || line <= 0) continue;
      const key = file * 2 ** 24 + line;
      let id = lineIds.get(key);
      if (id === undefined) {
        id = lineIds.size;
        lineIds.set(key, id);
        program.push(0);
      }
      this.siteLineId[i] = id;
      if (!this.functions[this.siteFn[i]!]!.runtime) program[id] = 1;
    }
    this.lineCount = lineIds.size;
    this.programLine = Uint8Array.from(program);
  }

  /**
   * Coverage of the whole module and of the program's own functions: covered / all of the
   * coverable instructions, source lines and branch sides (tsklee's run.stats columns).
   */
  detailedCounts(covered: Float64Array, edgeTaken: Float64Array): DetailedCounts {
    const c: DetailedCounts = { lines: 0, programInstructions: 0, programCoveredInstructions: 0, programLines: 0, programCoveredLines: 0, programBranchSides: 0, programCoveredBranchSides: 0 };
    const hit = new Uint8Array(this.lineCount);
    for (let i = 0; i < this.siteCountGid.length; i++) {
      const ran = this.count(covered, i) > 0;
      const id = this.siteLineId[i]!;
      if (ran && id >= 0) hit[id] = 1;
      if (this.siteCoverable[i] === 1 && !this.functions[this.siteFn[i]!]!.runtime) {
        c.programInstructions++;
        if (ran) c.programCoveredInstructions++;
      }
    }
    for (let id = 0; id < this.lineCount; id++) {
      if (hit[id] === 1) c.lines++;
      if (this.programLine[id] === 1) {
        c.programLines++;
        if (hit[id] === 1) c.programCoveredLines++;
      }
    }
    for (const b of this.branches) {
      if (this.functions[b.fn]!.runtime) continue;
      c.programBranchSides += b.sides.length;
      c.programCoveredBranchSides += sidesTaken(b, edgeTaken);
    }
    return c;
  }

  /** Times the site ran. */
  count(covered: Float64Array, site: number): number {
    const g = this.siteCountGid[site]!;
    return g >= 0 ? covered[g]! : 0;
  }

  /**
   * Covered coverable sites in the whole module (KLEE's CoveredInstructions): the executor's
   * count of covered prepared instructions, corrected for phis and uncoverable ones.
   */
  coveredInstructions(covered: Float64Array, coveredCount: number): number {
    let n = coveredCount;
    for (const i of this.adjustSites) {
      const ran = this.count(covered, i) > 0;
      if (!ran) continue;
      if (this.siteGid[i]! < 0 && this.siteCoverable[i] === 1) n++; // a phi: not in coveredCount
      else if (this.siteGid[i]! >= 0 && this.siteCoverable[i] === 0) n--; // counted, but not coverable
    }
    return n;
  }

  /** Conditional branches with both / one side taken, and their number (KLEE's FullBranches, PartialBranches, NumBranches). */
  branchCounts(edgeTaken: Float64Array): { full: number; partial: number; total: number } {
    let full = 0;
    let partial = 0;
    let total = 0;
    for (const b of this.branches) {
      if (!b.conditional) continue;
      total++;
      const taken = sidesTaken(b, edgeTaken);
      if (taken === 2) full++;
      else if (taken === 1) partial++;
    }
    return { full, partial, total };
  }

  private file(path: string): number {
    if (path === '') return -1;
    let i = this.fileIndex.get(path);
    if (i === undefined) {
      i = this.files.length;
      this.files.push(path);
      this.fileIndex.set(path, i);
    }
    return i;
  }
}

/** Times each side of a branch was taken. */
export function sideCounts(b: BranchSite, edgeTaken: Float64Array): number[] {
  return b.sides.map((edges) => edges.reduce((sum, e) => sum + edgeTaken[e]!, 0));
}

/** Sides of a branch taken at least once. */
export function sidesTaken(b: BranchSite, edgeTaken: Float64Array): number {
  let n = 0;
  for (const edges of b.sides) if (edges.some((e) => edgeTaken[e]! > 0)) n++;
  return n;
}

/** The sides of a branching instruction (edge ids grouped by target block), or null for any other instruction. */
function branchSides(op: Op, aux: unknown): number[][] | null {
  switch (op) {
    case Op.CondBr:
    case Op.CondBrSlow: // --write-paths / --replay-path take it through the general path
      return (aux as Edge[]).map((e) => [e.id]);
    case Op.Switch: {
      const s = aux as SwitchInfo;
      return groupByBlock([s.defaultEdge, ...s.edges]);
    }
    case Op.IndirectBr:
      return groupByBlock((aux as { edge: Edge }[]).map((d) => d.edge));
    default:
      return null;
  }
}

function groupByBlock(edges: Edge[]): number[][] {
  const byBlock = new Map<number, number[]>();
  for (const e of edges) {
    const list = byBlock.get(e.block);
    if (list === undefined) byBlock.set(e.block, [e.id]);
    else list.push(e.id);
  }
  return [...byBlock.values()];
}

/**
 * KLEE's instructionIsCoverable: an `unreachable` right after a call to a function that does
 * not return is only there to end the block, and can never run.
 */
function isCoverable(inst: Instruction): boolean {
  if (inst.opcode !== Opcode.Unreachable) return true;
  const insts = inst.parent.insts;
  const i = insts.indexOf(inst);
  const prev = i > 0 ? insts[i - 1] : undefined;
  if (prev === undefined || prev.opcode !== Opcode.Call) return true;
  const call = prev as CallInst;
  const callee = call.callee;
  if (call.attributes.hasFnAttr('noreturn')) return false;
  return !(callee.vkind === ValueKind.Function && (callee as Function).attributes.hasFnAttr('noreturn'));
}
