/**
 * Dropping the runtime's unused code after linking (what a linker pulling archive members on
 * demand would not have linked in): every function, variable and alias that came from
 * tsklee's runtime and that nothing live refers to. libc.bc + posix.bc hold ~650 functions
 * and ~22 000 instructions; a program uses a fraction, and preparing the rest costs start-up
 * time on every run. References are followed through instruction operands, operand bundles,
 * constants (expressions, aggregates, block addresses), initializers, aliasees, ifunc
 * resolvers and personality/prefix/prologue data. The runtime's bodies are decoded here, when
 * their function turns out to be live (load.ts: LoadOptions.lazyBodies).
 */
import { Linkage, type Function, type GlobalAlias, type GlobalIFunc, type GlobalValue, type GlobalVariable } from '../../ir/globals.js';
import type { Instruction } from '../../ir/instructions.js';
import type { Module } from '../../ir/module.js';
import { materialize } from '../../ir/lazy-body.js';
import { ValueKind, type Value } from '../../ir/value.js';

/** Removes the members of `candidates` that are unreachable from everything else in `m` and from `roots` (names). */
export function pruneUnreferenced(m: Module, candidates: ReadonlySet<GlobalValue>, roots: readonly string[]): void {
  const live = new Set<GlobalValue>();
  const work: GlobalValue[] = [];
  const seen = new Set<Value>();
  const markGlobal = (g: GlobalValue): void => {
    if (live.has(g)) return;
    live.add(g);
    work.push(g);
  };
  const visit = (v: Value | null | undefined): void => {
    if (v === null || v === undefined) return;
    switch (v.vkind) {
      case ValueKind.Function:
      case ValueKind.GlobalVariable:
      case ValueKind.GlobalAlias:
      case ValueKind.GlobalIFunc:
        markGlobal(v as GlobalValue);
        return;
      case ValueKind.ConstantExpr:
      case ValueKind.ConstantArray:
      case ValueKind.ConstantStruct:
      case ValueKind.ConstantVector: {
        if (seen.has(v)) return;
        seen.add(v);
        const parts = v.vkind === ValueKind.ConstantExpr ? (v as unknown as { ops: Value[] }).ops : (v as unknown as { elements: Value[] }).elements;
        for (const p of parts) visit(p);
        return;
      }
      case ValueKind.BlockAddress:
        visit((v as unknown as { fn: Function }).fn);
        return;
      case ValueKind.DSOLocalEquivalent:
      case ValueKind.NoCFIValue:
        visit((v as unknown as { global: GlobalValue }).global);
        return;
      default:
        return;
    }
  };
  const all: GlobalValue[] = [...m.functions, ...m.globals, ...m.aliases, ...m.ifuncs];
  const rootNames = new Set(roots);
  for (const g of all) {
    const appending = g.vkind === ValueKind.GlobalVariable && g.linkage === Linkage.Appending;
    if (!candidates.has(g) || appending || rootNames.has(g.name) || g.name.startsWith('llvm.')) markGlobal(g);
  }
  while (work.length > 0) {
    const g = work.pop()!;
    switch (g.vkind) {
      case ValueKind.Function: {
        const fn = g as Function;
        // a runtime body read lazily is decoded only now that its function is known to be live
        materialize(fn);
        visit(fn.personality);
        visit(fn.prefix);
        visit(fn.prologue);
        for (const b of fn.blocks) for (const inst of b.insts) visitInstruction(inst, visit);
        break;
      }
      case ValueKind.GlobalVariable:
        visit((g as GlobalVariable).initializer);
        break;
      case ValueKind.GlobalAlias:
        visit((g as GlobalAlias).aliasee);
        break;
      case ValueKind.GlobalIFunc:
        visit((g as GlobalIFunc).resolver);
        break;
    }
  }
  const keep = (g: GlobalValue): boolean => live.has(g);
  m.functions = m.functions.filter(keep);
  m.globals = m.globals.filter(keep);
  m.aliases = m.aliases.filter(keep);
  m.ifuncs = m.ifuncs.filter(keep);
  m.invalidateSymbolTable();
}

function visitInstruction(inst: Instruction, visit: (v: Value) => void): void {
  for (const op of inst.ops) visit(op);
  const bundles = (inst as { bundles?: { inputs: Value[] }[] | null }).bundles;
  if (bundles) for (const b of bundles) for (const v of b.inputs) visit(v);
}
