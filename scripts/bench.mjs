#!/usr/bin/env node
// Benchmarks (run after `npm run build`):
//  - engine: `tsklee run --search=dfs` on the reference programs (DESIGN.md, "Reference
//    numbers"; ../shared/bench or $TSKLEE_BENCH_DIR), each a child process: wall time,
//    peak RSS, instructions/s, queries reaching the backend, solver time and per-layer hits
//    (from run.stats), against KLEE's times; output on /dev/shm unless TSKLEE_BENCH_OUT=DIR;
//  - decode: bitcode decode and print speed on the large generated program, for every clang
//    version and optimisation level built.
// Usage: npm run bench [-- --repeat N] [--engine | --decode] [--via-node]
// tsklee runs as a user runs the `tsklee` command (bin/tsklee); --via-node runs
// `node dist/cli/main.js` instead (which pays for NODE_EXTRA_CA_CERTS when that is set).
// On a loaded machine wall times mostly measure waiting: compare `cpu s` (user + system).
import { readFileSync, existsSync, readdirSync, statSync, mkdtempSync, rmSync } from 'node:fs';
import { join, dirname, basename } from 'node:path';
import { tmpdir } from 'node:os';
import { fileURLToPath } from 'node:url';
import { execFileSync, spawnSync } from 'node:child_process';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const repeatArg = process.argv.indexOf('--repeat');
const repeat = repeatArg > 0 ? Number(process.argv[repeatArg + 1]) : 5;
const viaNode = process.argv.includes('--via-node');
const only = process.argv.includes('--engine') ? 'engine' : process.argv.includes('--decode') ? 'decode' : 'all';

if (!existsSync(join(root, 'dist/bitcode/index.js'))) {
  console.error('bench: run `npm run build` first');
  process.exit(1);
}

// KLEE 3.3-pre, --search=dfs, median of 3 (DESIGN.md): seconds, and what the program does.
const KLEE = {
  'concrete.c': { s: 3.83, what: '22.9 M concrete instructions' },
  'paths.c': { s: 0.52, what: '4096 paths' },
  'strparse.c': { s: 0.64, what: '45 paths, solver-bound' },
  'trivial.c': { s: 0.04, what: 'start-up' },
};

/** One `tsklee run` as a child: wall seconds, peak RSS (KB, via /usr/bin/time when present), stderr. */
function runOnce(bc, outDir) {
  const command = viaNode ? [process.execPath, join(root, 'dist/cli/main.js')] : [join(root, 'bin/tsklee')];
  const args = [...command.slice(1), 'run', '--no-echo-program-output', '--search=dfs', `--output-dir=${outDir}`, bc];
  const timed = existsSync('/usr/bin/time');
  const t0 = performance.now();
  const r = timed
    ? spawnSync('/usr/bin/time', ['-f', 'BENCH-RSS %M %U %S', command[0], ...args], { encoding: 'utf8' })
    : spawnSync(command[0], args, { encoding: 'utf8' });
  const wall = (performance.now() - t0) / 1000;
  if (r.status !== 0) throw new Error(`bench: tsklee run ${basename(bc)} failed (${r.status}):\n${r.stderr}`);
  const m = /BENCH-RSS (\d+) ([\d.]+) ([\d.]+)/.exec(r.stderr);
  return { wall, rss: Number(m?.[1] ?? NaN), cpu: Number(m?.[2] ?? NaN) + Number(m?.[3] ?? NaN), stderr: r.stderr };
}

/** The last row of run.stats as {column: value}. */
async function lastStats(outDir) {
  const { readRunStats } = await import(join(root, 'dist/output/run-stats.js'));
  const { columns, rows } = await readRunStats(join(outDir, 'run.stats'));
  const last = rows[rows.length - 1] ?? [];
  return Object.fromEntries(columns.map((c, i) => [c, last[i]]));
}

/** "fast-top 100%, cex-cache 98%": hits / queries of every layer that saw a query (backend last). */
function layerHits(st) {
  const out = [];
  for (const col of Object.keys(st)) {
    const m = /^SolverLayer(.+)Queries$/.exec(col);
    if (m === null || m[1] === 'Backend' || !(st[col] > 0)) continue;
    out.push(`${m[1]} ${((100 * st[`SolverLayer${m[1]}Hits`]) / st[col]).toFixed(0)}%`);
  }
  return out.join(', ');
}

async function engineBench() {
  const benchDir = process.env.TSKLEE_BENCH_DIR ?? join(root, '../shared/bench');
  if (!existsSync(benchDir)) {
    console.error(`bench: no reference programs in ${benchDir} (set TSKLEE_BENCH_DIR)`);
    return;
  }
  // tmpfs by default: on a busy ext4 disk creating a file can cost ~1 ms of kernel time
  // (paths.c writes 4096), which measures the disk, not tsklee; TSKLEE_BENCH_OUT=DIR to choose
  const outBase = process.env.TSKLEE_BENCH_OUT ?? (existsSync('/dev/shm') ? '/dev/shm' : tmpdir());
  const work = mkdtempSync(join(outBase, 'tsklee-bench-'));
  const reps = repeat;
  const rows = [];
  try {
    for (const name of Object.keys(KLEE).filter((f) => existsSync(join(benchDir, f)))) {
      const bc = join(work, name.replace(/\.c$/, '.bc'));
      execFileSync('clang-16', ['-emit-llvm', '-c', '-g', '-O0', '-Xclang', '-disable-O0-optnone', '-I', join(root, 'runtime/include'), join(benchDir, name), '-o', bc]);
      const runs = [];
      for (let i = 0; i < reps; i++) {
        const outDir = join(work, `${name}-${i}`);
        runs.push({ ...runOnce(bc, outDir), outDir });
      }
      runs.sort((a, b) => a.wall - b.wall);
      const med = runs[Math.floor(runs.length / 2)];
      const st = await lastStats(med.outDir);
      const insts = Number(/total instructions = (\d+)/.exec(med.stderr)?.[1] ?? NaN);
      const paths = Number(/completed paths = (\d+)/.exec(med.stderr)?.[1] ?? NaN);
      rows.push({
        program: name,
        paths,
        'wall s': med.wall.toFixed(2),
        // the fastest run: on a shared, noisy machine the least disturbed one
        'min s': runs[0].wall.toFixed(2),
        'KLEE s': KLEE[name].s.toFixed(2),
        ratio: (med.wall / KLEE[name].s).toFixed(2),
        'cpu s': med.cpu.toFixed(2),
        'RSS MB': (med.rss / 1024).toFixed(0),
        'M inst/s': name === 'concrete.c' ? (insts / med.wall / 1e6).toFixed(2) : '',
        'backend queries': st.NumQueries ?? '',
        'solver ms': st.SolverTime !== undefined ? (st.SolverTime / 1000).toFixed(0) : '',
        'backend ms': st.QueryTime !== undefined ? (st.QueryTime / 1000).toFixed(0) : '',
        'layer hits': layerHits(st),
      });
    }
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
  console.log(`engine: ${viaNode ? 'node dist/cli/main.js' : 'bin/tsklee'} run --search=dfs (median of ${reps}; KLEE = DESIGN.md reference; ratio = tsklee / KLEE)`);
  console.table(rows);
  const certs = process.env.NODE_EXTRA_CA_CERTS ? `, ${nodeFloor(true).toFixed(2)} s without NODE_EXTRA_CA_CERTS (as bin/tsklee runs node)` : '';
  console.log(`floor: \`node -e 0\` takes ${nodeFloor(false).toFixed(2)} s here${certs}`);
  console.log(`output directories under ${outBase}`);
}

function nodeFloor(withoutCerts) {
  const env = { ...process.env };
  if (withoutCerts) delete env.NODE_EXTRA_CA_CERTS;
  const t0 = performance.now();
  spawnSync(process.execPath, ['-e', '0'], { env });
  return (performance.now() - t0) / 1000;
}

if (only !== 'decode') await engineBench();
if (only === 'engine') process.exit(0);
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
