#!/usr/bin/env node
// Benchmarks (run after `npm run build`): bitcode decode and print speed on the large
// generated program, for every clang version and optimisation level built.
// Usage: npm run bench [-- --repeat N]
import { readFileSync, existsSync, readdirSync, statSync } from 'node:fs';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { execFileSync } from 'node:child_process';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const repeatArg = process.argv.indexOf('--repeat');
const repeat = repeatArg > 0 ? Number(process.argv[repeatArg + 1]) : 5;

if (!existsSync(join(root, 'dist/bitcode/index.js'))) {
  console.error('bench: run `npm run build` first');
  process.exit(1);
}
const largeDir = join(root, 'fixtures/large/build');
if (!existsSync(largeDir) || readdirSync(largeDir).filter((f) => f.endsWith('.bc')).length === 0) {
  execFileSync(process.execPath, [join(root, 'scripts/build-fixtures.mjs'), '--large'], { stdio: 'inherit' });
}
const { readBitcodeModule } = await import(join(root, 'dist/bitcode/index.js'));
const { printModule } = await import(join(root, 'dist/ir/printer/index.js'));

function median(xs) {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)];
}

const rows = [];
for (const f of readdirSync(largeDir).filter((f) => f.endsWith('.bc')).sort()) {
  const path = join(largeDir, f);
  const buf = new Uint8Array(readFileSync(path));
  const mb = statSync(path).size / 1e6;
  readBitcodeModule(buf, path); // warm-up (JIT)
  const decode = [];
  const print = [];
  let insts = 0;
  for (let i = 0; i < repeat; i++) {
    const t0 = performance.now();
    const m = readBitcodeModule(buf, path);
    const t1 = performance.now();
    printModule(m);
    const t2 = performance.now();
    decode.push(t1 - t0);
    print.push(t2 - t1);
    insts = m.functions.reduce((n, fn) => n + fn.blocks.reduce((k, b) => k + b.insts.length, 0), 0);
  }
  const d = median(decode);
  rows.push({
    file: f,
    'size MB': mb.toFixed(2),
    instructions: insts,
    'decode ms': d.toFixed(1),
    'decode MB/s': (mb / (d / 1000)).toFixed(1),
    'print ms': median(print).toFixed(1),
  });
}
console.log(`bitcode decode (median of ${repeat})`);
console.table(rows);
