import type { Value } from './value.js';

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

export class DIFile extends Metadata {
  readonly mdkind = MDKind.File;
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
