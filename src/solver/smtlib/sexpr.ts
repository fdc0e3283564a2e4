/**
 * Reading what an SMT-LIB2 solver prints: a sequence of S-expressions (`sat`, `unsat`,
 * `(error "...")`, get-value lists), and bit-vector / Bool values in the notations solvers
 * use (#x…, #b…, (_ bvN w), true/false).
 */

export type SExpr = string | SExpr[];

export class SExprSyntaxError extends Error {}

/** Every S-expression in `text`, in order. Strings keep their quotes, |symbols| their bars. */
export function parseSExprs(text: string): SExpr[] {
  const out: SExpr[] = [];
  const stack: SExpr[][] = [];
  let i = 0;
  const push = (e: SExpr): void => {
    if (stack.length > 0) stack[stack.length - 1]!.push(e);
    else out.push(e);
  };
  while (i < text.length) {
    const c = text[i]!;
    if (c === ' ' || c === '\n' || c === '\t' || c === '\r') {
      i++;
    } else if (c === ';') {
      while (i < text.length && text[i] !== '\n') i++;
    } else if (c === '(') {
      stack.push([]);
      i++;
    } else if (c === ')') {
      const l = stack.pop();
      if (l === undefined) throw new SExprSyntaxError(`unbalanced ')' in solver output`);
      push(l);
      i++;
    } else if (c === '"') {
      let j = i + 1;
      for (;;) {
        if (j >= text.length) throw new SExprSyntaxError('unterminated string in solver output');
        if (text[j] === '"') {
          if (text[j + 1] === '"') j += 2;
          else break;
        } else j++;
      }
      push(text.slice(i, j + 1));
      i = j + 1;
    } else if (c === '|') {
      const j = text.indexOf('|', i + 1);
      if (j < 0) throw new SExprSyntaxError('unterminated |symbol| in solver output');
      push(text.slice(i, j + 1));
      i = j + 1;
    } else {
      let j = i;
      while (j < text.length && !' \n\t\r()";|'.includes(text[j]!)) j++;
      push(text.slice(i, j));
      i = j;
    }
  }
  if (stack.length > 0) throw new SExprSyntaxError('unbalanced "(" in solver output');
  return out;
}

/** The value of a bit-vector or Bool literal as printed by a solver (Bool: 1n/0n). */
export function literalValue(e: SExpr): bigint {
  if (typeof e === 'string') {
    if (e === 'true') return 1n;
    if (e === 'false') return 0n;
    if (e.startsWith('#x')) return BigInt(`0x${e.slice(2)}`);
    if (e.startsWith('#b')) return BigInt(`0b${e.slice(2)}`);
  } else if (e.length === 3 && e[0] === '_' && typeof e[1] === 'string' && e[1].startsWith('bv')) {
    return BigInt(e[1].slice(2));
  }
  throw new SExprSyntaxError(`not a bit-vector value: ${show(e)}`);
}

export function show(e: SExpr): string {
  return typeof e === 'string' ? e : `(${e.map(show).join(' ')})`;
}

/** The message of an `(error "...")` reply, or null. */
export function errorMessage(e: SExpr): string | null {
  if (Array.isArray(e) && e[0] === 'error') {
    const m = e[1];
    return typeof m === 'string' ? m.replace(/^"|"$/g, '').replace(/""/g, '"') : show(e);
  }
  return null;
}
