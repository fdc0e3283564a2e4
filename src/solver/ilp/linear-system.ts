/**
 * A system of linear integer constraints in exact (bigint) arithmetic, with the two exact
 * procedures the ILP pre-check trusts: bound propagation with integer rounding, and the
 * check of an infeasibility certificate (a Farkas combination of rows) an LP solver found
 * in floating point. Nothing a floating-point solver says is believed until one of these
 * confirms it (paper 002 §3.4: an unsound UNSAT silently loses paths).
 *
 * Variables are integers with finite bounds [lo, hi]; a row is lo ≤ Σ a_k·x_k ≤ hi with
 * either side possibly absent.
 */

export interface Row {
  vars: number[];
  coefs: bigint[];
  lo: bigint | null;
  hi: bigint | null;
}

/** A linear form Σ coef·var + c. */
export interface LinExpr {
  terms: Map<number, bigint>;
  c: bigint;
}

export function floorDiv(a: bigint, b: bigint): bigint {
  const q = a / b;
  return a % b !== 0n && a < 0n !== b < 0n ? q - 1n : q;
}

export function ceilDiv(a: bigint, b: bigint): bigint {
  return -floorDiv(-a, b);
}

export class LinearSystem {
  lo: bigint[] = [];
  hi: bigint[] = [];
  rows: Row[] = [];

  get numVars(): number {
    return this.lo.length;
  }

  addVar(lo: bigint, hi: bigint): number {
    this.lo.push(lo);
    this.hi.push(hi);
    return this.lo.length - 1;
  }

  /** lo ≤ e ≤ hi (constant part moved to the sides). */
  addRow(e: LinExpr, lo: bigint | null, hi: bigint | null): void {
    const vars: number[] = [];
    const coefs: bigint[] = [];
    for (const [v, a] of e.terms) {
      if (a === 0n) continue;
      vars.push(v);
      coefs.push(a);
    }
    const l = lo === null ? null : lo - e.c;
    const h = hi === null ? null : hi - e.c;
    if (vars.length === 0) {
      // a constant row: record an impossible one as 0 ≤ -1 so propagation reports it
      if ((l !== null && l > 0n) || (h !== null && h < 0n)) this.rows.push({ vars: [], coefs: [], lo: 1n, hi: null });
      return;
    }
    this.rows.push({ vars, coefs, lo: l, hi: h });
  }

  /** The range of e over the current bounds. */
  range(e: LinExpr): { lo: bigint; hi: bigint } {
    let lo = e.c;
    let hi = e.c;
    for (const [v, a] of e.terms) {
      if (a >= 0n) {
        lo += a * this.lo[v]!;
        hi += a * this.hi[v]!;
      } else {
        lo += a * this.hi[v]!;
        hi += a * this.lo[v]!;
      }
    }
    return { lo, hi };
  }

  clone(): LinearSystem {
    const s = new LinearSystem();
    s.lo = this.lo.slice();
    s.hi = this.hi.slice();
    s.rows = this.rows;
    return s;
  }

  /**
   * Bound propagation with integer rounding, in place, for at most `sweeps` passes over
   * the rows: false when some variable's domain (or some row) becomes empty — a proof that
   * the system has no integer solution. Every tightening is implied by one row and the
   * other variables' bounds, so the bounds stay valid over-approximations.
   */
  propagate(sweeps = 30): boolean {
    const { lo, hi } = this;
    for (let pass = 0; pass < sweeps; pass++) {
      let changed = false;
      for (const r of this.rows) {
        let minAct = 0n;
        let maxAct = 0n;
        for (let k = 0; k < r.vars.length; k++) {
          const a = r.coefs[k]!;
          const v = r.vars[k]!;
          if (a > 0n) {
            minAct += a * lo[v]!;
            maxAct += a * hi[v]!;
          } else {
            minAct += a * hi[v]!;
            maxAct += a * lo[v]!;
          }
        }
        if ((r.hi !== null && minAct > r.hi) || (r.lo !== null && maxAct < r.lo)) return false;
        for (let k = 0; k < r.vars.length; k++) {
          const a = r.coefs[k]!;
          const v = r.vars[k]!;
          const minK = a > 0n ? a * lo[v]! : a * hi[v]!;
          const maxK = a > 0n ? a * hi[v]! : a * lo[v]!;
          if (r.hi !== null) {
            const room = r.hi - (minAct - minK); // a·x ≤ room
            if (a > 0n) {
              const b = floorDiv(room, a);
              if (b < hi[v]!) {
                hi[v] = b;
                changed = true;
              }
            } else {
              const b = ceilDiv(room, a);
              if (b > lo[v]!) {
                lo[v] = b;
                changed = true;
              }
            }
          }
          if (r.lo !== null) {
            const room = r.lo - (maxAct - maxK); // a·x ≥ room
            if (a > 0n) {
              const b = ceilDiv(room, a);
              if (b > lo[v]!) {
                lo[v] = b;
                changed = true;
              }
            } else {
              const b = floorDiv(room, a);
              if (b < hi[v]!) {
                hi[v] = b;
                changed = true;
              }
            }
          }
          if (lo[v]! > hi[v]!) return false;
        }
      }
      if (!changed) return true;
    }
    return true;
  }

  /** Whether an integer point satisfies every bound and row exactly. */
  satisfiedBy(x: readonly bigint[]): boolean {
    for (let v = 0; v < this.numVars; v++) if (x[v]! < this.lo[v]! || x[v]! > this.hi[v]!) return false;
    for (const r of this.rows) {
      let s = 0n;
      for (let k = 0; k < r.vars.length; k++) s += r.coefs[k]! * x[r.vars[k]!]!;
      if ((r.lo !== null && s < r.lo) || (r.hi !== null && s > r.hi)) return false;
    }
    return true;
  }

  /**
   * Checks a Farkas certificate in exact arithmetic: multipliers y (one per row, any sign,
   * floats from an LP solver) prove infeasibility when the combined row Σ y_r·(a_r·x) ≤
   * Σ (y_r > 0 ? y_r·hi_r : y_r·lo_r) cannot hold anywhere in the variables' box. The
   * floats are scaled and rounded to integers first: any multipliers give a valid
   * inequality, so rounding can only lose the proof, never make a wrong one. Both signs of
   * y are tried (solvers differ in their convention).
   */
  verifyFarkas(y: ArrayLike<number>): boolean {
    return this.farkasHolds(y, 1) || this.farkasHolds(y, -1);
  }

  private farkasHolds(y: ArrayLike<number>, sign: number): boolean {
    let max = 0;
    for (let r = 0; r < this.rows.length; r++) max = Math.max(max, Math.abs(y[r] ?? 0));
    if (!(max > 0) || !Number.isFinite(max)) return false;
    const scale = 2 ** 40 / max;
    const d = new Map<number, bigint>();
    let rhs = 0n;
    for (let r = 0; r < this.rows.length; r++) {
      const row = this.rows[r]!;
      let m = BigInt(Math.round(sign * (y[r] ?? 0) * scale));
      if ((m > 0n && row.hi === null) || (m < 0n && row.lo === null)) m = 0n;
      if (m === 0n) continue;
      rhs += m * (m > 0n ? row.hi! : row.lo!);
      for (let k = 0; k < row.vars.length; k++) d.set(row.vars[k]!, (d.get(row.vars[k]!) ?? 0n) + m * row.coefs[k]!);
    }
    let lhsMin = 0n;
    for (const [v, a] of d) lhsMin += a > 0n ? a * this.lo[v]! : a * this.hi[v]!;
    return lhsMin > rhs;
  }
}
