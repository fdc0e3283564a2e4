/**
 * Linking several decoded modules into one, the way llvm-link does for C programs:
 * declarations resolve to definitions by name, weak/linkonce/common definitions yield to
 * strong ones, local symbols that collide are renamed, equal identified structs become one
 * type (different ones with the same name are renamed), appending arrays are concatenated
 * and named metadata merged.
 */
import { ConstantAggregateZero, ConstantArray, type Constant } from './constants.js';
import { DataLayout } from './datalayout.js';
import { GlobalVariable, Linkage, Visibility, globalPointerType, type GlobalValue } from './globals.js';
import { Module } from './module.js';
import { ArrayType, TypeKind, type Type } from './types.js';
import { ValueKind, type Value } from './value.js';
import { printType } from './printer/index.js';
import { LinkError } from './linker/errors.js';
import { compatibleDeclaration, typesEquivalent } from './linker/type-equiv.js';
import { replaceGlobalUses } from './linker/replace-uses.js';
import { mergeNamedMetadata } from './linker/named-metadata.js';
import { remapSyncScopes } from './linker/sync-scopes.js';
import { unifyStructTypes } from './linker/type-map.js';

export { LinkError } from './linker/errors.js';
export { replaceGlobalUses } from './linker/replace-uses.js';
export { typesEquivalent } from './linker/type-equiv.js';

export interface LinkOptions {
  /** Receives non-fatal diagnostics (e.g. a module flag conflict settled by keeping one value). */
  onWarning?: (message: string) => void;
}

/** A global value and the module it comes from. */
interface LinkSymbol {
  gv: GlobalValue;
  mod: Module;
}

/**
 * Links `modules` into a new Module and returns it. The inputs are consumed: their global
 * values, functions and types move into the result (and may be renamed or rewritten), so
 * they must not be used afterwards. A single module is returned as it is.
 * Throws LinkError on conflicts.
 */
export function linkModules(modules: readonly Module[], opts: LinkOptions = {}): Module {
  if (modules.length === 0) throw new LinkError('no modules to link');
  if (modules.length === 1) return modules[0]!;
  const warn = opts.onWarning ?? ((): void => {});
  const result = newResultModule(modules);
  unifyStructTypes(modules);
  renameStructTypes(modules);

  const symbols = collectSymbols(modules);
  const replacements = new Map<Value, Value>();
  const kept = new Set<GlobalValue>();
  let layout: DataLayout | null = null;
  const dataLayout = (): DataLayout => (layout ??= DataLayout.parse(result.dataLayout));

  for (const [name, syms] of symbols.named) {
    const winner = syms[0]!.gv.linkage === Linkage.Appending ? appendAll(name, syms) : resolve(name, syms, dataLayout);
    kept.add(winner.gv);
    for (const s of syms) if (s.gv !== winner.gv) replacements.set(s.gv, winner.gv);
  }
  for (const s of symbols.local) kept.add(s.gv);
  renameLocals(symbols.local, new Set(symbols.named.keys()));

  for (const m of modules) {
    result.globals.push(...m.globals.filter((g) => kept.has(g)));
    result.functions.push(...m.functions.filter((g) => kept.has(g)));
    result.aliases.push(...m.aliases.filter((g) => kept.has(g)));
    result.ifuncs.push(...m.ifuncs.filter((g) => kept.has(g)));
    result.structTypes.push(...m.structTypes);
    mergeComdats(result, m);
  }
  remapSyncScopes(modules, result);
  replaceGlobalUses(modules, replacements);
  result.namedMetadata = mergeNamedMetadata(
    modules.map((m) => m.namedMetadata),
    modules.map((m) => m.source),
    warn,
  );
  result.invalidateSymbolTable();
  return result;
}

function newResultModule(modules: readonly Module[]): Module {
  const first = modules[0]!;
  const result = new Module();
  result.source = modules.map((m) => m.source).join(', ');
  result.sourceFileName = first.sourceFileName;
  result.producer = first.producer;
  result.typedPointers = first.typedPointers;
  for (const m of modules) {
    if (m.typedPointers !== first.typedPointers) {
      const [typed, opaque] = m.typedPointers ? [m, first] : [first, m];
      throw new LinkError(
        `cannot link typed-pointer (LLVM 14) and opaque-pointer modules (${typed.source} has typed pointers, ${opaque.source} opaque ones)`,
      );
    }
    if (m.targetTriple !== '') {
      if (result.targetTriple === '') result.targetTriple = m.targetTriple;
      else if (!triplesCompatible(result.targetTriple, m.targetTriple)) {
        throw new LinkError(`cannot link modules for different targets: ${result.targetTriple} and ${m.targetTriple} (in ${m.source})`);
      }
    }
    if (m.dataLayout !== '') {
      if (result.dataLayout === '') result.dataLayout = m.dataLayout;
      else if (result.dataLayout !== m.dataLayout && !DataLayout.parse(result.dataLayout).equals(DataLayout.parse(m.dataLayout))) {
        throw new LinkError(`cannot link modules with different data layouts: "${result.dataLayout}" and "${m.dataLayout}" (in ${m.source})`);
      }
    }
    if (m.moduleAsm !== '') result.moduleAsm = result.moduleAsm === '' ? m.moduleAsm : `${result.moduleAsm}\n${m.moduleAsm}`;
  }
  return result;
}

/** Same architecture, OS and environment; the vendor field (pc/unknown) does not matter. */
function triplesCompatible(a: string, b: string): boolean {
  const parts = (t: string): string[] => {
    const p = t.split('-');
    return [p[0] ?? '', ...p.slice(2)];
  };
  return parts(a).join('-') === parts(b).join('-');
}

/** Identified struct names must be unique in the result: later modules' duplicates get `.N`. */
function renameStructTypes(modules: readonly Module[]): void {
  const used = new Set<string>();
  for (const m of modules) {
    const own = new Set(m.structTypes.map((s) => s.name ?? ''));
    for (const s of m.structTypes) {
      if (s.name) s.name = uniqueName(s.name, 0, used, own);
    }
  }
}

/**
 * `name` if `used` lacks it, else `name.N` for the first N from `first` not in `used` or
 * `reserved`. The result is added to `used`.
 */
function uniqueName(name: string, first: number, used: Set<string>, reserved: ReadonlySet<string>): string {
  let result = name;
  if (used.has(name)) {
    let n = first;
    while (used.has(`${name}.${n}`) || reserved.has(`${name}.${n}`)) n++;
    result = `${name}.${n}`;
  }
  used.add(result);
  return result;
}

function collectSymbols(modules: readonly Module[]): { named: Map<string, LinkSymbol[]>; local: LinkSymbol[] } {
  const named = new Map<string, LinkSymbol[]>();
  const local: LinkSymbol[] = [];
  for (const mod of modules) {
    for (const list of [mod.globals, mod.functions, mod.aliases, mod.ifuncs] as GlobalValue[][]) {
      for (const gv of list) {
        if (gv.hasLocalLinkage || gv.name === '') {
          local.push({ gv, mod });
          continue;
        }
        let syms = named.get(gv.name);
        if (!syms) named.set(gv.name, (syms = []));
        syms.push({ gv, mod });
      }
    }
  }
  return { named, local };
}

// ------------------------------------------------------------------ symbol resolution

function isDeclarationForLinker(gv: GlobalValue): boolean {
  return gv.linkage === Linkage.AvailableExternally || gv.isDeclaration;
}

function isLinkOnce(gv: GlobalValue): boolean {
  return gv.linkage === Linkage.LinkOnceAny || gv.linkage === Linkage.LinkOnceODR;
}

function isWeak(gv: GlobalValue): boolean {
  return gv.linkage === Linkage.WeakAny || gv.linkage === Linkage.WeakODR;
}

function isWeakForLinker(gv: GlobalValue): boolean {
  return isWeak(gv) || isLinkOnce(gv) || gv.linkage === Linkage.Common || gv.linkage === Linkage.ExternWeak;
}

/**
 * Whether `src` replaces the current choice `dst` (LLVM's rules): a definition beats a
 * declaration, available_externally beats a declaration, common beats weak/linkonce and the
 * larger common wins, weak beats linkonce, a strong definition beats any weak one, and the
 * earlier of two equally weak definitions stays.
 */
function srcWins(dst: LinkSymbol, src: LinkSymbol, dataLayout: () => DataLayout): boolean {
  const d = dst.gv;
  const s = src.gv;
  if (isDeclarationForLinker(s)) {
    if (d.linkage === Linkage.ExternWeak) return true;
    return !s.isDeclaration && d.isDeclaration;
  }
  if (isDeclarationForLinker(d)) return true;
  if (s.linkage === Linkage.Common) {
    if (isLinkOnce(d) || isWeak(d)) return true;
    if (d.linkage !== Linkage.Common) return false;
    return dataLayout().typeAllocSize(s.valueType) > dataLayout().typeAllocSize(d.valueType);
  }
  if (isWeakForLinker(s)) return isLinkOnce(d) && isWeak(s);
  if (isWeakForLinker(d)) return true;
  throw new LinkError(`multiple definitions of @${d.name} (in ${dst.mod.source} and ${src.mod.source})`);
}

function resolve(name: string, syms: LinkSymbol[], dataLayout: () => DataLayout): LinkSymbol {
  let winner = syms[0]!;
  for (const s of syms.slice(1)) if (srcWins(winner, s, dataLayout)) winner = s;
  // Messages name the modules in link order.
  const w = syms.indexOf(winner);
  syms.forEach((s, i) => {
    if (i < w) checkCompatible(name, s, winner);
    else if (i > w) checkCompatible(name, winner, s);
  });
  mergeAttributes(winner, syms);
  return winner;
}

function isFunctionLike(gv: GlobalValue): boolean {
  return gv.valueType.kind === TypeKind.Function;
}

function checkCompatible(name: string, a: LinkSymbol, b: LinkSymbol): void {
  const ta = a.gv.valueType;
  const tb = b.gv.valueType;
  if (isFunctionLike(a.gv) === isFunctionLike(b.gv) && compatibleDeclaration(ta, tb)) return;
  // C tentative definitions (`int x;` here, `char x[100];` there) may differ in type.
  if (a.gv.linkage === Linkage.Common || b.gv.linkage === Linkage.Common) return;
  const what = (gv: GlobalValue): string => (isFunctionLike(gv) ? '' : 'global ');
  throw new LinkError(
    `type mismatch for @${name}: ${what(a.gv)}${printType(ta)} vs ${what(b.gv)}${printType(tb)} (in ${a.mod.source} and ${b.mod.source})`,
  );
}

/** The winner takes the most restrictive visibility and, for commons, the largest alignment. */
function mergeAttributes(winner: LinkSymbol, syms: LinkSymbol[]): void {
  const w = winner.gv;
  for (const { gv } of syms) {
    if (gv === w) continue;
    if (gv.visibility !== Visibility.Default && (w.visibility === Visibility.Default || gv.visibility === Visibility.Hidden)) {
      w.visibility = gv.visibility;
    }
    if (w.linkage === Linkage.Common && gv.linkage === Linkage.Common && w instanceof GlobalVariable && gv instanceof GlobalVariable) {
      w.align = Math.max(w.align, gv.align);
    }
  }
}

/** Concatenates the initializers of appending arrays (llvm.global_ctors, llvm.used, …) into the first. */
function appendAll(name: string, syms: LinkSymbol[]): LinkSymbol {
  const first = syms[0]!;
  if (syms.length === 1) return first;
  const elements: Value[] = [];
  let elementType: Type | null = null;
  for (const s of syms) {
    const g = s.gv;
    if (g.linkage !== Linkage.Appending || g.vkind !== ValueKind.GlobalVariable || g.valueType.kind !== TypeKind.Array) {
      throw new LinkError(`@${name} has appending linkage in ${first.mod.source} but not in ${s.mod.source}`);
    }
    const et = (g.valueType as ArrayType).element;
    if (elementType === null) elementType = et;
    else if (!typesEquivalent(elementType, et)) {
      throw new LinkError(
        `type mismatch for @${name}: ${printType(elementType)} vs ${printType(et)} elements (in ${first.mod.source} and ${s.mod.source})`,
      );
    }
    elements.push(...initializerElements(name, s, (g as GlobalVariable).initializer));
  }
  const gv = first.gv as GlobalVariable;
  const type = ArrayType.get(elementType!, elements.length);
  gv.valueType = type;
  gv.type = globalPointerType(type, gv.addrSpace, first.mod.typedPointers);
  gv.initializer = new ConstantArray(type, elements);
  return first;
}

function initializerElements(name: string, s: LinkSymbol, init: Constant | null): Value[] {
  if (init === null) return [];
  if (init.vkind === ValueKind.ConstantArray) return (init as ConstantArray).elements;
  if (init instanceof ConstantAggregateZero && (init.type as ArrayType).length === 0) return [];
  throw new LinkError(`cannot append the initializer of @${name} in ${s.mod.source}`);
}

/** Local symbols keep their names unless another symbol has it; then they become `name.N`. */
function renameLocals(locals: LinkSymbol[], used: Set<string>): void {
  let mod: Module | null = null;
  let own = new Set<string>();
  for (const { gv, mod: m } of locals) {
    if (m !== mod) {
      mod = m;
      own = new Set(locals.filter((s) => s.mod === m).map((s) => s.gv.name));
    }
    if (gv.name !== '') gv.name = uniqueName(gv.name, 1, used, own);
  }
}

function mergeComdats(result: Module, m: Module): void {
  for (const [name, sel] of m.comdats) {
    const prev = result.comdats.get(name);
    if (prev !== undefined && prev !== sel) throw new LinkError(`comdat ${name} has different selection kinds (in ${m.source})`);
    result.comdats.set(name, sel);
  }
}
