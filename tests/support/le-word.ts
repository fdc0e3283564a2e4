/** Test expressions: a little-endian number read from consecutive bytes of an array. */
import { builder as b, type Expr, type UpdateList } from '../../src/expr/index.js';

/** The w-bit little-endian value of bytes [at, at + w/8) of the array behind `ul`. */
export function leWord(ul: UpdateList, w: number, at = 0): Expr {
  let e = b.read(ul, b.constant(at, 32));
  for (let i = 1; i < w / 8; i++) e = b.concat(b.read(ul, b.constant(at + i, 32)), e);
  return e;
}
