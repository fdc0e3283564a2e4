/**
 * x86-64 inline assembly lifted to expressions: the integer instructions that C code uses
 * inline asm for (GMP's and gnulib's longlong.h: mul/div of a double word, add/adc and
 * sub/sbb chains, bsf/bsr; bswap, shifts, moves), on register and immediate operands. KLEE
 * rejects all inline assembly but a few patterns LLVM can raise; here a template of such
 * instructions is parsed once into a small program over "locations" (the operands and the
 * named registers it uses) and run on concrete or symbolic values, the carry flag included.
 * A template with anything else (memory operands, other flags, system instructions) is
 * reported as unsupported, with the instruction that stopped it.
 */
import { builder as b } from '../expr/builder.js';
import { constantFromBV, type Expr } from '../expr/expr.js';
import { AsmDialect, type InlineAsm } from '../ir/constants.js';
import type { Type } from '../ir/types.js';

/** A value in a 64-bit location, read or written through a view of `width` bits. */
export type AsmOperand = { kind: 'loc'; loc: number; width: number } | { kind: 'imm'; value: bigint };

export interface AsmInsn {
  readonly op: string;
  /** Operation width in bits (8, 16, 32 or 64). */
  readonly width: number;
  readonly ops: AsmOperand[];
  readonly text: string;
}

export interface AsmProgram {
  readonly locs: number;
  /** For each call argument, the location it is placed in (its value zero-extended). */
  readonly inputs: number[];
  /** Result values: the location and the IR width of each output, in order. */
  readonly outputs: { loc: number; width: number }[];
  readonly insns: AsmInsn[];
}

/** `%eax` → { reg: 'ax', width: 32 }; constraint names (`{ax}`) use the same short names. */
function registerOf(name: string): { reg: string; width: number } | null {
  const n = name.toLowerCase();
  let m = /^r(\d+)([dwb]?)$/.exec(n);
  if (m !== null && Number(m[1]) >= 8 && Number(m[1]) <= 15) {
    return { reg: `r${m[1]}`, width: m[2] === 'd' ? 32 : m[2] === 'w' ? 16 : m[2] === 'b' ? 8 : 64 };
  }
  m = /^([re]?)(ax|bx|cx|dx|si|di|bp)$/.exec(n);
  if (m !== null) return { reg: m[2]!, width: m[1] === 'r' ? 64 : m[1] === 'e' ? 32 : 16 };
  m = /^([abcd])l$/.exec(n);
  if (m !== null) return { reg: `${m[1]}x`, width: 8 };
  m = /^(si|di|bp)l$/.exec(n);
  if (m !== null) return { reg: m[1]!, width: 8 };
  return null;
}

const SUFFIX_WIDTH: Record<string, number> = { b: 8, w: 16, l: 32, q: 64 };
const TWO_OPERAND = new Set(['mov', 'add', 'adc', 'sub', 'sbb', 'and', 'or', 'xor', 'cmp', 'test', 'bsf', 'bsr', 'xchg', 'lzcnt', 'tzcnt', 'popcnt', 'shl', 'sal', 'shr', 'sar', 'rol', 'ror', 'imul']);
const ONE_OPERAND = new Set(['mul', 'imul', 'div', 'idiv', 'neg', 'not', 'inc', 'dec', 'bswap', 'shl', 'sal', 'shr', 'sar', 'rol', 'ror']);
const NO_OPERAND = new Set(['nop', 'pause', 'clc', 'stc', 'cmc', 'mfence', 'lfence', 'sfence']);
/** Mnemonics whose names end in a letter that is not a size suffix. */
const WHOLE = new Set(['sub', 'sbb', 'sal', 'shl', 'bsf', 'bswap', 'mul', 'imul', 'div', 'idiv', 'neg', 'not', 'inc', 'dec', 'add', 'adc', 'and', 'or', 'xor', 'cmp', 'test', 'mov', 'xchg', 'rol', 'ror', 'shr', 'sar', 'bsr', 'lzcnt', 'tzcnt', 'popcnt', 'nop', 'pause', 'clc', 'stc', 'cmc', 'mfence', 'lfence', 'sfence']);

/** A compiled template, or the reason it cannot be lifted. */
export function compileAsm(asm: InlineAsm, argTypes: Type[], resultType: Type): AsmProgram | string {
  if (asm.dialect !== AsmDialect.ATT) return 'Intel syntax';
  const names = new Map<string, number>();
  const loc = (key: string): number => {
    let l = names.get(key);
    if (l === undefined) names.set(key, (l = names.size));
    return l;
  };
  const outTypes = resultType.isVoid() ? [] : resultType.isStruct() ? resultType.elements : [resultType];
  const operandLoc: number[] = []; // template operand number → location
  const operandWidth: number[] = [];
  const inputs: number[] = [];
  const outputs: { loc: number; width: number }[] = [];
  for (const raw of asm.constraints.split(',')) {
    const c = raw.trim();
    if (c.startsWith('~')) continue;
    if (c.startsWith('=')) {
      const body = c.replace(/^=&?/, '');
      const t = outTypes[outputs.length];
      if (t === undefined || !t.isInteger()) return `output constraint "${c}"`;
      const reg = /^\{(\w+)\}$/.exec(body);
      let l: number;
      if (reg !== null) {
        const r = registerOf(reg[1]!);
        if (r === null) return `register "${reg[1]}"`;
        l = loc(r.reg);
      } else if (/^[rqQgR]+$/.test(body)) l = loc(`op${operandLoc.length}`);
      else return `output constraint "${c}"`;
      operandLoc.push(l);
      operandWidth.push(t.bits);
      outputs.push({ loc: l, width: t.bits });
      continue;
    }
    if (c.startsWith('*')) return `memory operand "${c}"`;
    const body = c.replace(/^%/, '');
    const t = argTypes[inputs.length];
    if (t === undefined || !t.isInteger()) return `input constraint "${c}"`;
    let l: number;
    if (/^\d+$/.test(body)) {
      const tied = operandLoc[Number(body)];
      if (tied === undefined) return `input constraint "${c}"`;
      l = tied;
    } else {
      const reg = /^\{(\w+)\}$/.exec(body);
      if (reg !== null) {
        const r = registerOf(reg[1]!);
        if (r === null) return `register "${reg[1]}"`;
        l = loc(r.reg);
      } else if (/^[rmeiZnqQgR]+$/.test(body)) l = loc(`op${operandLoc.length}`);
      else return `input constraint "${c}"`;
    }
    operandLoc.push(l);
    operandWidth.push(t.bits);
    inputs.push(l);
  }
  if (outputs.length !== outTypes.length || inputs.length !== argTypes.length) return 'operand count';

  const insns: AsmInsn[] = [];
  const text = asm.asm.replace(/#[^\n]*/g, '');
  for (const line of text.split(/[\n;]/)) {
    const s = line.trim();
    if (s === '') continue;
    const insn = parseInsn(s, (n, mod) => {
      const l = operandLoc[n];
      if (l === undefined) return null;
      const w = mod === 'q' ? 64 : mod === 'k' ? 32 : mod === 'w' ? 16 : mod === 'b' ? 8 : mod === '' ? operandWidth[n]! : -1;
      return w < 0 ? null : { kind: 'loc', loc: l, width: w };
    }, (r) => loc(r));
    if (typeof insn === 'string') return insn;
    insns.push(insn);
  }
  return { locs: names.size, inputs, outputs, insns };
}

type OperandRef = (n: number, mod: string) => AsmOperand | null;

function parseInsn(s: string, operand: OperandRef, regLoc: (reg: string) => number): AsmInsn | string {
  const sp = /^(?:lock\s+)?([a-z]+)\s*(.*)$/i.exec(s);
  if (sp === null) return `"${s}"`;
  let op = sp[1]!.toLowerCase();
  let width = 0;
  if (!WHOLE.has(op) && SUFFIX_WIDTH[op.slice(-1)] !== undefined && WHOLE.has(op.slice(0, -1))) {
    width = SUFFIX_WIDTH[op.slice(-1)]!;
    op = op.slice(0, -1);
  }
  const args = sp[2]!.trim() === '' ? [] : sp[2]!.split(',').map((a) => a.trim());
  const ops: AsmOperand[] = [];
  for (const a of args) {
    let m = /^\$\{(\d+)(?::([a-zA-Z]))?\}$/.exec(a) ?? /^\$(\d+)$/.exec(a);
    if (m !== null) {
      const o = operand(Number(m[1]), m[2] ?? '');
      if (o === null) return `operand "${a}" in "${s}"`;
      ops.push(o);
      continue;
    }
    m = /^\$\$(-?(?:0x[0-9a-f]+|\d+))$/i.exec(a);
    if (m !== null) {
      ops.push({ kind: 'imm', value: BigInt(m[1]!) });
      continue;
    }
    m = /^%(\w+)$/.exec(a);
    const r = m !== null ? registerOf(m[1]!) : null;
    if (r === null) return `operand "${a}" in "${s}"`;
    ops.push({ kind: 'loc', loc: regLoc(r.reg), width: r.width });
  }
  const n = ops.length;
  const known = (n === 0 && NO_OPERAND.has(op)) || (n === 1 && ONE_OPERAND.has(op)) || (n === 2 && TWO_OPERAND.has(op)) || (n === 3 && op === 'imul');
  if (!known) return `"${s}"`;
  if (width === 0) {
    const l = ops.find((o) => o.kind === 'loc') as { width: number } | undefined;
    width = l?.width ?? 64;
  }
  if (op === 'mul' || op === 'div' || op === 'idiv' || (op === 'imul' && n === 1)) {
    if (width === 8) return `"${s}" (8-bit form)`;
    if (op === 'imul') op = 'imul1';
    // implicit operands: the double word lives in rdx:rax
    ops.push({ kind: 'loc', loc: regLoc('ax'), width }, { kind: 'loc', loc: regLoc('dx'), width });
  }
  return { op, width, ops, text: s };
}

// ---------------------------------------------------------------- running a program

/** What running a program needs from the engine: values in, a check that may end the path. */
export interface AsmMachine {
  /** Continue only where `bad` is false; `false` when no state is left to continue. */
  check(bad: Expr, kind: 'div-zero' | 'div-overflow'): boolean;
}

function cst(v: bigint, w: number): Expr {
  const m = BigInt.asUintN(w, v);
  return constantFromBV(w <= 32 ? Number(m) : m, w);
}

function fit(x: Expr, w: number): Expr {
  return x.width === w ? x : x.width > w ? b.extract(x, 0, w) : b.zext(x, w);
}

/** Run `prog` on argument expressions; the output expressions, or null when the path ended. */
export function runAsm(prog: AsmProgram, args: Expr[], m: AsmMachine): Expr[] | null {
  const regs: Expr[] = new Array<Expr>(prog.locs).fill(cst(0n, 64));
  prog.inputs.forEach((l, i) => {
    regs[l] = fit(args[i]!, 64);
  });
  let cf: Expr = cst(0n, 1);
  const read = (o: AsmOperand, w: number): Expr => (o.kind === 'imm' ? cst(o.value, w) : fit(regs[o.loc]!, w));
  const write = (o: AsmOperand, v: Expr): void => {
    if (o.kind !== 'loc') throw new Error('inline asm: write to an immediate');
    const old = regs[o.loc]!;
    // 32-bit writes clear the upper half; 8- and 16-bit writes keep it (x86-64)
    regs[o.loc] = v.width >= 32 ? fit(v, 64) : b.concat(b.extract(old, v.width, 64 - v.width), v);
  };
  for (const ins of prog.insns) {
    const w = ins.width;
    const [src, dst] = ins.ops.length >= 2 ? [ins.ops[0]!, ins.ops[1]!] : [ins.ops[0]!, ins.ops[0]!];
    const w1 = w + 1;
    switch (ins.op) {
      case 'nop': case 'pause': case 'mfence': case 'lfence': case 'sfence':
        break;
      case 'clc': cf = cst(0n, 1); break;
      case 'stc': cf = cst(1n, 1); break;
      case 'cmc': cf = b.xor(cf, cst(1n, 1)); break;
      case 'mov': write(dst, read(src, w)); break;
      case 'xchg': {
        const x = read(src, w);
        write(src, read(dst, w));
        write(dst, x);
        break;
      }
      case 'add': case 'adc': {
        let sum = b.add(b.zext(read(dst, w), w1), b.zext(read(src, w), w1));
        if (ins.op === 'adc') sum = b.add(sum, b.zext(cf, w1));
        cf = b.extract(sum, w, 1);
        write(dst, b.extract(sum, 0, w));
        break;
      }
      case 'sub': case 'sbb': case 'cmp': {
        let diff = b.sub(b.zext(read(dst, w), w1), b.zext(read(src, w), w1));
        if (ins.op === 'sbb') diff = b.sub(diff, b.zext(cf, w1));
        cf = b.extract(diff, w, 1);
        if (ins.op !== 'cmp') write(dst, b.extract(diff, 0, w));
        break;
      }
      case 'and': case 'or': case 'xor': case 'test': {
        const x = read(dst, w);
        const y = read(src, w);
        cf = cst(0n, 1);
        if (ins.op !== 'test') write(dst, ins.op === 'and' ? b.and(x, y) : ins.op === 'or' ? b.or(x, y) : b.xor(x, y));
        break;
      }
      case 'neg': {
        const x = read(dst, w);
        cf = b.ne(x, cst(0n, w));
        write(dst, b.sub(cst(0n, w), x));
        break;
      }
      case 'not': write(dst, b.xor(read(dst, w), cst(-1n, w))); break;
      case 'inc': write(dst, b.add(read(dst, w), cst(1n, w))); break;
      case 'dec': write(dst, b.sub(read(dst, w), cst(1n, w))); break;
      case 'bswap': {
        const x = read(dst, w);
        let r = b.extract(x, 0, 8);
        for (let i = 8; i < w; i += 8) r = b.concat(r, b.extract(x, i, 8));
        write(dst, r);
        break;
      }
      case 'bsf': case 'bsr': case 'tzcnt': case 'lzcnt': case 'popcnt': {
        const x = read(src, w);
        const old = read(dst, w);
        const r = bitScan(ins.op, x, w);
        // bsf/bsr leave the destination as it was on a zero source (what CPUs do)
        write(dst, ins.op === 'bsf' || ins.op === 'bsr' ? b.select(b.eq(x, cst(0n, w)), old, r) : r);
        cf = ins.op === 'popcnt' ? cst(0n, 1) : b.eq(x, cst(0n, w));
        break;
      }
      case 'shl': case 'sal': case 'shr': case 'sar': case 'rol': case 'ror': {
        const count = ins.ops.length === 1 ? cst(1n, w) : b.and(read(src, w), cst(w === 64 ? 63n : 31n, w));
        const x = read(dst, w);
        let r: Expr;
        if (ins.op === 'rol' || ins.op === 'ror') {
          const k = b.urem(count, cst(BigInt(w), w));
          const back = b.sub(cst(BigInt(w), w), k);
          const l = ins.op === 'rol' ? b.shl(x, k) : b.lshr(x, k);
          const h = ins.op === 'rol' ? b.lshr(x, back) : b.shl(x, back);
          r = b.select(b.eq(k, cst(0n, w)), x, b.or(l, h));
        } else r = ins.op === 'shr' ? b.lshr(x, count) : ins.op === 'sar' ? b.ashr(x, count) : b.shl(x, count);
        write(dst, r); // (the carry flag after a shift is not modelled: no template here reads it)
        break;
      }
      case 'imul': {
        // the two- and three-operand forms: a product truncated to w bits
        const y = ins.ops.length === 3 ? read(ins.ops[1]!, w) : read(dst, w);
        write(ins.ops.length === 3 ? ins.ops[2]! : dst, b.mul(read(src, w), y));
        break;
      }
      case 'mul': case 'imul1': {
        const signed = ins.op === 'imul1';
        const ext = (e: Expr): Expr => (signed ? b.sext(e, 2 * w) : b.zext(e, 2 * w));
        const p = b.mul(ext(read(ins.ops[1]!, w)), ext(read(src, w)));
        const lo = b.extract(p, 0, w);
        const hi = b.extract(p, w, w);
        write(ins.ops[1]!, lo);
        write(ins.ops[2]!, hi);
        cf = signed ? b.ne(b.sext(lo, 2 * w), p) : b.ne(hi, cst(0n, w));
        break;
      }
      case 'div': case 'idiv': {
        const signed = ins.op === 'idiv';
        const d = read(src, w);
        if (!m.check(b.eq(d, cst(0n, w)), 'div-zero')) return null;
        const n = b.concat(read(ins.ops[2]!, w), read(ins.ops[1]!, w));
        const d2 = signed ? b.sext(d, 2 * w) : b.zext(d, 2 * w);
        const q = signed ? b.sdiv(n, d2) : b.udiv(n, d2);
        const r = signed ? b.srem(n, d2) : b.urem(n, d2);
        // a quotient that does not fit in w bits is the same #DE fault as a zero divisor
        const fits = signed ? b.eq(b.sext(b.extract(q, 0, w), 2 * w), q) : b.eq(b.extract(q, w, w), cst(0n, w));
        if (!m.check(b.not(fits), 'div-overflow')) return null;
        write(ins.ops[1]!, b.extract(q, 0, w));
        write(ins.ops[2]!, b.extract(r, 0, w));
        break;
      }
      default:
        throw new Error(`inline asm: no semantics for ${ins.op}`);
    }
  }
  return prog.outputs.map((o) => fit(regs[o.loc]!, o.width));
}

function bitScan(op: string, x: Expr, w: number): Expr {
  if (op === 'popcnt') {
    let r = cst(0n, w);
    for (let i = 0; i < w; i++) r = b.add(r, b.zext(b.extract(x, i, 1), w));
    return r;
  }
  // index of the lowest (bsf/tzcnt) or highest (bsr) set bit; lzcnt counts from the top
  const low = op === 'bsf' || op === 'tzcnt';
  let r = cst(BigInt(op === 'lzcnt' || op === 'tzcnt' ? w : 0), w);
  for (let k = 0; k < w; k++) {
    const i = low ? w - 1 - k : k;
    const val = op === 'lzcnt' ? BigInt(w - 1 - i) : BigInt(i);
    r = b.select(b.eq(b.extract(x, i, 1), cst(1n, 1)), cst(val, w), r);
  }
  return r;
}

