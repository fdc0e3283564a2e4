/** Helpers for tests that compile C/C++ to bitcode with the installed clang versions. */
import { execFile, execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';

const execFileP = promisify(execFile);

export const LLVM_VERSIONS = [14, 16, 19] as const;
export type LlvmVersion = (typeof LLVM_VERSIONS)[number];

export function clang(v: LlvmVersion): string {
  return `clang-${v}`;
}

export function llvmTool(v: LlvmVersion, tool: string): string {
  return `/usr/lib/llvm-${v}/bin/${tool}`;
}

export function haveCommand(cmd: string, args: string[] = ['--version']): boolean {
  try {
    execFileSync(cmd, args, { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

export function makeTmpDir(prefix: string): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), `tsklee-${prefix}-`));
}

export function removeDir(dir: string): void {
  fs.rmSync(dir, { recursive: true, force: true });
}

/** Compiles `source` (written to `dir/name`) to bitcode `dir/out`; returns the bitcode bytes. */
export async function compileToBitcode(
  compiler: string,
  dir: string,
  name: string,
  source: string,
  out: string,
  flags: string[],
): Promise<Uint8Array> {
  const src = path.join(dir, name);
  if (!fs.existsSync(src)) fs.writeFileSync(src, source);
  const outPath = path.join(dir, out);
  await execFileP(compiler, ['-emit-llvm', '-c', ...flags, src, '-o', outPath], { cwd: dir });
  return new Uint8Array(fs.readFileSync(outPath));
}

export async function run(cmd: string, args: string[], cwd?: string): Promise<string> {
  const { stdout } = await execFileP(cmd, args, { cwd, maxBuffer: 1 << 30 });
  return stdout;
}

/** Small programs exercising many kinds of records (constants of all widths, metadata, strings, ...). */
export const PROGRAMS: Record<string, { file: string; source: string }> = {
  basic: {
    file: 'basic.c',
    source: `
#include <stdio.h>
struct S { int a; double b; char name[10]; };
static const char *msg = "hello\\tworld\\n\\"x\\" \\\\ '\\x01\\x7f\\xff";
int g[5] = {1, 2, 3, 4, 5};
long long big = 0x7fffffffffffffffLL;
unsigned long long ubig = 0xffffffffffffffffULL;
long long neg = -0x7fffffffffffffffLL - 1;
double d = 3.14159, dn = -1e300, tiny = 5e-324;
float f32 = 1.5f;
int f(struct S *s, int n) { int t = 0; for (int i = 0; i < n; i++) t += s[i].a * (int)s[i].b; return t; }
int main(int argc, char **argv) {
  struct S s = {1, 2.0, "abc"};
  printf("%s %d %lld %f\\n", msg, f(&s, argc), big + (long long)ubig + neg, d * dn + tiny + f32);
  return 0;
}
`,
  },
  kitchen: {
    file: 'kitchen.c',
    source: `
#include <stdarg.h>
#include <string.h>
typedef int v4si __attribute__((vector_size(16)));
union U { int i; float f; char c[8]; };
struct Bits { unsigned a : 3; unsigned b : 13; signed c : 7; };
__int128 wide = ((__int128)0x0123456789abcdefLL << 64) | 0xfedcba9876543210ULL;
long double ld = 1.0L / 3.0L;
static int counter;
int sum(int n, ...) { va_list ap; va_start(ap, n); int s = 0; for (int i = 0; i < n; i++) s += va_arg(ap, int); va_end(ap); return s; }
static int sq(int x) { return x * x; }
int (*fp)(int) = sq;
int sw(int x) {
  switch (x) { case 0: return 10; case 1: return 20; case 7: return 70; case 1000: return 5; case -5: return 1; default: return -1; }
}
v4si vadd(v4si a, v4si b) { return a + b * (v4si){1, 2, 3, 4}; }
int bits(struct Bits *b) { return b->a + b->b + b->c; }
int loop(const char *s) { int n = 0; while (*s) { if (*s == 'x') break; n += *s++; } return n + (int)strlen(s); }
long double lmul(long double a) { return a * ld; }
__int128 wmul(__int128 a) { return a * wide + 1; }
float uf(union U u) { return u.f + (float)u.i + u.c[3]; }
int main(void) {
  static const short table[] = {1, -1, 32767, -32768, 0};
  union U u; u.i = 0x3f800000; counter++;
  struct Bits b = {5, 100, -3};
  v4si r = vadd((v4si){1, 1, 1, 1}, (v4si){2, 2, 2, 2});
  return sum(3, 1, 2, 3) + fp(3) + sw(counter) + r[2] + bits(&b) + loop("abcx") + (int)lmul(3.0L) + (int)wmul(2) + (int)uf(u) + table[counter];
}
`,
  },
  cxx: {
    file: 'cxx.cpp',
    source: `
struct Base { virtual ~Base() {} virtual int get() const = 0; };
template <typename T> struct Box : Base { T v; explicit Box(T x) : v(x) {} int get() const override { return (int)v; } };
struct Err { int code; };
static int thrower(int x) { if (x > 3) throw Err{x}; return x; }
int use(int n) {
  int total = 0;
  for (int i = 0; i < n; i++) {
    try { total += thrower(i); } catch (const Err &e) { total -= e.code; }
  }
  Box<double> b(2.5); Box<long long> c(1LL << 40);
  const Base &r = (n & 1) ? static_cast<const Base &>(b) : c;
  auto lam = [&](int k) { return k * total + r.get(); };
  return lam(n);
}
int main() { return use(6); }
`,
  },
};

/** Compile configurations: label, program, flags. */
export const CONFIGS: { label: string; program: keyof typeof PROGRAMS; flags: string[] }[] = [
  { label: 'basic-O0-g', program: 'basic', flags: ['-O0', '-g'] },
  { label: 'basic-O2', program: 'basic', flags: ['-O2'] },
  { label: 'kitchen-O0-g', program: 'kitchen', flags: ['-O0', '-g'] },
  { label: 'kitchen-O2', program: 'kitchen', flags: ['-O2'] },
  { label: 'kitchen-O2-g-thinlto', program: 'kitchen', flags: ['-O2', '-g', '-flto=thin'] },
  { label: 'cxx-O1-g', program: 'cxx', flags: ['-O1', '-g'] },
  { label: 'cxx-O2-fulllto', program: 'cxx', flags: ['-O2', '-flto'] },
  { label: 'cxx-O1-darwin-wrapped', program: 'cxx', flags: ['-O1', '-target', 'x86_64-apple-macosx11'] },
];
