/**
 * Structural type comparison for the linker: two modules describe the same C declaration
 * with different type objects (each module has its own identified structs, and clang may
 * name the same struct %struct.s in one and %struct.s.0 in another).
 */
import { TypeKind, type ArrayType, type FunctionType, type PointerType, type StructType, type Type, type VectorType } from '../types.js';

/**
 * True when `a` and `b` have the same structure: identified structs compare by body (not
 * name), an opaque identified struct matches any struct, and recursive types are handled.
 */
export function typesEquivalent(a: Type, b: Type): boolean {
  return equiv(a, b, new Set());
}

function equiv(a: Type, b: Type, assumed: Set<string>): boolean {
  if (a === b) return true;
  if (a.kind !== b.kind) return false;
  switch (a.kind) {
    case TypeKind.Pointer: {
      const pa = a as PointerType;
      const pb = b as PointerType;
      if (pa.addrSpace !== pb.addrSpace) return false;
      if (pa.pointee === null || pb.pointee === null) return pa.pointee === pb.pointee;
      return equiv(pa.pointee, pb.pointee, assumed);
    }
    case TypeKind.Array:
    case TypeKind.Vector: {
      const xa = a as ArrayType | VectorType;
      const xb = b as ArrayType | VectorType;
      if (xa.length !== xb.length) return false;
      if (a.kind === TypeKind.Vector && (a as VectorType).scalable !== (b as VectorType).scalable) return false;
      return equiv(xa.element, xb.element, assumed);
    }
    case TypeKind.Function: {
      const fa = a as FunctionType;
      const fb = b as FunctionType;
      if (fa.varArgs !== fb.varArgs || fa.params.length !== fb.params.length) return false;
      return equiv(fa.ret, fb.ret, assumed) && fa.params.every((p, i) => equiv(p, fb.params[i]!, assumed));
    }
    case TypeKind.Struct: {
      const sa = a as StructType;
      const sb = b as StructType;
      if ((sa.isOpaque && !sa.isLiteral) || (sb.isOpaque && !sb.isLiteral)) return true;
      if (sa.packed !== sb.packed || sa.elements.length !== sb.elements.length) return false;
      // Recursive structs: assume the pair equal while comparing their bodies.
      const key = `${sa.typeId}:${sb.typeId}`;
      if (assumed.has(key)) return true;
      assumed.add(key);
      return sa.elements.every((e, i) => equiv(e, sb.elements[i]!, assumed));
    }
    case TypeKind.Integer: // interned: distinct objects have distinct widths
    case TypeKind.TargetExt: // never produced for C
      return false;
    default:
      // Every other kind is a singleton per kind.
      return true;
  }
}

/**
 * True when a declaration of type `decl` may be resolved to a definition of type `def`
 * although the types differ in a way C permits: an unprototyped function (`R (...)`, any R)
 * against a prototyped one, and an array of unknown size (`extern int a[]`, `[0 x i32]`)
 * against its sized definition.
 */
export function compatibleDeclaration(x: Type, y: Type): boolean {
  if (typesEquivalent(x, y)) return true;
  if (x.kind === TypeKind.Function && y.kind === TypeKind.Function) {
    const fx = x as FunctionType;
    const fy = y as FunctionType;
    const unprototyped = (f: FunctionType): boolean => f.varArgs && f.params.length === 0;
    // C's unprototyped declaration (`int read();`, or an implicit one) says nothing reliable,
    // not even the result type (implicit int): it links, as with llvm-link, and the engine
    // converts the widths at the call (call-coerce.ts)
    return unprototyped(fx) || unprototyped(fy);
  }
  if (x.kind === TypeKind.Array && y.kind === TypeKind.Array) {
    const ax = x as ArrayType;
    const ay = y as ArrayType;
    return (ax.length === 0 || ay.length === 0) && typesEquivalent(ax.element, ay.element);
  }
  return false;
}
