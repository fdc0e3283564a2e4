import { Value, ValueKind } from './value.js';
import { Constant } from './constants.js';
import { AttributeList } from './attributes.js';
import { LabelType, PointerType, type FunctionType, type Type } from './types.js';
import type { Instruction } from './instructions.js';
import type { Metadata } from './metadata.js';

export enum Linkage {
  External,
  AvailableExternally,
  LinkOnceAny,
  LinkOnceODR,
  WeakAny,
  WeakODR,
  Appending,
  Internal,
  Private,
  ExternWeak,
  Common,
}

export const LINKAGE_NAMES: Record<Linkage, string> = {
  [Linkage.External]: '',
  [Linkage.AvailableExternally]: 'available_externally',
  [Linkage.LinkOnceAny]: 'linkonce',
  [Linkage.LinkOnceODR]: 'linkonce_odr',
  [Linkage.WeakAny]: 'weak',
  [Linkage.WeakODR]: 'weak_odr',
  [Linkage.Appending]: 'appending',
  [Linkage.Internal]: 'internal',
  [Linkage.Private]: 'private',
  [Linkage.ExternWeak]: 'extern_weak',
  [Linkage.Common]: 'common',
};

export enum Visibility {
  Default,
  Hidden,
  Protected,
}

export enum UnnamedAddr {
  None,
  Global,
  Local,
}

export enum ThreadLocalMode {
  NotThreadLocal,
  GeneralDynamic,
  LocalDynamic,
  InitialExec,
  LocalExec,
}

export enum DLLStorage {
  Default,
  Import,
  Export,
}

/** A metadata attachment on a global or an instruction: `!dbg !5`, `!tbaa !7`, … */
export interface MDAttachment {
  kind: string;
  node: Metadata;
}

export abstract class GlobalValue extends Constant {
  linkage = Linkage.External;
  visibility = Visibility.Default;
  dllStorage = DLLStorage.Default;
  unnamedAddr = UnnamedAddr.None;
  threadLocal = ThreadLocalMode.NotThreadLocal;
  dsoLocal = false;
  partition = '';
  comdat: string | null = null;
  attachments: MDAttachment[] = [];
  constructor(
    name: string,
    /** The type of the object or function itself; `type` is the pointer to it. */
    public valueType: Type,
    readonly addrSpace: number,
    pointerType: Type,
  ) {
    super(pointerType);
    this.name = name;
  }
  get isDeclaration(): boolean {
    return false;
  }
  /** Local linkage: internal or private (not visible to the linker). */
  get hasLocalLinkage(): boolean {
    return this.linkage === Linkage.Internal || this.linkage === Linkage.Private;
  }
}

/** Builds the pointer type of a global: opaque for LLVM 15+ modules, typed for LLVM ≤ 14. */
export function globalPointerType(valueType: Type, addrSpace: number, typedPointers: boolean): Type {
  return typedPointers ? PointerType.typed(valueType, addrSpace) : PointerType.opaque(addrSpace);
}

export class GlobalVariable extends GlobalValue {
  readonly vkind = ValueKind.GlobalVariable;
  isConstantGlobal = false;
  initializer: Constant | null = null;
  externallyInitialized = false;
  align = 0;
  section = '';
  codeModel = 0;
  attributes: AttributeList = AttributeList.EMPTY;
  override get isDeclaration(): boolean {
    return this.initializer === null;
  }
}

export class Argument extends Value {
  readonly vkind = ValueKind.Argument;
  constructor(
    type: Type,
    readonly index: number,
    public parent: Function,
  ) {
    super(type);
  }
}

export class BasicBlock extends Value {
  readonly vkind = ValueKind.BasicBlock;
  insts: Instruction[] = [];
  /** Position in the parent's block list. */
  index = 0;
  constructor(public parent: Function) {
    super(LabelType);
  }
  get terminator(): Instruction | undefined {
    return this.insts[this.insts.length - 1];
  }
}

export class Function extends GlobalValue {
  readonly vkind = ValueKind.Function;
  callingConv = 0;
  attributes: AttributeList = AttributeList.EMPTY;
  align = 0;
  section = '';
  gc = '';
  prefix: Constant | null = null;
  prologue: Constant | null = null;
  personality: Constant | null = null;
  args: Argument[];
  blocks: BasicBlock[] = [];
  /** True when the bitcode has a body for this function (it may not be decoded yet). */
  hasBody = false;
  /** Function-local value names (for printing), assigned when the body is decoded. */
  constructor(name: string, readonly functionType: FunctionType, addrSpace: number, pointerType: Type) {
    super(name, functionType, addrSpace, pointerType);
    this.args = functionType.params.map((t, i) => new Argument(t, i, this));
  }
  override get isDeclaration(): boolean {
    return !this.hasBody;
  }
  get entry(): BasicBlock | undefined {
    return this.blocks[0];
  }
  /** The `!dbg` attachment (a DISubprogram), if any. */
  get subprogram(): Metadata | null {
    return this.attachments.find((a) => a.kind === 'dbg')?.node ?? null;
  }
}

export class GlobalAlias extends GlobalValue {
  readonly vkind = ValueKind.GlobalAlias;
  aliasee: Constant | null = null;
}

export class GlobalIFunc extends GlobalValue {
  readonly vkind = ValueKind.GlobalIFunc;
  resolver: Constant | null = null;
}

/** Follows aliases (and pointer casts of them) to the global they name. */
export function resolveAlias(gv: Value): Value {
  let v: Value = gv;
  for (let guard = 0; guard < 100 && v.vkind === ValueKind.GlobalAlias; guard++) {
    const a = (v as GlobalAlias).aliasee;
    if (!a) break;
    v = a;
  }
  return v;
}
