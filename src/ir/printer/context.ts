/** State shared by the printing functions: type names, slot numbers and the LLVM version to mimic. */
import type { Module } from '../module.js';
import type { StructType } from '../types.js';
import { SlotTracker } from './slots.js';
import { TypePrinter, findStructTypes } from './types.js';
import { collectAttributeGroups } from './attributes.js';

export interface PrintContext {
  readonly types: TypePrinter;
  readonly slots: SlotTracker;
  /** Major version of the llvm-dis whose output is reproduced (spellings changed across versions). */
  readonly llvmVersion: number;
  readonly module: Module | null;
  /** Attribute group numbers (`#N`) by the group's printed text. */
  readonly attrGroups: Map<string, number>;
  /** Identified structs in the order the module uses them (type definitions are printed in it). */
  readonly structs: readonly StructType[];
}

/** The LLVM major version that produced the module (from the identification block), else a guess. */
export function llvmVersionOf(m: Module | null): number {
  const match = m ? /(\d+)\.\d+/.exec(m.producer) ?? /(\d+)/.exec(m.producer) : null;
  if (match) return Number(match[1]);
  return m?.typedPointers ? 14 : 19;
}

/** A context for printing the module (struct numbering and slots computed up front). */
export function moduleContext(m: Module, llvmVersion = llvmVersionOf(m)): PrintContext {
  const types = new TypePrinter();
  const structs = findStructTypes(m);
  types.numberStructs(structs);
  const ctx: PrintContext = { types, slots: new SlotTracker(m), llvmVersion, module: m, attrGroups: new Map(), structs };
  collectAttributeGroups(ctx, m);
  return ctx;
}

let standalone: PrintContext | null = null;

/** A context for printing pieces without a module (no unnamed globals or metadata numbers). */
export function standaloneContext(): PrintContext {
  standalone ??= {
    types: new TypePrinter(),
    slots: new SlotTracker(null),
    llvmVersion: 19,
    module: null,
    attrGroups: new Map(),
    structs: [],
  };
  return standalone;
}
