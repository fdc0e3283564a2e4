/**
 * Module preparation (KLEE's KModule::prepare, minus its optimisation passes).
 *
 * What tsklee does to the module before running it:
 *  - nothing to its control flow. KLEE runs LLVM's CFG simplification (and the scalarizer,
 *    and lowers some intrinsics) before interpreting; simplification merges straight-line
 *    blocks and can turn small if/else diamonds into `select`, which removes forks. tsklee
 *    interprets the IR as given, so on such code it can count more instructions and explore
 *    more paths than KLEE (each extra path is a real path of the program as compiled), and
 *    `total instructions` is typically a few percent higher (e.g. concrete.c: the `br` of a
 *    block KLEE merged away).
 *  - llvm.dbg.* calls are dropped (KLEE's IntrinsicCleaner removes them too), so they are
 *    not counted as instructions.
 *  - every function gets an address, every global an object at a fixed address (memory
 *    layout: memory/allocator.ts), every constant operand is evaluated once.
 *  - phi nodes run on the edges: each branch target carries the register copies its phis
 *    imply (they still count as executed instructions, as in KLEE).
 */
import { DataLayout } from '../../ir/datalayout.js';
import {
  type AllocaInst,
  type AtomicRMWInst,
  type BasicBlock,
  type BlockAddress,
  type BranchInst,
  type CallInst,
  type CastInst,
  type CmpInst,
  type ExtractValueInst,
  type Function,
  type GetElementPtrInst,
  type GlobalValue,
  type GlobalVariable,
  type IndirectBrInst,
  type InlineAsm,
  type InsertValueInst,
  type Instruction,
  type Module,
  Opcode,
  type PhiInst,
  type ShuffleVectorInst,
  type SwitchInst,
  type Type,
  TypeKind,
  type Value,
  ValueKind,
  Linkage,
  resolveAlias,
  scopeFile,
  type StructType,
  type VectorType,
  type ArrayType,
} from '../../ir/index.js';
import { GlobalLayout, type MemoryObject } from '../../memory/index.js';
import type { Val, Scalar } from '../values.js';
import { intOpKind, intWidth, isFloatKind } from '../scalar.js';
import { MemIO } from '../mem-io.js';
import { ConstantError, ConstantEvaluator } from './constants.js';
import { Edge, KFunction, KInst, Op, type CallTarget, type SpecialHandler } from './kinst.js';

/** How calls to functions without a body (or with a body KLEE replaces) are bound. */
export interface CallBindings {
  /** A special function handler for `fn` (klee_*, malloc, abort, …), or null. */
  special(name: string, fn: Function): SpecialHandler | null;
  /** The handler of an LLVM intrinsic (`llvm.…`), or null if unknown. */
  intrinsic(name: string, fn: Function): SpecialHandler | null;
}

/** Load/store kinds (KInst.w2 of Load/Store). */
export enum MemKind {
  Generic = 0,
  /** Integer of 1–4 bytes (width ≤ 32). */
  Small = 1,
  /** i64 or pointer. */
  I64 = 2,
  F32 = 3,
  F64 = 4,
}

export interface SwitchInfo {
  values: Scalar[];
  edges: Edge[];
  defaultEdge: Edge;
  /** Concrete value → edge (numbers for widths ≤ 32 or safe wide values; bigints otherwise). */
  table: Map<number | bigint, Edge>;
}

export interface GepInfo {
  /** Registers of the variable indices, their scales (bytes per step) and widths. */
  regs: Int32Array;
  scales: number[];
  widths: number[];
}

export class KModule {
  readonly dl: DataLayout;
  readonly io: MemIO;
  readonly functions = new Map<Function, KFunction>();
  /** Functions by address (function pointers). */
  readonly functionAt = new Map<number, KFunction>();
  /** Blocks by the address standing for them (blockaddress / indirectbr). */
  readonly blockAt = new Map<number, { kf: KFunction; block: BasicBlock }>();
  readonly globalObjects = new Map<GlobalVariable, MemoryObject>();
  /** Every prepared instruction, by gid. */
  readonly instructions: KInst[] = [];
  /** Control-flow edges made so far (Edge.id numbers them). */
  edgeCount = 0;
  /** Static constructors and destructors (llvm.global_ctors/dtors) in run order. */
  readonly ctors: KFunction[] = [];
  readonly dtors: KFunction[] = [];
  /** Problems found while preparing (unsupported constants, undefined symbols), for warnings. */
  readonly warnings: string[] = [];
  readonly constants: ConstantEvaluator;
  private readonly layout = new GlobalLayout();
  private readonly blockAddresses = new Map<BasicBlock, number>();

  constructor(
    readonly module: Module,
    readonly bindings: CallBindings,
  ) {
    this.dl = DataLayout.parse(module.dataLayout);
    this.io = new MemIO(this.dl);
    for (const fn of module.functions) {
      const kf = new KFunction(fn);
      // An undefined extern_weak symbol is null, as the dynamic linker would make it.
      kf.address = fn.isDeclaration && fn.linkage === Linkage.ExternWeak ? 0 : this.layout.allocateFunction();
      this.functions.set(fn, kf);
      if (kf.address !== 0) this.functionAt.set(kf.address, kf);
    }
    for (const gv of module.globals) {
      const size = this.dl.typeStoreSize(gv.valueType);
      const align = this.dl.globalAlign(gv.valueType, gv.align, gv.section !== '', gv.initializer !== null);
      const mo = this.layout.allocateGlobal(size, align, `global:${gv.name}`);
      mo.name = gv.name;
      this.globalObjects.set(gv, mo);
    }
    this.constants = new ConstantEvaluator(
      this.dl,
      (g) => this.addressOf(g),
      (b) => this.blockAddress(b),
    );
    for (const fn of module.functions) {
      if (!fn.isDeclaration) this.prepareFunction(this.functions.get(fn)!);
    }
    this.collectStructors('llvm.global_ctors', this.ctors);
    this.collectStructors('llvm.global_dtors', this.dtors);
  }

  addressOf(g: GlobalValue): number {
    const v = resolveAlias(g);
    if (v.vkind === ValueKind.Function) return this.functions.get(v as Function)?.address ?? 0;
    if (v.vkind === ValueKind.GlobalVariable) {
      const mo = this.globalObjects.get(v as GlobalVariable);
      if (mo !== undefined) return mo.address;
    }
    if (v.vkind === ValueKind.ConstantExpr || v.isConstant()) {
      const r = this.constants.eval(v);
      if (typeof r === 'number') return r;
    }
    throw new ConstantError(`cannot take the address of @${g.name}`);
  }

  private blockAddress(b: BlockAddress): number {
    const block = b.block;
    if (block === null) throw new ConstantError(`blockaddress of an unresolved block in @${b.fn.name}`);
    let a = this.blockAddresses.get(block);
    if (a === undefined) {
      a = this.layout.allocateFunction();
      this.blockAddresses.set(block, a);
      this.blockAt.set(a, { kf: this.functions.get(b.fn)!, block });
    }
    return a;
  }

  kfunction(fn: Function): KFunction | undefined {
    return this.functions.get(fn);
  }

  private collectStructors(name: string, out: KFunction[]): void {
    const gv = this.module.globals.find((g) => g.name === name);
    const init = gv?.initializer;
    if (!init || init.vkind !== ValueKind.ConstantArray) return;
    const entries: { prio: number; kf: KFunction; i: number }[] = [];
    (init as unknown as { elements: Value[] }).elements.forEach((e, i) => {
      if (e.vkind !== ValueKind.ConstantStruct) return;
      const [prio, fnv] = (e as unknown as { elements: Value[] }).elements;
      if (!prio || !fnv) return;
      const f = resolveAlias(fnv);
      if (f.vkind !== ValueKind.Function) return;
      const kf = this.functions.get(f as Function);
      if (kf === undefined || kf.isDeclaration) return;
      entries.push({ prio: Number((prio as unknown as { value: bigint }).value), kf, i });
    });
    entries.sort((a, b) => a.prio - b.prio || a.i - b.i);
    for (const e of entries) out.push(e.kf);
  }

  // ------------------------------------------------------------------ functions

  private prepareFunction(kf: KFunction): void {
    const fn = kf.fn;
    const slots = new Map<Value, number>();
    let next = 0;
    kf.argBase = 0;
    for (const a of fn.args) slots.set(a, next++);
    // Result registers (phis included), and the pc of each block.
    const body: Instruction[][] = [];
    let pc = 0;
    for (const bb of fn.blocks) {
      const list: Instruction[] = [];
      let phis = 0;
      for (const inst of bb.insts) {
        if (!inst.type.isVoid() && inst.type.kind !== TypeKind.Label) slots.set(inst, next++);
        if (inst.opcode === Opcode.Phi) {
          phis++;
          continue;
        }
        if (isDebugIntrinsic(inst)) continue;
        list.push(inst);
      }
      kf.blockPc[bb.index] = pc;
      kf.blockPhis[bb.index] = phis;
      pc += list.length;
      body.push(list);
    }
    const constRegs: Val[] = [];
    const constBase = next;
    const constSlot = new Map<Value, number>();
    const errors = new Map<Value, string>();
    const reg = (v: Value): number => {
      const s = slots.get(v);
      if (s !== undefined) return s;
      if (v.vkind === ValueKind.MetadataAsValue || v.vkind === ValueKind.InlineAsm || v.vkind === ValueKind.BasicBlock) return -1;
      let c = constSlot.get(v);
      if (c === undefined) {
        let val: Val = 0;
        try {
          val = this.constants.eval(v);
        } catch (e) {
          if (!(e instanceof ConstantError)) throw e;
          errors.set(v, e.message);
        }
        c = constBase + constRegs.length;
        constRegs.push(val);
        constSlot.set(v, c);
      }
      return c;
    };
    const edge = (from: BasicBlock, to: BasicBlock): Edge => {
      const dst: number[] = [];
      const src: number[] = [];
      for (const inst of to.insts) {
        if (inst.opcode !== Opcode.Phi) break;
        const phi = inst as PhiInst;
        const i = phi.blocks.indexOf(from);
        if (i < 0) continue;
        dst.push(slots.get(phi)!);
        src.push(reg(phi.ops[i]!));
      }
      return new Edge(kf.blockPc[to.index]!, Int32Array.from(dst), Int32Array.from(src), to.index, this.edgeCount++);
    };
    let index = 0;
    fn.blocks.forEach((_bb, bi) => {
      for (const inst of body[bi]!) {
        const ki = new KInst(inst, kf, index++);
        ki.gid = this.instructions.length;
        this.instructions.push(ki);
        const loc = inst.debugLoc;
        if (loc !== null) {
          ki.file = scopeFile(loc.scope)?.path ?? '';
          ki.line = loc.line;
        }
        ki.dest = slots.get(inst) ?? -1;
        try {
          this.lower(ki, inst, reg, edge);
        } catch (e) {
          if (!(e instanceof ConstantError)) throw e;
          ki.op = Op.Unsupported;
          ki.aux = e.message;
        }
        for (const op of inst.ops) {
          const msg = errors.get(op);
          if (msg !== undefined) {
            ki.op = Op.Unsupported;
            ki.aux = msg;
          }
        }
        kf.insts.push(ki);
      }
    });
    const byval = fn.args.map((a, i) => {
      const attr = fn.attributes.paramAttr(i, 'byval');
      if (attr === undefined) return null;
      return attr.type ?? (a.type as unknown as { pointee: Type | null }).pointee ?? null;
    });
    kf.byval = byval.some((t) => t !== null) ? byval : null;
    kf.slots = slots;
    kf.numRegs = constBase + constRegs.length;
    const regTypes: (Type | null)[] = new Array<Type | null>(kf.numRegs).fill(null);
    for (const [v, slot] of slots) regTypes[slot] = v.type;
    kf.regTypes = regTypes;
    const template: Val[] = new Array<Val>(kf.numRegs).fill(0);
    for (let i = 0; i < constRegs.length; i++) template[constBase + i] = constRegs[i]!;
    kf.template = template;
    kf.entryPc = 0;
  }

  /** Fill ki's dispatch code and operands for one instruction. */
  private lower(ki: KInst, inst: Instruction, reg: (v: Value) => number, edge: (from: BasicBlock, to: BasicBlock) => Edge): void {
    const ops = inst.ops;
    const op = inst.opcode;
    const t = inst.type;
    switch (op) {
      case Opcode.Ret:
        ki.op = Op.Ret;
        ki.a = ops.length > 0 ? reg(ops[0]!) : -1;
        return;
      case Opcode.Br: {
        const br = inst as BranchInst;
        if (br.successors.length === 1) {
          ki.op = Op.Br;
          ki.aux = edge(inst.parent, br.successors[0]!);
        } else {
          ki.op = Op.CondBr;
          ki.a = reg(ops[0]!);
          ki.aux = [edge(inst.parent, br.successors[0]!), edge(inst.parent, br.successors[1]!)];
        }
        return;
      }
      case Opcode.Switch: {
        const sw = inst as SwitchInst;
        ki.op = Op.Switch;
        ki.a = reg(ops[0]!);
        ki.w = intWidth(ops[0]!.type);
        const info: SwitchInfo = { values: [], edges: [], defaultEdge: edge(inst.parent, sw.defaultDest), table: new Map() };
        for (const c of sw.cases) {
          const v = this.constants.eval(c.value) as Scalar;
          const e = edge(inst.parent, c.dest);
          info.values.push(v);
          info.edges.push(e);
          if (!info.table.has(v as number | bigint)) info.table.set(v as number | bigint, e);
        }
        ki.aux = info;
        return;
      }
      case Opcode.IndirectBr: {
        const ib = inst as IndirectBrInst;
        ki.op = Op.IndirectBr;
        ki.a = reg(ops[0]!);
        ki.aux = ib.destinations.map((d) => ({ block: d, edge: edge(inst.parent, d) }));
        return;
      }
      case Opcode.Unreachable:
        ki.op = Op.Unreachable;
        return;
      case Opcode.CallBr:
        ki.op = Op.Unsupported;
        ki.aux = 'callbr (asm goto) is not supported';
        return;
      case Opcode.FNeg:
        ki.a = reg(ops[0]!);
        if (t.kind === TypeKind.Vector) {
          ki.op = Op.VecOp;
          ki.aux = op;
        } else {
          ki.op = Op.FNeg;
          ki.w2 = t.kind;
        }
        return;
      case Opcode.ICmp:
      case Opcode.FCmp: {
        const ci = inst as CmpInst;
        ki.a = reg(ops[0]!);
        ki.b = reg(ops[1]!);
        ki.imm = ci.predicate;
        const ot = ops[0]!.type;
        if (ot.kind === TypeKind.Vector) {
          ki.op = Op.VecOp;
          ki.aux = op;
          return;
        }
        if (op === Opcode.FCmp) {
          ki.op = Op.FCmp;
          ki.w2 = ot.kind;
          return;
        }
        ki.w = intWidth(ot);
        ki.op = ki.w <= 32 ? Op.ICmp32 : Op.ICmpWide;
        return;
      }
      case Opcode.Select:
        ki.op = ops[0]!.type.kind === TypeKind.Vector ? Op.VecOp : Op.Select;
        ki.aux = op;
        ki.a = reg(ops[0]!);
        ki.b = reg(ops[1]!);
        ki.c = reg(ops[2]!);
        return;
      case Opcode.Phi:
        return; // runs on edges
      case Opcode.Freeze:
        ki.op = Op.Copy;
        ki.a = reg(ops[0]!);
        return;
      case Opcode.Alloca: {
        const ai = inst as AllocaInst;
        ki.op = Op.Alloca;
        ki.a = reg(ops[0]!);
        ki.w2 = intWidth(ops[0]!.type);
        ki.w = this.dl.typeAllocSize(ai.allocatedType);
        ki.imm = Math.max(ai.align, this.dl.prefAlign(ai.allocatedType));
        return;
      }
      case Opcode.Load:
        ki.op = Op.Load;
        ki.a = reg(ops[0]!);
        ki.w = this.dl.typeStoreSize(t);
        ki.w2 = memKind(t);
        if (ki.w2 === MemKind.Small) ki.imm = intWidth(t) === 32 ? -1 : 2 ** intWidth(t) - 1;
        ki.aux = t;
        return;
      case Opcode.Store:
        ki.op = Op.Store;
        ki.a = reg(ops[0]!);
        ki.b = reg(ops[1]!);
        ki.w = this.dl.typeStoreSize(ops[0]!.type);
        ki.w2 = memKind(ops[0]!.type);
        ki.aux = ops[0]!.type;
        return;
      case Opcode.GetElementPtr:
        this.lowerGep(ki, inst as GetElementPtrInst, reg);
        return;
      case Opcode.Fence:
        ki.op = Op.Nop;
        return;
      case Opcode.AtomicCmpXchg:
        ki.op = Op.CmpXchg;
        ki.a = reg(ops[0]!);
        ki.b = reg(ops[1]!);
        ki.c = reg(ops[2]!);
        ki.aux = ops[1]!.type;
        return;
      case Opcode.AtomicRMW:
        ki.op = Op.AtomicRMW;
        ki.a = reg(ops[0]!);
        ki.b = reg(ops[1]!);
        ki.imm = (inst as AtomicRMWInst).operation;
        ki.aux = ops[1]!.type;
        return;
      case Opcode.Call:
        this.lowerCall(ki, inst as CallInst, reg);
        return;
      case Opcode.VAArg:
        ki.op = Op.VAArg;
        ki.a = reg(ops[0]!);
        ki.aux = t;
        return;
      case Opcode.ExtractElement:
        ki.op = Op.ExtractElement;
        ki.a = reg(ops[0]!);
        ki.b = reg(ops[1]!);
        ki.w2 = intWidth(ops[1]!.type);
        return;
      case Opcode.InsertElement:
        ki.op = Op.InsertElement;
        ki.a = reg(ops[0]!);
        ki.b = reg(ops[1]!);
        ki.c = reg(ops[2]!);
        ki.w2 = intWidth(ops[2]!.type);
        return;
      case Opcode.ShuffleVector:
        ki.op = Op.ShuffleVector;
        ki.a = reg(ops[0]!);
        ki.b = reg(ops[1]!);
        ki.w = (ops[0]!.type as VectorType).length;
        ki.aux = (inst as ShuffleVectorInst).mask;
        return;
      case Opcode.ExtractValue:
        ki.op = Op.ExtractValue;
        ki.a = reg(ops[0]!);
        ki.aux = (inst as ExtractValueInst).indices;
        return;
      case Opcode.InsertValue:
        ki.op = Op.InsertValue;
        ki.a = reg(ops[0]!);
        ki.b = reg(ops[1]!);
        ki.aux = (inst as InsertValueInst).indices;
        return;
      default:
        break;
    }
    if (op >= Opcode.Add && op <= Opcode.Xor) {
      ki.a = reg(ops[0]!);
      ki.b = reg(ops[1]!);
      if (t.kind === TypeKind.Vector) {
        ki.op = Op.VecOp;
        ki.aux = op;
        return;
      }
      if (isFloatKind(t.kind)) {
        ki.op = Op.FBin;
        ki.aux = op;
        ki.w2 = t.kind;
        return;
      }
      const w = intWidth(t);
      ki.w = w;
      if (w <= 32) {
        ki.imm = w === 32 ? -1 : 2 ** w - 1;
        ki.op = SMALL_INT_OPS[op - Opcode.Add]!;
        return;
      }
      ki.aux = intOpKind(op);
      ki.op = w === 64 && op === Opcode.Add ? Op.Add64 : w === 64 && op === Opcode.Sub ? Op.Sub64 : Op.IntBinWide;
      return;
    }
    if (op >= Opcode.Trunc && op <= Opcode.AddrSpaceCast) {
      this.lowerCast(ki, inst as CastInst, reg);
      return;
    }
    ki.op = Op.Unsupported;
    ki.aux = `unsupported instruction '${Opcode[op]}'`;
  }

  private lowerCast(ki: KInst, inst: CastInst, reg: (v: Value) => number): void {
    const from = inst.ops[0]!.type;
    const to = inst.type;
    const op = inst.opcode;
    ki.a = reg(inst.ops[0]!);
    ki.aux = op;
    if (op === Opcode.BitCast) {
      ki.op = from === to ? Op.Copy : Op.BitCast;
      return;
    }
    if (to.kind === TypeKind.Vector) {
      ki.op = Op.VecOp;
      return;
    }
    switch (op) {
      case Opcode.Trunc:
      case Opcode.ZExt:
      case Opcode.SExt:
        ki.op = op === Opcode.Trunc ? Op.Trunc : op === Opcode.ZExt ? Op.ZExt : Op.SExt;
        ki.w2 = intWidth(from);
        ki.w = intWidth(to);
        return;
      case Opcode.PtrToInt:
      case Opcode.IntToPtr:
        ki.w2 = intWidth(from);
        ki.w = intWidth(to);
        ki.op = ki.w === ki.w2 ? Op.Copy : Op.IntResize;
        return;
      case Opcode.AddrSpaceCast:
        ki.op = Op.Copy;
        return;
      case Opcode.FPToUI:
      case Opcode.FPToSI:
        ki.op = op === Opcode.FPToUI ? Op.FPToUI : Op.FPToSI;
        ki.w = intWidth(to);
        ki.w2 = from.kind;
        return;
      case Opcode.UIToFP:
      case Opcode.SIToFP:
        ki.op = op === Opcode.UIToFP ? Op.UIToFP : Op.SIToFP;
        ki.w2 = intWidth(from);
        ki.w = to.kind;
        return;
      case Opcode.FPTrunc:
      case Opcode.FPExt:
        ki.op = op === Opcode.FPTrunc ? Op.FPTrunc : Op.FPExt;
        ki.w2 = from.kind;
        ki.w = to.kind;
        return;
      default:
        ki.op = Op.Unsupported;
        ki.aux = `unsupported cast '${Opcode[op]}'`;
    }
  }

  private lowerGep(ki: KInst, gep: GetElementPtrInst, reg: (v: Value) => number): void {
    ki.op = Op.GEP;
    const ops = gep.ops;
    ki.a = reg(ops[0]!);
    if (gep.type.kind === TypeKind.Vector) {
      ki.op = Op.Unsupported;
      ki.aux = 'getelementptr on vectors of pointers is not supported';
      return;
    }
    let offset = 0;
    const regs: number[] = [];
    const scales: number[] = [];
    const widths: number[] = [];
    let t: Type = gep.sourceElementType;
    for (let i = 1; i < ops.length; i++) {
      const idxV = ops[i]!;
      let scale: number;
      let next: Type;
      if (i === 1) {
        scale = this.dl.typeAllocSize(t);
        next = t;
      } else if (t.kind === TypeKind.Struct) {
        const n = Number((this.constants.eval(idxV) as number | bigint));
        offset += this.dl.structLayout(t as StructType).offsets[n]!;
        t = (t as StructType).elements[n]!;
        continue;
      } else if (t.kind === TypeKind.Array) {
        next = (t as ArrayType).element;
        scale = this.dl.typeAllocSize(next);
      } else if (t.kind === TypeKind.Vector) {
        next = (t as VectorType).element;
        scale = this.dl.typeStoreSize(next);
      } else throw new ConstantError(`getelementptr into a non-aggregate type`);
      const w = intWidth(idxV.type);
      if (idxV.isConstant()) {
        const v = this.constants.eval(idxV) as number | bigint;
        const sv = w <= 32 ? (w === 32 ? (v as number) | 0 : ((v as number) << (32 - w)) >> (32 - w)) : Number(v);
        offset += sv * scale;
      } else {
        regs.push(reg(idxV));
        scales.push(scale);
        widths.push(w);
      }
      t = next;
    }
    ki.imm = offset;
    ki.aux = { regs: Int32Array.from(regs), scales, widths } satisfies GepInfo;
  }

  private lowerCall(ki: KInst, call: CallInst, reg: (v: Value) => number): void {
    const n = call.argCount;
    const args = new Int32Array(n);
    for (let i = 0; i < n; i++) args[i] = reg(call.ops[i]!);
    ki.args = args;
    const callee = resolveAlias(call.callee);
    if (callee.vkind === ValueKind.InlineAsm) {
      ki.op = Op.CallAsm;
      ki.aux = callee as InlineAsm;
      return;
    }
    if (callee.vkind === ValueKind.Function) {
      const fn = callee as Function;
      const target = this.bindCallee(fn);
      ki.aux = target;
      if (target.handler !== null) ki.op = Op.CallSpecial;
      else if (target.kf !== null) ki.op = Op.CallDirect;
      else ki.op = Op.CallExternal;
      return;
    }
    ki.op = Op.CallIndirect;
    ki.a = reg(call.callee);
  }

  private readonly targets = new Map<Function, CallTarget>();

  /** How a call to `fn` is executed (shared by direct calls and calls through pointers). */
  bindCallee(fn: Function): CallTarget {
    let t = this.targets.get(fn);
    if (t !== undefined) return t;
    const name = fn.name;
    let handler: SpecialHandler | null = null;
    if (name.startsWith('llvm.')) handler = this.bindings.intrinsic(name, fn);
    else handler = this.bindings.special(name, fn);
    const kf = this.functions.get(fn) ?? null;
    t = { name, kf: kf !== null && !kf.isDeclaration ? kf : null, handler };
    if (handler === null && name.startsWith('llvm.')) {
      t.handler = null;
      t.kf = null;
    }
    this.targets.set(fn, t);
    return t;
  }
}

const SMALL_INT_OPS: Op[] = [];
SMALL_INT_OPS[Opcode.Add - Opcode.Add] = Op.Add32;
SMALL_INT_OPS[Opcode.FAdd - Opcode.Add] = Op.Unsupported;
SMALL_INT_OPS[Opcode.Sub - Opcode.Add] = Op.Sub32;
SMALL_INT_OPS[Opcode.Mul - Opcode.Add] = Op.Mul32;
SMALL_INT_OPS[Opcode.UDiv - Opcode.Add] = Op.UDiv32;
SMALL_INT_OPS[Opcode.SDiv - Opcode.Add] = Op.SDiv32;
SMALL_INT_OPS[Opcode.URem - Opcode.Add] = Op.URem32;
SMALL_INT_OPS[Opcode.SRem - Opcode.Add] = Op.SRem32;
SMALL_INT_OPS[Opcode.Shl - Opcode.Add] = Op.Shl32;
SMALL_INT_OPS[Opcode.LShr - Opcode.Add] = Op.LShr32;
SMALL_INT_OPS[Opcode.AShr - Opcode.Add] = Op.AShr32;
SMALL_INT_OPS[Opcode.And - Opcode.Add] = Op.And32;
SMALL_INT_OPS[Opcode.Or - Opcode.Add] = Op.Or32;
SMALL_INT_OPS[Opcode.Xor - Opcode.Add] = Op.Xor32;

function memKind(t: Type): MemKind {
  switch (t.kind) {
    case TypeKind.Integer: {
      const w = intWidth(t);
      if (w <= 32) return w <= 16 || w > 24 ? MemKind.Small : MemKind.Generic; // 1, 2 or 4 bytes
      if (w === 64) return MemKind.I64;
      return MemKind.Generic;
    }
    case TypeKind.Pointer:
      return MemKind.I64;
    case TypeKind.Float:
      return MemKind.F32;
    case TypeKind.Double:
      return MemKind.F64;
    default:
      return MemKind.Generic;
  }
}

function isDebugIntrinsic(inst: Instruction): boolean {
  if (inst.opcode !== Opcode.Call) return false;
  const callee = (inst as CallInst).callee;
  return callee.vkind === ValueKind.Function && callee.name.startsWith('llvm.dbg.');
}
