import type { Function, GlobalAlias, GlobalIFunc, GlobalValue, GlobalVariable } from './globals.js';
import type { NamedMetadata } from './metadata.js';
import type { StructType } from './types.js';
import { ValueKind } from './value.js';

export enum ComdatSelection {
  Any,
  ExactMatch,
  Largest,
  NoDeduplicate,
  SameSize,
}

/** A decoded LLVM module. */
export class Module {
  /** Where it came from (a file path, or a description), for messages. */
  source = '';
  sourceFileName = '';
  targetTriple = '';
  dataLayout = '';
  moduleAsm = '';
  /** Bitcode producer from the identification block, e.g. "LLVM16.0.6". */
  producer = '';
  /** True when pointers are typed (LLVM ≤ 14 bitcode without opaque pointers). */
  typedPointers = false;
  globals: GlobalVariable[] = [];
  functions: Function[] = [];
  aliases: GlobalAlias[] = [];
  ifuncs: GlobalIFunc[] = [];
  /** Identified struct types in definition order. */
  structTypes: StructType[] = [];
  namedMetadata: NamedMetadata[] = [];
  comdats = new Map<string, ComdatSelection>();
  /** Sync scope names by id (0 = singlethread, 1 = system, others by name). */
  syncScopeNames: string[] = ['singlethread', ''];
  /** Module flags and other module-level metadata stay in namedMetadata. */

  private symbolTable: Map<string, GlobalValue> | null = null;

  /** The global value with this name (function, variable, alias or ifunc). */
  getGlobal(name: string): GlobalValue | undefined {
    if (!this.symbolTable) {
      this.symbolTable = new Map();
      for (const list of [this.globals, this.functions, this.aliases, this.ifuncs] as GlobalValue[][]) {
        for (const g of list) if (g.name) this.symbolTable.set(g.name, g);
      }
    }
    return this.symbolTable.get(name);
  }
  getFunction(name: string): Function | undefined {
    const g = this.getGlobal(name);
    return g && g.vkind === ValueKind.Function ? (g as Function) : undefined;
  }
  /** Call after adding or renaming globals. */
  invalidateSymbolTable(): void {
    this.symbolTable = null;
  }
}
