/**
 * One seed as it follows a state (KLEE's SeedInfo): the test it came from, the bytes it gives
 * each symbolic array made so far (its assignment), and which of the test's objects it has
 * handed out. A seed belongs to exactly one state; forks move seeds, never share them, so the
 * assignment can be patched in place.
 */
import type { ExprArray } from '../../expr/index.js';

/** A seed's input: a test's objects, in order (a .ktest's, or built by a library user). */
export interface SeedTest {
  /** Where it came from, for messages (a file name, or any label). */
  readonly source: string;
  readonly objects: readonly { readonly name: string; readonly bytes: Uint8Array }[];
}

export class SeedInfo {
  /**
   * The seed's bytes per array. A binding may be shorter than its array (--allow-seed-extension
   * with a smaller object): the bytes past its end are free, as is every array not bound.
   */
  readonly assignment = new Map<ExprArray, Uint8Array>();
  /** Objects handed out by name (--named-seed-matching), by index. */
  private readonly used = new Set<number>();
  /** The next object handed out by position. */
  private position = 0;

  constructor(readonly test: SeedTest) {}

  /**
   * The test object for a new symbolic object named `name` of `size` bytes, or undefined when
   * the seed has none for it (KLEE's getNextInput). By position: the next object. By name: the
   * first unused object of that name, else the first unused object if its size is `size`
   * (`noNameMatch` is then told which one).
   */
  nextInput(name: string, size: number, byName: boolean, noNameMatch: (objectName: string, objectSize: number) => void): { name: string; bytes: Uint8Array } | undefined {
    const objs = this.test.objects;
    if (!byName) return this.position < objs.length ? objs[this.position++] : undefined;
    for (let i = 0; i < objs.length; i++) {
      if (objs[i]!.name === name && !this.used.has(i)) {
        this.used.add(i);
        return objs[i];
      }
    }
    for (let i = 0; i < objs.length; i++) {
      if (this.used.has(i)) continue;
      if (objs[i]!.bytes.length !== size) return undefined;
      this.used.add(i);
      noNameMatch(objs[i]!.name, objs[i]!.bytes.length);
      return objs[i];
    }
    return undefined;
  }

  /** Whether every byte of `array` has a seed value. */
  bindsAll(array: ExprArray): boolean {
    const b = this.assignment.get(array);
    return b !== undefined && b.length >= array.size;
  }
}
