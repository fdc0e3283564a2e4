/**
 * Source locations (DEBUG_LOC) and LLVM 19 debug records (#dbg_value, #dbg_declare, #dbg_assign,
 * #dbg_label). A debug record is written right after the instruction it is attached to, and
 * belongs before that instruction (LLVM's insertDbgRecordBefore on the last instruction read).
 */
import type { FnState } from './operands.js';
import { FunctionCode } from '../ids.js';
import { DebugRecordKind, type DebugRecord } from '../../../ir/instructions.js';
import { DILocation, ValueAsMetadata, type Metadata } from '../../../ir/metadata.js';
import { ValueKind } from '../../../ir/value.js';

/** DEBUG_LOC: [line, column, scope + 1, inlinedAt + 1, isImplicitCode?] */
export function decodeDebugLoc(s: FnState): DILocation {
  const ops = s.ops;
  if (ops.length < 4) s.bad('debug loc', 'too few operands');
  const scope = s.ctx.md.getOrNull(s.u32(2));
  if (!scope) s.bad('debug loc', 'no scope');
  const inlinedAt = s.ctx.md.getOrNull(s.u32(3));
  return new DILocation(s.u32(0), s.u32(1), scope, inlinedAt, ops.length >= 5 && ops[4] !== 0);
}

function md(s: FnState, i: number): Metadata {
  return s.ctx.md.get(s.u32(i));
}

/**
 * DEBUG_RECORD_VALUE / DECLARE: [location, variable, expression, value metadata];
 * ASSIGN: [..., assign id, address expression, address metadata];
 * VALUE_SIMPLE: [location, variable, expression, value (relative id, never a forward reference)];
 * LABEL: [location, label].
 * `localRefs` collects the ValueAsMetadata created here (their value may need patching).
 */
export function decodeDebugRecord(s: FnState, code: number, localRefs: ValueAsMetadata[]): DebugRecord {
  const ops = s.ops;
  if (code === FunctionCode.DebugRecordLabel) {
    if (ops.length < 2) s.bad('debug record', 'too few operands');
    return { kind: DebugRecordKind.Label, location: null, variable: null, expression: null, debugLoc: md(s, 0), label: md(s, 1) };
  }
  const need = code === FunctionCode.DebugRecordAssign ? 7 : 4;
  if (ops.length < need) s.bad('debug record', 'too few operands');
  const debugLoc = md(s, 0);
  const variable = md(s, 1);
  const expression = md(s, 2);
  let location: Metadata;
  if (code === FunctionCode.DebugRecordValueSimple) {
    s.p = 3;
    const v = s.pair('debug record');
    const local = v.vkind === ValueKind.Instruction || v.vkind === ValueKind.Argument || v.vkind === ValueKind.ForwardRef;
    const vam = new ValueAsMetadata(v, local);
    if (local) localRefs.push(vam);
    location = vam;
  } else {
    location = md(s, 3);
  }
  switch (code) {
    case FunctionCode.DebugRecordDeclare:
      return { kind: DebugRecordKind.Declare, location, variable, expression, debugLoc };
    case FunctionCode.DebugRecordAssign:
      return {
        kind: DebugRecordKind.Assign,
        location,
        variable,
        expression,
        debugLoc,
        assignId: md(s, 4),
        addressExpression: md(s, 5),
        address: md(s, 6),
      };
    default:
      return { kind: DebugRecordKind.Value, location, variable, expression, debugLoc };
  }
}
