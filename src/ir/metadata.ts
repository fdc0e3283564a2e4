import { Value, ValueKind } from './value.js';
import { MetadataType } from './types.js';

/**
 * Metadata: decoded exactly for what tsklee uses (source locations, subprograms, files,
 * variable names, expressions); every other node kind is kept as a GenericMDNode carrying its
 * record code and raw operands, so nothing is misread and the printer can still refer to it.
 */
export enum MDKind {
  String,
  Value,
  Tuple,
  Location,
  Expression,
  ArgList,
  File,
  CompileUnit,
  Subprogram,
  LexicalBlock,
  LexicalBlockFile,
  LocalVariable,
  Label,
  Generic,
  /** A metadata slot referenced before it was decoded; never survives decoding. */
  ForwardRef,
}

let nextMetadataId = 1;

export abstract class Metadata {
  abstract readonly mdkind: MDKind;
  readonly mdId = nextMetadataId++;
  distinct = false;
}

export class MDString extends Metadata {
  readonly mdkind = MDKind.String;
  constructor(readonly value: string) {
    super();
  }
}

/** A Value used as metadata (`i32 1`, `ptr @g`, or a function-local `ptr %x`). */
export class ValueAsMetadata extends Metadata {
  readonly mdkind = MDKind.Value;
  constructor(
    public value: Value,
    readonly local: boolean,
  ) {
    super();
  }
}

export class MDTuple extends Metadata {
  readonly mdkind = MDKind.Tuple;
  constructor(public ops: (Metadata | null)[]) {
    super();
  }
}

export class DILocation extends Metadata {
  readonly mdkind = MDKind.Location;
  constructor(
    readonly line: number,
    readonly column: number,
    public scope: Metadata | null,
    public inlinedAt: Metadata | null,
    readonly implicitCode: boolean,
  ) {
    super();
  }
}

/** DW_OP_* elements, as unsigned 64-bit values. */
export class DIExpression extends Metadata {
  readonly mdkind = MDKind.Expression;
  constructor(readonly elements: readonly bigint[]) {
    super();
  }
}

export class DIArgList extends Metadata {
  readonly mdkind = MDKind.ArgList;
  constructor(public args: Metadata[]) {
    super();
  }
}

/**
 * A debug-info record as read (code, operands, resolved references), kept on nodes whose
 * class models only some fields, so a full module print can show the others.
 */
export interface RawDIRecord {
  /** METADATA_* record code. */
  readonly code: number;
  /** Operands, exact below 2^53; `big` holds the exact value of larger ones by index. */
  readonly ops: readonly number[];
  readonly big: ReadonlyMap<number, bigint> | null;
  /** Per operand: the referenced node (or null) where the operand is a metadata reference, else undefined. */
  readonly refs: readonly (Metadata | null | undefined)[];
}

export class DIFile extends Metadata {
  readonly mdkind = MDKind.File;
  raw: RawDIRecord | null = null;
  constructor(
    readonly filename: string,
    readonly directory: string,
  ) {
    super();
  }
  /** directory/filename, or filename alone when it is absolute or there is no directory. */
  get path(): string {
    if (!this.directory || this.filename.startsWith('/')) return this.filename;
    return `${this.directory}/${this.filename}`;
  }
}

export class DICompileUnit extends Metadata {
  readonly mdkind = MDKind.CompileUnit;
  raw: RawDIRecord | null = null;
  constructor(
    public file: Metadata | null,
    readonly producer: string,
    readonly language: number,
  ) {
    super();
  }
}

export class DISubprogram extends Metadata {
  readonly mdkind = MDKind.Subprogram;
  raw: RawDIRecord | null = null;
  constructor(
    public scope: Metadata | null,
    readonly name: string,
    readonly linkageName: string,
    public file: Metadata | null,
    readonly line: number,
    readonly scopeLine: number,
    public unit: Metadata | null,
  ) {
    super();
  }
}

export class DILexicalBlock extends Metadata {
  readonly mdkind = MDKind.LexicalBlock;
  constructor(
    public scope: Metadata | null,
    public file: Metadata | null,
    readonly line: number,
    readonly column: number,
  ) {
    super();
  }
}

export class DILexicalBlockFile extends Metadata {
  readonly mdkind = MDKind.LexicalBlockFile;
  constructor(
    public scope: Metadata | null,
    public file: Metadata | null,
    readonly discriminator: number,
  ) {
    super();
  }
}

export class DILocalVariable extends Metadata {
  readonly mdkind = MDKind.LocalVariable;
  raw: RawDIRecord | null = null;
  constructor(
    public scope: Metadata | null,
    readonly name: string,
    public file: Metadata | null,
    readonly line: number,
    readonly arg: number,
  ) {
    super();
  }
}

export class DILabel extends Metadata {
  readonly mdkind = MDKind.Label;
  constructor(
    public scope: Metadata | null,
    readonly name: string,
    public file: Metadata | null,
    readonly line: number,
  ) {
    super();
  }
}

/** Any other metadata node: its METADATA_* record code, its name for printing, raw operands. */
export class GenericMDNode extends Metadata {
  readonly mdkind = MDKind.Generic;
  /** Per raw operand: the referenced node (or null) where it is a metadata reference, else undefined. */
  refs: (Metadata | null | undefined)[] = [];
  /** Exact values of raw operands above 2^53, by index. */
  big: ReadonlyMap<number, bigint> | null = null;
  constructor(
    readonly code: number,
    readonly nodeName: string,
    readonly rawOps: readonly number[],
  ) {
    super();
  }
}

export class MDForwardRef extends Metadata {
  readonly mdkind = MDKind.ForwardRef;
  constructor(readonly slot: number) {
    super();
  }
}

/** A `!name = !{...}` module-level named metadata. */
export interface NamedMetadata {
  name: string;
  ops: Metadata[];
}

/** LLVM keeps 16 bits of a location's column: larger columns become 0 (unknown). */
export function clampDIColumn(column: number): number {
  return column >= 0x10000 ? 0 : column;
}

/** Source file of a scope chain (location scope → … → subprogram/file). */
export function scopeFile(scope: Metadata | null): DIFile | null {
  for (let s = scope, guard = 0; s && guard < 1000; guard++) {
    switch (s.mdkind) {
      case MDKind.File:
        return s as DIFile;
      case MDKind.Subprogram:
      case MDKind.LexicalBlock:
      case MDKind.LexicalBlockFile: {
        const f = (s as DISubprogram | DILexicalBlock | DILexicalBlockFile).file;
        if (f && f.mdkind === MDKind.File) return f as DIFile;
        s = (s as DISubprogram | DILexicalBlock | DILexicalBlockFile).scope;
        break;
      }
      default:
        return null;
    }
  }
  return null;
}

/** The subprogram that encloses a scope. */
export function scopeSubprogram(scope: Metadata | null): DISubprogram | null {
  for (let s = scope, guard = 0; s && guard < 1000; guard++) {
    if (s.mdkind === MDKind.Subprogram) return s as DISubprogram;
    if (s.mdkind === MDKind.LexicalBlock || s.mdkind === MDKind.LexicalBlockFile) s = (s as DILexicalBlock).scope;
    else return null;
  }
  return null;
}

/** Metadata used as an operand of an instruction (`metadata !5`, `metadata i32 %x`), e.g. of llvm.dbg.value. */
export class MetadataAsValue extends Value {
  readonly vkind = ValueKind.MetadataAsValue;
  constructor(public md: Metadata) {
    super(MetadataType);
  }
}

// ---------------------------------------------------------------- DWARF expression operators

/** DW_OP_* codes that DIExpression handling refers to by name. */
export enum DwOp {
  deref = 0x06,
  constu = 0x10,
  consts = 0x11,
  swap = 0x16,
  minus = 0x1c,
  plus = 0x22,
  plus_uconst = 0x23,
  lit0 = 0x30,
  reg0 = 0x50,
  reg31 = 0x6f,
  breg0 = 0x70,
  breg31 = 0x8f,
  regx = 0x90,
  bregx = 0x92,
  deref_size = 0x94,
  bit_piece = 0x9d,
  stack_value = 0x9f,
  LLVM_fragment = 0x1000,
  LLVM_convert = 0x1001,
  LLVM_tag_offset = 0x1002,
  LLVM_entry_value = 0x1003,
  LLVM_implicit_pointer = 0x1004,
  LLVM_arg = 0x1005,
  LLVM_extract_bits_sext = 0x1006,
  LLVM_extract_bits_zext = 0x1007,
}

const DW_OP_NAMES = new Map<number, string>();
{
  const fixed: [number, string][] = [
    [0x03, 'addr'], [0x06, 'deref'], [0x08, 'const1u'], [0x09, 'const1s'], [0x0a, 'const2u'],
    [0x0b, 'const2s'], [0x0c, 'const4u'], [0x0d, 'const4s'], [0x0e, 'const8u'], [0x0f, 'const8s'],
    [0x10, 'constu'], [0x11, 'consts'], [0x12, 'dup'], [0x13, 'drop'], [0x14, 'over'], [0x15, 'pick'],
    [0x16, 'swap'], [0x17, 'rot'], [0x18, 'xderef'], [0x19, 'abs'], [0x1a, 'and'], [0x1b, 'div'],
    [0x1c, 'minus'], [0x1d, 'mod'], [0x1e, 'mul'], [0x1f, 'neg'], [0x20, 'not'], [0x21, 'or'],
    [0x22, 'plus'], [0x23, 'plus_uconst'], [0x24, 'shl'], [0x25, 'shr'], [0x26, 'shra'], [0x27, 'xor'],
    [0x28, 'bra'], [0x29, 'eq'], [0x2a, 'ge'], [0x2b, 'gt'], [0x2c, 'le'], [0x2d, 'lt'], [0x2e, 'ne'],
    [0x2f, 'skip'], [0x90, 'regx'], [0x91, 'fbreg'], [0x92, 'bregx'], [0x93, 'piece'],
    [0x94, 'deref_size'], [0x95, 'xderef_size'], [0x96, 'nop'], [0x97, 'push_object_address'],
    [0x98, 'call2'], [0x99, 'call4'], [0x9a, 'call_ref'], [0x9b, 'form_tls_address'],
    [0x9c, 'call_frame_cfa'], [0x9d, 'bit_piece'], [0x9e, 'implicit_value'], [0x9f, 'stack_value'],
    [0xa0, 'implicit_pointer'], [0xa1, 'addrx'], [0xa2, 'constx'], [0xa3, 'entry_value'],
    [0xa4, 'const_type'], [0xa5, 'regval_type'], [0xa6, 'deref_type'], [0xa7, 'xderef_type'],
    [0xa8, 'convert'], [0xa9, 'reinterpret'], [0xe0, 'GNU_push_tls_address'], [0xed, 'WASM_location'],
    [0xf3, 'GNU_entry_value'], [0xfb, 'GNU_addr_index'], [0xfc, 'GNU_const_index'],
    [0x1000, 'LLVM_fragment'], [0x1001, 'LLVM_convert'], [0x1002, 'LLVM_tag_offset'],
    [0x1003, 'LLVM_entry_value'], [0x1004, 'LLVM_implicit_pointer'], [0x1005, 'LLVM_arg'],
    [0x1006, 'LLVM_extract_bits_sext'], [0x1007, 'LLVM_extract_bits_zext'],
  ];
  for (const [code, name] of fixed) DW_OP_NAMES.set(code, `DW_OP_${name}`);
  for (let i = 0; i < 32; i++) {
    DW_OP_NAMES.set(0x30 + i, `DW_OP_lit${i}`);
    DW_OP_NAMES.set(0x50 + i, `DW_OP_reg${i}`);
    DW_OP_NAMES.set(0x70 + i, `DW_OP_breg${i}`);
  }
}

const DW_ATE_NAMES = [
  '', 'address', 'boolean', 'complex_float', 'float', 'signed', 'signed_char', 'unsigned',
  'unsigned_char', 'imaginary_float', 'packed_decimal', 'numeric_string', 'edited',
  'signed_fixed', 'unsigned_fixed', 'decimal_float', 'UTF', 'UCS', 'ASCII',
];

function opNumber(op: number | bigint): number {
  return typeof op === 'number' ? op : op <= 0xffffn ? Number(op) : -1;
}

/** `DW_OP_plus_uconst` for 0x23, …; undefined for codes DWARF/LLVM do not name. */
export function dwarfOpName(op: number | bigint): string | undefined {
  return DW_OP_NAMES.get(opNumber(op));
}

/** `DW_ATE_signed` for 5, …; '' for unknown encodings (as llvm-dis prints them). */
export function dwarfAteName(encoding: number | bigint): string {
  const n = opNumber(encoding);
  return n > 0 && n < DW_ATE_NAMES.length ? `DW_ATE_${DW_ATE_NAMES[n]}` : '';
}

/** Number of arguments that follow operator `op` in a DIExpression (LLVM 19 rules). */
export function dwarfOpArgCount(op: number | bigint): number {
  const n = opNumber(op);
  if (n >= DwOp.breg0 && n <= DwOp.breg31) return 1;
  switch (n) {
    case DwOp.LLVM_convert:
    case DwOp.LLVM_fragment:
    case DwOp.LLVM_extract_bits_sext:
    case DwOp.LLVM_extract_bits_zext:
    case DwOp.bregx:
      return 2;
    case DwOp.constu:
    case DwOp.consts:
    case DwOp.deref_size:
    case DwOp.plus_uconst:
    case DwOp.LLVM_tag_offset:
    case DwOp.LLVM_entry_value:
    case DwOp.LLVM_arg:
    case DwOp.regx:
      return 1;
    default:
      return 0;
  }
}

/** Operators a valid DIExpression may contain anywhere (besides the positional ones). */
const FREE_OPS = new Set<number>();
{
  const byName = new Map([...DW_OP_NAMES].map(([code, name]) => [name, code]));
  const names = [
    'LLVM_implicit_pointer', 'LLVM_convert', 'LLVM_arg', 'LLVM_tag_offset', 'LLVM_extract_bits_sext',
    'LLVM_extract_bits_zext', 'constu', 'plus_uconst', 'plus', 'minus', 'mul', 'div', 'mod', 'or',
    'and', 'xor', 'shl', 'shr', 'shra', 'deref', 'deref_size', 'xderef', 'lit0', 'not', 'dup',
    'regx', 'bregx', 'push_object_address', 'over', 'consts', 'eq', 'ne', 'gt', 'ge', 'lt', 'le',
  ];
  for (const name of names) FREE_OPS.add(byName.get(`DW_OP_${name}`)!);
}

/**
 * Whether LLVM considers the element list a well-formed expression (then llvm-dis prints
 * operator names; otherwise it prints the raw numbers).
 */
export function isValidDIExpression(els: readonly bigint[]): boolean {
  const n = els.length;
  for (let i = 0; i < n; ) {
    const op = opNumber(els[i]!);
    const size = 1 + dwarfOpArgCount(op);
    if (i + size > n) return false;
    if ((op >= DwOp.reg0 && op <= DwOp.reg31) || (op >= DwOp.breg0 && op <= DwOp.breg31)) return true;
    switch (op) {
      case DwOp.LLVM_fragment:
        return i + size === n;
      case DwOp.stack_value:
        if (i + size !== n && els[i + size] !== BigInt(DwOp.LLVM_fragment)) return false;
        break;
      case DwOp.swap:
        if (n === 1) return false;
        break;
      case DwOp.LLVM_entry_value: {
        const first = els[0] === BigInt(DwOp.LLVM_arg) && els[1] === 0n ? 2 : 0;
        return i === first && els[i + 1] === 1n;
      }
      default:
        if (!FREE_OPS.has(op)) return false;
    }
    i += size;
  }
  return true;
}

/** The expression as llvm-dis prints it: `!DIExpression(DW_OP_LLVM_fragment, 0, 32)`. */
export function formatDIExpression(expr: DIExpression | readonly bigint[]): string {
  const els = 'elements' in expr ? expr.elements : expr;
  const parts: string[] = [];
  if (isValidDIExpression(els)) {
    for (let i = 0; i < els.length; ) {
      const op = els[i]!;
      const argc = dwarfOpArgCount(op);
      parts.push(dwarfOpName(op) ?? String(op));
      if (opNumber(op) === DwOp.LLVM_convert) {
        parts.push(String(els[i + 1]), dwarfAteName(els[i + 2]!));
      } else {
        for (let a = 1; a <= argc; a++) parts.push(String(els[i + a]));
      }
      i += 1 + argc;
    }
  } else {
    for (const e of els) parts.push(String(e));
  }
  return `!DIExpression(${parts.join(', ')})`;
}
