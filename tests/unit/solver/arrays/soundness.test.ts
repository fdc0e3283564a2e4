/**
 * Every rule of the own array encoding and of the pre-check is needed for a right answer
 * here: weaken one (drop pair, element or past-the-end axioms, prune by a residue the
 * index does not prove, linearise without wrap-around, believe a float certificate) and
 * one of these fails. Answers are cross-checked against the embedded z3 on its own arrays.
 */
import { AccessTypes, builder as b, ExprArray, UpdateList, type Expr } from '../../../../src/expr/index.js';
import { ArrayAxiomsSolver, IlpPrecheckSolver, HighsIlp, Validity, type Solver } from '../../../../src/solver/index.js';
import { Z3Solver } from '../../../../src/solver/z3/z3-solver.js';
import { analyse } from '../../../../src/solver/ilp/analysis.js';
import { LinearSystem } from '../../../../src/solver/ilp/linear-system.js';
import { leWord } from '../../../support/le-word.js';
import { ExprGen, makeArrays } from '../gen.js';
import { Rng } from '../../../../src/util/rng.js';

let z3: Z3Solver;
let ilp: HighsIlp;
beforeAll(async () => {
  z3 = await Z3Solver.create({ timeoutMs: 5000 });
  ilp = await HighsIlp.create();
});
afterAll(() => z3.dispose());

const c32 = (v: number | bigint): Expr => b.constant(v, 32);
const NAMES: string[] = [];
for (const axioms of ['plain', 'typed', 'typed-interval']) for (const g of ['lazy', 'eager']) NAMES.push(`${axioms}/${g}`, `precheck+${axioms}/${g}`);

/** A configuration of the two layers over z3 (the layers never dispose it here). */
function config(name: string): { s: Solver; enc: ArrayAxiomsSolver } {
  const [, pre, axioms, generation] = /^(precheck\+)?([a-z-]+)\/([a-z]+)$/.exec(name)!;
  const enc = new ArrayAxiomsSolver(z3, { axioms: axioms as 'plain', generation: generation as 'lazy', intervals: (cs, idx) => analyse(cs, null, null, idx).intervals });
  return { s: pre === undefined ? enc : new IlpPrecheckSolver(enc, ilp), enc };
}

function word(a: ExprArray, byteIndex: Expr): Expr {
  let e = b.read(new UpdateList(a), byteIndex);
  for (let k = 1; k < 4; k++) e = b.concat(b.read(new UpdateList(a), b.add(byteIndex, c32(k))), e);
  return e;
}

function typed(name: string, bytes: Uint8Array | number, m: number): ExprArray {
  const a = typeof bytes === 'number' ? new ExprArray(name, bytes) : new ExprArray(name, bytes.length, bytes);
  a.access = new AccessTypes();
  a.access.record(m);
  return a;
}

const sym = (name: string): Expr => leWord(new UpdateList(new ExprArray(name, 4)), 32);

describe.each(NAMES)('%s', (name) => {
  let s: Solver;
  let enc: ArrayAxiomsSolver;
  beforeAll(() => {
    ({ s, enc } = config(name));
  });
  // pruning must never drop an axiom the final model check needs (it would add it anyway)
  afterEach(() => {
    if (enc.last !== null) expect(enc.last.outsidePool).toBe(0);
    enc.last = null;
  });
  test('pair axioms (T5): i = j ⇒ buf[i] = buf[j] on a symbolic array', () => {
    const buf = typed('buf', 32, 4);
    const i = sym('i');
    const j = sym('j');
    const pc = [b.ult(i, c32(8)), b.ult(j, c32(8)), b.eq(i, j)];
    const q = b.eq(word(buf, b.mul(c32(4), i)), word(buf, b.mul(c32(4), j)));
    expect(s.computeTruth({ constraints: pc, expr: q })).toBe(true);
  });

  test('element axioms of a symbolic array: buf[0] = 7 ∧ i = 0 ⇒ buf[i] = 7', () => {
    const buf = typed('buf', 8, 1);
    const i = sym('i');
    const pc = [b.eq(b.read(new UpdateList(buf), c32(0)), b.constant(7, 8)), b.eq(i, c32(0))];
    expect(s.computeTruth({ constraints: pc, expr: b.eq(b.read(new UpdateList(buf), i), b.constant(7, 8)) })).toBe(true);
  });

  test('past-the-end axioms: a constant array reads 0 beyond its size', () => {
    const a = typed('k', Uint8Array.from({ length: 16 }, (_, n) => n + 1), 1);
    const i = sym('i');
    const pc = [b.ule(c32(16), i), b.ult(i, c32(20))];
    expect(s.computeTruth({ constraints: pc, expr: b.eq(b.read(new UpdateList(a), i), b.constant(0, 8)) })).toBe(true);
  });

  test('unaligned 4-byte field of a packed struct (T4): SAT with i = 3', () => {
    const bytes = new Uint8Array(20);
    [10, 20, 30, 40].forEach((v, k) => (bytes[5 * k + 1] = v));
    const arr = typed('arr', bytes, 4);
    const i = sym('i');
    const q = b.eq(word(arr, b.add(b.mul(c32(5), i), c32(1))), c32(40));
    expect(s.computeValidity({ constraints: [b.ult(i, c32(4))], expr: q })).toBe(Validity.Unknown);
    const m = s.computeInitialValues({ constraints: [b.ult(i, c32(4)), q], expr: b.constant(1, 1) }, [rootOf(i)])!;
    expect(m[0]![0]).toBe(3);
    expect(enc.last!.outsidePool).toBe(0);
    expect(s.computeTruth({ constraints: [b.ult(i, c32(3))], expr: b.not(q) })).toBe(true);
  });

  test('byte access on an int table (T3, M = 1): SAT with k = 2', () => {
    const bytes = new Uint8Array(16);
    new DataView(bytes.buffer).setUint32(0, 0x01020304, true);
    const a = typed('a', bytes, 1);
    const k = sym('k');
    const q = b.eq(b.read(new UpdateList(a), k), b.constant(2, 8));
    const m = s.computeInitialValues({ constraints: [b.ult(k, c32(16))], expr: q }, [rootOf(k)])!;
    expect(m[0]![0]).toBe(2);
  });

  test('wrap-around (T7): k = i + 2 < 4 ∧ a[k] = 5 is SAT with i = 0xFFFFFFFE', () => {
    const bytes = new Uint8Array(16);
    bytes[0] = 5;
    const a = typed('a', bytes, 4);
    const i = sym('i');
    const k = b.add(i, c32(2));
    const q = b.eq(word(a, b.mul(c32(4), k)), c32(5));
    const m = s.computeInitialValues({ constraints: [b.ult(k, c32(4)), q], expr: b.constant(1, 1) }, [rootOf(i)])!;
    expect(new DataView(m[0]!.buffer).getUint32(0, true)).toBe(0xfffffffe);
  });

  test('symbolic write (T6): a[k] = 7 then a[i] > 10 is UNSAT', () => {
    const a = typed('z', new Uint8Array(16), 4);
    const k = sym('k');
    const i = sym('i');
    let ul = new UpdateList(a);
    for (let n = 0; n < 4; n++) ul = ul.extend(b.add(b.mul(c32(4), k), c32(n)), b.constant(n === 0 ? 7 : 0, 8));
    let e = b.read(ul, b.mul(c32(4), i));
    for (let n = 1; n < 4; n++) e = b.concat(b.read(ul, b.add(b.mul(c32(4), i), c32(n))), e);
    expect(s.computeTruth({ constraints: [b.ult(k, c32(4)), b.ult(i, c32(4))], expr: b.ule(e, c32(10)) })).toBe(true);
  });
});

function rootOf(e: Expr): ExprArray {
  let x = e;
  while (x.kind !== 1) x = x.kid(x.numKids - 1);
  return (x as Expr & { updates: UpdateList }).updates.root;
}

describe('random queries: every configuration answers as z3 does', () => {
  test('validity and models of 40 random array queries', () => {
    const rng = new Rng(7);
    const arrays = makeArrays();
    const gen = new ExprGen(rng, arrays, 3);
    const layers = NAMES.map((n) => [n, config(n).s] as const);
    let checked = 0;
    for (let n = 0; n < 40; n++) {
      const pc = [gen.gen(1)];
      const q = gen.gen(1);
      if (z3.computeInitialValues({ constraints: [], expr: pc[0]! }, []) === null) continue; // constraints must be satisfiable
      const want = z3.computeValidity({ constraints: pc, expr: q });
      for (const [name, s] of layers) {
        const got = s.computeValidity({ constraints: pc, expr: q });
        if (got !== want) throw new Error(`${name}: ${Validity[got]}, z3: ${Validity[want]} for ${pc[0]!.toString()} ⊢ ${q.toString()}`);
      }
      checked++;
    }
    expect(checked).toBeGreaterThan(20);
  });
});

describe('the pre-check believes no float', () => {
  test('a Farkas certificate is checked exactly: a perturbed one is refused', () => {
    // x + y ≥ 11, x, y ∈ [0, 5]: y = (1) proves it; y for a satisfiable bound does not
    const sys = new LinearSystem();
    const x = sys.addVar(0n, 5n);
    const y = sys.addVar(0n, 5n);
    sys.addRow({ terms: new Map([[x, 1n], [y, 1n]]), c: 0n }, 11n, null);
    expect(sys.verifyFarkas([1])).toBe(true);
    const ok = new LinearSystem();
    const u = ok.addVar(0n, 6n);
    const v = ok.addVar(0n, 5n);
    ok.addRow({ terms: new Map([[u, 1n], [v, 1n]]), c: 0n }, 11n, null);
    expect(ok.verifyFarkas([1])).toBe(false);
    expect(ok.verifyFarkas([1e-9])).toBe(false);
  });

  test('integer infeasibility the LP relaxation misses is proven by branching: 2x = 1', () => {
    const sys = new LinearSystem();
    const x = sys.addVar(0n, 5n);
    sys.addRow({ terms: new Map([[x, 2n]]), c: 0n }, 1n, 1n);
    expect(ilp.feasibility(sys)).toBe('infeasible');
    const sat = new LinearSystem();
    const z = sat.addVar(0n, 5n);
    sat.addRow({ terms: new Map([[z, 2n]]), c: 0n }, 4n, 4n);
    expect(ilp.feasibility(sat)).toBe('feasible');
  });

  test('2^32-sized coefficients: x = 2^32·q + 7, x < 2^32, q ≥ 1 is infeasible, q ≥ 0 is not', () => {
    const mk = (qlo: bigint): LinearSystem => {
      const sys = new LinearSystem();
      const xv = sys.addVar(0n, 2n ** 32n - 1n);
      const q = sys.addVar(qlo, 3n);
      sys.addRow({ terms: new Map([[xv, 1n], [q, -(2n ** 32n)]]), c: 0n }, 7n, 7n);
      return sys;
    };
    expect(ilp.feasibility(mk(1n))).toBe('infeasible');
    expect(ilp.feasibility(mk(0n))).toBe('feasible');
  });
});
