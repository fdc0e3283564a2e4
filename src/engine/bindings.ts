/**
 * Which functions the engine implements itself (KLEE's SpecialFunctionHandler table, plus
 * the functions KLEE's runtime libraries provide when no libc is linked).
 *
 * As in KLEE, the klee_* functions, malloc and friends are handled even when the module
 * defines them; the "do not override" ones (abort, exit, assertion failures, klee_abort,
 * klee_silent_exit, klee_report_error) only when the module merely declares them. The
 * runtime-library functions (klee_int, klee_range, memcpy, …) are used only for
 * declarations too: a module that defines them runs its own.
 *
 * With tsklee's libc linked (--libc=tsklee), the libc's definitions win over these tables
 * except: malloc & co., __errno_location and the klee_* API stay the engine's (OVERRIDE);
 * exit is the libc's (atexit handlers, stdio flush) and ends in the engine's _exit; and
 * memcpy/memmove/mempcpy/memset stay the engine's when the definition is the libc's (same
 * semantics as its byte loops — one path per feasible symbolic length — but copied natively,
 * far fewer instructions). A program's own memcpy still runs as written.
 */
import type { Function } from '../ir/globals.js';
import type { CallBindings } from './prepare/kmodule.js';
import type { SpecialHandler } from './prepare/kinst.js';
import { lookupIntrinsic } from './intrinsics.js';
import { handleAbort, handleAssertFail, handleExit, handleReportError, handleSilentExit } from './special/process.js';
import {
  handleAlignedAlloc,
  handleCalloc,
  handleDelete,
  handleFree,
  handleMalloc,
  handleMemalign,
  handleNew,
  handlePosixMemalign,
  handleRealloc,
  handleReallocArray,
  handleValloc,
} from './special/heap.js';
import {
  handleAliasFunction,
  handleAssume,
  handleCheckMemoryAccess,
  handleCloseMerge,
  handleDefineFixedObject,
  handleErrnoLocation,
  handleGetErrno,
  handleGetObjSize,
  handleGetValue,
  handleIsReplay,
  handleIsSymbolic,
  handleKleeChoose,
  handleKleeInt,
  handleKleeRange,
  handleMakeSymbolic,
  handleMarkGlobal,
  handleOpenMerge,
  handlePosixPreferCex,
  handlePreferCex,
  handlePrintExpr,
  handlePrintRange,
  handleSetForking,
  handleStackTrace,
  handleWarning,
  handleWarningOnce,
} from './special/klee.js';
import { handleMemCopy, handleMemPCopy, handleMemSet } from './special/mem.js';
import { handleWriteConsole } from './special/console.js';
import { handleLongjmp, handleSetjmp } from './special/jmp.js';
import { isRuntimeFunction } from './prepare/runtime-functions.js';
import { LIBM } from './special/libm.js';
import { UBSAN_HANDLERS } from './special/ubsan.js';
import { Termination } from './errors.js';

/** Handled only when the module does not define them (KLEE's doNotOverride entries). */
const DO_NOT_OVERRIDE: Record<string, SpecialHandler> = {
  __assert_rtn: handleAssertFail,
  __assert_fail: handleAssertFail,
  __assert: handleAssertFail,
  _assert: handleAssertFail,
  abort: handleAbort,
  _exit: handleExit,
  exit: handleExit,
  klee_abort: handleAbort,
  klee_silent_exit: handleSilentExit,
  klee_report_error: handleReportError,
};

/** Handled whether or not the module defines them. */
const OVERRIDE: Record<string, SpecialHandler> = {
  calloc: handleCalloc,
  free: handleFree,
  klee_assume: handleAssume,
  klee_check_memory_access: handleCheckMemoryAccess,
  klee_get_valuef: handleGetValue,
  klee_get_valued: handleGetValue,
  klee_get_valuel: handleGetValue,
  klee_get_valuell: handleGetValue,
  klee_get_value_i32: handleGetValue,
  klee_get_value_i64: handleGetValue,
  klee_define_fixed_object: handleDefineFixedObject,
  klee_get_obj_size: handleGetObjSize,
  klee_get_errno: handleGetErrno,
  __errno_location: handleErrnoLocation,
  klee_is_symbolic: handleIsSymbolic,
  klee_make_symbolic: handleMakeSymbolic,
  klee_mark_global: handleMarkGlobal,
  klee_open_merge: handleOpenMerge,
  klee_close_merge: handleCloseMerge,
  klee_prefer_cex: handlePreferCex,
  klee_posix_prefer_cex: handlePosixPreferCex,
  klee_print_expr: handlePrintExpr,
  klee_print_range: handlePrintRange,
  klee_set_forking: handleSetForking,
  klee_stack_trace: handleStackTrace,
  klee_warning: handleWarning,
  klee_warning_once: handleWarningOnce,
  malloc: handleMalloc,
  memalign: handleMemalign,
  realloc: handleRealloc,
  reallocarray: handleReallocArray,
  _ZdaPv: handleDelete,
  _ZdlPv: handleDelete,
  _ZdaPvm: handleDelete,
  _ZdlPvm: handleDelete,
  _Znaj: handleNew,
  _Znwj: handleNew,
  _Znam: handleNew,
  _Znwm: handleNew,
};

/** What KLEE's runtime libraries provide (libm, which KLEE calls natively, and the UBSan runtime's handlers); used only for declarations. */
const RUNTIME: Record<string, SpecialHandler> = {
  ...LIBM,
  ...UBSAN_HANDLERS,
  klee_int: handleKleeInt,
  klee_range: handleKleeRange,
  klee_choose: handleKleeChoose,
  klee_is_replay: handleIsReplay,
  klee_alias_function: handleAliasFunction,
  memcpy: handleMemCopy,
  memmove: handleMemCopy,
  mempcpy: handleMemPCopy,
  memset: handleMemSet,
  posix_memalign: handlePosixMemalign,
  aligned_alloc: handleAlignedAlloc,
  valloc: handleValloc,
  __tsklee_write_console: handleWriteConsole,
  _setjmp: handleSetjmp,
  setjmp: handleSetjmp,
  __sigsetjmp: handleSetjmp,
  longjmp: handleLongjmp,
  _longjmp: handleLongjmp,
  siglongjmp: handleLongjmp,
  __longjmp_chk: handleLongjmp,
};

/** Defined by tsklee's libc, but run by the engine (faster, same paths). */
const FAST_RUNTIME = new Set(['memcpy', 'memmove', 'mempcpy', 'memset']);

export const callBindings: CallBindings = {
  special(name: string, fn: Function) {
    const o = OVERRIDE[name];
    if (o !== undefined) return o;
    if (!fn.isDeclaration) return FAST_RUNTIME.has(name) && isRuntimeFunction(fn) ? RUNTIME[name]! : null;
    return DO_NOT_OVERRIDE[name] ?? RUNTIME[name] ?? null;
  },
  intrinsic(name: string) {
    return lookupIntrinsic(name);
  },
};

/** Names the engine implements (for `--help`-style listings and tests). */
export function specialFunctionNames(): string[] {
  return [...Object.keys(DO_NOT_OVERRIDE), ...Object.keys(OVERRIDE), ...Object.keys(RUNTIME)].sort();
}

/**
 * --external-calls=none: the functions KLEE would run natively (libm here; the libc is not
 * linked on demand then) end the path with KLEE's user error "external calls disallowed".
 * tsklee's engine models of the klee_* API, the heap and the mem* builtins stay (KLEE handles
 * or links those too).
 */
export function withoutExternalCalls(bindings: CallBindings): CallBindings {
  return {
    special(name: string, fn: Function) {
      if (fn.isDeclaration && Object.hasOwn(LIBM, name)) return disallowedExternal(name);
      return bindings.special(name, fn);
    },
    intrinsic: (name: string, fn: Function) => bindings.intrinsic(name, fn),
  };
}

function disallowedExternal(name: string): SpecialHandler {
  return (ex, st) => {
    ex.warning(`Disallowed call to external function: ${name}`);
    ex.terminateOnError(st, 'external calls disallowed', Termination.User);
  };
}
