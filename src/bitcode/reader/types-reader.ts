/**
 * TYPE_BLOCK_ID_NEW: the module's type table. Entries are numbered in record order; only
 * identified structs may be referenced before their record (they get a placeholder that the
 * STRUCT_NAMED / OPAQUE record at that slot later fills in).
 */
import { EntryKind, type BitstreamCursor } from '../cursor.js';
import { BlockId, TypeCode } from './ids.js';
import { opsToString, type ReaderContext } from './context.js';
import {
  ArrayType,
  BFloatType,
  DoubleTy,
  FloatTy,
  FP128Type,
  FunctionType,
  HalfType,
  IntegerType,
  LabelType,
  MetadataType,
  PointerType,
  PPCFP128Type,
  StructType,
  TargetExtType,
  TokenType,
  TypeKind,
  VoidType,
  VectorType,
  X86AMXType,
  X86FP80Type,
  X86MMXType,
  type Type,
} from '../../ir/types.js';

const MAX_INT_BITS = 1 << 23;
const MAX_ADDR_SPACE = 0xffffff;

export function readTypeBlock(ctx: ReaderContext, cursor: BitstreamCursor): void {
  cursor.enterSubBlock(BlockId.TypeNew);
  if (ctx.types.length > 0) ctx.error('more than one type table');
  const list: (Type | undefined)[] = [];
  let numRecords = 0;
  let structName = '';
  let sawTypedPointer = false;
  let sawOpaquePointer = false;

  const get = (id: number): Type => {
    if (!(id >= 0 && id < list.length)) ctx.error(`invalid type id ${id} in the type table`);
    let t = list[id];
    if (!t) {
      // A forward reference: only an identified struct can be one; its record fills it in.
      t = StructType.named('');
      list[id] = t;
    }
    return t;
  };
  const getList = (ops: readonly number[], from: number): Type[] => {
    const out: Type[] = [];
    for (let i = from; i < ops.length; i++) out.push(get(ops[i]!));
    return out;
  };
  /** The identified struct for the record being read: the forward placeholder, or a new one. */
  const identified = (): StructType => {
    if (numRecords >= list.length) ctx.error('type table has more entries than announced');
    const placeholder = list[numRecords];
    const s = placeholder ? (placeholder as StructType) : StructType.named('');
    s.name = structName;
    structName = '';
    list[numRecords] = undefined;
    return s;
  };

  for (;;) {
    const e = cursor.advance();
    if (e.kind === EntryKind.EndBlock) break;
    if (e.kind === EntryKind.SubBlock) {
      cursor.skipBlock();
      continue;
    }
    ctx.bitPos = cursor.bitPos;
    const rec = cursor.readRecord(e.id);
    const ops = rec.ops;
    let t: Type;
    switch (rec.code) {
      case TypeCode.NumEntry: {
        if (ops.length < 1) ctx.error('invalid NUMENTRY record');
        // Every entry needs at least one bit of the block: bounds the table before it grows.
        if (ops[0]! > cursor.blockEndBit - cursor.bitPos) ctx.error(`type table size ${ops[0]} exceeds its block`);
        list.length = ops[0]!;
        continue;
      }
      case TypeCode.Void:
        t = VoidType;
        break;
      case TypeCode.Half:
        t = HalfType;
        break;
      case TypeCode.BFloat:
        t = BFloatType;
        break;
      case TypeCode.Float:
        t = FloatTy;
        break;
      case TypeCode.Double:
        t = DoubleTy;
        break;
      case TypeCode.X86_FP80:
        t = X86FP80Type;
        break;
      case TypeCode.FP128:
        t = FP128Type;
        break;
      case TypeCode.PPC_FP128:
        t = PPCFP128Type;
        break;
      case TypeCode.Label:
        t = LabelType;
        break;
      case TypeCode.Metadata:
        t = MetadataType;
        break;
      case TypeCode.X86_MMX:
        t = X86MMXType;
        break;
      case TypeCode.X86_AMX:
        t = X86AMXType;
        break;
      case TypeCode.Token:
        t = TokenType;
        break;
      case TypeCode.Integer: {
        const bits = ops[0];
        if (bits === undefined || bits < 1 || bits > MAX_INT_BITS) ctx.error(`invalid integer type width ${bits}`);
        t = IntegerType.get(bits);
        break;
      }
      case TypeCode.Pointer: {
        if (ops.length < 1) ctx.error('invalid pointer type record');
        const pointee = get(ops[0]!);
        if (!isValidPointee(pointee)) ctx.error('invalid pointer element type');
        t = PointerType.typed(pointee, addrSpace(ctx, ops.length === 2 ? ops[1]! : 0));
        sawTypedPointer = true;
        break;
      }
      case TypeCode.OpaquePointer:
        if (ops.length !== 1) ctx.error('invalid opaque pointer type record');
        t = PointerType.opaque(addrSpace(ctx, ops[0]!));
        sawOpaquePointer = true;
        break;
      case TypeCode.FunctionOld: // [vararg, attrid, retty, paramty...]
        if (ops.length < 3) ctx.error('invalid function type record');
        t = functionType(ctx, get(ops[2]!), getList(ops, 3), ops[0]!);
        break;
      case TypeCode.Function: // [vararg, retty, paramty...]
        if (ops.length < 2) ctx.error('invalid function type record');
        t = functionType(ctx, get(ops[1]!), getList(ops, 2), ops[0]!);
        break;
      case TypeCode.StructAnon: {
        if (ops.length < 1) ctx.error('invalid literal struct type record');
        const elts = getList(ops, 1);
        checkStructElements(ctx, elts);
        t = StructType.literal(elts, ops[0] !== 0);
        break;
      }
      case TypeCode.StructName:
        structName = opsToString(ops);
        continue;
      case TypeCode.StructNamed: {
        if (ops.length < 1) ctx.error('invalid named struct type record');
        const s = identified();
        const elts = getList(ops, 1);
        checkStructElements(ctx, elts);
        s.setBody(elts, ops[0] !== 0);
        t = s;
        break;
      }
      case TypeCode.Opaque:
        t = identified();
        break;
      case TypeCode.TargetType: {
        // [numtys, tys..., ints...]
        if (ops.length < 1 || ops[0]! >= ops.length) ctx.error('invalid target extension type record');
        const numTys = ops[0]!;
        const tys = getList(ops.slice(0, numTys + 1), 1);
        const ints = ops.slice(numTys + 1);
        if (ints.some((v) => v > 0xffffffff)) ctx.error('target extension type parameter too large');
        t = new TargetExtType(structName, tys, ints);
        structName = '';
        break;
      }
      case TypeCode.Array: {
        if (ops.length < 2) ctx.error('invalid array type record');
        const elt = get(ops[1]!);
        if (!isValidAggregateElement(elt)) ctx.error('invalid array element type');
        if (rec.big?.has(0)) ctx.error('array type length too large');
        t = ArrayType.get(elt, ops[0]!);
        break;
      }
      case TypeCode.Vector: {
        if (ops.length < 2) ctx.error('invalid vector type record');
        if (ops[0] === 0 || rec.big?.has(0)) ctx.error(`invalid vector length ${ops[0]}`);
        const elt = get(ops[1]!);
        if (!(elt.isInteger() || elt.isFloatingPoint() || elt.isPointer())) ctx.error('invalid vector element type');
        t = VectorType.get(elt, ops[0]!, ops.length > 2 && ops[2] !== 0);
        break;
      }
      default:
        ctx.error(`unknown type record code ${rec.code}`);
    }
    if (numRecords >= list.length) ctx.error('type table has more entries than announced');
    if (list[numRecords]) ctx.error('type table: only named structs can be forward referenced');
    list[numRecords++] = t;
  }
  if (numRecords !== list.length) ctx.error(`type table has ${numRecords} entries, ${list.length} announced`);

  const types = list as Type[];
  ctx.types = types;
  ctx.module.structTypes = types.filter((t): t is StructType => t.kind === TypeKind.Struct && !(t as StructType).isLiteral);
  ctx.module.typedPointers = sawTypedPointer && !sawOpaquePointer;
}

function addrSpace(ctx: ReaderContext, v: number): number {
  if (v > MAX_ADDR_SPACE) ctx.error(`invalid address space ${v}`);
  return v;
}

function functionType(ctx: ReaderContext, ret: Type, params: Type[], varArgs: number): FunctionType {
  if (ret.kind === TypeKind.Function || ret.kind === TypeKind.Label || ret.kind === TypeKind.Metadata) {
    ctx.error('invalid function return type');
  }
  if (params.some((p) => !p.isFirstClass())) ctx.error('invalid function parameter type');
  return FunctionType.get(ret, params, varArgs !== 0);
}

function isValidPointee(t: Type): boolean {
  return !(
    t.kind === TypeKind.Void ||
    t.kind === TypeKind.Label ||
    t.kind === TypeKind.Metadata ||
    t.kind === TypeKind.Token ||
    t.kind === TypeKind.X86_AMX
  );
}

function isValidAggregateElement(t: Type): boolean {
  return isValidPointee(t) && t.kind !== TypeKind.Function && !(t.isVector() && t.scalable);
}

function checkStructElements(ctx: ReaderContext, elts: readonly Type[]): void {
  for (const t of elts) if (!isValidAggregateElement(t)) ctx.error('invalid struct element type');
}
