/**
 * libquadmath's *q functions (GCC's quad-precision library, `-lquadmath`) where they differ from
 * glibc's *f128 ones (fp128.ts, fp128-math.ts agree with both elsewhere: fmodq, fmaq, floorq,
 * fminq, frexpq, ldexpq, lrintq, …):
 *   - sqrtq is not correctly rounded: Newton iterations from a double (or long double) square
 *     root, each step rounded in binary128, as GCC 12's libquadmath/math/sqrtq.c;
 *   - modfq returns a NaN argument as it is (not quieted).
 */
import {
  classOf,
  f128Compare,
  f128Div,
  f128FromDouble,
  f128FromF80,
  f128Mul,
  f128Sub,
  f128ToDouble,
  f128ToF80,
  INF,
  isNaNClass,
  isNeg,
  REL_GT,
  REL_LT,
  roundPack,
  ZERO,
} from './fp128.js';
import { f128Frexp, f128Ldexp, f128Modf } from './fp128-math.js';
import { f80Compare, f80Sqrt, REL_GT as F80_GT, REL_LT as F80_LT } from './fp80.js';

const HALF = roundPack(false, 1n, -1);
const DBL_MAX = f128FromDouble(Number.MAX_VALUE);
const DBL_MIN = f128FromDouble(2 ** -1022);
const LDBL_MAX = 0x7ffe_ffff_ffff_ffff_ffffn;
const LDBL_MIN = 0x0001_8000_0000_0000_0000n;

/** y − 0.5·(y − x/y), each operation rounded. */
function newton(x: bigint, y: bigint): bigint {
  return f128Sub(y, f128Mul(HALF, f128Sub(y, f128Div(x, y))));
}

/** libquadmath's sqrtq. */
export function quadmathSqrt(x: bigint): bigint {
  const k = classOf(x);
  if (isNaNClass(k) || k === ZERO || (k === INF && !isNeg(x))) return x;
  if (isNeg(x)) {
    const d = f128Sub(x, x);
    return f128Div(d, d);
  }
  if (f128Compare(x, DBL_MAX) !== REL_GT && f128Compare(x, DBL_MIN) !== REL_LT) {
    // a double square root as the starting point, two iterations
    return newton(x, newton(x, f128FromDouble(Math.sqrt(f128ToDouble(x)))));
  }
  const xl = f128ToF80(x);
  if (f80Compare(xl, LDBL_MAX) !== F80_GT && f80Compare(xl, LDBL_MIN) !== F80_LT) {
    // the x87 square root of the long double as the starting point, one iteration
    return newton(x, f128FromF80(f80Sqrt(xl)));
  }
  const [m, e0] = f128Frexp(x);
  let y = m;
  let e = e0;
  if (e % 2 !== 0) {
    y = f128Mul(y, roundPack(false, 1n, 1));
    e--;
  }
  y = f128Ldexp(f128FromDouble(Math.sqrt(f128ToDouble(y))), e / 2);
  return newton(x, newton(x, y));
}

/** libquadmath's modfq: [fractional part, integral part]. */
export function quadmathModf(a: bigint): [bigint, bigint] {
  if (isNaNClass(classOf(a))) return [a, a];
  return f128Modf(a);
}
