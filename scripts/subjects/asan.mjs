#!/usr/bin/env node
/**
 * A test of a coreutils utility replayed natively under AddressSanitizer:
 *
 *   node scripts/subjects/asan.mjs UTILITY TEST.ktest...
 *
 * Builds SRC-gcov/src/UTILITY-asan once (the gcov build's objects and flags, gcc
 * -fsanitize=address, each argument in a heap block of its own: asan-argv.c), then runs it on
 * each test's argv, files and stdin inside the replay sandbox and prints the exit status and
 * what ASan said. Needs `node scripts/subjects/coreutils.mjs --steps fetch,build` and root.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, realpathSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { makeVariable } from './lib/autotools.mjs';
import { checkSandbox, sandboxed } from './lib/sandbox.mjs';

const HERE = dirname(fileURLToPath(import.meta.url));
const ROOT = resolve(HERE, '..', '..');

/** Inside the sandbox: run BINARY on the test's inputs, print status and stderr. */
async function inner(binary, ktestPath) {
  const { decodeKTest } = await import(join(ROOT, 'dist', 'output', 'ktest.js'));
  const { nativeInputs } = await import(join(ROOT, 'dist', 'replay', 'posix-inputs.js'));
  const { runNative } = await import(join(ROOT, 'dist', 'replay', 'native.js'));
  const { DEFAULT_ENVIRONMENT } = await import(join(ROOT, 'dist', 'engine', 'options.js'));
  const t = decodeKTest(readFileSync(ktestPath));
  const inputs = nativeInputs(t);
  // the run's environment, with the sandbox's PATH (nothing to execute, as in the model)
  const environment = DEFAULT_ENVIRONMENT.map((kv) => (kv.startsWith('PATH=') ? `PATH=${process.env.PATH}` : kv));
  const r = runNative(binary, inputs, { argv0: binary, ktestPath, timeoutMs: 10000, environment });
  process.stdout.write(`argv: ${JSON.stringify(inputs.args)}${inputs.stdin ? `, stdin ${JSON.stringify(Buffer.from(inputs.stdin).toString('latin1'))}` : ''}\n`);
  process.stdout.write(`native: ${r.signal ? `signal ${r.signal}` : `exit ${r.status}`}\n${r.stderr.toString('latin1')}`);
}

function build(gcovDir, utility) {
  const out = join(gcovDir, 'src', `${utility}-asan`);
  const source = join(gcovDir, '..', gcovDir.split('/').pop().replace(/-gcov$/, ''), 'src', `${utility}.c`);
  if (existsSync(out)) return out;
  const compile = makeVariable(gcovDir, 'COMPILE').split(/\s+/).slice(1).filter((f) => f !== '--coverage' && !/^-O/.test(f));
  const libs = makeVariable(gcovDir, `src_${utility.replace(/\W/g, '_')}_LDADD`).split(/\s+/).filter((x) => x !== '');
  const flags = ['-fsanitize=address', '-fno-omit-frame-pointer', '-O0', '-g'];
  execFileSync('gcc', [...compile, ...flags, '-Dmain=tsklee_asan_main', '-c', source, '-o', `${out}.o`], { cwd: gcovDir, stdio: 'inherit' });
  execFileSync('gcc', [...flags, `${out}.o`, join(HERE, 'asan-argv.c'), ...libs, '--coverage', '-o', out], { cwd: gcovDir, stdio: 'inherit' });
  return out;
}

async function main() {
  const [first, ...rest] = process.argv.slice(2);
  if (first === '--inner') return inner(rest[0], rest[1]);
  if (first === undefined || rest.length === 0) {
    process.stderr.write('usage: node scripts/subjects/asan.mjs UTILITY TEST.ktest...\n');
    process.exit(2);
  }
  const cache = resolve(process.env.TSKLEE_SUBJECTS ?? join(homedir(), '.cache', 'tsklee', 'subjects'));
  const gcov = readdirSync(cache).find((d) => /^coreutils-[\d.]+-gcov$/.test(d));
  if (gcov === undefined) throw new Error(`no coreutils gcov build in ${cache}`);
  checkSandbox();
  const binary = build(join(cache, gcov), first);
  for (const k of rest.map((p) => resolve(p))) {
    const [cmd, ...args] = sandboxed([process.execPath, fileURLToPath(import.meta.url), '--inner', binary, k], {
      ro: [ROOT, realpathSync(join(ROOT, 'node_modules')), binary, k],
      env: { PATH: '/nonexistent', ASAN_OPTIONS: 'detect_leaks=0' },
    });
    process.stdout.write(`== ${k}\n`);
    const r = spawnSync(cmd, args, { encoding: 'utf8', maxBuffer: 1 << 26 });
    process.stdout.write(r.stdout + r.stderr);
  }
}

await main();
