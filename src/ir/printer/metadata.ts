/** Metadata printing: operands (`!5`, `!"str"`, `i32 0`, inline `!DIExpression(…)`) and `!N = …` bodies. */
import {
  MDKind,
  formatDIExpression,
  type DIArgList,
  type DICompileUnit,
  type DIExpression,
  type DIFile,
  type DILocalVariable,
  type DILocation,
  type DISubprogram,
  type GenericMDNode,
  type MDString,
  type MDTuple,
  type Metadata,
  type ValueAsMetadata,
} from '../metadata.js';
import type { PrintContext } from './context.js';
import { formatTypedValue } from './constants.js';
import { escapeString } from './names.js';
import { Fields } from './fields.js';
import { formatDINode } from './di-nodes.js';

/** Metadata written where an operand is expected. */
export function formatMetadataOperand(ctx: PrintContext, md: Metadata | null): string {
  if (!md) return 'null';
  switch (md.mdkind) {
    case MDKind.Expression:
      return formatDIExpression(md as DIExpression);
    case MDKind.ArgList:
      return `!DIArgList(${(md as DIArgList).args.map((a) => formatMetadataOperand(ctx, a)).join(', ')})`;
    case MDKind.String:
      return `!"${escapeString((md as MDString).value)}"`;
    case MDKind.Value:
      return formatTypedValue(ctx, (md as ValueAsMetadata).value);
    case MDKind.ForwardRef:
      return '<badref>';
    default: {
      const slot = ctx.slots.metadataSlot(md);
      if (slot >= 0) return `!${slot}`;
      return md.mdkind === MDKind.Location ? formatLocation(ctx, md as DILocation) : '<badref>';
    }
  }
}

function fields(ctx: PrintContext): Fields {
  return new Fields((m) => formatMetadataOperand(ctx, m));
}

/** `!DILocation(line: 3, column: 7, scope: !5)`: built directly, it is the most common node. */
function formatLocation(ctx: PrintContext, loc: DILocation): string {
  let s = `!DILocation(line: ${loc.line}`;
  if (loc.column) s += `, column: ${loc.column}`;
  s += `, scope: ${formatMetadataOperand(ctx, loc.scope)}`;
  if (loc.inlinedAt) s += `, inlinedAt: ${formatMetadataOperand(ctx, loc.inlinedAt)}`;
  if (loc.implicitCode) s += ', isImplicitCode: true';
  return s + ')';
}

function formatTuple(ctx: PrintContext, t: MDTuple): string {
  return `!{${t.ops.map((op) => formatMetadataOperand(ctx, op)).join(', ')}}`;
}

function formatGeneric(ctx: PrintContext, n: GenericMDNode): string {
  const parts = n.rawOps.map((op, i) => {
    const ref = n.refs[i];
    if (ref !== undefined) return formatMetadataOperand(ctx, ref);
    return String(n.big?.get(i) ?? op);
  });
  return `!${n.nodeName}(${parts.join(', ')})`;
}

/** The right-hand side of a `!N = …` line. */
export function formatMetadataNode(ctx: PrintContext, md: Metadata): string {
  const prefix = md.distinct ? 'distinct ' : '';
  const di = formatDINode(md, (m) => formatMetadataOperand(ctx, m), ctx.llvmVersion);
  if (di !== null) return prefix + di;
  switch (md.mdkind) {
    case MDKind.Tuple:
      return prefix + formatTuple(ctx, md as MDTuple);
    case MDKind.Location:
      return prefix + formatLocation(ctx, md as DILocation);
    case MDKind.File: {
      const f = md as DIFile;
      return `${prefix}!DIFile(${fields(ctx).str('filename', f.filename, false).str('directory', f.directory, false)})`;
    }
    case MDKind.CompileUnit: {
      const cu = md as DICompileUnit;
      const f = fields(ctx).int('language', cu.language, false).md('file', cu.file, false).str('producer', cu.producer);
      return `${prefix}!DICompileUnit(${f})`;
    }
    case MDKind.Subprogram: {
      const sp = md as DISubprogram;
      const f = fields(ctx).str('name', sp.name).str('linkageName', sp.linkageName).md('scope', sp.scope, false);
      f.md('file', sp.file).int('line', sp.line).int('scopeLine', sp.scopeLine).md('unit', sp.unit);
      return `${prefix}!DISubprogram(${f})`;
    }
    case MDKind.LocalVariable: {
      const v = md as DILocalVariable;
      const f = fields(ctx).str('name', v.name).int('arg', v.arg).md('scope', v.scope, false).md('file', v.file);
      f.int('line', v.line);
      return `${prefix}!DILocalVariable(${f})`;
    }
    case MDKind.Generic:
      return prefix + formatGeneric(ctx, md as GenericMDNode);
    default:
      return formatMetadataOperand(ctx, md);
  }
}
