/**
 * The textual IR printer: reproduces llvm-dis's output for a decoded module.
 *
 * `printModule` prints everything. The other functions print pieces; they take an optional
 * context (from `moduleContext(m)`, reusable across calls) so unnamed globals, metadata and
 * attribute groups get the same numbers as in the module listing; without one, local values
 * are numbered within their own function.
 */
import type { Module } from '../module.js';
import type { Type } from '../types.js';
import { ValueKind, type Value } from '../value.js';
import type { Constant } from '../constants.js';
import type { Argument, BasicBlock, Function } from '../globals.js';
import type { Instruction } from '../instructions.js';
import { moduleContext, standaloneContext, type PrintContext } from './context.js';
import { formatTypedValue, formatValue } from './constants.js';
import { formatInstruction } from './instructions.js';
import { formatFunction, formatModule } from './module.js';

export { moduleContext, llvmVersionOf, type PrintContext } from './context.js';
export { formatFloat } from './floats.js';
export { escapeString, formatName } from './names.js';

/** The module in llvm-dis's textual form. */
export function printModule(m: Module): string {
  return formatModule(moduleContext(m), m);
}

/** `i32`, `ptr`, `%struct.s`, `[4 x i8]`, `i32 (ptr, ...)`. */
export function printType(t: Type, ctx: PrintContext = standaloneContext()): string {
  return ctx.types.print(t);
}

function localContext(v: Value, ctx: PrintContext | undefined): PrintContext {
  const c = ctx ?? standaloneContext();
  const fn = owner(v);
  if (fn) c.slots.setFunction(fn);
  return c;
}

function owner(v: Value): Function | null {
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

/** A value as an operand, without its type: `%5`, `%x`, `@g`, `42`, `null`, `getelementptr (…)`. */
export function printValueRef(v: Value, ctx?: PrintContext): string {
  return formatValue(localContext(v, ctx), v);
}

/** A value with its type: `i32 %5`, `ptr @g`. */
export function printTypedValue(v: Value, ctx?: PrintContext): string {
  return formatTypedValue(localContext(v, ctx), v);
}

/** A constant's literal text (without its type): `1.000000e+00`, `c"hi\00"`, `{ i32 1, ptr @g }`. */
export function printConstant(c: Constant, ctx: PrintContext = standaloneContext()): string {
  return formatValue(ctx, c);
}

/** One instruction as llvm-dis prints it, with its two-space indent and metadata attachments. */
export function printInstruction(inst: Instruction, ctx?: PrintContext): string {
  return formatInstruction(localContext(inst, ctx), inst);
}

/** One function (definition or declaration) as llvm-dis prints it. */
export function printFunction(fn: Function, ctx: PrintContext = standaloneContext()): string {
  const out: string[] = [];
  formatFunction(ctx, fn, out);
  return out.join('');
}
