/**
 * Loading z3-solver's wasm build, and making independent instances of it synchronously.
 *
 * Why not z3-solver's own `init()`: it instantiates asynchronously, and its wrapper routes
 * `Z3_solver_check` (and simplify, tactic_apply, check_assumptions, get_consequences, cube,
 * optimize_check, fixedpoint_query*, algebraic_roots/eval, polynomial_subresultants,
 * eval_smtlib2_string) through `async_call`, a pthread round trip costing milliseconds per
 * query. The module also exports every API function synchronously (`Z3_solver_check` runs
 * on the calling thread and returns 1 sat / -1 unsat / 0 unknown), so we call the raw wasm
 * exports directly and marshal strings and out-parameters ourselves.
 *
 * Why our own instantiation: an out-of-memory abort or a trap kills a wasm instance for
 * good (DESIGN decision 3), and the solver must replace it in the middle of a synchronous
 * run. `loadZ3Sync()` compiles the wasm module once per process (when first needed); after
 * that `Z3Handle.newInstance()` makes a fresh instance synchronously: Emscripten's
 * `instantiateWasm` hook lets us instantiate the already compiled module with
 * `new WebAssembly.Instance`, and since the build has no pthread pool (workers are made on
 * demand, only when z3 starts a thread, which tsklee never makes it do: see z3-watchdog.ts),
 * every run dependency resolves within the factory call. Measured: 15–50 ms per instance
 * (the compiled code is shared by all instances).
 *
 * The memory of an instance is a fixed 2 GB shared buffer (the module declares it as its
 * minimum, so it cannot be lowered); pages are committed only when touched.
 */
// fs.promises, not node:fs/promises: in the bundle it then loads only when z3 does (~2 ms of every start-up)
import { promises as fsPromises, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { TrampolineModule, type TrampolineLink } from './z3-trampolines.js';
import { withZ3Flags, withZ3FlagsAsync } from './z3-v8-flags.js';

// The WebAssembly global, typed here: the project's libs (ES2022, @types/node 20) omit it.
interface WasmModule {
  readonly __wasmModule?: never;
}
/** A compiled z3 module (a WebAssembly.Module), as it passes between threads. */
export type Z3WasmModule = WasmModule;
type WasmExports = Record<string, unknown>;
interface WasmInstance {
  readonly exports: WasmExports;
}
declare const WebAssembly: {
  compile(bytes: Uint8Array): Promise<WasmModule>;
  Module: new (bytes: Uint8Array) => WasmModule;
  Instance: new (module: WasmModule, imports: unknown) => WasmInstance;
};

/** The raw wasm exports we call (names without Emscripten's leading underscore). */
const EXPORTS = [
  'malloc',
  'free',
  'set_noop_error_handler',
  'Z3_global_param_set',
  'Z3_mk_config',
  'Z3_del_config',
  'Z3_mk_context_rc',
  'Z3_get_error_code',
  'Z3_interrupt',
  'Z3_get_error_msg',
  'Z3_inc_ref',
  'Z3_dec_ref',
  'Z3_mk_tactic',
  'Z3_tactic_inc_ref',
  'Z3_mk_solver_from_tactic',
  'Z3_mk_string_symbol',
  'Z3_mk_bv_sort',
  'Z3_mk_array_sort',
  'Z3_mk_true',
  'Z3_mk_false',
  'Z3_mk_const',
  'Z3_mk_unsigned_int',
  'Z3_mk_numeral',
  'Z3_mk_not',
  'Z3_mk_and',
  'Z3_mk_or',
  'Z3_mk_xor',
  'Z3_mk_eq',
  'Z3_mk_ite',
  'Z3_mk_bvnot',
  'Z3_mk_bvand',
  'Z3_mk_bvor',
  'Z3_mk_bvxor',
  'Z3_mk_bvadd',
  'Z3_mk_bvsub',
  'Z3_mk_bvmul',
  'Z3_mk_bvudiv',
  'Z3_mk_bvsdiv',
  'Z3_mk_bvurem',
  'Z3_mk_bvsrem',
  'Z3_mk_bvshl',
  'Z3_mk_bvlshr',
  'Z3_mk_bvashr',
  'Z3_mk_bvult',
  'Z3_mk_bvule',
  'Z3_mk_bvslt',
  'Z3_mk_bvsle',
  'Z3_mk_concat',
  'Z3_mk_extract',
  'Z3_mk_zero_ext',
  'Z3_mk_sign_ext',
  'Z3_mk_select',
  'Z3_mk_store',
  'Z3_mk_lambda_const',
  'Z3_mk_forall_const',
  'Z3_mk_implies',
  'Z3_mk_solver',
  'Z3_mk_solver_for_logic',
  'Z3_mk_params',
  'Z3_params_inc_ref',
  'Z3_params_dec_ref',
  'Z3_params_set_uint',
  'Z3_solver_set_params',
  'Z3_solver_inc_ref',
  'Z3_solver_dec_ref',
  'Z3_solver_assert',
  'Z3_solver_check',
  'Z3_solver_push',
  'Z3_solver_pop',
  'Z3_solver_get_model',
  'Z3_solver_get_reason_unknown',
  'Z3_solver_from_string',
  'Z3_model_inc_ref',
  'Z3_model_dec_ref',
  'Z3_model_eval',
  'Z3_model_get_const_interp',
  'Z3_model_get_func_interp',
  'Z3_is_as_array',
  'Z3_get_as_array_func_decl',
  'Z3_func_interp_inc_ref',
  'Z3_func_interp_dec_ref',
  'Z3_func_interp_get_num_entries',
  'Z3_func_interp_get_entry',
  'Z3_func_interp_get_else',
  'Z3_func_entry_inc_ref',
  'Z3_func_entry_dec_ref',
  'Z3_func_entry_get_value',
  'Z3_func_entry_get_arg',
  'Z3_to_app',
  'Z3_get_app_decl',
  'Z3_get_app_arg',
  'Z3_get_decl_kind',
  'Z3_get_ast_kind',
  'Z3_get_bool_value',
  'Z3_get_numeral_uint',
  'Z3_get_numeral_string',
  'Z3_get_estimated_alloc_size',
] as const;

export type Z3Export = (typeof EXPORTS)[number];
/** Pointers and handles are wasm32 addresses (< 2^31 with a 2 GB heap), so plain numbers. */
export type Z3Exports = Readonly<Record<Z3Export, (...args: number[]) => number>>;

/** The parts of the Emscripten module object we use. */
interface EmscriptenModule {
  HEAPU8: Uint8Array;
  HEAPU32: Uint32Array;
  UTF8ToString(ptr: number): string;
  PThread?: { terminateAllThreads(): void; runningWorkers: unknown[]; unusedWorkers: unknown[] };
  calledRun?: boolean;
}

type Factory = (overrides: Record<string, unknown>) => Promise<unknown>;

interface WasmTable {
  get(i: number): unknown;
  set(i: number, f: unknown): void;
  grow(n: number): number;
  readonly length: number;
}

/**
 * The function table as Emscripten's JS sees it, with `get` cached, and the table the wasm
 * exception trampolines call through (z3-trampolines.ts) kept in step with it. z3-built.js is
 * an ASSERTIONS build whose JS `invoke_*` trampolines (still used with `jsTrampolines`)
 * assert their table mirror against `table.get(i)`, a slow call into the engine. Caching it
 * made a trivial query ~15–20 % cheaper with those (measured 1.55–1.65 → 1.25–1.4 ms CPU).
 * The cache is exact: z3's JS only changes the table through `set` and `grow`, which we see.
 */
class CachedTable implements WasmTable {
  /** Dense (filled with null up to the table's length): a sparse array would fall into V8's slow dictionary mode. */
  private readonly cache: unknown[] = [];
  constructor(
    private readonly table: WasmTable,
    /** The wasm trampolines' mirror of the table (z3-trampolines.ts), kept in step. */
    private readonly mirror: TrampolineLink | null,
  ) {
    this.extend();
  }
  get(i: number): unknown {
    const f = this.cache[i];
    return f !== null && f !== undefined ? f : (this.cache[i] = this.table.get(i));
  }
  set(i: number, f: unknown): void {
    this.table.set(i, f);
    this.cache[i] = this.table.get(i);
    this.mirror?.set(i, this.cache[i]);
  }
  grow(n: number): number {
    const old = this.table.grow(n);
    this.mirror?.grow(n);
    this.extend();
    return old;
  }
  private extend(): void {
    while (this.cache.length < this.table.length) this.cache.push(null);
  }
  get length(): number {
    return this.table.length;
  }
}

/** Lines Emscripten printed on stderr (an abort's reason), kept per instance. */
const MAX_LOG_LINES = 20;

/** One live wasm instance of z3. Everything is synchronous. */
export class Z3Instance {
  /** Set once the instance trapped or aborted: it must not be called again. */
  dead = false;
  /** Emscripten's stderr output (abort messages), newest last. */
  readonly log: string[];
  private readonly outPtr: number;
  private heap32View: Int32Array | undefined;

  constructor(
    readonly z: Z3Exports,
    private readonly em: EmscriptenModule,
    log: string[],
    /** The wasm exception trampolines' link (null with Emscripten's JS ones). */
    private readonly trampolines: TrampolineLink | null = null,
  ) {
    this.log = log;
    this.outPtr = z.malloc(16);
  }

  /** A NUL-terminated copy of s in the wasm heap; release it with `free`. */
  allocString(s: string): number {
    const bytes = Buffer.from(`${s}\0`, 'utf8');
    const p = this.z.malloc(bytes.length);
    if (p === 0) throw new Error('z3 wasm: malloc failed');
    this.em.HEAPU8.set(bytes, p);
    return p;
  }

  free(p: number): void {
    this.z.free(p);
  }

  /** A z3 string (owned by z3, valid until its next call) as a JS string. */
  string(ptr: number): string {
    return ptr === 0 ? '' : this.em.UTF8ToString(ptr);
  }

  /** Scratch space for out-parameters and small argument arrays (4 words). */
  get scratch(): number {
    return this.outPtr;
  }

  readU32(ptr: number): number {
    return this.em.HEAPU32[ptr >>> 2]!;
  }

  writeU32(ptr: number, v: number): void {
    this.em.HEAPU32[ptr >>> 2] = v;
  }

  /** Sets a global z3 parameter (per instance: each instance has its own globals). */
  setGlobalParam(name: string, value: string): void {
    const n = this.allocString(name);
    const v = this.allocString(value);
    try {
      this.z.Z3_global_param_set(n, v);
    } finally {
      this.free(n);
      this.free(v);
    }
  }

  /** Direct access to the heap, for tests that need to provoke an out-of-memory abort. */
  malloc(bytes: number): number {
    return this.z.malloc(bytes);
  }

  /** The whole heap as 32-bit words (the memory is fixed-size, so this view stays valid). */
  get heap32(): Int32Array {
    return (this.heap32View ??= new Int32Array(this.em.HEAPU8.buffer));
  }

  /** C++ exceptions z3 has thrown inside this instance, counted by the wasm trampolines (null without them). */
  get cppExceptions(): number | null {
    return this.trampolines?.cppExceptions ?? null;
  }

  /** Worker threads z3 itself has started (Emscripten pthreads): 0 unless z3 made a thread. */
  get threads(): number {
    const p = this.em.PThread;
    return p === undefined ? 0 : p.runningWorkers.length + p.unusedWorkers.length;
  }

  /** Marks the instance dead and stops any worker thread z3 started (tsklee itself never makes it start one). */
  kill(): void {
    this.dead = true;
    try {
      this.em.PThread?.terminateAllThreads();
    } catch {
      // the instance is being thrown away; nothing more to do
    }
  }
}

/** The compiled z3 module: makes instances synchronously. */
export class Z3Handle {
  /** Instances made so far (statistics and tests). */
  instancesCreated = 0;

  /** z3's exception trampolines in wasm (z3-trampolines.ts); null: Emscripten's JS ones. */
  private readonly trampolines: TrampolineModule | null;

  constructor(
    private readonly factory: Factory,
    private readonly module: WasmModule,
    opts: { jsTrampolines?: boolean } = {},
  ) {
    this.trampolines = opts.jsTrampolines === true ? null : TrampolineModule.forModule(module);
  }

  /** The compiled module, for another thread of the process (sharedZ3Module). */
  get compiledModule(): WasmModule {
    return this.module;
  }

  /** Whether instances use the wasm exception trampolines. */
  get wasmTrampolines(): boolean {
    return this.trampolines !== null;
  }

  /** A handle over the same compiled module, with Emscripten's JS exception trampolines (to compare against). */
  withJsTrampolines(): Z3Handle {
    return new Z3Handle(this.factory, this.module, { jsTrampolines: true });
  }

  newInstance(): Z3Instance {
    let exports: WasmExports | undefined;
    let link: TrampolineLink | null = null;
    const log: string[] = [];
    const module = this.module;
    const trampolines = this.trampolines;
    const overrides: Record<string, unknown> = {
      instantiateWasm(imports: Record<string, Record<string, unknown>>, receive: (i: WasmInstance, m: WasmModule) => void) {
        const env = { ...imports['env'] };
        link = trampolines?.install(env) ?? null;
        const instance = new WebAssembly.Instance(module, { ...imports, env });
        exports = instance.exports;
        const table = instance.exports.__indirect_function_table as WasmTable;
        link?.link(table, instance.exports);
        // Emscripten sees the exports with a caching function table (see CachedTable)
        const seen: WasmExports = { ...instance.exports };
        seen.__indirect_function_table = new CachedTable(table, link);
        receive({ exports: seen }, module);
        return seen;
      },
      print: (s: string) => pushLog(log, s),
      printErr: (s: string) => pushLog(log, s),
    };
    // The factory's promise rejects if the instance later aborts; nobody awaits it.
    withZ3Flags(() => this.factory(overrides)).catch(() => undefined);
    const em = overrides as unknown as EmscriptenModule;
    if (exports === undefined || em.calledRun !== true) {
      throw new Error(`z3 wasm: synchronous instantiation failed${log.length > 0 ? `: ${log.join('; ')}` : ''}`);
    }
    // a plain object with just the functions we call (the exports object itself is frozen)
    const z: Record<string, unknown> = {};
    for (const name of EXPORTS) {
      const f = exports[name];
      if (typeof f !== 'function') throw new Error(`z3 wasm: export ${name} missing (unexpected z3-solver version?)`);
      z[name] = f;
    }
    this.instancesCreated++;
    return new Z3Instance(z as Z3Exports, em, log, link);
  }
}

function pushLog(log: string[], s: string): void {
  log.push(s);
  if (log.length > MAX_LOG_LINES) log.shift();
}

let handle: Z3Handle | undefined;
let loading: Promise<Z3Handle> | undefined;

/**
 * The process's compiled z3 module, compiled synchronously on first use: this is what lets
 * a solver put off loading z3 until a query actually needs it (a run whose queries are all
 * answered above the backend never pays for it). Measured on this machine (2 cores, load
 * ~20): compiling the 35 MB module costs the same CPU synchronously (`new WebAssembly.Module`,
 * 178–215 ms) as asynchronously (`WebAssembly.compile`, 183–196 ms), so nothing is lost by
 * doing it on the main thread at the first query; with lazy validation (z3-v8-flags.ts) it
 * is 17–60 ms.
 */
export function loadZ3Sync(): Z3Handle {
  if (handle !== undefined) return handle;
  const require = createRequire(import.meta.url);
  const factory = require('z3-solver/build/z3-built.js') as Factory;
  const bytes = readFileSync(require.resolve('z3-solver/build/z3-built.wasm'));
  return (handle = new Z3Handle(factory, withZ3Flags(() => new WebAssembly.Module(bytes))));
}

/**
 * The compiled module, to hand to worker threads (`tsklee run --jobs N`): posted to a thread, a
 * WebAssembly.Module is shared, not copied, and so is the machine code V8 compiles for it, which
 * it compiles lazily, function by function, as queries call them. Each worker compiling its own
 * module compiled z3's functions once per worker.
 */
export async function sharedZ3Module(): Promise<WasmModule> {
  return (await loadZ3()).compiledModule;
}

/** In a worker thread: the handle is made over the module another thread compiled (sharedZ3Module). */
export function useSharedZ3Module(module: WasmModule): void {
  if (handle !== undefined) return;
  const require = createRequire(import.meta.url);
  handle = new Z3Handle(require('z3-solver/build/z3-built.js') as Factory, module);
}

/** The same module, compiled off the main thread (for callers that can await, e.g. to preload). */
export function loadZ3(): Promise<Z3Handle> {
  if (handle !== undefined) return Promise.resolve(handle);
  loading ??= load().then(
    (h) => (handle ??= h),
    (e: unknown) => {
      loading = undefined; // let a later call retry
      throw e;
    },
  );
  return loading;
}

async function load(): Promise<Z3Handle> {
  const require = createRequire(import.meta.url);
  const factory = require('z3-solver/build/z3-built.js') as Factory;
  const bytes = await fsPromises.readFile(require.resolve('z3-solver/build/z3-built.wasm'));
  return new Z3Handle(factory, await withZ3FlagsAsync(() => WebAssembly.compile(bytes)));
}
