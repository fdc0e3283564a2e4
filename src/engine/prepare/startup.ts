/**
 * What C start-up code does around main for programs linked with tsklee's libc
 * (--libc=tsklee / --posix-runtime): `environ` points at main's envp (EngineOptions.environment:
 * a fixed default or --environ's; tsklee never passes the host's), and the value main returns goes to the libc's `exit`
 * (atexit handlers, stdio flush, then the engine's `_exit`), as `exit(main(argc, argv, envp))`
 * would — otherwise output still buffered in stdio would be lost when main returns.
 */
import { ObjectKind } from '../../memory/index.js';
import type { Executor } from '../executor.js';
import type { Val } from '../values.js';
import type { ExecutionState } from '../state.js';
import type { KFunction } from './kinst.js';
import { isRuntimeFunction } from './runtime-functions.js';

/** Point the libc's `environ` at the envp the entry function receives (after argv's NULL in the same vector). */
export function setEnviron(ex: Executor, st: ExecutionState): void {
  const gv = ex.km.module.globals.find((g) => g.name === 'environ' && g.initializer !== null);
  if (gv === undefined || ex.envpAddress === 0) return;
  const mo = ex.globalObject(gv);
  const os = mo !== undefined ? st.memory.writeableOf(mo) : null;
  if (os === null || os.size < 8) return;
  os.setConcrete(0, u64Bytes([ex.envpAddress]));
}

/** The libc's `exit`, run as the last entry function with main's result; null without the libc. */
export function libcExit(ex: Executor): KFunction | null {
  const fn = ex.km.module.getFunction('exit');
  if (fn === undefined || fn.isDeclaration || !isRuntimeFunction(fn) || fn.args.length !== 1) return null;
  return ex.km.kfunction(fn) ?? null;
}

/** A NUL-terminated copy of `text` in a new object of st (argv and envp strings). */
function stringObject(st: ExecutionState, text: string, site: string, name: string): number {
  const bytes = new TextEncoder().encode(text);
  const os = st.memory.allocate(bytes.length + 1, ObjectKind.Fixed, 8, site)!;
  const mo = os.mo!;
  mo.name = name;
  os.setConcrete(0, bytes);
  st.argvObjects.push(mo);
  return mo.address;
}

/**
 * The entry function's (argc, argv, envp), as many as it takes: the program name and
 * arguments, then the environment (EngineOptions.environment), in one vector
 * `argv[0..argc-1], NULL, envp[0..], NULL`. main(void) still gets the objects when the
 * libc's `environ` will point at them. Sets ex.envpAddress.
 */
export function buildMainArgs(ex: Executor, st: ExecutionState, kf: KFunction): Val[] {
  const opts = ex.opts;
  const nparams = kf.fn.args.length;
  if (nparams === 0 && !(opts.libc === 'tsklee' || opts.posixRuntime)) return [];
  const argv = [opts.programName, ...opts.programArgs];
  const site = `${kf.name}():  argv`;
  const ptrs = argv.map((a, i) => stringObject(st, a, site, `arg${i}`));
  const env = opts.environment.map((e, i) => stringObject(st, e, `${kf.name}():  envp`, `env${i}`));
  const vos = st.memory.allocate((argv.length + env.length + 2) * 8, ObjectKind.Fixed, 8, site)!;
  const vec = vos.mo!;
  vec.name = 'argv';
  // argv[0..argc-1], NULL, envp[0..], NULL (the NULLs are the fresh object's zeros)
  vos.setConcrete(0, u64Bytes(ptrs));
  const envp = vec.address + (argv.length + 1) * 8;
  vos.setConcrete((argv.length + 1) * 8, u64Bytes(env));
  st.argvObjects.push(vec);
  ex.envpAddress = envp;
  const out: Val[] = [argv.length, vec.address, envp];
  return out.slice(0, nparams);
}

/** Little-endian 64-bit words. */
function u64Bytes(words: readonly number[]): Uint8Array {
  const out = new Uint8Array(words.length * 8);
  const v = new DataView(out.buffer);
  words.forEach((w, i) => v.setBigUint64(i * 8, BigInt(w), true));
  return out;
}
