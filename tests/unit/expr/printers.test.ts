/** The KQuery-like and SMT-LIB2 printers; SMT-LIB2 output is checked with z3 when installed. */
import { spawnSync } from 'node:child_process';
import {
  builder as b,
  raw,
  ArrayNamer,
  evaluate,
  ExprArray,
  printKQuery,
  smtLibTerm,
  toSmtLib2,
  UpdateList,
  bvLiteral,
  type Expr,
} from '../../../src/expr/index.js';
import { makeArrays, PairGen, randomAssignment, Rng, WIDTHS } from './helpers.js';

const x = new ExprArray('x', 4);
const ux = new UpdateList(x);
const i32 = (n: number) => raw.constant(n, 32);
const rx = (i: number) => raw.read(ux, i32(i));

describe('KQuery-like printer', () => {
  test('basic forms', () => {
    expect(b.add(b.zext(rx(0), 32), b.constant(3, 32)).toString()).toBe('(Add w32 3 (ZExt w32 (Read w8 0 x)))');
    expect(raw.constant(5, 32).toString()).toBe('(w32 5)');
    expect(b.bool(true).toString()).toBe('true');
    expect(raw.eq(raw.constant(3, 8), rx(1)).toString()).toBe('(Eq 3 (Read w8 1 x))');
    expect(raw.eq(rx(1), raw.constant(3, 8)).toString()).toBe('(Eq (Read w8 1 x) 3)');
    expect(raw.eq(raw.constant(3, 8), raw.constant(4, 8)).toString()).toBe('(Eq (w8 3) (w8 4))');
    expect(raw.extract(rx(0), 2, 3).toString()).toBe('(Extract w3 2 (Read w8 0 x))');
    expect(raw.select(raw.ult(rx(0), rx(1)), rx(2), raw.constant(0, 8)).toString()).toBe(
      '(Select w8 (Ult (Read w8 0 x) (Read w8 1 x)) (Read w8 2 x) 0)',
    );
    expect(raw.concat(raw.constant(1, 8), rx(0)).toString()).toBe('(Concat w16 (w8 1) (Read w8 0 x))');
  });
  test('update lists, newest first, shared tails labelled', () => {
    const ul = ux.extend(i32(0), raw.constant(5, 8)).extend(raw.zext(rx(3), 32), rx(2));
    expect(raw.read(ul, i32(1)).toString()).toBe('(Read w8 1 [(ZExt w32 (Read w8 3 x))=(Read w8 2 x), 0=5] @ x)');
    const both = raw.concat(raw.read(ul, i32(1)), raw.read(ul, i32(2)));
    expect(both.toString()).toBe(
      '(Concat w16 (Read w8 1 [U0:(ZExt w32 (Read w8 3 x))=(Read w8 2 x), 0=5] @ x) (Read w8 2 [U0] @ x))',
    );
  });
  test('shared subterms are labelled, so DAGs print in linear size', () => {
    let e: Expr = rx(0);
    for (let i = 0; i < 60; i++) e = raw.add(e, e);
    const s = printKQuery(e);
    expect(s.length).toBeLessThan(60 * 40);
    expect(s.startsWith('(Add w8 N0:(Add w8 N1:')).toBe(true);
  });
});

describe('SMT-LIB2 printer', () => {
  test('a small script', () => {
    const c = b.eq(b.concat(rx(0), rx(0)), b.constant(0x1234, 16));
    const { text, arrayNames } = toSmtLib2([c, b.ult(b.zext(rx(1), 32), b.constant(9, 32))], { getValue: [x] });
    expect(text).toBe(
      [
        '(set-option :produce-models true)',
        '(set-logic QF_ABV)',
        '(declare-fun x () (Array (_ BitVec 32) (_ BitVec 8)))',
        '(assert (let ((t!0 (select x #x00000000))) (= #x1234 (concat t!0 t!0))))',
        '(assert (bvult ((_ zero_extend 24) (select x #x00000001)) #x00000009))',
        '(check-sat)',
        '(get-value ((select x #x00000000) (select x #x00000001) (select x #x00000002) (select x #x00000003)))',
        '',
      ].join('\n'),
    );
    expect(arrayNames.get(x)).toBe('x');
  });
  test('width 1 is Bool; wrapped where a bit-vector is needed', () => {
    const p = raw.eq(rx(0), rx(1));
    expect(smtLibTerm(raw.zext(p, 8))).toBe('((_ zero_extend 7) (ite (= (select x #x00000000) (select x #x00000001)) #b1 #b0))');
    expect(smtLibTerm(raw.extract(rx(0), 7, 1))).toBe('(= ((_ extract 7 7) (select x #x00000000)) #b1)');
    expect(smtLibTerm(raw.add(p, b.bool(true)))).toBe('(= (bvadd (ite (= (select x #x00000000) (select x #x00000001)) #b1 #b0) #b1) #b1)');
    expect(smtLibTerm(raw.and(p, raw.not(p)))).toMatch(/^\(let \(\(t!0 \(= .*\)\)\) \(and t!0 \(not t!0\)\)\)$/);
    expect(smtLibTerm(raw.concat(b.bool(false), rx(0)))).toBe('(concat #b0 (select x #x00000000))');
    expect(smtLibTerm(raw.ult(p, b.bool(true)))).toBe('(bvult (ite (= (select x #x00000000) (select x #x00000001)) #b1 #b0) #b1)');
    expect(smtLibTerm(b.bool(false))).toBe('false');
  });
  test('literals', () => {
    expect(bvLiteral(5n, 8)).toBe('#x05');
    expect(bvLiteral(5n, 7)).toBe('#b0000101');
    expect(bvLiteral(5n, 65)).toBe('(_ bv5 65)');
  });
  test('let-sharing keeps an exponential tree linear', () => {
    let e: Expr = rx(0);
    for (let i = 0; i < 60; i++) e = raw.add(e, raw.mul(e, raw.constant(i, 8)));
    const t = smtLibTerm(raw.eq(e, raw.constant(0, 8)));
    expect(t.length).toBeLessThan(60 * 80);
    expect(toSmtLib2([raw.eq(e, raw.constant(0, 8))], { sharing: 'define-fun' }).text.length).toBeLessThan(60 * 120);
  });
  test('update lists are nested stores, shared', () => {
    const ul = ux.extend(i32(0), raw.constant(5, 8)).extend(raw.zext(rx(3), 32), rx(2));
    const e = raw.eq(raw.read(ul, i32(1)), raw.read(ul, i32(2)));
    expect(smtLibTerm(e)).toBe(
      '(let ((t!0 (store (store x #x00000000 #x05) ((_ zero_extend 24) (select x #x00000003)) (select x #x00000002)))) ' +
        '(= (select t!0 #x00000001) (select t!0 #x00000002)))',
    );
  });
  test('array names are made valid and unique', () => {
    const namer = new ArrayNamer();
    expect(namer.name(new ExprArray('arg 0', 1))).toBe('arg_0');
    expect(namer.name(new ExprArray('arg 0', 1))).toBe('arg_0_1');
    expect(namer.name(new ExprArray('select', 1))).toBe('select_');
    expect(namer.name(new ExprArray('bvadd', 1))).toBe('bvadd_');
    expect(namer.name(new ExprArray('0x', 1))).toBe('a_0x');
    expect(namer.name(new ExprArray('', 1))).toBe('a_');
  });
  test('constant arrays are pinned; assertions must be boolean', () => {
    const k = new ExprArray('k', 2, Uint8Array.from([1, 2]));
    const t = toSmtLib2([raw.eq(raw.read(new UpdateList(k), raw.zext(rx(0), 32)), raw.constant(2, 8))]).text;
    expect(t).toContain('(assert (= (select k #x00000000) #x01))');
    expect(t).toContain('(assert (= (select k #x00000001) #x02))');
    expect(() => toSmtLib2([rx(0)])).toThrow(RangeError);
  });
});

const z3 = spawnSync('z3', ['-version'], { encoding: 'utf8' });
const haveZ3 = z3.status === 0;
const describeZ3 = haveZ3 ? describe : describe.skip;

/** Runs one z3 process over many push/pop checks; returns the answers in order. */
function z3Answers(script: string): string[] {
  const r = spawnSync('z3', ['-in', '-smt2'], { input: script, encoding: 'utf8', maxBuffer: 1 << 26 });
  return r.stdout.split('\n').filter((l) => l.trim() !== '');
}

describeZ3('SMT-LIB2 agrees with evaluation (z3)', () => {
  test.each(WIDTHS)('width %i: value under an assignment is forced', (w) => {
    const rng = new Rng(500 + w);
    const arrays = makeArrays();
    const gen = new PairGen(rng, arrays, 3);
    const namer = new ArrayNamer();
    const lines: string[] = ['(set-logic ALL)']; // ALL: the test pins arrays with const arrays
    for (const a of arrays) lines.push(`(declare-fun ${namer.name(a)} () (Array (_ BitVec 32) (_ BitVec 8)))`);
    // Whole-array equalities (z3's const arrays) so reads past the end are 0, as in evaluation.
    const pin = (a: ExprArray, bytes: Uint8Array) => {
      let t = '((as const (Array (_ BitVec 32) (_ BitVec 8))) #x00)';
      bytes.forEach((v, j) => (t = `(store ${t} ${bvLiteral(BigInt(j), 32)} ${bvLiteral(BigInt(v), 8)})`));
      lines.push(`(assert (= ${namer.name(a)} ${t}))`);
    };
    for (const a of arrays) if (a.constantValues !== null) pin(a, a.constantValues);
    const expected: string[] = [];
    const cases = w > 64 ? 8 : w === 64 ? 20 : 40; // wide multiplications are slow to bit-blast
    for (let i = 0; i < cases; i++) {
      const { s, r } = gen.gen(w);
      const asg = randomAssignment(rng, arrays);
      lines.push('(push 1)');
      for (const a of arrays) {
        if (a.isConstant()) continue;
        pin(a, asg.get(a) ?? new Uint8Array(a.size));
      }
      for (const e of [s, r]) {
        const v = evaluate(e, asg);
        const lit = w === 1 ? (v === 1n ? 'true' : 'false') : bvLiteral(v, w);
        const term = smtLibTerm(e, namer);
        lines.push('(push 1)', `(assert (not (= ${term} ${lit})))`, '(check-sat)', '(pop 1)');
        expected.push('unsat');
      }
      lines.push('(pop 1)');
    }
    const answers = z3Answers(lines.join('\n') + '\n');
    expect(answers).toEqual(expected);
  });

  test.each(['let', 'define-fun'] as const)('whole scripts (%s sharing) are accepted, with models', (sharing) => {
    const rng = new Rng(77);
    const arrays = makeArrays();
    const gen = new PairGen(rng, arrays, 3);
    for (let i = 0; i < 12; i++) {
      const w = rng.pick([1, 8, 16, 32, 33]);
      const { s } = gen.gen(w);
      const asg = randomAssignment(rng, arrays);
      const pins: Expr[] = [];
      for (const a of arrays) {
        if (a.isConstant()) continue;
        const bytes = asg.get(a) ?? new Uint8Array(a.size);
        bytes.forEach((v, j) => pins.push(b.eq(b.read(new UpdateList(a), b.constant(j, 32)), b.constant(v, 8))));
      }
      const goal = b.eq(s, b.constant(evaluate(s, asg), w));
      const { text } = toSmtLib2([...pins, goal], { sharing, getValue: arrays.filter((a) => a.isSymbolic()) });
      const out = z3Answers(text);
      expect(out.some((l) => l.includes('error'))).toBe(false);
      expect(out[0]).toBe('sat');
    }
  });
});
