/**
 * An execution state (KLEE's ExecutionState): one path through the program.
 *
 * Forking is cheap (DESIGN decision 6): the memory is shared copy-on-write, the
 * constraint set is shared copy-on-write (solver/layers/constraint-set.ts), and stack
 * frames are shared until a state writes into one (`frozen` frames are cloned on demand).
 * A frame counts the states sharing it, so the last of them (the others ended) writes it in
 * place; the count may be too high (a popped frame is not uncounted), never too low.
 */
import type { Expr } from '../expr/expr.js';
import type { ExprArray } from '../expr/array.js';
import type { StateMemory } from '../memory/model.js';
import type { MemoryObject } from '../memory/memory-object.js';
import type { PTreeNode, SearchableState } from './searchers/searcher.js';
import type { KFunction } from './prepare/kinst.js';
import type { Val } from './values.js';
import { ConstraintSet } from '../solver/layers/constraint-set.js';
import type { Termination } from './errors.js';
import type { MergeGroup } from './merging/manual.js';
import type { ConsoleChunk } from './special/console.js';

export class StackFrame {
  /** Heap-like objects of this frame, freed when it returns (allocas). */
  allocas: MemoryObject[] | null = null;
  /** The variadic arguments of this call (KLEE lays them all out in one object). */
  varargs: MemoryObject | null = null;
  /** States whose stack holds this frame (at least). */
  shares = 1;

  constructor(
    readonly kf: KFunction,
    public regs: Val[],
    /** pc of the call instruction in the caller's frame (-1 for an entry function). */
    readonly callerPc: number,
  ) {}

  /** Shared with another state since a fork: clone before writing. */
  get frozen(): boolean {
    return this.shares > 1;
  }

  clone(): StackFrame {
    const f = new StackFrame(this.kf, this.regs.slice(), this.callerPc);
    f.allocas = this.allocas === null ? null : this.allocas.slice();
    f.varargs = this.varargs;
    return f;
  }
}

/**
 * A path merged into a state after it covered new code (merging/core.ts): its path condition
 * when it merged (which pins the path it took); `event` names the coverage it stands for (one
 * test per event is enough, whichever state writes it).
 */
export interface Witness {
  readonly event: number;
  readonly constraints: readonly Expr[];
}

export interface SymbolicObject {
  mo: MemoryObject;
  array: ExprArray;
}

export interface PendingError {
  message: string;
  kind: Termination;
  info?: string;
  suffix?: string;
}

/**
 * An instruction (gid) a state executed before any other state did, with the ones it and its
 * ancestors covered earlier (KLEE's ExecutionState::coveredLines, for --write-cov): a list
 * shared by the states forked after, each new entry allocated once per instruction per run.
 */
export class FirstCovered {
  constructor(
    readonly gid: number,
    readonly next: FirstCovered | null,
  ) {}
}

export enum StateStatus {
  Running,
  Terminated,
}

/** One branch decision in a persistent list (KLEE's path streams): 1 = true side. */
export interface PathBit {
  readonly bit: 0 | 1;
  readonly prev: PathBit | null;
}

/** One fork's choice in a persistent list: 1/0 = the true/false side of a two-way fork, i = the i-th target of a switch-like one. */
export interface ForkChoice {
  readonly choice: number;
  readonly prev: ForkChoice | null;
}

/** A path list's decisions, oldest first. */
export function pathBits(p: PathBit | null): (0 | 1)[] {
  const out: (0 | 1)[] = [];
  for (let n = p; n !== null; n = n.prev) out.push(n.bit);
  return out.reverse();
}

export class ExecutionState implements SearchableState {
  depth = 0;
  /** How many paths this state stands for (merged states add theirs; a fork copies it to both sides). */
  multiplicity = 1;
  queryCostMs = 0;
  instsSinceCovNew = 0;
  ptreeNode: PTreeNode | null = null;
  /** Covered an instruction no state had executed before (--only-output-states-covering-new). */
  coveredNew = false;
  /** Covered new code since it was created or last merged (a merge then keeps a witness of its path). */
  coveredSinceMerge = false;
  status = StateStatus.Running;
  /** Index in the top frame's instructions of the next instruction. */
  pc = 0;
  /** The instruction being executed (for error locations). */
  prevPc = 0;
  steppedInstructions = 0;
  forkDisabled = false;
  // The lists below are set in the constructor: a fork copies its parent's (no empty list first).
  symbolics: SymbolicObject[];
  /** Conditions the test generator tries to satisfy (klee_prefer_cex). */
  cexPreferences: Expr[];
  /** Entry functions still to run after the current one returns (ctors, main, dtors). */
  entryQueue: KFunction[];
  /** Objects of main's argv/envp, kept for the test's args. */
  argvObjects: MemoryObject[];
  /**
   * An error to report when the state next runs. KLEE checks divisions and shifts in runtime
   * functions that fork first and fail afterwards, so the searcher runs the other side first;
   * deferring the report keeps that order.
   */
  pendingError: PendingError | null = null;
  /** Open merge regions, innermost last (klee_open_merge). */
  openMergeStack: MergeGroup[];
  /**
   * Conditions selecting the paths merged into this state that covered new code (merge
   * core): when the state ends, each still feasible one gets a test of its own, so merging
   * keeps the coverage of the tests (a merged state's own test follows one of its paths).
   */
  witnesses: Witness[];
  /** Next object of the test being replayed (EngineOptions.replay). */
  replayPosition = 0;
  /** Branch decisions so far, newest first (--write-paths, --replay-path); shared with forks. */
  path: PathBit | null = null;
  /** Decisions at branches where both sides were feasible (--write-sym-paths). */
  symPath: PathBit | null = null;
  /** How many decisions of --replay-path's file this path has used. */
  replayPathPosition = 0;
  /**
   * Parallel exploration (--jobs, parallel/): the choice taken at every fork of this path,
   * newest first (recorded only then), and a path prefix this state still follows: the job
   * another worker handed over, replayed from the program's start.
   */
  forkChoices: ForkChoice | null = null;
  jobPrefix: readonly number[] | null = null;
  jobPosition = 0;
  /** What main returned or exit() was given (undefined if neither happened yet). */
  exitValue: Val | undefined = undefined;
  /** Set by a handler that wants the current step to end (the searcher picks again). */
  yieldStep = false;
  /** What the program wrote to the console (fds 1, 2), newest write first (special/console.ts). */
  console: ConsoleChunk | null = null;
  /** Instructions this path covered first, newest first (--write-cov). */
  firstCovered: FirstCovered | null = null;
  /**
   * Inside a quantified merge region (merging/quantified/): every branch condition this path
   * took since the region's entry, one-sided branches included, in order; null outside.
   */
  trace: Expr[] | null = null;
  /**
   * With --use-incremental-merging: this path's node in its region's execution tree
   * (merging/quantified/exec-tree.ts); null outside. Forks share it until they branch.
   */
  regionNode: object | null = null;
  /** Counts of quantified merges this path condition mentions (auxiliary: not test inputs, but models need them). */
  auxArrays: ExprArray[];

  constructor(
    readonly id: number,
    public stack: StackFrame[],
    public constraints: ConstraintSet,
    /** Objects, allocation and the memory model's per-state data (memory/model.ts). */
    public memory: StateMemory,
    /** The state this one is forked from (its lists are copied). */
    parent?: ExecutionState,
  ) {
    if (parent === undefined) {
      this.symbolics = [];
      this.cexPreferences = [];
      this.entryQueue = [];
      this.argvObjects = [];
      this.openMergeStack = [];
      this.witnesses = [];
      this.auxArrays = [];
    } else {
      this.symbolics = parent.symbolics.slice();
      this.cexPreferences = parent.cexPreferences.slice();
      this.entryQueue = parent.entryQueue.slice();
      this.argvObjects = parent.argvObjects;
      this.openMergeStack = parent.openMergeStack.slice();
      this.witnesses = parent.witnesses.slice();
      this.auxArrays = parent.auxArrays.slice();
      this.trace = parent.trace === null ? null : parent.trace.slice();
      this.regionNode = parent.regionNode;
    }
  }

  get top(): StackFrame {
    return this.stack[this.stack.length - 1]!;
  }

  /**
   * The other side of a fork (KLEE's ExecutionState::branch): depth grows on both sides, the
   * copy gets a new id and starts with coveredNew false.
   */
  branch(newId: number): ExecutionState {
    this.depth++;
    for (let i = 0; i < this.stack.length; i++) this.stack[i]!.shares++;
    const s = new ExecutionState(newId, this.stack.slice(), this.constraints.fork(), this.memory.fork(), this);
    s.depth = this.depth;
    s.multiplicity = this.multiplicity;
    s.pc = this.pc;
    s.prevPc = this.prevPc;
    s.steppedInstructions = this.steppedInstructions;
    s.instsSinceCovNew = this.instsSinceCovNew;
    s.queryCostMs = 0;
    s.forkDisabled = this.forkDisabled;
    s.replayPosition = this.replayPosition;
    s.path = this.path;
    s.symPath = this.symPath;
    s.replayPathPosition = this.replayPathPosition;
    s.forkChoices = this.forkChoices;
    s.console = this.console;
    s.firstCovered = this.firstCovered;
    for (const g of s.openMergeStack) {
      g.running++;
      g.open.add(s);
    }
    return s;
  }

  /**
   * A frozen copy of this state for a region's execution tree (incremental merging): a branch
   * that belongs to no merge group and leaves this state's depth alone. Release with
   * dropSnapshot.
   */
  snapshot(): ExecutionState {
    const depth = this.depth;
    const s = this.branch(-1);
    this.depth = depth;
    s.depth = depth;
    for (const g of s.openMergeStack) {
      g.running--;
      g.open.delete(s);
    }
    return s;
  }

  /** A snapshot is no longer needed: its frames and objects stop being shared. */
  dropSnapshot(): void {
    this.memory.release();
    this.releaseFrames();
  }

  /** Make the top frame writable by this state (after a fork it is shared). */
  thawTop(): StackFrame {
    const i = this.stack.length - 1;
    let f = this.stack[i]!;
    if (f.shares > 1 || this.status !== StateStatus.Running) {
      // an ended state's frames were already uncounted (releaseFrames)
      if (this.status === StateStatus.Running) f.shares--;
      f = f.clone();
      this.stack[i] = f;
    }
    return f;
  }

  /** The state ended: it no longer shares its frames (call once). */
  releaseFrames(): void {
    for (const f of this.stack) f.shares--;
  }

  /** Add a constraint the caller knows to be feasible on this path (false if it is not). */
  addConstraint(e: Expr): boolean {
    if (this.trace !== null) this.trace.push(e);
    return this.constraints.add(e);
  }

  /** Names of the arrays made symbolic so far (for unique naming). */
  hasArrayName(name: string): boolean {
    for (const s of this.symbolics) if (s.array.name === name) return true;
    return false;
  }
}
