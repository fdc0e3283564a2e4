/**
 * Linking tsklee's C runtime into a program (KLEE's --libc / --posix-runtime).
 *
 *  - `--libc=tsklee` links runtime/build/libc.bc (runtime/libc/README.md).
 *  - `--posix-runtime` links runtime/build/posix.bc (runtime/posix/README.md, "Contract with
 *    the engine"): the program's `main` becomes `__user_main` and the run starts at
 *    `__tsklee_posix_main(argc, argv, envp)`, which parses --sym-args & co. and calls it.
 *
 * posix.bc is linked whole. Of the libc, only the members (one module per C file) the program
 * and the model need are read and linked (members.ts), as a linker takes archive members
 * (without the member index, the whole libc.bc). What the program still cannot reach is then
 * dropped (prune.ts).
 * The runtime is built by clang-19; programs from clang-16 differ only in the `i128:128` of
 * their data layout (LLVM 18 changed i128's alignment), so the runtime takes the program's
 * layout then (the runtime uses no __int128 in memory). Typed-pointer programs (clang ≤ 14)
 * cannot link with the opaque-pointer runtime: that is a clear error.
 *
 * Where the bitcode comes from (built on first use in a source checkout, shipped in an
 * installed package): runtime-files.ts.
 */
import { loadModule } from '../../load.js';
import { DataLayout } from '../../ir/datalayout.js';
import { Function, Linkage, type GlobalValue } from '../../ir/globals.js';
import { linkModules, replaceGlobalUses, typesEquivalent, type LinkOptions } from '../../ir/linker.js';
import type { Module } from '../../ir/module.js';
import { markRuntimeFunction } from './runtime-functions.js';
import { pruneUnreferenced } from './prune.js';
import { readMemberIndex, selectMembers } from './members.js';
import { runtimeBitcode, RuntimeSetupError, type RuntimePart } from './runtime-files.js';
import { specialFunctionNames } from '../bindings.js';

export { RuntimeSetupError };

/** The C libraries `--libc` accepts. */
export const LIBC_CHOICES = ['none', 'tsklee'] as const;
export type LibcChoice = (typeof LIBC_CHOICES)[number];

/** Where `--posix-runtime` starts, and what the program's main is renamed to. */
export const POSIX_ENTRY = '__tsklee_posix_main';
export const POSIX_USER_MAIN = '__user_main';

export interface RuntimeChoice {
  libc: LibcChoice;
  posixRuntime: boolean;
  /**
   * Under `libc: 'none'`: link the members of tsklee's libc that define functions the
   * program calls but neither defines nor the engine implements (KLEE would call those
   * natively). Default true; false = KLEE's `--external-calls=none`, where such calls fail.
   */
  libcOnDemand?: boolean;
  /** The program's function the POSIX wrapper calls (KLEE's --entry-point under --posix-runtime). Default 'main'. */
  userMain?: string;
}

/** What loadProgram linked. */
export interface LoadedProgram {
  module: Module;
  /** Where the run starts: `main`, or the POSIX wrapper. */
  entryPoint: string;
  /** 'tsklee' when any of the libc was linked (asked for, or on demand): then `environ` and exit(main()) apply. */
  libc: LibcChoice;
  /** The functions the libc was linked on demand for (empty unless libc 'none' found some). */
  libcOnDemand: string[];
  /** Every bitcode file read, in order: the inputs, then the runtime's (what the module is made of). */
  files: string[];
}

/** The runtime libraries a choice needs. */
function partsOf(choice: RuntimeChoice): RuntimePart[] {
  const parts: RuntimePart[] = [];
  if (choice.libc === 'tsklee') parts.push('libc');
  if (choice.posixRuntime) parts.push('posix');
  return parts;
}

/** clang-16 vs clang-19 layouts differ only by i128:128; anything else must match exactly. */
function adoptProgramLayout(program: Module, rt: Module): void {
  if (program.dataLayout === '' || program.dataLayout === rt.dataLayout) return;
  const withoutI128 = (s: string): string =>
    s
      .split('-')
      .filter((p) => !p.startsWith('i128:'))
      .join('-');
  if (DataLayout.parse(withoutI128(program.dataLayout)).equals(DataLayout.parse(withoutI128(rt.dataLayout)))) rt.dataLayout = program.dataLayout;
}

/**
 * The model declares `int __user_main(int, char **, char **)`; main may have any of C's
 * signatures. The declaration takes main's type (its call keeps passing three arguments:
 * KLEE's "calling __user_main with extra arguments" warning), so that the two link.
 */
function retypeUserMainDeclaration(rt: Module, main: Function): void {
  const decl = rt.getFunction(POSIX_USER_MAIN);
  if (decl === undefined || !decl.isDeclaration || typesEquivalent(decl.valueType, main.valueType)) return;
  const fresh = new Function(POSIX_USER_MAIN, main.functionType, decl.addrSpace, decl.type);
  rt.functions[rt.functions.indexOf(decl)] = fresh;
  replaceGlobalUses(rt, new Map([[decl, fresh]]));
  rt.invalidateSymbolTable();
}

/**
 * The program's own definitions win over the runtime's (a program may define its own
 * `strlen` or `error`): the program's code calls its own, while the runtime's copy becomes
 * internal to its module, so the runtime's own calls keep reaching it (glibc's internal calls
 * go through hidden aliases the same way: a program's strlen does not change printf). A
 * variable both define (`char *optarg;` in the program) is one variable: the program's.
 */
function yieldToProgram(program: Module, rt: Module): void {
  const own = new Set<string>();
  for (const g of [...program.functions, ...program.globals]) if (!g.isDeclaration && !g.hasLocalLinkage) own.add(g.name);
  for (const fn of rt.functions) if (!fn.isDeclaration && !fn.hasLocalLinkage && own.has(fn.name)) fn.linkage = Linkage.Internal;
  for (const gv of rt.globals) if (!gv.isDeclaration && !gv.hasLocalLinkage && own.has(gv.name)) gv.linkage = Linkage.WeakAny;
}

/** The symbols `modules` reference but do not define, and those they define strongly. */
function referencedSymbols(modules: readonly Module[]): { wanted: string[]; defined: Set<string> } {
  const defined = new Set<string>();
  const wanted: string[] = [];
  for (const m of modules) {
    for (const g of [...m.functions, ...m.globals, ...m.aliases]) {
      if (g.hasLocalLinkage || g.name.startsWith('llvm.')) continue;
      if (g.isDeclaration) wanted.push(g.name);
      else if (g.linkage === Linkage.External) defined.add(g.name); // weak or common ones may yield to the libc's
    }
  }
  return { wanted, defined };
}

/** The libc files to link: the members `modules` need, or the whole library when its index is missing. */
function libcFiles(modules: readonly Module[], bitcode: string, roots: readonly string[]): string[] {
  const index = readMemberIndex(bitcode);
  if (index === null) return [bitcode];
  const { wanted, defined } = referencedSymbols(modules);
  return selectMembers([index], [...roots, ...wanted], defined);
}

/** Whether `modules` call a function that neither they nor the engine define (only then is the libc looked at). */
function needsOnDemandLibc(modules: readonly Module[]): boolean {
  const engine = new Set(specialFunctionNames());
  const defined = new Set<string>();
  for (const m of modules) for (const f of m.functions) if (!f.isDeclaration) defined.add(f.name);
  return modules.some((m) => m.functions.some((f) => f.isDeclaration && !f.name.startsWith('llvm.') && !engine.has(f.name) && !defined.has(f.name)));
}

/** The runtime's bitcode, or null when this installation has none (on-demand linking is then skipped). */
async function optionalRuntimeBitcode(part: RuntimePart): Promise<string | null> {
  try {
    return await runtimeBitcode(part);
  } catch (e) {
    if (e instanceof RuntimeSetupError) return null;
    throw e;
  }
}

/**
 * Without --libc: the functions `modules` call that the engine does not implement but the
 * libc defines, and the member files that define them (with what those need, and `exit`, so
 * that stdio is flushed when main returns, as under --libc=tsklee). None: [].
 */
function libcOnDemandFiles(modules: readonly Module[], bitcode: string): { names: string[]; files: string[] } {
  const index = readMemberIndex(bitcode);
  if (index === null) return { names: [], files: [] };
  const libcDefines = new Set<string>();
  for (const s of Object.values(index.members)) for (const d of [...s.defines, ...s.weak]) libcDefines.add(d);
  const engine = new Set(specialFunctionNames());
  const { wanted, defined } = referencedSymbols(modules);
  const functions = new Set<string>();
  for (const m of modules) for (const f of m.functions) if (f.isDeclaration) functions.add(f.name);
  const names = [...new Set(wanted)].filter((n) => functions.has(n) && !engine.has(n) && libcDefines.has(n)).sort();
  if (names.length === 0) return { names, files: [] };
  return { names, files: selectMembers([index], [...names, 'exit'], defined) };
}

/**
 * Loads the program (bitcode files or archives) and links the runtime the choice asks for.
 * Returns the module and the function to start in (`main`, or the POSIX wrapper).
 */
export async function loadProgram(inputs: readonly string[], choice: RuntimeChoice, opts: LinkOptions = {}): Promise<LoadedProgram> {
  const program = loadModule(inputs, opts);
  const files = [...inputs];
  // the runtime's bodies are decoded when pruning finds them live: most are never needed
  const lazy = { ...opts, lazyBodies: true };
  const loadRuntime = (file: string): Module => {
    files.push(file);
    return loadModule([file], lazy);
  };
  const parts = partsOf(choice);
  const onDemand = choice.libc === 'none' && choice.libcOnDemand !== false && !program.typedPointers;
  if (parts.length === 0 && !onDemand) return { module: program, entryPoint: 'main', libc: 'none', libcOnDemand: [], files };
  if (parts.length === 0) {
    // no runtime asked for: only the libc functions the program calls (KLEE runs those natively)
    const bitcode = needsOnDemandLibc([program]) ? await optionalRuntimeBitcode('libc') : null;
    const { names, files: members } = bitcode !== null ? libcOnDemandFiles([program], bitcode) : { names: [], files: [] };
    if (members.length === 0) return { module: program, entryPoint: 'main', libc: 'none', libcOnDemand: [], files };
    const fromRuntime = new Set<GlobalValue>();
    const rt = linkModules(members.map((f) => loadRuntime(f)), opts);
    adoptProgramLayout(program, rt);
    yieldToProgram(program, rt);
    for (const fn of rt.functions) if (!fn.isDeclaration) markRuntimeFunction(fn);
    for (const g of [...rt.functions, ...rt.globals, ...rt.aliases, ...rt.ifuncs]) fromRuntime.add(g);
    const module = linkModules([program, rt], opts);
    pruneUnreferenced(module, fromRuntime, ['main', 'exit']);
    return { module, entryPoint: 'main', libc: 'tsklee', libcOnDemand: names, files };
  }
  const what = parts.map((p) => (p === 'libc' ? '--libc=tsklee' : '--posix-runtime')).join(' ');
  if (program.typedPointers) {
    throw new RuntimeSetupError(`${what}: ${program.source} has typed pointers (clang ≤ 14); tsklee's runtime needs a program built by clang ≥ 15`);
  }
  let main: Function | undefined;
  if (choice.posixRuntime) {
    const wanted = choice.userMain ?? 'main';
    main = program.getFunction(wanted);
    if (main === undefined || main.isDeclaration) {
      throw new RuntimeSetupError(`--posix-runtime: ${program.source}: Entry function '${wanted}' not found in module.`);
    }
    if (program.getFunction(POSIX_USER_MAIN) !== undefined) throw new RuntimeSetupError(`--posix-runtime: ${program.source} already has a symbol named ${POSIX_USER_MAIN}`);
    main.name = POSIX_USER_MAIN;
    program.invalidateSymbolTable();
  }
  const entryPoint = choice.posixRuntime ? POSIX_ENTRY : 'main';
  const modules: Module[] = [program];
  const fromRuntime = new Set<GlobalValue>();
  const add = (rt: Module): void => {
    adoptProgramLayout(program, rt);
    if (main !== undefined) retypeUserMainDeclaration(rt, main);
    yieldToProgram(program, rt);
    for (const fn of rt.functions) if (!fn.isDeclaration) markRuntimeFunction(fn);
    for (const g of [...rt.functions, ...rt.globals, ...rt.aliases, ...rt.ifuncs]) fromRuntime.add(g);
    modules.push(rt);
  };
  // The POSIX model is linked whole: its C files share one state variable whose types only
  // llvm-link unifies, and a program using it needs most of it anyway.
  if (choice.posixRuntime) add(loadRuntime(await runtimeBitcode('posix')));
  let libcOnDemand: string[] = [];
  if (choice.libc === 'none' && onDemand) {
    // the POSIX model without --libc: the libc functions the program calls, on demand
    const bitcode = needsOnDemandLibc(modules) ? await optionalRuntimeBitcode('libc') : null;
    const { names, files: members } = bitcode !== null ? libcOnDemandFiles(modules, bitcode) : { names: [], files: [] };
    if (members.length > 0) add(linkModules(members.map((f) => loadRuntime(f)), opts));
    libcOnDemand = names;
  }
  if (choice.libc === 'tsklee') {
    // exit: the engine runs it after main (startup.ts)
    // members are linked with each other first, so that their references to each other stay
    // theirs when the program defines the same name (yieldToProgram)
    const members = libcFiles(modules, await runtimeBitcode('libc'), [entryPoint, 'exit']).map((f) => loadRuntime(f));
    if (members.length > 0) add(linkModules(members, opts));
  }
  const module = linkModules(modules, opts);
  pruneUnreferenced(module, fromRuntime, [entryPoint, 'exit']);
  return { module, entryPoint, libc: choice.libc === 'tsklee' || libcOnDemand.length > 0 ? 'tsklee' : 'none', libcOnDemand, files };
}
