/**
 * Target data layout: sizes, alignments and struct layouts of IR types, computed from a
 * module's `target datalayout` string with the rules LLVM's DataLayout uses (LangRef,
 * "Data Layout"). Results are cached per type (by typeId).
 */
import { TypeKind, type ArrayType, type FloatType, type IntegerType, type PointerType, type StructType, type Type, type VectorType } from './types.js';

/** A malformed layout string, or a question about a type that has no layout. */
export class DataLayoutError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'DataLayoutError';
  }
}

export enum Mangling {
  None,
  ELF,
  MachO,
  Mips,
  WinCOFF,
  WinCOFFX86,
  GOFF,
  XCOFF,
}

const MANGLING_CODES: Record<string, Mangling> = {
  e: Mangling.ELF,
  o: Mangling.MachO,
  m: Mangling.Mips,
  w: Mangling.WinCOFF,
  x: Mangling.WinCOFFX86,
  l: Mangling.GOFF,
  a: Mangling.XCOFF,
};

/** Alignment entry for one bit width of integers, floats or vectors (alignments in bytes). */
interface PrimitiveSpec {
  bits: number;
  abi: number;
  pref: number;
}

interface PointerSpec {
  addrSpace: number;
  bits: number;
  abi: number;
  pref: number;
  indexBits: number;
  nonIntegral: boolean;
}

export interface StructLayout {
  /** Allocation size in bytes, including tail padding. */
  size: number;
  /** ABI alignment in bytes (1 for packed structs). */
  align: number;
  /** Byte offset of each element. */
  offsets: number[];
}

// LLVM's built-in defaults, used for whatever the string does not specify.
const DEFAULT_INT: PrimitiveSpec[] = [
  { bits: 1, abi: 1, pref: 1 },
  { bits: 8, abi: 1, pref: 1 },
  { bits: 16, abi: 2, pref: 2 },
  { bits: 32, abi: 4, pref: 4 },
  { bits: 64, abi: 4, pref: 8 },
];
const DEFAULT_FLOAT: PrimitiveSpec[] = [
  { bits: 16, abi: 2, pref: 2 },
  { bits: 32, abi: 4, pref: 4 },
  { bits: 64, abi: 8, pref: 8 },
  { bits: 128, abi: 16, pref: 16 },
];
const DEFAULT_VECTOR: PrimitiveSpec[] = [
  { bits: 64, abi: 8, pref: 8 },
  { bits: 128, abi: 16, pref: 16 },
];

function isPowerOf2(n: number): boolean {
  return n > 0 && (n & (n - 1)) === 0;
}

function powerOf2Ceil(n: number): number {
  let p = 1;
  while (p < n) p *= 2;
  return p;
}

function alignTo(n: number, align: number): number {
  return Math.ceil(n / align) * align;
}

/** Short description of a type for messages (the printer is not a dependency of this module). */
function describe(t: Type): string {
  if (t.kind === TypeKind.Struct) {
    const s = t as StructType;
    return s.name !== null ? `%${s.name}` : 'literal struct';
  }
  if (t.kind === TypeKind.Integer) return `i${(t as IntegerType).bits}`;
  return TypeKind[t.kind].toLowerCase();
}

function spec(kind: string, rest: string, msg: string): never {
  throw new DataLayoutError(`invalid data layout specification '${kind}${rest}': ${msg}`);
}

export class DataLayout {
  littleEndian = true;
  mangling = Mangling.None;
  allocaAddrSpace = 0;
  programAddrSpace = 0;
  globalsAddrSpace = 0;
  /** Natural stack alignment in bytes; 0 when unspecified. */
  stackAlign = 0;
  /** Function pointer alignment in bytes (0 = unspecified) and whether it is independent of function alignment. */
  functionPtrAlign = 0;
  functionPtrAlignIndependent = false;
  /** Native integer widths (`n8:16:32:64`). */
  legalIntWidths: number[] = [];

  private intSpecs = DEFAULT_INT.map((s) => ({ ...s }));
  private floatSpecs = DEFAULT_FLOAT.map((s) => ({ ...s }));
  private vectorSpecs = DEFAULT_VECTOR.map((s) => ({ ...s }));
  private pointerSpecs: PointerSpec[] = [{ addrSpace: 0, bits: 64, abi: 8, pref: 8, indexBits: 64, nonIntegral: false }];
  private aggregateAbi = 1;
  private aggregatePref = 8;

  private readonly sizeCache = new Map<number, number>();
  private readonly abiCache = new Map<number, number>();
  private readonly prefCache = new Map<number, number>();
  private readonly structCache = new Map<number, StructLayout>();
  private readonly inProgress = new Set<number>();

  private constructor(readonly text: string) {}

  /** Parses a layout string; '' gives LLVM's defaults. Throws DataLayoutError when malformed. */
  static parse(text: string): DataLayout {
    const dl = new DataLayout(text);
    if (text === '') return dl;
    const nonIntegral: number[] = [];
    for (const item of text.split('-')) {
      if (item === '') throw new DataLayoutError(`invalid data layout '${text}': empty specification`);
      dl.parseItem(item, nonIntegral);
    }
    for (const as of nonIntegral) {
      const p = dl.pointerSpec(as);
      dl.setPointerSpec({ ...p, addrSpace: as, nonIntegral: true });
    }
    return dl;
  }

  private parseItem(item: string, nonIntegral: number[]): void {
    if (item.startsWith('ni')) {
      if (item[2] !== ':') spec('ni', item.slice(2), "must be of the form 'ni:<address space>[:<address space>]...'");
      for (const s of item.slice(3).split(':')) {
        const as = parseAddrSpace('ni', item.slice(2), s);
        if (as === 0) spec('ni', item.slice(2), 'address space 0 cannot be non-integral');
        nonIntegral.push(as);
      }
      return;
    }
    const kind = item[0]!;
    const rest = item.slice(1);
    switch (kind) {
      case 'i':
      case 'f':
      case 'v':
        this.parsePrimitive(kind, rest);
        return;
      case 'a':
        this.parseAggregate(rest);
        return;
      case 'p':
        this.parsePointer(rest);
        return;
      case 's': // deprecated, ignored as LLVM does
        return;
      case 'e':
      case 'E':
        if (rest !== '') spec(kind, rest, "must be just 'e' or 'E'");
        this.littleEndian = kind === 'e';
        return;
      case 'n':
        this.legalIntWidths = rest.split(':').map((s) => parseSize(kind, rest, s, 'size'));
        return;
      case 'S':
        if (rest === '') spec(kind, rest, "must be of the form 'S<size>'");
        this.stackAlign = parseAlign(kind, rest, rest, 'stack natural', false);
        return;
      case 'F': {
        const t = rest[0];
        if (t !== 'i' && t !== 'n') spec(kind, rest, "must be of the form 'F<type><abi>' with type 'i' or 'n'");
        this.functionPtrAlignIndependent = t === 'i';
        this.functionPtrAlign = parseAlign(kind, rest, rest.slice(1), 'ABI', false);
        return;
      }
      case 'P':
        this.programAddrSpace = parseAddrSpace(kind, rest, rest);
        return;
      case 'A':
        this.allocaAddrSpace = parseAddrSpace(kind, rest, rest);
        return;
      case 'G':
        this.globalsAddrSpace = parseAddrSpace(kind, rest, rest);
        return;
      case 'm': {
        const m = rest.startsWith(':') && rest.length === 2 ? MANGLING_CODES[rest[1]!] : undefined;
        if (m === undefined) spec(kind, rest, "must be of the form 'm:<mangling>' with mangling one of e, l, o, m, w, x, a");
        this.mangling = m;
        return;
      }
      default:
        throw new DataLayoutError(`invalid data layout specification '${item}': unknown specifier '${kind}'`);
    }
  }

  private parsePrimitive(kind: 'i' | 'f' | 'v', rest: string): void {
    const parts = rest.split(':');
    if (parts.length < 2 || parts.length > 3) spec(kind, rest, `must be of the form '${kind}<size>:<abi>[:<pref>]'`);
    const bits = parseSize(kind, rest, parts[0]!, 'size');
    const abi = parseAlign(kind, rest, parts[1]!, 'ABI', false);
    if (kind === 'i' && bits === 8 && abi !== 1) spec(kind, rest, 'i8 must be 8-bit aligned');
    const pref = parts.length > 2 ? parseAlign(kind, rest, parts[2]!, 'preferred', false) : abi;
    if (pref < abi) spec(kind, rest, 'preferred alignment cannot be less than the ABI alignment');
    const specs = kind === 'i' ? this.intSpecs : kind === 'f' ? this.floatSpecs : this.vectorSpecs;
    const existing = specs.find((s) => s.bits === bits);
    if (existing) {
      existing.abi = abi;
      existing.pref = pref;
    } else {
      specs.push({ bits, abi, pref });
      specs.sort((a, b) => a.bits - b.bits);
    }
  }

  private parseAggregate(rest: string): void {
    const parts = rest.split(':');
    if (parts.length < 2 || parts.length > 3) spec('a', rest, "must be of the form 'a:<abi>[:<pref>]'");
    if (parts[0] !== '' && !/^0+$/.test(parts[0]!)) spec('a', rest, 'size must be zero');
    const abi = parseAlign('a', rest, parts[1]!, 'ABI', true);
    const pref = parts.length > 2 ? parseAlign('a', rest, parts[2]!, 'preferred', false) : abi;
    if (pref < abi) spec('a', rest, 'preferred alignment cannot be less than the ABI alignment');
    this.aggregateAbi = abi;
    this.aggregatePref = pref;
  }

  private parsePointer(rest: string): void {
    const parts = rest.split(':');
    if (parts.length < 3 || parts.length > 5) spec('p', rest, "must be of the form 'p[<n>]:<size>:<abi>[:<pref>[:<idx>]]'");
    const addrSpace = parts[0] === '' ? 0 : parseAddrSpace('p', rest, parts[0]!);
    const bits = parseSize('p', rest, parts[1]!, 'pointer size');
    const abi = parseAlign('p', rest, parts[2]!, 'ABI', false);
    const pref = parts.length > 3 ? parseAlign('p', rest, parts[3]!, 'preferred', false) : abi;
    if (pref < abi) spec('p', rest, 'preferred alignment cannot be less than the ABI alignment');
    const indexBits = parts.length > 4 ? parseSize('p', rest, parts[4]!, 'index size') : bits;
    if (indexBits > bits) spec('p', rest, 'index size cannot be larger than the pointer size');
    this.setPointerSpec({ addrSpace, bits, abi, pref, indexBits, nonIntegral: false });
  }

  private setPointerSpec(p: PointerSpec): void {
    const i = this.pointerSpecs.findIndex((s) => s.addrSpace === p.addrSpace);
    if (i >= 0) this.pointerSpecs[i] = p;
    else this.pointerSpecs.push(p);
  }

  /** The spec of an address space; address spaces without their own use address space 0's. */
  private pointerSpec(as: number): PointerSpec {
    return this.pointerSpecs.find((s) => s.addrSpace === as) ?? this.pointerSpecs.find((s) => s.addrSpace === 0)!;
  }

  // ------------------------------------------------------------------ queries

  get bigEndian(): boolean {
    return !this.littleEndian;
  }
  /** Pointer size in bytes. */
  pointerSize(as = 0): number {
    return Math.ceil(this.pointerSpec(as).bits / 8);
  }
  pointerSizeInBits(as = 0): number {
    return this.pointerSpec(as).bits;
  }
  /** Width of GEP index arithmetic for pointers in this address space, in bits. */
  indexSizeInBits(as = 0): number {
    return this.pointerSpec(as).indexBits;
  }
  pointerAbiAlign(as = 0): number {
    return this.pointerSpec(as).abi;
  }
  pointerPrefAlign(as = 0): number {
    return this.pointerSpec(as).pref;
  }
  isNonIntegralAddrSpace(as: number): boolean {
    return this.pointerSpec(as).nonIntegral;
  }
  isLegalInteger(bits: number): boolean {
    return this.legalIntWidths.includes(bits);
  }

  /** Size in bits of the type's value (`i1` → 1, `x86_fp80` → 80, `<4 x i1>` → 4). */
  typeSizeInBits(t: Type): number {
    const cached = this.sizeCache.get(t.typeId);
    if (cached !== undefined) return cached;
    const bits = this.computeSizeInBits(t);
    if (!Number.isSafeInteger(bits)) throw new DataLayoutError(`type ${describe(t)} is too large`);
    this.sizeCache.set(t.typeId, bits);
    return bits;
  }

  /** Bytes written by a store of the type (`i1` → 1, `x86_fp80` → 10). */
  typeStoreSize(t: Type): number {
    return Math.ceil(this.typeSizeInBits(t) / 8);
  }

  /** Bytes between consecutive elements of an array of the type (`x86_fp80` → 16 with f80:128). */
  typeAllocSize(t: Type): number {
    return alignTo(this.typeStoreSize(t), this.abiAlign(t));
  }

  abiAlign(t: Type): number {
    let a = this.abiCache.get(t.typeId);
    if (a === undefined) {
      a = this.computeAlign(t, true);
      this.abiCache.set(t.typeId, a);
    }
    return a;
  }

  prefAlign(t: Type): number {
    let a = this.prefCache.get(t.typeId);
    if (a === undefined) {
      a = this.computeAlign(t, false);
      this.prefCache.set(t.typeId, a);
    }
    return a;
  }

  structLayout(s: StructType): StructLayout {
    const cached = this.structCache.get(s.typeId);
    if (cached) return cached;
    if (s.isOpaque) throw new DataLayoutError(`cannot compute the layout of opaque struct ${describe(s)}`);
    if (this.inProgress.has(s.typeId)) throw new DataLayoutError(`struct ${describe(s)} contains itself`);
    this.inProgress.add(s.typeId);
    try {
      let size = 0;
      let align = 1;
      const offsets: number[] = [];
      for (const e of s.elements) {
        const ea = s.packed ? 1 : this.abiAlign(e);
        size = alignTo(size, ea);
        align = Math.max(align, ea);
        offsets.push(size);
        size += this.typeAllocSize(e);
      }
      const layout: StructLayout = { size: alignTo(size, align), align, offsets };
      if (!Number.isSafeInteger(layout.size)) throw new DataLayoutError(`type ${describe(s)} is too large`);
      this.structCache.set(s.typeId, layout);
      return layout;
    } finally {
      this.inProgress.delete(s.typeId);
    }
  }

  /**
   * Index of the struct element that contains byte `offset` (the last one starting at or
   * before it, so zero-sized elements are skipped as LLVM does). Throws when out of range.
   */
  elementAtOffset(s: StructType, offset: number): number {
    const { size, offsets } = this.structLayout(s);
    if (offset < 0 || offset >= size || offsets.length === 0) {
      throw new DataLayoutError(`offset ${offset} is outside struct ${describe(s)} of size ${size}`);
    }
    let lo = 0;
    let hi = offsets.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (offsets[mid]! <= offset) lo = mid;
      else hi = mid - 1;
    }
    return lo;
  }

  /**
   * Byte offset of `getelementptr sourceType, ptr p, idx0, idx1, …` from p, for constant
   * indices (signed). The first index steps over whole `sourceType` objects; later ones
   * select struct fields or array/vector elements.
   */
  gepOffset(sourceType: Type, indices: readonly (number | bigint)[]): bigint {
    if (indices.length === 0) return 0n;
    let offset = BigInt(indices[0]!) * BigInt(this.typeAllocSize(sourceType));
    let t = sourceType;
    for (let i = 1; i < indices.length; i++) {
      const idx = indices[i]!;
      switch (t.kind) {
        case TypeKind.Struct: {
          const s = t as StructType;
          const n = Number(idx);
          if (!Number.isInteger(n) || n < 0 || n >= s.elements.length) {
            throw new DataLayoutError(`struct index ${idx} out of range for ${describe(s)}`);
          }
          offset += BigInt(this.structLayout(s).offsets[n]!);
          t = s.elements[n]!;
          break;
        }
        case TypeKind.Array:
          t = (t as ArrayType).element;
          offset += BigInt(idx) * BigInt(this.typeAllocSize(t));
          break;
        case TypeKind.Vector:
          // Vector elements are packed at their store size.
          t = (t as VectorType).element;
          offset += BigInt(idx) * BigInt(this.typeStoreSize(t));
          break;
        default:
          throw new DataLayoutError(`cannot index into ${describe(t)} in getelementptr`);
      }
    }
    return offset;
  }

  /**
   * Alignment LLVM gives a global variable: its explicit alignment (exactly, when it has a
   * section), else the preferred alignment of its type, raised to 16 for initialized
   * globals larger than 128 bits.
   */
  globalAlign(valueType: Type, explicitAlign: number, hasSection: boolean, hasInitializer: boolean): number {
    if (explicitAlign > 0 && hasSection) return explicitAlign;
    let a = this.prefAlign(valueType);
    if (explicitAlign > 0) a = explicitAlign >= a ? explicitAlign : Math.max(explicitAlign, this.abiAlign(valueType));
    if (hasInitializer && explicitAlign === 0 && a < 16 && this.typeSizeInBits(valueType) > 128) a = 16;
    return a;
  }

  /** Layout-level equality (two strings may spell the same layout differently). */
  equals(other: DataLayout): boolean {
    const fields = (d: DataLayout): unknown[] => [
      d.littleEndian,
      d.mangling,
      d.allocaAddrSpace,
      d.programAddrSpace,
      d.globalsAddrSpace,
      d.stackAlign,
      d.functionPtrAlign,
      d.functionPtrAlignIndependent,
      d.legalIntWidths,
      d.intSpecs,
      d.floatSpecs,
      d.vectorSpecs,
      [...d.pointerSpecs].sort((a, b) => a.addrSpace - b.addrSpace),
      d.aggregateAbi,
      d.aggregatePref,
    ];
    return JSON.stringify(fields(this)) === JSON.stringify(fields(other));
  }

  toString(): string {
    return this.text;
  }

  // ------------------------------------------------------------------ computation

  private computeSizeInBits(t: Type): number {
    switch (t.kind) {
      case TypeKind.Integer:
        return (t as IntegerType).bits;
      case TypeKind.Half:
      case TypeKind.BFloat:
      case TypeKind.Float:
      case TypeKind.Double:
      case TypeKind.X86_FP80:
      case TypeKind.FP128:
      case TypeKind.PPC_FP128:
        return (t as FloatType).bits;
      case TypeKind.X86_MMX:
        return 64;
      case TypeKind.X86_AMX:
        return 8192;
      case TypeKind.Pointer:
        return this.pointerSpec((t as PointerType).addrSpace).bits;
      case TypeKind.Label:
        return this.pointerSpec(0).bits;
      case TypeKind.Array: {
        const a = t as ArrayType;
        return a.length * this.typeAllocSize(a.element) * 8;
      }
      case TypeKind.Struct:
        return this.structLayout(t as StructType).size * 8;
      case TypeKind.Vector: {
        const v = t as VectorType;
        if (v.scalable) throw new DataLayoutError('scalable vectors have no fixed size');
        return v.length * this.typeSizeInBits(v.element);
      }
      default:
        throw new DataLayoutError(`type ${describe(t)} has no size`);
    }
  }

  private computeAlign(t: Type, abi: boolean): number {
    const pick = (s: PrimitiveSpec | PointerSpec): number => (abi ? s.abi : s.pref);
    switch (t.kind) {
      case TypeKind.Label:
        return pick(this.pointerSpec(0));
      case TypeKind.Pointer:
        return pick(this.pointerSpec((t as PointerType).addrSpace));
      case TypeKind.Array:
        return this.computeAlign((t as ArrayType).element, abi);
      case TypeKind.Struct: {
        const s = t as StructType;
        if (s.packed && abi) return 1;
        return Math.max(abi ? this.aggregateAbi : this.aggregatePref, this.structLayout(s).align);
      }
      case TypeKind.Integer: {
        // Exact width, else the next larger specified width, else the largest one.
        const bits = (t as IntegerType).bits;
        const s = this.intSpecs.find((x) => x.bits >= bits) ?? this.intSpecs[this.intSpecs.length - 1]!;
        return pick(s);
      }
      case TypeKind.Half:
      case TypeKind.BFloat:
      case TypeKind.Float:
      case TypeKind.Double:
      case TypeKind.X86_FP80:
      case TypeKind.FP128:
      case TypeKind.PPC_FP128: {
        const bits = (t as FloatType).bits;
        const s = this.floatSpecs.find((x) => x.bits === bits);
        return s ? pick(s) : powerOf2Ceil(Math.floor(bits / 8));
      }
      case TypeKind.X86_MMX:
      case TypeKind.Vector: {
        const bits = this.typeSizeInBits(t);
        const s = this.vectorSpecs.find((x) => x.bits === bits);
        return s ? pick(s) : powerOf2Ceil(Math.ceil(bits / 8));
      }
      case TypeKind.X86_AMX:
        return 64;
      default:
        throw new DataLayoutError(`type ${describe(t)} has no alignment`);
    }
  }
}

function parseSize(kind: string, rest: string, s: string, what: string): number {
  if (s === '') spec(kind, rest, `${what} component cannot be empty`);
  const n = /^[0-9]+$/.test(s) ? Number(s) : NaN;
  if (!(n > 0 && n < 2 ** 24)) spec(kind, rest, `${what} must be a non-zero 24-bit integer`);
  return n;
}

/** An alignment in bits from the string, returned in bytes (0 → 1 where allowed). */
function parseAlign(kind: string, rest: string, s: string, what: string, allowZero: boolean): number {
  if (s === '') spec(kind, rest, `${what} alignment component cannot be empty`);
  const n = /^[0-9]+$/.test(s) ? Number(s) : NaN;
  if (!(n >= 0 && n < 2 ** 16)) spec(kind, rest, `${what} alignment must be a 16-bit integer`);
  if (n === 0) {
    if (!allowZero) spec(kind, rest, `${what} alignment must be non-zero`);
    return 1;
  }
  if (n % 8 !== 0 || !isPowerOf2(n / 8)) spec(kind, rest, `${what} alignment must be a power of two times the byte width`);
  return n / 8;
}

function parseAddrSpace(kind: string, rest: string, s: string): number {
  if (s === '') spec(kind, rest, 'address space component cannot be empty');
  const n = /^[0-9]+$/.test(s) ? Number(s) : NaN;
  if (!(n >= 0 && n < 2 ** 24)) spec(kind, rest, 'address space must be a 24-bit integer');
  return n;
}
