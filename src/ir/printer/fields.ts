/** `name: value` field lists of specialised metadata nodes, with LLVM's skip-if-default rules. */
import type { Metadata } from '../metadata.js';
import { escapeString } from './names.js';

export class Fields {
  private readonly parts: string[] = [];
  constructor(private readonly operand: (md: Metadata | null) => string) {}

  str(name: string, value: string, skipEmpty = true): this {
    if (!skipEmpty || value) this.parts.push(`${name}: "${escapeString(value)}"`);
    return this;
  }
  int(name: string, value: number | bigint, skipZero = true): this {
    if (!skipZero || value) this.parts.push(`${name}: ${value}`);
    return this;
  }
  md(name: string, value: Metadata | null, skipNull = true): this {
    if (!skipNull || value) this.parts.push(`${name}: ${this.operand(value)}`);
    return this;
  }
  /** A boolean printed unless it equals `dflt` (always printed when there is no default). */
  bool(name: string, value: boolean, dflt?: boolean): this {
    if (dflt === undefined || value !== dflt) this.parts.push(`${name}: ${value ? 'true' : 'false'}`);
    return this;
  }
  /** A keyword-valued field (`encoding: DW_ATE_signed`), skipped when the value is 0 unless `always`. */
  keyword(name: string, value: number, text: string | undefined, always = false): this {
    if (always || value) this.parts.push(`${name}: ${text || value}`);
    return this;
  }
  raw(text: string): this {
    this.parts.push(text);
    return this;
  }
  toString(): string {
    return this.parts.join(', ');
  }
}
