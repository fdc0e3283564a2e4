/**
 * A compact, KQuery-like printer for messages and debugging:
 *   (Add w32 3 (ZExt w32 (Read w8 0 x)))
 * Constants print bare where the width is evident from the operator, as `(w8 5)` otherwise,
 * and booleans as true/false. Subterms that occur more than once are labelled on first use
 * (`N0:(...)`, later `N0`), shared update-list tails likewise (`U0:`), so hash-consed DAGs
 * print in linear size. Updates print newest first: `[idx=value, ...] @ array`.
 */
import { UpdateNode, type ExprArray } from './array.js';
import type { ConstantExpr, Expr } from './expr.js';
import { ExprKind, kindName } from './kinds.js';
import { walkDag, type Vertex } from './traverse.js';

type Item = string | { e: Expr; implied: boolean } | UpdateNode;

function constText(e: ConstantExpr, implied: boolean): string {
  if (e.width === 1) return e.bv === 1 ? 'true' : 'false';
  return implied ? e.value.toString() : `(w${e.width} ${e.value})`;
}

export function printKQuery(root: Expr): string {
  return printKQueryRoots([root])[0]!;
}

/**
 * Several expressions printed as one text would be (KLEE's query printer): a subterm that
 * occurs more than once anywhere is labelled where it is first printed and referred to by
 * its label after. `arrays` receives the arrays read, in order of first appearance.
 */
export function printKQueryRoots(roots: readonly Expr[], arrays?: Set<ExprArray>): string[] {
  const count = new Map<Vertex, number>();
  const nonConst = roots.filter((r) => r.kind !== ExprKind.Constant);
  if (nonConst.length > 0) {
    walkDag(nonConst, { edge: (c) => void count.set(c, (count.get(c) ?? 0) + 1) });
    // a root counts as one more occurrence: labelled when it is also another's subterm
    for (const r of nonConst) count.set(r, (count.get(r) ?? 0) + 1);
  }
  const labels = new Map<Vertex, string>();
  const counter = { n: 0, u: 0 };
  return roots.map((root) => printOne(root, count, labels, counter, arrays));
}

function printOne(root: Expr, count: Map<Vertex, number>, labels: Map<Vertex, string>, counter: { n: number; u: number }, arrays: Set<ExprArray> | undefined): string {
  const out: string[] = [];
  const stack: Item[] = [{ e: root, implied: false }];
  while (stack.length > 0) {
    const it = stack.pop()!;
    if (typeof it === 'string') {
      out.push(it);
      continue;
    }
    if (it instanceof UpdateNode) {
      const label = labels.get(it);
      if (label !== undefined) {
        out.push(label);
        continue;
      }
      if ((count.get(it) ?? 0) > 1) {
        const l = `U${counter.u++}`;
        labels.set(it, l);
        out.push(`${l}:`);
      }
      if (it.next !== null) stack.push(it.next, ', ');
      stack.push({ e: it.value, implied: true }, '=', { e: it.index, implied: true });
      continue;
    }
    const e = it.e;
    if (e.kind === ExprKind.Constant) {
      out.push(constText(e, it.implied));
      continue;
    }
    if ((count.get(e) ?? 0) > 1 && e.kind !== ExprKind.BoundVar) {
      const label = labels.get(e);
      if (label !== undefined) {
        out.push(label);
        continue;
      }
      const l = `N${counter.n++}`;
      labels.set(e, l);
      out.push(`${l}:`);
    }
    const head = `(${kindName(e.kind)}`;
    const w = ` w${e.width} `;
    switch (e.kind) {
      case ExprKind.BoundVar:
        out.push(`i${e.varId}`);
        break;
      case ExprKind.Forall:
        stack.push(')', { e: e.body, implied: true }, ' ', { e: e.upper, implied: true }, `${head} i${e.bound.varId} w${e.bound.width} `);
        break;
      case ExprKind.Read:
        arrays?.add(e.updates.root);
        if (e.updates.head === null) {
          stack.push(` ${e.updates.root.name})`, { e: e.index, implied: true }, `${head}${w}`);
        } else {
          stack.push(`] @ ${e.updates.root.name})`, e.updates.head, ' [', { e: e.index, implied: true }, `${head}${w}`);
        }
        break;
      case ExprKind.Select:
        stack.push(')', { e: e.falseExpr, implied: true }, ' ', { e: e.trueExpr, implied: true }, ' ');
        stack.push({ e: e.cond, implied: true }, `${head}${w}`);
        break;
      case ExprKind.Concat:
        stack.push(')', { e: e.right, implied: false }, ' ', { e: e.left, implied: false }, `${head}${w}`);
        break;
      case ExprKind.Extract:
        stack.push(')', { e: e.expr, implied: false }, `${head}${w}${e.offset} `);
        break;
      case ExprKind.ZExt:
      case ExprKind.SExt:
        stack.push(')', { e: e.expr, implied: false }, `${head}${w}`);
        break;
      case ExprKind.Not:
        stack.push(')', { e: e.expr, implied: true }, `${head}${w}`);
        break;
      default: {
        const cmp = e.kind >= ExprKind.Eq;
        // Comparisons carry no width: a constant operand needs one unless the other has it.
        const lImplied = !cmp || e.right.kind !== ExprKind.Constant;
        const rImplied = !cmp || e.left.kind !== ExprKind.Constant;
        stack.push(')', { e: e.right, implied: rImplied }, ' ', { e: e.left, implied: lImplied });
        stack.push(cmp ? `${head} ` : `${head}${w}`);
      }
    }
  }
  return out.join('');
}

/**
 * A path condition as a KQuery file, as KLEE's --write-kqueries writes it: the arrays it
 * reads (`array x[4] : w32 -> w8 = symbolic`, a constant array with its bytes), then
 * `(query [constraints] false)` with labels shared between the constraints.
 */
export function printKQueryFile(constraints: readonly Expr[]): string {
  const arrays = new Set<ExprArray>();
  const texts = printKQueryRoots(constraints, arrays);
  let out = '';
  for (const a of arrays) {
    const values = a.constantValues === null ? 'symbolic' : `[${Array.from(a.constantValues).join(' ')}]`;
    out += `array ${a.name}[${a.size}] : w${a.domain} -> w${a.range} = ${values}\n`;
  }
  return `${out}(query [${texts.join('\n        ')}]\n        false)\n`;
}
