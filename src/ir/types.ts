/**
 * LLVM types. Non-struct types and literal structs are interned process-wide, so identity
 * comparison (`a === b`) is type equality for them; identified (named) structs are objects
 * owned by one module and compare by identity.
 */

export enum TypeKind {
  Void,
  Half,
  BFloat,
  Float,
  Double,
  X86_FP80,
  FP128,
  PPC_FP128,
  Label,
  Metadata,
  X86_MMX,
  X86_AMX,
  Token,
  Integer,
  Function,
  Pointer,
  Struct,
  Array,
  Vector,
  TargetExt,
}

let nextTypeId = 1;

export abstract class Type {
  abstract readonly kind: TypeKind;
  /** Unique per type object; usable as a cache key. */
  readonly typeId = nextTypeId++;

  isInteger(bits?: number): this is IntegerType {
    return this.kind === TypeKind.Integer && (bits === undefined || (this as unknown as IntegerType).bits === bits);
  }
  isPointer(): this is PointerType {
    return this.kind === TypeKind.Pointer;
  }
  isFloatingPoint(): this is FloatType {
    return this.kind >= TypeKind.Half && this.kind <= TypeKind.PPC_FP128;
  }
  isVector(): this is VectorType {
    return this.kind === TypeKind.Vector;
  }
  isStruct(): this is StructType {
    return this.kind === TypeKind.Struct;
  }
  isArray(): this is ArrayType {
    return this.kind === TypeKind.Array;
  }
  isFunction(): this is FunctionType {
    return this.kind === TypeKind.Function;
  }
  isVoid(): boolean {
    return this.kind === TypeKind.Void;
  }
  /** Element type for vectors, the type itself otherwise. */
  scalarType(): Type {
    return this.kind === TypeKind.Vector ? (this as unknown as VectorType).element : this;
  }
  /** True for types a value of which can be an SSA register (first-class, non-void, non-label). */
  isFirstClass(): boolean {
    return this.kind !== TypeKind.Void && this.kind !== TypeKind.Function;
  }
}

class SimpleType extends Type {
  constructor(readonly kind: TypeKind) {
    super();
  }
}

export class FloatType extends Type {
  constructor(
    readonly kind: TypeKind.Half | TypeKind.BFloat | TypeKind.Float | TypeKind.Double | TypeKind.X86_FP80 | TypeKind.FP128 | TypeKind.PPC_FP128,
  ) {
    super();
  }
  /** Width in bits of the storage format. */
  get bits(): number {
    switch (this.kind) {
      case TypeKind.Half:
      case TypeKind.BFloat:
        return 16;
      case TypeKind.Float:
        return 32;
      case TypeKind.Double:
        return 64;
      case TypeKind.X86_FP80:
        return 80;
      default:
        return 128;
    }
  }
}

export class IntegerType extends Type {
  readonly kind = TypeKind.Integer;
  private constructor(readonly bits: number) {
    super();
  }
  private static readonly cache = new Map<number, IntegerType>();
  static get(bits: number): IntegerType {
    let t = IntegerType.cache.get(bits);
    if (!t) {
      t = new IntegerType(bits);
      IntegerType.cache.set(bits, t);
    }
    return t;
  }
}

export class PointerType extends Type {
  readonly kind = TypeKind.Pointer;
  /** `pointee` is set only for typed pointers (LLVM ≤ 14 bitcode); null means opaque `ptr`. */
  private constructor(
    readonly addrSpace: number,
    readonly pointee: Type | null,
  ) {
    super();
  }
  private static readonly opaqueCache = new Map<number, PointerType>();
  private static readonly typedCache = new Map<string, PointerType>();
  static opaque(addrSpace = 0): PointerType {
    let t = PointerType.opaqueCache.get(addrSpace);
    if (!t) {
      t = new PointerType(addrSpace, null);
      PointerType.opaqueCache.set(addrSpace, t);
    }
    return t;
  }
  static typed(pointee: Type, addrSpace = 0): PointerType {
    const key = `${pointee.typeId}:${addrSpace}`;
    let t = PointerType.typedCache.get(key);
    if (!t) {
      t = new PointerType(addrSpace, pointee);
      PointerType.typedCache.set(key, t);
    }
    return t;
  }
  get isOpaque(): boolean {
    return this.pointee === null;
  }
}

export class ArrayType extends Type {
  readonly kind = TypeKind.Array;
  private constructor(
    readonly element: Type,
    readonly length: number,
  ) {
    super();
  }
  private static readonly cache = new Map<string, ArrayType>();
  static get(element: Type, length: number): ArrayType {
    const key = `${element.typeId}:${length}`;
    let t = ArrayType.cache.get(key);
    if (!t) {
      t = new ArrayType(element, length);
      ArrayType.cache.set(key, t);
    }
    return t;
  }
}

export class VectorType extends Type {
  readonly kind = TypeKind.Vector;
  private constructor(
    readonly element: Type,
    readonly length: number,
    readonly scalable: boolean,
  ) {
    super();
  }
  private static readonly cache = new Map<string, VectorType>();
  static get(element: Type, length: number, scalable = false): VectorType {
    const key = `${element.typeId}:${length}:${scalable ? 1 : 0}`;
    let t = VectorType.cache.get(key);
    if (!t) {
      t = new VectorType(element, length, scalable);
      VectorType.cache.set(key, t);
    }
    return t;
  }
}

export class FunctionType extends Type {
  readonly kind = TypeKind.Function;
  private constructor(
    readonly ret: Type,
    readonly params: readonly Type[],
    readonly varArgs: boolean,
  ) {
    super();
  }
  private static readonly cache = new Map<string, FunctionType>();
  static get(ret: Type, params: readonly Type[], varArgs: boolean): FunctionType {
    const key = `${ret.typeId}(${params.map((p) => p.typeId).join(',')})${varArgs ? '...' : ''}`;
    let t = FunctionType.cache.get(key);
    if (!t) {
      t = new FunctionType(ret, params, varArgs);
      FunctionType.cache.set(key, t);
    }
    return t;
  }
}

/**
 * A struct type. Literal structs (`{ i32, i8 }`) are interned; identified structs
 * (`%struct.foo`) are created per module with `StructType.named` and get their body later
 * (they may be recursive). An identified struct without a body is opaque.
 */
export class StructType extends Type {
  readonly kind = TypeKind.Struct;
  private constructor(
    public name: string | null,
    public elements: readonly Type[],
    public packed: boolean,
    public hasBody: boolean,
  ) {
    super();
  }
  private static readonly literalCache = new Map<string, StructType>();
  static literal(elements: readonly Type[], packed = false): StructType {
    const key = `${packed ? '<' : ''}${elements.map((e) => e.typeId).join(',')}`;
    let t = StructType.literalCache.get(key);
    if (!t) {
      t = new StructType(null, elements, packed, true);
      StructType.literalCache.set(key, t);
    }
    return t;
  }
  /** A new identified struct without a body (call setBody to give it one). */
  static named(name: string): StructType {
    return new StructType(name, [], false, false);
  }
  setBody(elements: readonly Type[], packed: boolean): void {
    this.elements = elements;
    this.packed = packed;
    this.hasBody = true;
  }
  get isLiteral(): boolean {
    return this.name === null;
  }
  get isOpaque(): boolean {
    return !this.hasBody;
  }
}

/** Target extension types (`target("name", types..., ints...)`): carried for completeness only. */
export class TargetExtType extends Type {
  readonly kind = TypeKind.TargetExt;
  constructor(
    readonly name: string,
    readonly typeParams: readonly Type[],
    readonly intParams: readonly number[],
  ) {
    super();
  }
}

export const VoidType = new SimpleType(TypeKind.Void);
export const LabelType = new SimpleType(TypeKind.Label);
export const MetadataType = new SimpleType(TypeKind.Metadata);
export const TokenType = new SimpleType(TypeKind.Token);
export const X86MMXType = new SimpleType(TypeKind.X86_MMX);
export const X86AMXType = new SimpleType(TypeKind.X86_AMX);
export const HalfType = new FloatType(TypeKind.Half);
export const BFloatType = new FloatType(TypeKind.BFloat);
export const FloatTy = new FloatType(TypeKind.Float);
export const DoubleTy = new FloatType(TypeKind.Double);
export const X86FP80Type = new FloatType(TypeKind.X86_FP80);
export const FP128Type = new FloatType(TypeKind.FP128);
export const PPCFP128Type = new FloatType(TypeKind.PPC_FP128);
export const I1 = IntegerType.get(1);
export const I8 = IntegerType.get(8);
export const I16 = IntegerType.get(16);
export const I32 = IntegerType.get(32);
export const I64 = IntegerType.get(64);

/** Element type reached by indexing into an aggregate with a constant index (struct) or any index. */
export function indexedType(agg: Type, index: number): Type | null {
  switch (agg.kind) {
    case TypeKind.Struct: {
      const s = agg as StructType;
      return index >= 0 && index < s.elements.length ? s.elements[index]! : null;
    }
    case TypeKind.Array:
      return (agg as ArrayType).element;
    case TypeKind.Vector:
      return (agg as VectorType).element;
    default:
      return null;
  }
}
