/**
 * A fixed handful of csmith programs through `npm run fuzz` (scripts/fuzz.mjs): each is built
 * natively and to bitcode with the same clang and -O level, and tsklee's concrete run must
 * print the same checksum and exit the same way. The seeds include programs where clang -O2
 * speculates over-wide shifts (2, 7, 9: once reported as overshift errors) and csmith's
 * floating-point mode (153 converts out-of-range floats to int: undefined in C, x86's
 * cvttsd2si result natively, which tsklee computes). Seed 306 at -O2 has a loop clang proves
 * endless (undefined in C11) and compiles main to `unreachable`: the native build dies of
 * SIGSEGV and tsklee must report the error (verdict fail-both); seed 1002's native build runs off
 * the end of such a main and exits 132 (verdict ub); seed 1361 (--float) stores an out-of-range
 * float constant to a uint8_t, so the two differ and UBSan finds it undefined (verdict ub). Longer runs: `npm run fuzz -- --seeds 1..2000 …` (README).
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from '@jest/globals';

const SCRIPT = resolve('scripts/fuzz.mjs');
const out = mkdtempSync(join(tmpdir(), 'tsklee-csmith-'));
afterAll(() => rmSync(out, { recursive: true, force: true }));

const CASES: [string, number, string[]][] = [
  ['-O0', 1, ['--opt', '0']],
  ['-O2', 2, ['--opt', '2']],
  ['-O2', 7, ['--opt', '2']],
  ['-O2', 9, ['--opt', '2']],
  ['-O0 --float', 21, ['--opt', '0', '--float']],
  ['-O0 --float', 153, ['--opt', '0', '--float']],
  ['-O2 --float', 25, ['--opt', '2', '--float']],
  ['-O2 clang-16', 3, ['--opt', '2', '--clang', '16']],
];

describe('csmith programs: tsklee agrees with the native build', () => {
  it('has csmith', () => {
    const r = spawnSync('csmith', ['--version'], { encoding: 'utf8', cwd: out }); // (it writes platform.info)
    if (r.error) throw new Error('csmith is not installed (scripts/setup installs csmith and libcsmith-dev)');
    expect(r.status).toBe(0);
  });

  it.each(CASES)('%s seed %i', (_mode, seed, args) => {
    const r = spawnSync(process.execPath, [SCRIPT, '--seeds', String(seed), '--jobs', '1', '--out', out, ...args], { encoding: 'utf8', timeout: 300_000 });
    const line = r.stdout.split('\n').find((l) => l.includes(`seed ${seed}:`)) ?? `${r.stdout}\n${r.stderr}`;
    expect(line).toMatch(new RegExp(`seed ${seed}: agree$`));
    expect(r.status).toBe(0);
    const results = readFileSync(join(out, 'results.jsonl'), 'utf8').trim().split('\n').map((l) => JSON.parse(l) as { seed: number; verdict: string; detail: string });
    expect(results.find((x) => x.seed === seed && x.verdict === 'agree')?.detail).toMatch(/^checksum = [0-9A-F]+$/);
  }, 300_000);

  it('-O2 seed 306: the native build crashes and tsklee reports the unreachable code', () => {
    const r = spawnSync(process.execPath, [SCRIPT, '--seeds', '306', '--jobs', '1', '--out', out, '--opt', '2'], { encoding: 'utf8', timeout: 300_000 });
    expect(r.stdout).toMatch(/seed 306: fail-both native run died of SIGSEGV; tsklee test000001\.exec\.err: reached "unreachable" instruction$/m);
    expect(r.status).toBe(0);
  }, 300_000);

  it('-O2 seed 1002: main compiled to `unreachable`; the native build runs off its end and exits 132, tsklee reports it (verdict ub)', () => {
    const r = spawnSync(process.execPath, [SCRIPT, '--seeds', '1002', '--jobs', '1', '--out', out, '--opt', '2'], { encoding: 'utf8', timeout: 300_000 });
    expect(r.stdout).toMatch(/seed 1002: ub native exited with 132; tsklee test000001\.exec\.err: reached "unreachable" instruction$/m);
    expect(r.stdout).toMatch(/100\.0 % agree/);
    expect(r.status).toBe(0);
  }, 300_000);

  it('-O0 --float seed 1361: an out-of-range float constant stored to a uint8_t (poison in the IR); the two differ, UBSan finds the program undefined (verdict ub)', () => {
    const r = spawnSync(process.execPath, [SCRIPT, '--seeds', '1361', '--jobs', '1', '--out', out, '--opt', '0', '--float'], { encoding: 'utf8', timeout: 300_000 });
    expect(r.stdout).toMatch(/seed 1361: ub stdout: tsklee "checksum = [0-9A-F]+", native "checksum = [0-9A-F]+"; undefined: .* is outside the range of representable values of type 'unsigned char'$/m);
    expect(r.status).toBe(0);
  }, 300_000);
});
