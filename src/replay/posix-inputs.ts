/**
 * The native environment of a test written under the POSIX model (runtime/posix/README.md),
 * as KLEE's klee-replay builds it: argv is the test's argument list with each `--sym-arg`,
 * `--sym-args` replaced by the test's `argNN` values (and `n_args` of them); the symbolic files
 * `A`, `B`, … get the bytes of `A_data`, … and the permission bits of `A_data_stat`; stdin gets
 * the bytes of `stdin`. The model's own options (`--sym-files`, `--sym-stdin`, `--max-fail`, …)
 * are consumed, as the model consumes them. A test of a program without the model (no such
 * options) replays with its arguments unchanged.
 */
import type { KTest, KTestObject } from '../output/ktest.js';

export interface SymFile {
  /** `A`, `B`, …: created in the directory the program runs in. */
  name: string;
  bytes: Uint8Array;
  /** Permission bits from the test's stat object (see nativeMode). */
  mode: number;
}

export interface NativeInputs {
  /** argv[1..] */
  args: string[];
  files: SymFile[];
  /** The contents of stdin when the test has a `stdin` object (a file, as under the model); null: the console's empty stdin. */
  stdin: Uint8Array | null;
  /** `--sym-stdout`: the program's stdout was a symbolic file under the model, not recorded console output. */
  symStdout: boolean;
}

/** A test whose objects do not fit the options in its own argument list. */
export class PosixInputsError extends Error {
  override readonly name = 'PosixInputsError';
}

/**
 * The permission bits a replayed file gets from the test's mode: the model checks a
 * permission against any class's bit and never refuses a read (runtime/posix/README.md), and
 * the replayed program owns the file: so the owner gets every bit some class has, and read.
 */
export function nativeMode(mode: number): number {
  const any = (mode | (mode >> 3) | (mode >> 6)) & 0o7;
  return (mode & 0o777) | (any << 6) | 0o400;
}

/** Offset of st_mode in x86-64's struct stat64 (st_dev, st_ino, st_nlink: 8 bytes each). */
const STAT_MODE_OFFSET = 24;

/** Options of the model that take this many numeric arguments and produce no argv entry. */
const MODEL_OPTIONS: Record<string, number> = {
  'sym-files': 2,
  'sym-stdin': 1,
  'sym-stdout': 0,
  'max-fail': 1,
  'fd-fail': 0,
  'save-all-writes': 0,
};

function optionName(arg: string): string | null {
  const m = /^--?([a-z-]+)$/.exec(arg);
  return m !== null ? m[1]! : null;
}

/**
 * A symbolic argument as the program saw it: the model (like KLEE's) makes max_len + 1 bytes
 * symbolic and then stores NUL in the last, so the test's last byte is whatever the solver
 * chose and never part of the string (`-0-` in a 3-byte object is the argument `-0`).
 */
function cString(bytes: Uint8Array): string {
  const end = bytes.indexOf(0);
  const len = end >= 0 ? end : Math.max(0, bytes.length - 1);
  return Buffer.from(bytes.subarray(0, len)).toString('latin1');
}

export function nativeInputs(t: KTest): NativeInputs {
  const argObjects = t.objects.filter((o) => /^arg\d\d$/.test(o.name) || o.name === 'n_args');
  let next = 0;
  const take = (what: string, name?: RegExp): KTestObject => {
    const o = argObjects[next++];
    if (o === undefined || (name !== undefined && !name.test(o.name))) {
      throw new PosixInputsError(`the test has no object for ${what} (its objects: ${t.objects.map((x) => x.name).join(', ') || 'none'})`);
    }
    return o;
  };
  const number = (i: number, what: string): number => {
    const v = t.args[i];
    if (v === undefined || !/^\d+$/.test(v)) throw new PosixInputsError(`${what}: expected a number after '${t.args[i - 1] ?? ''}'`);
    return Number(v);
  };

  const args: string[] = [];
  let symStdout = false;
  let i = 1;
  while (i < t.args.length) {
    const a = t.args[i]!;
    const opt = optionName(a);
    if (opt === 'sym-arg') {
      number(i + 1, a);
      args.push(cString(take(`${a} ${t.args[i + 1]}`, /^arg\d\d$/).bytes));
      i += 2;
    } else if (opt === 'sym-args') {
      const min = number(i + 1, a);
      const max = number(i + 2, a);
      number(i + 3, a);
      let n = min;
      if (min !== max) {
        const o = take(`n_args of ${a}`, /^n_args$/);
        if (o.bytes.length !== 4) throw new PosixInputsError(`n_args has ${o.bytes.length} bytes, expected 4`);
        n = new DataView(o.bytes.buffer, o.bytes.byteOffset, 4).getInt32(0, true);
        if (n < min || n > max) throw new PosixInputsError(`n_args = ${n} is outside ${min}..${max}`);
      }
      for (let k = 0; k < n; k++) args.push(cString(take(`argument ${k + 1} of ${a} ${min} ${max}`, /^arg\d\d$/).bytes));
      i += 4;
    } else if (opt !== null && MODEL_OPTIONS[opt] !== undefined) {
      if (opt === 'sym-stdout') symStdout = true;
      i += 1 + MODEL_OPTIONS[opt];
    } else {
      args.push(a);
      i++;
    }
  }

  const byName = new Map(t.objects.map((o) => [o.name, o]));
  const files: SymFile[] = [];
  for (let k = 0; k < 26; k++) {
    const name = String.fromCharCode(65 + k);
    const data = byName.get(`${name}_data`);
    if (data === undefined) break;
    const stat = byName.get(`${name}_data_stat`);
    let mode = 0o644;
    if (stat !== undefined && stat.bytes.length >= STAT_MODE_OFFSET + 4) {
      mode = new DataView(stat.bytes.buffer, stat.bytes.byteOffset).getUint32(STAT_MODE_OFFSET, true) & 0o777;
    }
    files.push({ name, bytes: data.bytes, mode: nativeMode(mode) });
  }
  return { args, files, stdin: byName.get('stdin')?.bytes ?? null, symStdout };
}
