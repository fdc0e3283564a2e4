/** The native environment of a test (klee-replay's reading of argv/file/stdin objects) and the verdicts of a comparison. */
import { describe, expect, it } from '@jest/globals';
import { nativeInputs, nativeMode, PosixInputsError } from '../../../src/replay/posix-inputs.js';
import { compareRun } from '../../../src/replay/compare.js';
import type { NativeResult } from '../../../src/replay/native.js';
import type { RecordedOutcome } from '../../../src/replay/recorded.js';
import type { KTest, KTestObject } from '../../../src/output/ktest.js';

const text = (s: string): Uint8Array => new TextEncoder().encode(s);
const le32 = (v: number): Uint8Array => new Uint8Array(new Int32Array([v]).buffer);
const ktest = (args: string[], objects: KTestObject[]): KTest => ({ version: 3, args: ['prog.bc', ...args], symArgvs: 0, symArgvLen: 0, objects });

describe('nativeInputs', () => {
  it('keeps the arguments of a program without the model', () => {
    expect(nativeInputs(ktest(['-v', 'x'], [{ name: 'x', bytes: le32(1) }]))).toEqual({ args: ['-v', 'x'], files: [], stdin: null, symStdout: false });
  });

  it('takes --sym-args MIN MAX without n_args when MIN = MAX, and consumes the model options', () => {
    const stat = new Uint8Array(144);
    new DataView(stat.buffer).setUint32(24, 0o100000 | 0o200, true); // write-only: read added
    const r = nativeInputs(
      ktest(['-sym-args', '2', '2', '1', '--max-fail', '1', '--sym-files', '2', '1', '--sym-stdout', 'z'], [
        { name: 'arg00', bytes: text('a\0') },
        { name: 'arg01', bytes: text('\0\0') },
        { name: 'A_data', bytes: text('1') },
        { name: 'A_data_stat', bytes: stat },
        { name: 'B_data', bytes: text('2') },
        { name: 'B_data_stat', bytes: stat },
        { name: 'stdout', bytes: new Uint8Array(1024) },
      ]),
    );
    expect(r.args).toEqual(['a', '', 'z']);
    expect(r.files.map((f) => [f.name, Buffer.from(f.bytes).toString(), f.mode.toString(8)])).toEqual([
      ['A', '1', '600'],
      ['B', '2', '600'],
    ]);
    expect(r.stdin).toBeNull();
    expect(r.symStdout).toBe(true);
  });

  it('ignores the last byte of an argument object (the model stores NUL there, whatever the test holds)', () => {
    // tail's test from the coreutils sweep: the bytes "-0-" are the argument "-0"
    const r = nativeInputs(ktest(['--sym-args', '0', '2', '2'], [
      { name: 'n_args', bytes: le32(2) },
      { name: 'arg00', bytes: text('-0-') },
      { name: 'arg01', bytes: text('a\0b') },
    ]));
    expect(r.args).toEqual(['-0', 'a']);
  });

  it("gives the owner every permission some class has, and read (the model checks any class's bit, never refuses a read)", () => {
    expect(nativeMode(0o644).toString(8)).toBe('644');
    expect(nativeMode(0o000).toString(8)).toBe('400');
    expect(nativeMode(0o020).toString(8)).toBe('620');
    expect(nativeMode(0o005).toString(8)).toBe('505');
    expect(nativeMode(0o751).toString(8)).toBe('751');
  });

  it('refuses objects that do not fit the arguments', () => {
    expect(() => nativeInputs(ktest(['--sym-args', '0', '2', '2'], [{ name: 'n_args', bytes: le32(3) }]))).toThrow(new PosixInputsError('n_args = 3 is outside 0..2'));
    expect(() => nativeInputs(ktest(['--sym-arg', '3'], []))).toThrow(/the test has no object for --sym-arg 3 \(its objects: none\)/);
    expect(() => nativeInputs(ktest(['--sym-arg'], []))).toThrow(/--sym-arg: expected a number/);
  });
});

describe('compareRun', () => {
  const native = (o: Partial<NativeResult>): NativeResult => ({ status: 0, signal: null, timedOut: false, stdout: Buffer.from('hi\n'), stderr: Buffer.alloc(0), ...o });
  const recorded = (o: Partial<RecordedOutcome>): RecordedOutcome => ({ stdout: Buffer.from('hi\n'), early: false, present: true, ...o });

  it('matches exit status and stdout of exited paths', () => {
    expect(compareRun(recorded({ exit: 0 }), native({}), 1000).verdict).toBe('match');
    expect(compareRun(recorded({ exit: 1 }), native({}), 1000)).toEqual({ verdict: 'differ', text: 'exit 0, recorded exit 1' });
    expect(compareRun(recorded({ exit: 0, stdout: Buffer.from('ho\n') }), native({}), 1000).text).toBe(
      'exit 0, stdout differs from the recorded one at byte 1 (native 3 bytes, recorded 3)',
    );
    // the model's raise(SIGTERM) exits 143; natively the signal kills
    expect(compareRun(recorded({ exit: 143 }), native({ status: null, signal: 'SIGTERM' }), 1000).verdict).toBe('match');
    expect(compareRun(recorded({ exit: 143 }), native({ status: null, signal: 'SIGKILL' }), 1000).verdict).toBe('differ');
    // --sym-stdout: console stdout was not recorded
    expect(compareRun(recorded({ exit: 0, stdout: Buffer.alloc(0) }), native({}), 1000, false).verdict).toBe('match');
  });

  it('expects SIGABRT for abort and assert paths, and does not compare other errors', () => {
    expect(compareRun(recorded({ errKind: 'assert' }), native({ status: null, signal: 'SIGABRT' }), 1000).verdict).toBe('match');
    expect(compareRun(recorded({ errKind: 'abort' }), native({ status: 0 }), 1000).verdict).toBe('differ');
    expect(compareRun(recorded({ errKind: 'ptr' }), native({ status: null, signal: 'SIGSEGV' }), 1000).verdict).toBe('not compared');
    expect(compareRun(recorded({ early: true }), native({}), 1000).verdict).toBe('not compared');
    expect(compareRun(recorded({ present: false }), native({}), 1000).verdict).toBe('not compared');
  });

  it('does not count a test that ran out of inputs as different when its path was stopped early', () => {
    // a klee_range or klee_make_symbolic the stopped path never reached: the test lacks its object
    const outOfInputs = native({ status: 90, stderr: Buffer.from("tsklee-replay: error: out of inputs: the program asks for object 'j' (4 bytes) but the test has only 2 objects\n") });
    expect(compareRun(recorded({ early: true }), outOfInputs, 1000).verdict).toBe('not compared');
    expect(compareRun(recorded({ errKind: 'ptr' }), outOfInputs, 1000).verdict).toBe('not compared');
    // a completed path must have made every input; a mismatch of another kind stays a difference
    expect(compareRun(recorded({ exit: 0 }), outOfInputs, 1000).verdict).toBe('differ');
    const wrongSize = native({ status: 90, stderr: Buffer.from("tsklee-replay: error: object 'j': the program asks for 4 bytes, the test has 2\n") });
    expect(compareRun(recorded({ early: true }), wrongSize, 1000).verdict).toBe('differ');
  });

  it('counts timeouts and runtime/replay mismatches (exit 90) as differences', () => {
    expect(compareRun(recorded({ exit: 0 }), native({ status: null, signal: 'SIGKILL', timedOut: true }), 2500)).toEqual({ verdict: 'differ', text: 'timeout after 2.5 s' });
    const r = compareRun(recorded({ exit: 0 }), native({ status: 90, stderr: Buffer.from('KLEE-RUNTIME: object 1 name mismatch\n') }), 1000);
    expect(r.verdict).toBe('differ');
    expect(r.text).toContain('(KLEE-RUNTIME: object 1 name mismatch)');
  });
});
