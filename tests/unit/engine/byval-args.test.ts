/**
 * By-value arguments (`byval` in the IR): the callee gets its own copy of the caller's bytes.
 * When the pointer the caller passes may point into several objects, the call forks one state
 * per object (as any access would) and each state's copy holds that object's bytes. clang
 * copies into a temporary before such calls, so the IR is written by hand here (llvm-as).
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from '@jest/globals';
import { disposeSolver, runBitcode, valueUnder } from './support/run-c.js';

afterAll(() => disposeSolver());

const IR = `
target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-unknown-linux-gnu"
%struct.S = type { [5 x i32] }
@a = global %struct.S { [5 x i32] [i32 11, i32 1, i32 1, i32 1, i32 1] }
@b = global %struct.S { [5 x i32] [i32 22, i32 2, i32 2, i32 2, i32 2] }
@.name = private constant [2 x i8] c"i\\00"

declare i32 @klee_int(ptr)

define internal i32 @first(ptr byval(%struct.S) align 8 %s) {
  %p = getelementptr %struct.S, ptr %s, i64 0, i32 0, i64 0
  %v = load i32, ptr %p
  ret i32 %v
}

define i32 @main() {
  %i = call i32 @klee_int(ptr @.name)
  %odd = trunc i32 %i to i1
  %p = select i1 %odd, ptr @a, ptr @b
  %r = call i32 @first(ptr byval(%struct.S) align 8 %p)
  ret i32 %r
}
`;

describe('byval arguments', () => {
  it("from a pointer into one of two objects: each resulting state gets that object's bytes", async () => {
    const dir = mkdtempSync(join(tmpdir(), 'tsklee-byval-'));
    writeFileSync(join(dir, 'p.ll'), IR);
    execFileSync('llvm-as-19', [join(dir, 'p.ll'), '-o', join(dir, 'p.bc')]);
    const r = await runBitcode(join(dir, 'p.bc'));
    expect(r.completedPaths).toBe(2);
    // (the copy is read at an offset the solver fixes: evaluate the exit value under each test)
    const exits = r.ends.map((e) => Number(valueUnder(e.exitValue, r.tests.find((t) => t.id === e.testId)!)));
    expect(exits.sort()).toEqual([11, 22]);
  });
});
