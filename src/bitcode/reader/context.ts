import { BitcodeError } from '../errors.js';
import { ForwardRef, type Value } from '../../ir/value.js';
import type { Type } from '../../ir/types.js';
import type { Metadata } from '../../ir/metadata.js';
import type { AttributeList } from '../../ir/attributes.js';
import type { Module } from '../../ir/module.js';
import type { Function } from '../../ir/globals.js';

/**
 * The value table of a module being decoded: global values, then module-level constants,
 * then (while a function body is decoded) its arguments, constants and instructions.
 * A reference to a slot not filled yet yields a ForwardRef placeholder of the expected type;
 * when the slot is filled, the placeholder is remembered so the decoder can patch its uses.
 */
export class ValueList {
  private values: (Value | undefined)[] = [];
  private forward = new Map<number, ForwardRef>();
  private resolved = new Map<Value, Value>();

  constructor(private readonly ctx: { error(msg: string): never }) {}

  get size(): number {
    return this.values.length;
  }

  push(v: Value): number {
    const id = this.values.length;
    this.set(id, v);
    return id;
  }

  set(id: number, v: Value): void {
    if (id > this.values.length + 1_000_000) this.ctx.error(`value id ${id} out of range`);
    const fwd = this.forward.get(id);
    if (fwd) {
      if (fwd.type !== v.type) this.ctx.error(`value #${id} referenced as ${typeLabel(fwd.type)} but defined with another type`);
      this.forward.delete(id);
      this.resolved.set(fwd, v);
    }
    this.values[id] = v;
  }

  /** The value in slot `id`; a ForwardRef of `type` when the slot is not filled yet. */
  get(id: number, type?: Type | null): Value {
    const v = this.values[id];
    if (v) {
      if (type && v.type !== type && !sameTypeLoosely(v.type, type)) {
        this.ctx.error(`value #${id} has an unexpected type`);
      }
      return v;
    }
    if (!type) this.ctx.error(`forward reference to value #${id} without a type`);
    if (id > this.values.length + 10_000_000 || !Number.isSafeInteger(id) || id < 0) this.ctx.error(`value id ${id} out of range`);
    let fwd = this.forward.get(id);
    if (!fwd) {
      fwd = new ForwardRef(type, id);
      this.forward.set(id, fwd);
    } else if (fwd.type !== type) {
      this.ctx.error(`value #${id} referenced with two different types`);
    }
    return fwd;
  }

  /** The value in slot `id` if it is defined. */
  getDefined(id: number): Value | undefined {
    return this.values[id];
  }

  /** Drops the slots from `size` on (the function-local part, after a body is decoded). */
  truncate(size: number): void {
    this.values.length = size;
    for (const id of this.forward.keys()) if (id >= size) this.forward.delete(id);
  }

  /** Slots referenced but never defined. */
  unresolvedIds(): number[] {
    return [...this.forward.keys()];
  }

  /** Placeholders resolved since the last call, and what replaces each. Clears the record. */
  takeResolutions(): Map<Value, Value> {
    const r = this.resolved;
    this.resolved = new Map();
    return r;
  }
}

function sameTypeLoosely(a: Type, b: Type): boolean {
  // Typed-pointer bitcode may refer to a value with a differently-typed pointer in some
  // records (e.g. metadata-as-value); structural kinds must still agree.
  return a.kind === b.kind;
}

function typeLabel(t: Type): string {
  return `type #${t.typeId}`;
}

/** What the metadata reader offers the rest of the decoder. */
export interface MetadataAccess {
  /** The node with this id (module-level ids first, then function-local ones). */
  get(id: number): Metadata;
  /** Records store "id + 1" with 0 meaning null: decode that convention. */
  getOrNull(idPlusOne: number): Metadata | null;
  /** Name of a metadata kind id from the METADATA_KIND block ("dbg", "tbaa", …). */
  kindName(kindId: number): string;
}

/** Attribute tables from PARAMATTR_GROUP / PARAMATTR blocks. */
export interface AttributeTables {
  /** PARAMATTR entry i (1-based in records; 0 = no attributes). */
  list(id: number): AttributeList;
}

/** State shared by the parts of the decoder while one module is read. */
export class ReaderContext {
  /** MODULE_CODE_VERSION: 0 absolute ids, 1 relative ids, 2 relative ids + string table. */
  version = 0;
  types: Type[] = [];
  values: ValueList;
  md!: MetadataAccess;
  attrs!: AttributeTables;
  /** The STRTAB blob (version 2), read before the module block. */
  strtab: Uint8Array | null = null;
  /** OPERAND_BUNDLE_TAGS names by id. */
  bundleTags: string[] = [];
  /** Functions with bodies, in the order their FUNCTION_BLOCKs appear. */
  functionsWithBodies: Function[] = [];
  /** Section names (MODULE_CODE_SECTIONNAME) and GC names, by 1-based id in records. */
  sectionNames: string[] = [];
  gcNames: string[] = [];
  /** Queue function bodies for decoding on first use instead of decoding them (ReadOptions). */
  lazyBodies = false;
  /** Bit offset of the current record, for error messages. */
  bitPos = -1;

  constructor(
    readonly file: string,
    readonly module: Module,
  ) {
    this.values = new ValueList(this);
  }

  error(msg: string): never {
    throw new BitcodeError(msg, this.bitPos);
  }

  getType(id: number): Type {
    const t = this.types[id];
    if (!t) this.error(`invalid type id ${id}`);
    return t;
  }

  /** A string from the string table (version 2 names). */
  strtabString(offset: number, size: number): string {
    if (!this.strtab) this.error('string table reference without a STRTAB block');
    if (offset + size > this.strtab.length) this.error(`string table reference out of range (${offset}+${size})`);
    return bytesToByteString(this.strtab.subarray(offset, offset + size));
  }
}

/**
 * Names and strings in bitcode are raw bytes, and LLVM prints them byte by byte (escaping
 * non-ASCII bytes). The IR therefore keeps them as byte strings: one char per byte
 * (Latin-1). `byteStringToUtf8` turns one into text for humans (file names, messages).
 */
export function bytesToByteString(bytes: Uint8Array): string {
  let s = '';
  for (let i = 0; i < bytes.length; i += 4096) s += String.fromCharCode(...bytes.subarray(i, i + 4096));
  return s;
}

export function byteStringToUtf8(s: string): string {
  // eslint-disable-next-line no-control-regex
  if (!/[^\x00-\x7f]/.test(s)) return s;
  const bytes = Uint8Array.from(s, (c) => c.charCodeAt(0) & 0xff);
  return new TextDecoder('utf-8', { fatal: false }).decode(bytes);
}

/** Record operands that are characters (one per operand) to a string. */
export function opsToString(ops: readonly number[], from = 0, to = ops.length): string {
  let s = '';
  for (let i = from; i < to; i++) s += String.fromCharCode(ops[i]! & 0xff);
  return s;
}
