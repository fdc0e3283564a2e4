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
 * run. `loadZ3()` compiles the wasm module once (async, at start-up); after that
 * `Z3Handle.newInstance()` makes a fresh instance synchronously: Emscripten's
 * `instantiateWasm` hook lets us instantiate the already compiled module with
 * `new WebAssembly.Instance`, and since the build has no pthread pool (workers are made on
 * demand, only for z3's timer threads), every run dependency resolves within the factory
 * call. Measured: ~40 ms per instance once the code is warm (~140 ms for the first).
 *
 * The memory of an instance is a fixed 2 GB shared buffer (the module declares it as its
 * minimum, so it cannot be lowered); pages are committed only when touched.
 */
import { readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname } from 'node:path';
import { runInThisContext } from 'node:vm';

// The WebAssembly global, typed here: the project's libs (ES2022, @types/node 20) omit it.
interface WasmModule {
  readonly __wasmModule?: never;
}
type WasmExports = Record<string, unknown>;
interface WasmInstance {
  readonly exports: WasmExports;
}
declare const WebAssembly: {
  compile(bytes: Uint8Array): Promise<WasmModule>;
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
  'Z3_del_context',
  'Z3_get_error_code',
  'Z3_get_error_msg',
  'Z3_inc_ref',
  'Z3_dec_ref',
  'Z3_mk_params',
  'Z3_params_inc_ref',
  'Z3_params_dec_ref',
  'Z3_params_set_uint',
  'Z3_params_set_bool',
  'Z3_mk_tactic',
  'Z3_tactic_inc_ref',
  'Z3_tactic_dec_ref',
  'Z3_mk_solver_from_tactic',
  'Z3_mk_string_symbol',
  'Z3_mk_bool_sort',
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
  'Z3_mk_solver',
  'Z3_mk_simple_solver',
  'Z3_solver_inc_ref',
  'Z3_solver_dec_ref',
  'Z3_solver_set_params',
  'Z3_solver_assert',
  'Z3_solver_check',
  'Z3_solver_check_assumptions',
  'Z3_solver_push',
  'Z3_solver_pop',
  'Z3_solver_reset',
  'Z3_solver_get_model',
  'Z3_solver_get_reason_unknown',
  'Z3_solver_to_string',
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
  'Z3_ast_to_string',
] as const;

export type Z3Export = (typeof EXPORTS)[number];
/** Pointers and handles are wasm32 addresses (< 2^31 with a 2 GB heap), so plain numbers. */
export type Z3Exports = Readonly<Record<Z3Export, (...args: number[]) => number>>;

/** The parts of the Emscripten module object we use. */
interface EmscriptenModule {
  HEAPU8: Uint8Array;
  HEAPU32: Uint32Array;
  UTF8ToString(ptr: number): string;
  PThread?: { terminateAllThreads(): void; runningWorkers: PThreadWorker[]; unusedWorkers: PThreadWorker[] };
  calledRun?: boolean;
}

interface PThreadWorker {
  /** Set by Emscripten once the worker has instantiated the module. */
  loaded?: boolean;
}

type Factory = (overrides: Record<string, unknown>) => Promise<unknown>;

/** Lines Emscripten printed on stderr (an abort's reason), kept per instance. */
const MAX_LOG_LINES = 20;

/** One live wasm instance of z3. Everything is synchronous. */
export class Z3Instance {
  /** Set once the instance trapped or aborted: it must not be called again. */
  dead = false;
  /** Emscripten's stderr output (abort messages), newest last. */
  readonly log: string[];
  private readonly outPtr: number;

  constructor(
    readonly z: Z3Exports,
    private readonly em: EmscriptenModule,
    log: string[],
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

  /** Resolves once z3's worker threads (its timer threads) have booted, or after `maxMs`. */
  async threadsBooted(maxMs: number): Promise<void> {
    const deadline = Date.now() + maxMs;
    const booted = (): boolean => {
      const p = this.em.PThread;
      return p === undefined || [...p.runningWorkers, ...p.unusedWorkers].every((w) => w.loaded === true);
    };
    while (!booted() && Date.now() < deadline) await new Promise((r) => setTimeout(r, 10));
  }

  /** Marks the instance dead and stops its worker threads (z3's timer threads). */
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

  constructor(
    private readonly factory: Factory,
    private readonly module: WasmModule,
  ) {}

  newInstance(): Z3Instance {
    let exports: WasmExports | undefined;
    const log: string[] = [];
    const module = this.module;
    const overrides: Record<string, unknown> = {
      instantiateWasm(imports: unknown, receive: (i: WasmInstance, m: WasmModule) => void) {
        const instance = new WebAssembly.Instance(module, imports);
        exports = instance.exports;
        receive(instance, module);
        return instance.exports;
      },
      print: (s: string) => pushLog(log, s),
      printErr: (s: string) => pushLog(log, s),
    };
    // The factory's promise rejects if the instance later aborts; nobody awaits it.
    this.factory(overrides).catch(() => undefined);
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
    return new Z3Instance(z as Z3Exports, em, log);
  }
}

function pushLog(log: string[], s: string): void {
  log.push(s);
  if (log.length > MAX_LOG_LINES) log.shift();
}

let loading: Promise<Z3Handle> | undefined;

/**
 * Compiles z3's wasm module, once per process (later calls share the first's promise).
 * The only asynchronous step: await it at start-up, then everything is synchronous.
 */
export function loadZ3(): Promise<Z3Handle> {
  loading ??= load().catch((e: unknown) => {
    loading = undefined; // let a later call retry
    throw e;
  });
  return loading;
}

async function load(): Promise<Z3Handle> {
  const require = createRequire(import.meta.url);
  const factory = loadFactory(require);
  const bytes = await readFile(require.resolve('z3-solver/build/z3-built.wasm'));
  const module = await WebAssembly.compile(bytes);
  return new Z3Handle(factory, module);
}

/**
 * z3-built.js is an Emscripten ASSERTIONS build whose C++ exceptions go through JS `invoke_*`
 * trampolines; each one re-reads the function table only to assert that its JS mirror is
 * up to date. Dropping that one assertion makes a trivial query ~25 % cheaper (measured
 * 1.6–1.8 → 1.1–1.2 ms CPU). The file is evaluated as CommonJS from its own path (its
 * pthread workers load it from disk, unpatched); if the line is not found (another
 * z3-solver version), the file is used as it is.
 */
const TABLE_ASSERT = "assert(wasmTable.get(funcPtr) == func, 'JavaScript-side Wasm function table mirror is out of date!');";

function loadFactory(require: NodeJS.Require): Factory {
  const path = require.resolve('z3-solver/build/z3-built.js');
  const source = readFileSync(path, 'utf8');
  if (!source.includes(TABLE_ASSERT)) return require(path) as Factory;
  const wrapped = `(function (exports, require, module, __filename, __dirname) {${source.replace(TABLE_ASSERT, '')}\n})`;
  const fn = runInThisContext(wrapped, { filename: path }) as (...args: unknown[]) => void;
  const mod = { exports: {} as unknown };
  fn(mod.exports, require, mod, path, dirname(path));
  return mod.exports as Factory;
}
