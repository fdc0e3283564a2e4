/**
 * Module records that declare global values (GLOBALVAR, FUNCTION, ALIAS, IFUNC) and comdats,
 * plus the worklists for what they reference by value id (initializers, aliasees, resolvers,
 * prologue/prefix/personality), which may be defined later in the module.
 */
import { AttributeList } from '../../ir/attributes.js';
import { ComdatSelection } from '../../ir/module.js';
import type { Value } from '../../ir/value.js';
import type { Constant } from '../../ir/constants.js';
import {
  DLLStorage,
  Function,
  GlobalAlias,
  GlobalIFunc,
  GlobalVariable,
  Linkage,
  ThreadLocalMode,
  UnnamedAddr,
  Visibility,
  globalPointerType,
  type GlobalValue,
} from '../../ir/globals.js';
import type { BitcodeRecord } from '../cursor.js';
import { ModuleCode } from './ids.js';
import { opsToString, type ReaderContext } from './context.js';

const LINKAGES: Record<number, Linkage> = {
  0: Linkage.External,
  1: Linkage.WeakAny, // old value with implicit comdat
  2: Linkage.Appending,
  3: Linkage.Internal,
  4: Linkage.LinkOnceAny, // old value with implicit comdat
  5: Linkage.External, // obsolete dllimport linkage
  6: Linkage.External, // obsolete dllexport linkage
  7: Linkage.ExternWeak,
  8: Linkage.Common,
  9: Linkage.Private,
  10: Linkage.WeakODR, // old value with implicit comdat
  11: Linkage.LinkOnceODR, // old value with implicit comdat
  12: Linkage.AvailableExternally,
  13: Linkage.Private, // obsolete linker_private
  14: Linkage.Private, // obsolete linker_private_weak
  15: Linkage.External, // obsolete linkonce_odr_autohide
  16: Linkage.WeakAny,
  17: Linkage.WeakODR,
  18: Linkage.LinkOnceAny,
  19: Linkage.LinkOnceODR,
};

/** Unknown linkage values mean external, as in LLVM. */
export function decodeLinkage(raw: number): Linkage {
  return LINKAGES[raw] ?? Linkage.External;
}

const COMDAT_KINDS: Record<number, ComdatSelection> = {
  1: ComdatSelection.Any,
  2: ComdatSelection.ExactMatch,
  3: ComdatSelection.Largest,
  4: ComdatSelection.NoDeduplicate,
  5: ComdatSelection.SameSize,
};

const MAX_ALIGN_EXPONENT = 32;
const MAX_CALLING_CONV = 1023;
const MAX_ADDR_SPACE = 0xffffff;

function decodeVisibility(raw: number): Visibility {
  return raw === 1 ? Visibility.Hidden : raw === 2 ? Visibility.Protected : Visibility.Default;
}
function decodeDLLStorage(raw: number): DLLStorage {
  return raw === 1 ? DLLStorage.Import : raw === 2 ? DLLStorage.Export : DLLStorage.Default;
}
function decodeUnnamedAddr(raw: number): UnnamedAddr {
  return raw === 1 ? UnnamedAddr.Global : raw === 2 ? UnnamedAddr.Local : UnnamedAddr.None;
}
function decodeThreadLocal(raw: number): ThreadLocalMode {
  // Unknown non-zero values mean general dynamic, as in LLVM.
  return raw >= 0 && raw <= 4 ? (raw as ThreadLocalMode) : ThreadLocalMode.GeneralDynamic;
}

interface FunctionOperands {
  fn: Function;
  /** Value id + 1 (0 = none) of the personality, prefix and prologue constants. */
  personality: number;
  prefix: number;
  prologue: number;
}

/** Per-module state of the global-value records. */
export class GlobalsReader {
  private readonly comdatNames: string[] = [];
  private inits: { gv: GlobalVariable; id: number }[] = [];
  private indirect: { gv: GlobalAlias | GlobalIFunc; id: number }[] = [];
  private fnOperands: FunctionOperands[] = [];
  /** Globals with an old linkage that implies a comdat named after them (names come later). */
  private readonly implicitComdat = new Set<GlobalValue>();

  constructor(private readonly ctx: ReaderContext) {}

  /** Splits a version-2 record into its string-table name and the remaining fields. */
  private nameAndFields(rec: BitcodeRecord): { name: string; f: readonly number[] } {
    if (this.ctx.version < 2) return { name: '', f: rec.ops };
    if (rec.ops.length < 2) this.ctx.error('record without a string table reference');
    return { name: this.ctx.strtabString(rec.ops[0]!, rec.ops[1]!), f: rec.ops.slice(2) };
  }

  private alignment(raw: number): number {
    if (raw > MAX_ALIGN_EXPONENT + 1) this.ctx.error(`invalid alignment exponent ${raw}`);
    return raw === 0 ? 0 : 2 ** (raw - 1);
  }

  private section(raw: number): string {
    if (raw === 0) return '';
    const s = this.ctx.sectionNames[raw - 1];
    if (s === undefined) this.ctx.error(`invalid section id ${raw}`);
    return s;
  }

  private comdat(raw: number): string | null {
    if (raw === 0) return null;
    const c = this.comdatNames[raw - 1];
    if (c === undefined) this.ctx.error(`invalid comdat id ${raw}`);
    return c;
  }

  private partition(offset: number, size: number): string {
    return size === 0 ? '' : this.ctx.strtabString(offset, size);
  }

  /** dso_local as LLVM infers it when the record does not say (local or non-default visibility). */
  private static inferDSOLocal(gv: GlobalValue): void {
    if (gv.hasLocalLinkage || (gv.visibility !== Visibility.Default && gv.linkage !== Linkage.ExternWeak)) gv.dsoLocal = true;
  }

  /** For records without a DLL storage field, the old dllimport/dllexport linkages give it. */
  private static upgradeDLLLinkage(gv: GlobalValue, rawLinkage: number): void {
    if (gv.hasLocalLinkage) return;
    if (rawLinkage === 5) gv.dllStorage = DLLStorage.Import;
    else if (rawLinkage === 6) gv.dllStorage = DLLStorage.Export;
  }

  private addrSpace(raw: number): number {
    if (raw > MAX_ADDR_SPACE) this.ctx.error(`invalid address space ${raw}`);
    return raw;
  }

  /** COMDAT: v2 [strtab offset, size, selection]; v1 [selection, name size, name...]. */
  readComdat(rec: BitcodeRecord): void {
    const { name: strtabName, f } = this.nameAndFields(rec);
    if (f.length < 1) this.ctx.error('invalid comdat record');
    let name = strtabName;
    if (this.ctx.version < 2) {
      const size = f[1];
      if (size === undefined || size > f.length - 2) this.ctx.error('invalid comdat record');
      name = opsToString(f, 2, 2 + size);
    }
    this.ctx.module.comdats.set(name, COMDAT_KINDS[f[0]!] ?? ComdatSelection.Any);
    this.comdatNames.push(name);
  }

  /**
   * GLOBALVAR: [type, isconst | explicittype << 1 | addrspace << 2, initid + 1, linkage,
   * alignment, section, visibility, threadlocal, unnamed_addr, externally_initialized,
   * dllstorageclass, comdat, attributes, dso_local, partition offset, partition size,
   * sanitizer, code model]; without the explicit-type bit, the type is a typed pointer.
   */
  readGlobalVar(rec: BitcodeRecord): void {
    const ctx: ReaderContext = this.ctx;
    const { name, f } = this.nameAndFields(rec);
    const n = f.length;
    if (n < 6) ctx.error('invalid global variable record');
    let ty = ctx.getType(f[0]!);
    const bits = f[1]!;
    let addrSpace: number;
    if (bits & 2) {
      addrSpace = this.addrSpace(Math.floor(bits / 4));
    } else {
      if (!ty.isPointer() || !ty.pointee) ctx.error('global variable without an explicit or pointee type');
      addrSpace = ty.addrSpace;
      ty = ty.pointee;
    }
    const gv = new GlobalVariable(name, ty, addrSpace, globalPointerType(ty, addrSpace, ctx.module.typedPointers));
    gv.isConstantGlobal = (bits & 1) !== 0;
    const rawLinkage = f[3]!;
    gv.linkage = decodeLinkage(rawLinkage);
    gv.align = this.alignment(f[4]!);
    gv.section = this.section(f[5]!);
    if (n > 6 && !gv.hasLocalLinkage) gv.visibility = decodeVisibility(f[6]!);
    if (n > 7) gv.threadLocal = decodeThreadLocal(f[7]!);
    if (n > 8) gv.unnamedAddr = decodeUnnamedAddr(f[8]!);
    if (n > 9) gv.externallyInitialized = f[9] !== 0;
    if (n > 10) {
      if (!gv.hasLocalLinkage) gv.dllStorage = decodeDLLStorage(f[10]!);
    } else {
      GlobalsReader.upgradeDLLLinkage(gv, rawLinkage);
    }
    if (f[2] !== 0) this.inits.push({ gv, id: f[2]! - 1 });
    if (n > 11) gv.comdat = this.comdat(f[11]!);
    else if (hasImplicitComdat(rawLinkage)) this.implicitComdat.add(gv);
    if (n > 12) {
      const fnAttrs = ctx.attrs.list(f[12]!).fn;
      if (fnAttrs.length > 0) gv.attributes = new AttributeList(fnAttrs, [], []);
    }
    if (n > 13) gv.dsoLocal = f[13] === 1;
    GlobalsReader.inferDSOLocal(gv);
    if (n > 15) gv.partition = this.partition(f[14]!, f[15]!);
    if (n > 17 && f[17] !== 0) {
      if (f[17]! > 5) ctx.error(`invalid code model ${f[17]}`);
      gv.codeModel = f[17]!;
    }
    ctx.values.push(gv);
    ctx.module.globals.push(gv);
  }

  /**
   * FUNCTION: [type, callingconv, isproto, linkage, paramattr, alignment, section, visibility,
   * gc, unnamed_addr, prologue + 1, dllstorageclass, comdat, prefix + 1, personality + 1,
   * dso_local, addrspace, partition offset, partition size]; old records give a pointer type.
   */
  readFunction(rec: BitcodeRecord): void {
    const ctx: ReaderContext = this.ctx;
    const { name, f } = this.nameAndFields(rec);
    const n = f.length;
    if (n < 8) ctx.error('invalid function record');
    let ty = ctx.getType(f[0]!);
    if (ty.isPointer() && ty.pointee) ty = ty.pointee;
    if (!ty.isFunction()) ctx.error('function record without a function type');
    if (f[1]! > MAX_CALLING_CONV) ctx.error(`invalid calling convention ${f[1]}`);
    const addrSpace = n > 16 ? this.addrSpace(f[16]!) : 0;
    const fn = new Function(name, ty, addrSpace, globalPointerType(ty, addrSpace, ctx.module.typedPointers));
    fn.callingConv = f[1]!;
    const isProto = f[2] !== 0;
    const rawLinkage = f[3]!;
    fn.linkage = decodeLinkage(rawLinkage);
    fn.attributes = ctx.attrs.list(f[4]!);
    fn.align = this.alignment(f[5]!);
    fn.section = this.section(f[6]!);
    if (!fn.hasLocalLinkage) fn.visibility = decodeVisibility(f[7]!);
    if (n > 8 && f[8] !== 0) {
      const gc = ctx.gcNames[f[8]! - 1];
      if (gc === undefined) ctx.error(`invalid gc id ${f[8]}`);
      fn.gc = gc;
    }
    if (n > 9) fn.unnamedAddr = decodeUnnamedAddr(f[9]!);
    const ops: FunctionOperands = { fn, prologue: n > 10 ? f[10]! : 0, prefix: n > 13 ? f[13]! : 0, personality: n > 14 ? f[14]! : 0 };
    if (n > 11) {
      if (!fn.hasLocalLinkage) fn.dllStorage = decodeDLLStorage(f[11]!);
    } else {
      GlobalsReader.upgradeDLLLinkage(fn, rawLinkage);
    }
    if (n > 12) fn.comdat = this.comdat(f[12]!);
    else if (hasImplicitComdat(rawLinkage)) this.implicitComdat.add(fn);
    if (n > 15) fn.dsoLocal = f[15] === 1;
    GlobalsReader.inferDSOLocal(fn);
    // LLVM ignores a partition that does not fit in the string table here.
    if (n > 18 && ctx.strtab && f[17]! + f[18]! <= ctx.strtab.length) fn.partition = this.partition(f[17]!, f[18]!);
    ctx.values.push(fn);
    ctx.module.functions.push(fn);
    if (ops.prologue || ops.prefix || ops.personality) this.fnOperands.push(ops);
    if (!isProto) {
      fn.hasBody = true;
      ctx.functionsWithBodies.push(fn);
    }
  }

  /**
   * ALIAS / IFUNC: [type, addrspace, value, linkage, visibility, (alias only: dllstorageclass,
   * threadlocal, unnamed_addr,) dso_local, partition offset, partition size];
   * ALIAS_OLD: [pointer type, value, linkage, ...].
   */
  readIndirectSymbol(rec: BitcodeRecord): void {
    const ctx: ReaderContext = this.ctx;
    const { name, f } = this.nameAndFields(rec);
    const n = f.length;
    const isOld = rec.code === ModuleCode.AliasOld;
    const isAlias = rec.code !== ModuleCode.IFunc;
    if (n < (isOld ? 3 : 4)) ctx.error('invalid alias or ifunc record');
    let i = 0;
    let ty = ctx.getType(f[i++]!);
    let addrSpace: number;
    if (isOld) {
      if (!ty.isPointer() || !ty.pointee) ctx.error('old alias record without a pointee type');
      addrSpace = ty.addrSpace;
      ty = ty.pointee;
    } else {
      addrSpace = this.addrSpace(f[i++]!);
    }
    const valueId = f[i++]!;
    const rawLinkage = f[i++]!;
    const ptrTy = globalPointerType(ty, addrSpace, ctx.module.typedPointers);
    const gv = isAlias ? new GlobalAlias(name, ty, addrSpace, ptrTy) : new GlobalIFunc(name, ty, addrSpace, ptrTy);
    gv.linkage = decodeLinkage(rawLinkage);
    if (i < n) {
      const vis = f[i++]!;
      if (!gv.hasLocalLinkage) gv.visibility = decodeVisibility(vis);
    }
    if (isAlias) {
      if (i < n) {
        const dll = f[i++]!;
        if (!gv.hasLocalLinkage) gv.dllStorage = decodeDLLStorage(dll);
      } else {
        GlobalsReader.upgradeDLLLinkage(gv, rawLinkage);
      }
      if (i < n) gv.threadLocal = decodeThreadLocal(f[i++]!);
      if (i < n) gv.unnamedAddr = decodeUnnamedAddr(f[i++]!);
    }
    if (i < n) gv.dsoLocal = f[i++] === 1;
    GlobalsReader.inferDSOLocal(gv);
    if (i + 1 < n) gv.partition = this.partition(f[i]!, f[i + 1]!);
    ctx.values.push(gv);
    if (gv instanceof GlobalAlias) ctx.module.aliases.push(gv);
    else ctx.module.ifuncs.push(gv);
    this.indirect.push({ gv, id: valueId });
  }

  /** Called when the module symbol table names value `id` (modules before version 2). */
  onNamed(id: number): void {
    const gv = this.ctx.values.getDefined(id) as GlobalValue;
    if (!this.implicitComdat.has(gv)) return;
    gv.comdat = gv.name;
    if (!this.ctx.module.comdats.has(gv.name)) this.ctx.module.comdats.set(gv.name, ComdatSelection.Any);
  }

  /**
   * Sets the initializers, aliasees, resolvers and function operands whose values are
   * defined by now; with `final`, anything still missing is an error.
   */
  resolve(final: boolean): void {
    const ctx: ReaderContext = this.ctx;
    const lookup = (id: number, what: string): Constant | undefined => {
      const v: Value | undefined = ctx.values.getDefined(id);
      if (!v) {
        if (final) ctx.error(`${what} refers to undefined value #${id}`);
        return undefined;
      }
      if (!v.isConstant()) ctx.error(`${what} is not a constant`);
      return v as Constant;
    };
    this.inits = this.inits.filter(({ gv, id }) => {
      const c = lookup(id, `initializer of @${printable(gv.name)}`);
      if (!c) return true;
      if (c.type !== gv.valueType) ctx.error(`initializer of @${printable(gv.name)} has the wrong type`);
      gv.initializer = c;
      return false;
    });
    this.indirect = this.indirect.filter(({ gv, id }) => {
      const c = lookup(id, `target of @${printable(gv.name)}`);
      if (!c) return true;
      if (gv instanceof GlobalAlias) {
        if (c.type !== gv.type) ctx.error(`alias @${printable(gv.name)} and its aliasee have different types`);
        gv.aliasee = c;
      } else {
        gv.resolver = c;
      }
      return false;
    });
    this.fnOperands = this.fnOperands.filter((o) => {
      const what = `operand of @${printable(o.fn.name)}`;
      const take = (idPlusOne: number): Constant | undefined => (idPlusOne === 0 ? undefined : lookup(idPlusOne - 1, what));
      const personality = take(o.personality);
      if (personality) [o.fn.personality, o.personality] = [personality, 0];
      const prefix = take(o.prefix);
      if (prefix) [o.fn.prefix, o.prefix] = [prefix, 0];
      const prologue = take(o.prologue);
      if (prologue) [o.fn.prologue, o.prologue] = [prologue, 0];
      return o.personality !== 0 || o.prefix !== 0 || o.prologue !== 0;
    });
  }
}

/** A name or string from the file for an error message: printable ASCII, others as \XX. */
export function printable(s: string): string {
  return s.replace(/[^\x20-\x7e]|\\/g, (c) => `\\${c.charCodeAt(0).toString(16).toUpperCase().padStart(2, '0')}`);
}

function hasImplicitComdat(rawLinkage: number): boolean {
  return rawLinkage === 1 || rawLinkage === 4 || rawLinkage === 10 || rawLinkage === 11;
}
