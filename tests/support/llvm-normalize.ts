/**
 * Normalisation of LLVM textual IR for differential testing of the disassembler.
 *
 * `functionBodies(text)` extracts every defined function and turns its body into a list
 * of normalised lines, so that two printers of the same module (llvm-dis and ours) can be
 * compared line by line without caring about things that do not change the meaning:
 *
 *  - blank lines and `; …` comments (including `; preds = …`) are dropped;
 *  - multi-line instructions (`switch … [ … ]`, `invoke`/`callbr` with `to label …` on the
 *    next line, `landingpad` clauses) are joined into one line;
 *  - metadata attachments (`, !dbg !12`, `, !tbaa !5`, `!llvm.loop !{…}`, …) are removed;
 *  - metadata references that remain in operands (`metadata !12`, the `!26` of a
 *    `#dbg_declare(…)` record) are renumbered `!m0, !m1, …` by first appearance;
 *  - local values and block labels (`%0`, `%x.addr`, `%"a b"`, `12:`, `bb.name:`) are
 *    renamed `%v0, %v1, …` by first appearance, seeded with the parameter list so that
 *    swapped parameters are still detected; named types (`%struct.foo`) are left alone;
 *  - attributes are stripped: attribute groups `#N`, parameter and return attributes
 *    (noundef, nonnull, byval(<ty>), align N inside call argument lists, …). `align N` on
 *    load/store/alloca/cmpxchg/atomicrmw is part of the instruction and is kept, as are
 *    `tail`/`musttail`/`notail`, calling conventions, fast-math and wrap flags;
 *  - runs of whitespace collapse to a single space.
 *
 * Debug records (`#dbg_value(…)`, `#dbg_declare(…)`, `#dbg_assign(…)`, `#dbg_label(…)`)
 * and debug intrinsic calls are kept as lines.
 */

/** Parameter/return attributes that are removed wherever they appear as a bare word. */
const PARAM_ATTRS = new Set([
  'allocalign',
  'allocptr',
  'dead_on_return',
  'dead_on_unwind',
  'immarg',
  'inreg',
  'nest',
  'noalias',
  'nocapture',
  'noext',
  'nofree',
  'nonnull',
  'noundef',
  'readnone',
  'readonly',
  'returned',
  'signext',
  'swiftasync',
  'swifterror',
  'swiftself',
  'writable',
  'writeonly',
  'zeroext',
]);

/** Attributes that take a parenthesised argument, e.g. `byval(%struct.s)`, `range(i32 0, 8)`. */
const PARAM_ATTRS_WITH_ARG = new Set([
  'alignstack',
  'byref',
  'byval',
  'captures',
  'dereferenceable',
  'dereferenceable_or_null',
  'elementtype',
  'inalloca',
  'initializes',
  'nofpclass',
  'preallocated',
  'range',
  'sret',
]);

type TokKind = 'ws' | 'str' | 'local' | 'global' | 'mdref' | 'mdname' | 'attrgrp' | 'word' | 'punct';
interface Tok {
  kind: TokKind;
  text: string;
}

const IDENT_CHAR = /[-A-Za-z0-9$._]/;

function scanQuoted(line: string, start: number): number {
  // `start` is at the opening quote; LLVM escapes `"` as `\22`, so the next quote closes.
  const end = line.indexOf('"', start + 1);
  return end < 0 ? line.length : end + 1;
}

function scanIdent(line: string, start: number): number {
  let i = start;
  while (i < line.length && IDENT_CHAR.test(line[i])) i++;
  return i;
}

/** Splits one line of IR into tokens; stops at a `;` comment. */
function tokenize(line: string): Tok[] {
  const toks: Tok[] = [];
  let i = 0;
  while (i < line.length) {
    const c = line[i];
    if (c === ';') break;
    if (c === ' ' || c === '\t') {
      let j = i + 1;
      while (j < line.length && (line[j] === ' ' || line[j] === '\t')) j++;
      toks.push({ kind: 'ws', text: line.slice(i, j) });
      i = j;
      continue;
    }
    if (c === '"') {
      const j = scanQuoted(line, i);
      toks.push({ kind: 'str', text: line.slice(i, j) });
      i = j;
      continue;
    }
    if (c === '%' || c === '@') {
      const kind: TokKind = c === '%' ? 'local' : 'global';
      const j = line[i + 1] === '"' ? scanQuoted(line, i + 1) : scanIdent(line, i + 1);
      toks.push({ kind, text: line.slice(i, j) });
      i = j;
      continue;
    }
    if (c === '!') {
      if (/[0-9]/.test(line[i + 1] ?? '')) {
        let j = i + 1;
        while (j < line.length && /[0-9]/.test(line[j])) j++;
        toks.push({ kind: 'mdref', text: line.slice(i, j) });
        i = j;
        continue;
      }
      if (/[A-Za-z_.]/.test(line[i + 1] ?? '')) {
        const j = scanIdent(line, i + 1);
        toks.push({ kind: 'mdname', text: line.slice(i, j) });
        i = j;
        continue;
      }
      if (line[i + 1] === '"') {
        const j = scanQuoted(line, i + 1);
        toks.push({ kind: 'str', text: line.slice(i, j) });
        i = j;
        continue;
      }
      toks.push({ kind: 'punct', text: c });
      i++;
      continue;
    }
    if (c === '#' && /[0-9]/.test(line[i + 1] ?? '')) {
      let j = i + 1;
      while (j < line.length && /[0-9]/.test(line[j])) j++;
      toks.push({ kind: 'attrgrp', text: line.slice(i, j) });
      i = j;
      continue;
    }
    if (/[A-Za-z0-9_$.#-]/.test(c)) {
      // Words: keywords, types, numbers (incl. 1.0e+00, 0xK…, -5), `#dbg_value`, `c` of c"…".
      let j = i + 1;
      while (j < line.length && /[-A-Za-z0-9_$.+]/.test(line[j])) {
        // a `+`/`-` only continues a number exponent such as 1.0e+00
        if ((line[j] === '+' || line[j] === '-') && !/[eE]/.test(line[j - 1])) break;
        j++;
      }
      if (line[i] === 'c' && j === i + 1 && line[j] === '"') {
        const k = scanQuoted(line, j);
        toks.push({ kind: 'str', text: line.slice(i, k) });
        i = k;
        continue;
      }
      toks.push({ kind: 'word', text: line.slice(i, j) });
      i = j;
      continue;
    }
    toks.push({ kind: 'punct', text: c });
    i++;
  }
  return toks;
}

/** Index of the next non-whitespace token at or after `i`, or -1. */
function nextSig(toks: Tok[], i: number): number {
  for (let j = i; j < toks.length; j++) if (toks[j].kind !== 'ws') return j;
  return -1;
}

/** Given `toks[open]` = `(`, `{` or `[`, returns the index just past the matching closer. */
function skipBalanced(toks: Tok[], open: number): number {
  const pairs: Record<string, string> = { '(': ')', '{': '}', '[': ']', '<': '>' };
  const stack: string[] = [];
  for (let j = open; j < toks.length; j++) {
    const t = toks[j];
    if (t.kind !== 'punct') continue;
    if (pairs[t.text]) stack.push(pairs[t.text]);
    else if (t.text === stack[stack.length - 1]) {
      stack.pop();
      if (stack.length === 0) return j + 1;
    }
  }
  return toks.length;
}

/** Removes metadata attachments: `[,] !kind !N`, `[,] !kind !{…}`, `[,] !kind !"…"`. */
function dropAttachments(toks: Tok[]): Tok[] {
  const out: Tok[] = [];
  for (let i = 0; i < toks.length; i++) {
    const t = toks[i];
    if (t.kind === 'mdname') {
      const after = nextSig(toks, i + 1);
      const isCall = toks[i + 1]?.kind === 'punct' && toks[i + 1].text === '(';
      if (!isCall && after >= 0) {
        const v = toks[after];
        let end = -1;
        if (v.kind === 'mdref' || v.kind === 'str') end = after + 1;
        else if (v.kind === 'punct' && v.text === '!' && toks[after + 1]?.text === '{') end = skipBalanced(toks, after + 1);
        if (end >= 0) {
          // drop a preceding comma (and the whitespace around it)
          while (out.length && out[out.length - 1].kind === 'ws') out.pop();
          if (out.length && out[out.length - 1].kind === 'punct' && out[out.length - 1].text === ',') out.pop();
          i = end - 1;
          continue;
        }
      }
    }
    out.push(t);
  }
  return out;
}

/** True when the instruction on this line is a call-like instruction. */
function isCallLike(toks: Tok[]): boolean {
  const words = toks.filter((t) => t.kind !== 'ws');
  let k = 0;
  if (words[k]?.kind === 'local' && words[k + 1]?.text === '=') k += 2;
  if (['tail', 'musttail', 'notail'].includes(words[k]?.text ?? '')) k++;
  return ['call', 'callbr', 'invoke'].includes(words[k]?.text ?? '');
}

/** Removes attribute groups, parameter/return attributes, and (in calls) `align N`. */
function dropAttributes(toks: Tok[]): Tok[] {
  const callLike = isCallLike(toks);
  const out: Tok[] = [];
  for (let i = 0; i < toks.length; i++) {
    const t = toks[i];
    if (t.kind === 'attrgrp') continue;
    if (t.kind === 'word') {
      if (PARAM_ATTRS.has(t.text)) continue;
      if (PARAM_ATTRS_WITH_ARG.has(t.text) && toks[i + 1]?.kind === 'punct' && toks[i + 1].text === '(') {
        i = skipBalanced(toks, i + 1) - 1;
        continue;
      }
      if (callLike && t.text === 'align') {
        const n = nextSig(toks, i + 1);
        if (n >= 0 && toks[n].kind === 'word' && /^[0-9]+$/.test(toks[n].text)) {
          i = n;
          continue;
        }
      }
      if (callLike && t.text === 'align' && toks[i + 1]?.text === '(') {
        i = skipBalanced(toks, i + 1) - 1;
        continue;
      }
    }
    out.push(t);
  }
  return out;
}

class Renamer {
  private readonly locals = new Map<string, string>();
  private readonly mds = new Map<string, string>();
  constructor(private readonly typeNames: ReadonlySet<string>) {}

  local(name: string): string {
    if (this.typeNames.has(name)) return name;
    let r = this.locals.get(name);
    if (r === undefined) {
      r = `%v${this.locals.size}`;
      this.locals.set(name, r);
    }
    return r;
  }

  md(ref: string): string {
    let r = this.mds.get(ref);
    if (r === undefined) {
      r = `!m${this.mds.size}`;
      this.mds.set(ref, r);
    }
    return r;
  }
}

function render(toks: Tok[], ren: Renamer): string {
  // Drop whitespace that is leading, trailing, doubled, before `,`/`)` or after `(` (such
  // gaps appear where attributes were removed); every other gap becomes one space.
  const sig = toks.filter((t, i) => t.kind !== 'ws' || (i > 0 && toks[i - 1].kind !== 'ws'));
  let s = '';
  for (let i = 0; i < sig.length; i++) {
    const t = sig[i];
    if (t.kind === 'ws') {
      const prev = sig[i - 1];
      const next = sig[i + 1];
      if (!prev || !next || next.kind === 'ws') continue;
      if (next.kind === 'punct' && (next.text === ',' || next.text === ')')) continue;
      if (prev.kind === 'punct' && prev.text === '(') continue;
      s += ' ';
    } else if (t.kind === 'local') s += ren.local(t.text);
    else if (t.kind === 'mdref') s += ren.md(t.text);
    else s += t.text;
  }
  return s;
}

/** Decodes an LLVM identifier (without its sigil) to its unquoted form. */
export function unquoteName(name: string): string {
  if (!name.startsWith('"')) return name;
  const inner = name.slice(1, name.endsWith('"') ? -1 : undefined);
  const bytes: number[] = [];
  for (let i = 0; i < inner.length; i++) {
    if (inner[i] === '\\' && inner[i + 1] === '\\') {
      bytes.push(0x5c);
      i++;
    } else if (inner[i] === '\\' && /^[0-9A-Fa-f]{2}$/.test(inner.slice(i + 1, i + 3))) {
      bytes.push(parseInt(inner.slice(i + 1, i + 3), 16));
      i += 2;
    } else {
      for (const b of Buffer.from(inner[i], 'utf8')) bytes.push(b);
    }
  }
  return Buffer.from(bytes).toString('utf8');
}

/** Named (and numbered) struct types declared in the module: `%struct.foo = type …`. */
function collectTypeNames(lines: string[]): Set<string> {
  const names = new Set<string>();
  for (const line of lines) {
    if (!line.startsWith('%')) continue;
    const toks = tokenize(line);
    const sig = toks.filter((t) => t.kind !== 'ws');
    // Numbered types (`%0 = type …`) share their spelling with numbered values and cannot
    // be told apart by name alone; they are renamed like values (consistently on both sides).
    if (sig[0]?.kind === 'local' && sig[1]?.text === '=' && sig[2]?.text === 'type' && !/^%[0-9]+$/.test(sig[0].text)) {
      names.add(sig[0].text);
    }
  }
  return names;
}

/** Joins instructions that llvm-dis spreads over several lines into one line each. */
function joinContinuations(body: string[]): string[] {
  const out: string[] = [];
  let inSwitch = false;
  for (const raw of body) {
    const line = raw.replace(/\s+$/, '');
    const code = tokenize(line).filter((t) => t.kind !== 'ws');
    if (code.length === 0) continue; // blank or comment-only
    const first = code[0].text;
    if (inSwitch) {
      out[out.length - 1] += ' ' + line.trim();
      if (first === ']') inSwitch = false;
      continue;
    }
    const cont =
      out.length > 0 &&
      (first === 'to' || first === 'unwind' || first === 'catch' || first === 'filter' || first === 'cleanup') &&
      /^\s/.test(line);
    if (cont) {
      out[out.length - 1] += ' ' + line.trim();
      continue;
    }
    out.push(line);
    const last = code[code.length - 1];
    const isSwitch = code.some((t) => t.kind === 'word' && t.text === 'switch');
    if (isSwitch && last.kind === 'punct' && last.text === '[') inSwitch = true;
  }
  return out;
}

/** Parameter names of a `define` line, in order (used to seed the renaming). */
function parameterNames(defineLine: string, fnNameEnd: number): string[] {
  const toks = tokenize(defineLine.slice(fnNameEnd));
  const open = toks.findIndex((t) => t.kind === 'punct' && t.text === '(');
  if (open < 0) return [];
  const close = skipBalanced(toks, open);
  return toks.slice(open, close).filter((t) => t.kind === 'local').map((t) => t.text);
}

interface RawFunction {
  name: string;
  params: string[];
  body: string[];
}

function splitFunctions(text: string): { fns: RawFunction[]; typeNames: Set<string> } {
  const lines = text.split(/\r?\n/);
  const typeNames = collectTypeNames(lines);
  const fns: RawFunction[] = [];
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i];
    if (!line.startsWith('define ')) continue;
    const toks = tokenize(line);
    let nameTok: Tok | undefined;
    let offset = 0;
    let nameEnd = 0;
    for (const t of toks) {
      offset += t.text.length;
      if (t.kind === 'global') {
        nameTok = t;
        nameEnd = offset;
        break;
      }
    }
    if (!nameTok) continue;
    // Tokens are contiguous slices of the line up to the first comment, so offsets match.
    const name = unquoteName(nameTok.text.slice(1));
    const params = parameterNames(line, nameEnd);
    const body: string[] = [];
    let j = i + 1;
    const oneLine = /\{\s*\}\s*$/.test(line); // e.g. `define void @f() { }` (never from llvm-dis)
    if (!oneLine) {
      for (; j < lines.length && !/^\}/.test(lines[j]); j++) body.push(lines[j]);
    }
    fns.push({ name, params, body });
    i = j;
  }
  return { fns, typeNames };
}

/** Normalises one function body (list of raw lines); `params` seeds the renaming. */
export function normalizeBody(body: string[], params: string[] = [], typeNames: ReadonlySet<string> = new Set()): string[] {
  const ren = new Renamer(typeNames);
  for (const p of params) ren.local(p);
  const out: string[] = [];
  for (const line of joinContinuations(body)) {
    let toks = tokenize(line);
    // Block label: `12:`, `bb.name:`, `"quoted name":` at the start of the line.
    const sig = toks.filter((t) => t.kind !== 'ws');
    if (
      !/^\s/.test(line) &&
      sig.length === 2 &&
      (sig[0].kind === 'word' || sig[0].kind === 'str') &&
      sig[1].kind === 'punct' &&
      sig[1].text === ':'
    ) {
      out.push(`${ren.local('%' + sig[0].text).slice(1)}:`);
      continue;
    }
    toks = dropAttachments(toks);
    toks = dropAttributes(toks);
    const s = render(toks, ren);
    if (s) out.push(s);
  }
  return out;
}

/**
 * Maps every defined function's name (unquoted, without `@`: `main`, `with space`) to its
 * normalised body lines. Declarations are ignored.
 */
export function functionBodies(llText: string): Map<string, string[]> {
  const { fns, typeNames } = splitFunctions(llText);
  const out = new Map<string, string[]>();
  for (const f of fns) out.set(f.name, normalizeBody(f.body, f.params, typeNames));
  return out;
}

function clip(s: string | undefined, max = 160): string {
  if (s === undefined) return '<end of function>';
  return s.length > max ? s.slice(0, max - 1) + '…' : s;
}

/**
 * Compares two results of functionBodies(). Returns null when equal, otherwise a short
 * report: missing/extra functions and, for the first differing function, the 1-based line
 * number with the expected and actual lines (plus how many other functions differ).
 */
export function diffBodies(expected: Map<string, string[]>, actual: Map<string, string[]>): string | null {
  const parts: string[] = [];
  const missing = [...expected.keys()].filter((k) => !actual.has(k));
  const extra = [...actual.keys()].filter((k) => !expected.has(k));
  if (missing.length) parts.push(`missing functions: ${missing.map((n) => '@' + n).join(', ')}`);
  if (extra.length) parts.push(`unexpected functions: ${extra.map((n) => '@' + n).join(', ')}`);
  const differing: string[] = [];
  let first: string | null = null;
  for (const [name, exp] of expected) {
    const act = actual.get(name);
    if (!act) continue;
    const n = Math.max(exp.length, act.length);
    for (let i = 0; i < n; i++) {
      if (exp[i] !== act[i]) {
        differing.push(name);
        if (first === null) {
          first =
            `function @${name}, line ${i + 1} of ${exp.length} (actual has ${act.length}):\n` +
            (i > 0 ? `  context:  ${clip(exp[i - 1])}\n` : '') +
            `  expected: ${clip(exp[i])}\n` +
            `  actual:   ${clip(act[i])}`;
        }
        break;
      }
    }
  }
  if (first !== null) {
    parts.push(first);
    if (differing.length > 1) {
      const others = differing.slice(1);
      const shown = others.slice(0, 8).map((n) => '@' + n);
      parts.push(`${others.length} more differing function(s): ${shown.join(', ')}${others.length > 8 ? ', …' : ''}`);
    }
  }
  return parts.length ? parts.join('\n') : null;
}
