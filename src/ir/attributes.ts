import type { Type } from './types.js';

/**
 * One attribute: an enum attribute (`noreturn`), an integer attribute (`align 8`,
 * `dereferenceable(16)`), a type attribute (`byval(%struct.s)`) or a string attribute
 * (`"frame-pointer"="all"`). `kind` is LLVM's textual name.
 */
export interface Attribute {
  kind: string;
  /** Integer payload (align, dereferenceable, allocsize, memory effects, …). */
  int?: bigint;
  /** Type payload (byval, sret, elementtype, …). */
  type?: Type | null;
  /** String attribute value (for `"key"="value"`); `kind` is then the key. */
  str?: string;
  isString?: boolean;
  /**
   * Constant-range payload: `range(i<bitWidth> lo, hi)` has one [lo, hi) pair,
   * `initializes((lo, hi), …)` a list; bounds are signed values of `bitWidth` bits.
   */
  bitWidth?: number;
  ranges?: [bigint, bigint][];
}

/** Attributes of a function, its return value and each parameter. */
export class AttributeList {
  static readonly EMPTY = new AttributeList([], [], []);
  constructor(
    readonly fn: readonly Attribute[],
    readonly ret: readonly Attribute[],
    readonly params: readonly (readonly Attribute[])[],
  ) {}

  get isEmpty(): boolean {
    return this.fn.length === 0 && this.ret.length === 0 && this.params.every((p) => p.length === 0);
  }
  param(i: number): readonly Attribute[] {
    return this.params[i] ?? [];
  }
  hasFnAttr(kind: string): boolean {
    return this.fn.some((a) => a.kind === kind);
  }
  hasParamAttr(i: number, kind: string): boolean {
    return this.param(i).some((a) => a.kind === kind);
  }
  paramAttr(i: number, kind: string): Attribute | undefined {
    return this.param(i).find((a) => a.kind === kind);
  }
}
