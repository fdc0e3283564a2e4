/**
 * assembly.ll: the module as LLVM assembly, and the line of each instruction in it — what
 * KLEE's .err files call "assembly.ll line" and print in their stack traces. Built on first
 * use (printing a large module takes a moment; runs without errors never pay for it), or
 * read from the cache of earlier runs' prints (assembly-cache.ts) when the engine was told
 * what made the module (EngineOptions.assemblyCacheKey).
 */
import type { Instruction } from '../ir/instructions.js';
import type { Module } from '../ir/module.js';
import { printModule } from '../ir/printer/index.js';
import { cacheEntryName, readCachedAssembly, writeCachedAssembly, type AssemblyCacheKey } from './assembly-cache.js';

/** Where a printed module is kept between runs (assembly-cache.ts). */
export interface AssemblyStore {
  dir: string;
  /** What made the module (hashed into the entry's name when assembly.ll is first needed). */
  key: AssemblyCacheKey;
}

export class Assembly {
  private lines: Map<Instruction, number> | null = null;
  private textCache: string | null = null;

  constructor(
    private readonly module: Module,
    private readonly store: AssemblyStore | null = null,
  ) {}

  get text(): string {
    this.build();
    return this.textCache!;
  }

  /** The 1-based line of an instruction in assembly.ll (0 if unknown). */
  lineOf(inst: Instruction): number {
    this.build();
    return this.lines!.get(inst) ?? 0;
  }

  private build(): void {
    if (this.lines !== null) return;
    const name = this.entryName();
    const cached = name !== null ? readCachedAssembly(this.store!.dir, name, this.module) : null;
    if (cached !== null) {
      this.adopt(cached.text, cached.lines);
      return;
    }
    this.print();
    if (name !== null && this.textCache !== '') writeCachedAssembly(this.store!.dir, name, this.module, { text: this.textCache!, lines: this.flatLines() });
  }

  private entryName(): string | null {
    if (this.store === null) return null;
    try {
      return cacheEntryName(this.store.key);
    } catch {
      return null; // an input went away: print
    }
  }

  /** Each instruction's line, functions with bodies in module order (the cache's layout). */
  private flatLines(): Int32Array {
    const out: number[] = [];
    for (const fn of this.module.functions) {
      if (fn.isDeclaration) continue;
      for (const b of fn.blocks) for (const inst of b.insts) out.push(this.lines!.get(inst) ?? 0);
    }
    return Int32Array.from(out);
  }

  private adopt(text: string, flat: Int32Array): void {
    const lines = new Map<Instruction, number>();
    let i = 0;
    for (const fn of this.module.functions) {
      if (fn.isDeclaration) continue;
      for (const b of fn.blocks) {
        for (const inst of b.insts) {
          const line = flat[i++] ?? 0;
          if (line > 0) lines.set(inst, line);
        }
      }
    }
    this.lines = lines;
    this.textCache = text;
  }

  private print(): void {
    const lines = new Map<Instruction, number>();
    let text = '';
    try {
      text = printModule(this.module);
    } catch {
      text = '';
    }
    const rows = text.split('\n');
    let r = 0;
    for (const fn of this.module.functions) {
      if (fn.isDeclaration) continue;
      while (r < rows.length && !rows[r]!.startsWith('define ')) r++;
      if (r >= rows.length) break;
      r++;
      const insts = fn.blocks.flatMap((b) => b.insts);
      let i = 0;
      for (; r < rows.length && rows[r] !== '}'; r++) {
        const row = rows[r]!;
        // instructions are indented; labels, blank lines and debug records are not instructions
        if (!row.startsWith('  ') || row.trimStart().startsWith('#dbg_')) continue;
        const inst = insts[i++];
        if (inst !== undefined) lines.set(inst, r + 1);
      }
    }
    this.lines = lines;
    this.textCache = text;
  }
}
