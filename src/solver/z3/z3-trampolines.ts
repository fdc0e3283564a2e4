/**
 * z3's C++ exception trampolines (`invoke_*`), in WebAssembly instead of JavaScript.
 *
 * Why: z3-built.wasm uses Emscripten's JS-based C++ exceptions. Every call made inside a
 * try region of z3 (any call whose frame needs a destructor on unwinding: nearly all calls
 * in z3's rewriters, tactics and SAT core) leaves wasm for a JS function `invoke_<sig>`,
 * which calls back into the function table under a JS try/catch. On strparse.c's queries
 * that round trip (wasm→JS wrapper, the JS trampoline, JS→wasm wrapper) was ~20 % of z3's
 * time. Here each `invoke_<sig>` is a wasm function of a small module made at run time: it
 * saves the stack pointer, calls the target through `call_indirect` with a `try`/`catch`
 * (the exception-handling proposal, on by default in Node 20), and on a C++ exception
 * restores the stack pointer and sets z3's `threw` flag, exactly what the JS trampoline
 * does. The normal path never leaves wasm.
 *
 * Which exceptions are C++ ones: the JS trampolines catch only Emscripten's exception
 * objects and rethrow anything else (a trap, an abort, a stack overflow). Here z3's three
 * throwing imports (`__cxa_throw`, `__cxa_rethrow`, `__resumeException`) are wrapped so that
 * what they throw becomes a `WebAssembly.Exception` of our tag, and the trampolines catch
 * only that tag: everything else passes through them untouched. Emscripten's bookkeeping
 * (`exceptionLast`, read by `__cxa_find_matching_catch_*`) is still done by its own code.
 *
 * The function table: the trampolines need z3's table, which exists only once z3 is
 * instantiated, and z3 needs the trampolines to be instantiated. So the trampolines call
 * through a table of their own that mirrors z3's (sized after z3's instantiation, each entry
 * copied on its first call, kept in step by the caller on every `set`/`grow`), plus a second
 * table holding z3's stack-save, stack-restore and setThrew exports.
 */

// The WebAssembly global, typed here: the project's libs (ES2022, @types/node 20) omit it.
interface WasmTable {
  get(i: number): unknown;
  set(i: number, f: unknown): void;
  grow(n: number): number;
  readonly length: number;
}
interface WasmModule {
  readonly __wasmModule?: never;
}
declare const WebAssembly: {
  Module: (new (bytes: Uint8Array) => WasmModule) & { imports(m: WasmModule): { module: string; name: string; kind: string }[] };
  Instance: new (module: WasmModule, imports: unknown) => { readonly exports: Record<string, unknown> };
  Table: new (desc: { element: 'anyfunc'; initial: number }) => WasmTable;
  Tag: new (desc: { parameters: string[] }) => object;
  Exception: new (tag: object, payload: unknown[]) => object;
};

const I32 = 0x7f;
const I64 = 0x7e;
const F32 = 0x7d;
const F64 = 0x7c;
/** Emscripten's signature letters (WASM_BIGINT build: 'j' is a real i64). */
const VALTYPE: Readonly<Record<string, number>> = { i: I32, j: I64, f: F32, d: F64 };

/** Slots of the helper table. */
const STACK_SAVE = 0;
const STACK_RESTORE = 1;
const SET_THREW = 2;
const HELPER_EXPORTS = ['emscripten_stack_get_current', '_emscripten_stack_restore', 'setThrew'] as const;

/** The imported function that fills a mirror entry (function index 0; the trampolines follow). */
const FILL_FUNC = 0;

/** z3's imports that throw a C++ exception. */
const THROWING_IMPORTS = ['__cxa_throw', '__cxa_rethrow', '__resumeException'] as const;

/** The trampoline module for one z3 module's `invoke_*` imports: compiled once per process. */
export class TrampolineModule {
  private constructor(
    private readonly module: WasmModule,
    private readonly names: readonly string[],
  ) {}

  /**
   * Null when z3 imports an `invoke_` signature this encoder does not know, or uses
   * setjmp/longjmp (whose JS exceptions the JS trampolines also catch): z3 then keeps its JS ones.
   */
  static forModule(z3: WasmModule): TrampolineModule | null {
    const imports = WebAssembly.Module.imports(z3);
    const names = imports.filter((i) => i.module === 'env' && i.kind === 'function' && i.name.startsWith('invoke_')).map((i) => i.name);
    const sigs = names.map((n) => n.slice('invoke_'.length));
    if (names.length === 0 || !sigs.every((s) => /^[vijfd][ijfd]*$/.test(s))) return null;
    if (imports.some((i) => /longjmp/.test(i.name))) return null;
    return new TrampolineModule(new WebAssembly.Module(encodeModule(sigs)), names);
  }

  /**
   * Replaces z3's `invoke_*` imports by wasm trampolines and wraps its throwing imports.
   * `link` must be given z3's exports once z3 is instantiated, before anything runs in it.
   */
  install(env: Record<string, unknown>): TrampolineLink {
    const table = new WebAssembly.Table({ element: 'anyfunc', initial: 0 });
    const helpers = new WebAssembly.Table({ element: 'anyfunc', initial: HELPER_EXPORTS.length });
    const tag = new WebAssembly.Tag({ parameters: [] });
    const link = new TrampolineLink(table, helpers);
    const fill = (i: number): void => link.fill(i);
    const { exports } = new WebAssembly.Instance(this.module, { e: { t: table, h: helpers, x: tag, f: fill } });
    for (const n of this.names) env[n] = exports[n];
    for (const n of THROWING_IMPORTS) {
      const original = env[n];
      if (typeof original !== 'function') continue;
      env[n] = (...args: unknown[]): never => {
        try {
          (original as (...a: unknown[]) => unknown)(...args);
        } catch (e) {
          if (!isEmscriptenException(e)) throw e;
          link.cppExceptions++;
          throw new WebAssembly.Exception(tag, []);
        }
        throw new Error(`z3 wasm: ${n} returned`);
      };
    }
    return link;
  }
}

/** The trampolines' view of one z3 instance's function table. */
export class TrampolineLink {
  /** C++ exceptions z3 has thrown (statistics and tests). */
  cppExceptions = 0;

  private z3Table: WasmTable | null = null;

  constructor(
    private readonly table: WasmTable,
    private readonly helpers: WasmTable,
  ) {}

  /**
   * Sizes the mirror after z3's table and fills the helper table; throws if an export is
   * missing. The mirror's entries are copied on first use (`fill`, called by a trampoline
   * that finds its entry empty): copying all of them up front, entry by entry or with one
   * wasm `table.copy`, made each of z3's ~24 000 functions a function object (measured:
   * 30–100 ms per instance, against ~20 ms for the whole instance without it).
   */
  link(z3Table: WasmTable, z3Exports: Record<string, unknown>): void {
    HELPER_EXPORTS.forEach((name, slot) => {
      const f = z3Exports[name];
      if (typeof f !== 'function') throw new Error(`z3 wasm: export ${name} missing (unexpected z3-solver version?)`);
      this.helpers.set(slot, f);
    });
    this.z3Table = z3Table;
    this.grow(z3Table.length - this.table.length);
  }

  /** Copies entry i of z3's table into the mirror. */
  fill(i: number): void {
    if (this.z3Table === null) throw new Error('z3 wasm: exception trampoline used before the instance was linked');
    this.table.set(i, this.z3Table.get(i));
  }

  set(i: number, f: unknown): void {
    this.table.set(i, f);
  }

  grow(n: number): void {
    if (n > 0) this.table.grow(n);
  }
}

/** An exception object of Emscripten's JS exception handling (a C++ throw), not a trap or abort. */
function isEmscriptenException(e: unknown): boolean {
  return e instanceof Error && typeof (e as { excPtr?: unknown }).excPtr === 'number';
}

// ---- binary encoding (WebAssembly 1.0 + reference types + legacy exception handling) ----

function u32(n: number): number[] {
  const out: number[] = [];
  do {
    let b = n & 0x7f;
    n >>>= 7;
    if (n !== 0) b |= 0x80;
    out.push(b);
  } while (n !== 0);
  return out;
}

function name(s: string): number[] {
  return [...u32(s.length), ...Buffer.from(s, 'latin1')];
}

function vec(items: number[][]): number[] {
  return [...u32(items.length), ...items.flat()];
}

function section(id: number, body: number[]): number[] {
  return [id, ...u32(body.length), ...body];
}

/** Zero of a value type, as a constant instruction. */
function zero(t: number): number[] {
  if (t === I32) return [0x41, 0];
  if (t === I64) return [0x42, 0];
  if (t === F32) return [0x43, 0, 0, 0, 0];
  return [0x44, 0, 0, 0, 0, 0, 0, 0, 0];
}

/** The module exporting `invoke_<sig>` for each signature. */
function encodeModule(sigs: readonly string[]): Uint8Array {
  const types: number[][] = [];
  const typeIndex = new Map<string, number>();
  const type = (params: number[], results: number[]): number => {
    const key = `${params.join(',')}:${results.join(',')}`;
    let i = typeIndex.get(key);
    if (i === undefined) {
      i = types.length;
      types.push([0x60, ...u32(params.length), ...params, ...u32(results.length), ...results]);
      typeIndex.set(key, i);
    }
    return i;
  };
  const tSave = type([], [I32]);
  const tRestore = type([I32], []);
  const tSetThrew = type([I32, I32], []);
  const tTag = type([], []);
  const tFill = type([I32], []);

  const funcs: number[][] = [];
  const bodies: number[][] = [];
  for (const sig of sigs) {
    const results = sig[0] === 'v' ? [] : [VALTYPE[sig[0]!]!];
    const args = [...sig.slice(1)].map((c) => VALTYPE[c]!);
    const target = type(args, results);
    funcs.push(u32(type([I32, ...args], results)));
    const sp = args.length + 1; // the local after the parameters
    const code: number[] = [
      ...[0x41, ...u32(STACK_SAVE), 0x11, ...u32(tSave), 1], // i32.const; call_indirect (table 1)
      0x21, ...u32(sp), // local.set sp
      0x06, results.length === 0 ? 0x40 : results[0]!, // try (result)
    ];
    // an empty mirror entry is filled first: local.get index; table.get 0; ref.is_null; if; call fill
    code.push(0x20, 0, 0x25, 0, 0xd1, 0x04, 0x40, 0x20, 0, 0x10, ...u32(FILL_FUNC), 0x0b);
    for (let i = 1; i <= args.length; i++) code.push(0x20, ...u32(i)); // local.get arg i
    code.push(0x20, 0, 0x11, ...u32(target), 0); // local.get index; call_indirect (table 0)
    code.push(0x07, 0); // catch tag 0
    code.push(0x20, ...u32(sp), 0x41, ...u32(STACK_RESTORE), 0x11, ...u32(tRestore), 1);
    code.push(0x41, 1, 0x41, 0, 0x41, ...u32(SET_THREW), 0x11, ...u32(tSetThrew), 1);
    if (results.length > 0) code.push(...zero(results[0]!));
    code.push(0x0b, 0x0b); // end try; end function
    const locals = [...u32(1), ...u32(1), I32]; // one group: 1 x i32
    const body = [...locals, ...code];
    bodies.push([...u32(body.length), ...body]);
  }

  const funcref = 0x70;
  const imports = vec([
    [...name('e'), ...name('t'), 0x01, funcref, 0x00, ...u32(0)], // table 0: the mirror
    [...name('e'), ...name('h'), 0x01, funcref, 0x00, ...u32(HELPER_EXPORTS.length)], // table 1: helpers
    [...name('e'), ...name('x'), 0x04, 0x00, ...u32(tTag)], // tag 0: a C++ exception
    [...name('e'), ...name('f'), 0x00, ...u32(tFill)], // function 0: fills a mirror entry
  ]);
  const exports = vec(sigs.map((s, i) => [...name(`invoke_${s}`), 0x00, ...u32(i + 1)]));
  return new Uint8Array([
    ...[0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00],
    ...section(1, vec(types)),
    ...section(2, imports),
    ...section(3, vec(funcs)),
    ...section(7, exports),
    ...section(10, vec(bodies)),
  ]);
}

