/**
 * assembly.ll: the module as LLVM assembly, and the line of each instruction in it — what
 * KLEE's .err files call "assembly.ll line" and print in their stack traces. Built on first
 * use (printing a large module takes a moment; runs without errors never pay for it).
 */
import type { Instruction } from '../ir/instructions.js';
import type { Module } from '../ir/module.js';
import { printModule } from '../ir/printer/index.js';

export class Assembly {
  private lines: Map<Instruction, number> | null = null;
  private textCache: string | null = null;

  constructor(private readonly module: Module) {}

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
