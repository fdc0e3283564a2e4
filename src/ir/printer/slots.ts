/**
 * Slot numbering as LLVM's SlotTracker does it: unnamed globals (`@0`), unnamed function-local
 * values (`%0`: arguments, then blocks and non-void instructions in order), metadata nodes
 * (`!0`: global attachments, named metadata, then each function's attachments and debug
 * records in order) and attribute groups (`#0`).
 */
import { ValueKind, type Value } from '../value.js';
import { MDKind, type DILocation, type Metadata, type MetadataAsValue } from '../metadata.js';
import type { Module } from '../module.js';
import type { Argument, BasicBlock, Function, GlobalValue } from '../globals.js';
import type { Instruction, CallInst } from '../instructions.js';
import { Opcode } from '../opcodes.js';
import { isNumberedNode, mdOperands } from './walk.js';

export class SlotTracker {
  private readonly globalSlots = new Map<GlobalValue, number>();
  private readonly mdSlots = new Map<Metadata, number>();
  private readonly mdOrder: Metadata[] = [];
  private readonly locations = new Map<string, DILocation>();
  private current: Function | null = null;
  private currentSlots: Map<Value, number> | null = null;
  private readonly otherSlots = new Map<Function, Map<Value, number>>();

  constructor(readonly module: Module | null) {
    if (!module) return;
    let next = 0;
    for (const list of [module.globals, module.aliases, module.ifuncs] as GlobalValue[][]) {
      for (const g of list) if (!g.name) this.globalSlots.set(g, next++);
    }
    for (const f of module.functions) if (!f.name) this.globalSlots.set(f, next++);
    for (const g of module.globals) for (const a of g.attachments) this.addMetadata(a.node);
    for (const nmd of module.namedMetadata) for (const op of nmd.ops) this.addMetadata(op);
    for (const f of module.functions) this.addFunctionMetadata(f);
  }

  /** Makes `fn` the function whose local slots `localSlot` answers first. */
  setFunction(fn: Function | null): void {
    if (fn === this.current) return;
    this.current = fn;
    this.currentSlots = fn ? numberFunction(fn) : null;
  }

  globalSlot(g: GlobalValue): number {
    return this.globalSlots.get(g) ?? -1;
  }

  /** Slot of an unnamed argument, block or instruction; looks into its own function if needed. */
  localSlot(v: Value): number {
    const s = this.currentSlots?.get(v);
    if (s !== undefined) return s;
    const owner = owningFunction(v);
    if (!owner || owner === this.current) return -1;
    let slots = this.otherSlots.get(owner);
    if (!slots) {
      if (this.otherSlots.size > 16) this.otherSlots.clear();
      slots = numberFunction(owner);
      this.otherSlots.set(owner, slots);
    }
    return slots.get(v) ?? -1;
  }

  metadataSlot(md: Metadata): number {
    return this.mdSlots.get(md) ?? -1;
  }

  /** Numbered metadata nodes in slot order. */
  get metadataNodes(): readonly Metadata[] {
    return this.mdOrder;
  }

  /**
   * The first node seen with the same content as this uniqued DILocation: debug locations
   * decoded from function blocks are separate objects, but LLVM uniques them.
   */
  private canonicalLocation(loc: DILocation): DILocation {
    if (loc.distinct) return loc;
    const inlined = loc.inlinedAt?.mdkind === MDKind.Location ? this.canonicalLocation(loc.inlinedAt as DILocation) : loc.inlinedAt;
    const key = `${loc.line}:${loc.column}:${loc.implicitCode ? 1 : 0}:${loc.scope?.mdId ?? 0}:${inlined?.mdId ?? 0}`;
    const seen = this.locations.get(key);
    if (seen) return seen;
    this.locations.set(key, loc);
    return loc;
  }

  /** Numbers a node and, depth first, the nodes it refers to. */
  addMetadata(root: Metadata | null): void {
    if (!root || !isNumberedNode(root) || this.mdSlots.has(root)) return;
    const stack: Metadata[] = [root];
    while (stack.length > 0) {
      const md = stack.pop()!;
      if (this.mdSlots.has(md)) continue;
      if (md.mdkind === MDKind.Location) {
        const canon = this.canonicalLocation(md as DILocation);
        if (canon !== md) {
          this.addMetadata(canon);
          this.mdSlots.set(md, this.mdSlots.get(canon)!);
          continue;
        }
      }
      this.mdSlots.set(md, this.mdOrder.length);
      this.mdOrder.push(md);
      const ops = mdOperands(md);
      for (let i = ops.length - 1; i >= 0; i--) {
        const op = ops[i];
        if (op && isNumberedNode(op) && !this.mdSlots.has(op)) stack.push(op);
      }
    }
  }

  private addFunctionMetadata(f: Function): void {
    for (const a of f.attachments) this.addMetadata(a.node);
    for (const bb of f.blocks) {
      for (const inst of bb.insts) {
        if (inst.debugRecords) {
          for (const r of inst.debugRecords) {
            if (r.location && r.location.mdkind === MDKind.Tuple) this.addMetadata(r.location);
            this.addMetadata(r.variable);
            this.addMetadata(r.label ?? null);
            this.addMetadata(r.assignId ?? null);
            if (r.address && r.address.mdkind === MDKind.Tuple) this.addMetadata(r.address);
            this.addMetadata(r.debugLoc);
          }
        }
        if (inst.opcode === Opcode.Call && isIntrinsicCall(inst as CallInst)) {
          for (const op of inst.ops) {
            if (op.vkind === ValueKind.MetadataAsValue) this.addMetadata((op as MetadataAsValue).md);
          }
        }
        this.addMetadata(inst.debugLoc);
        if (inst.attachments) for (const a of inst.attachments) this.addMetadata(a.node);
      }
    }
  }
}

function isIntrinsicCall(call: CallInst): boolean {
  const callee = call.callee;
  return callee.vkind === ValueKind.Function && callee.name.startsWith('llvm.');
}

function owningFunction(v: Value): Function | null {
  switch (v.vkind) {
    case ValueKind.Argument:
      return (v as Argument).parent;
    case ValueKind.BasicBlock:
      return (v as BasicBlock).parent;
    case ValueKind.Instruction:
      return (v as Instruction).parent?.parent ?? null;
    default:
      return null;
  }
}

/** Local slots of a function: unnamed arguments, then unnamed blocks and non-void instructions. */
export function numberFunction(fn: Function): Map<Value, number> {
  const slots = new Map<Value, number>();
  let next = 0;
  for (const a of fn.args) if (!a.name) slots.set(a, next++);
  for (const bb of fn.blocks) {
    if (!bb.name) slots.set(bb, next++);
    for (const inst of bb.insts) if (!inst.name && !inst.type.isVoid()) slots.set(inst, next++);
  }
  return slots;
}
