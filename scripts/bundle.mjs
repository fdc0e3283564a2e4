#!/usr/bin/env node
// Bundles the CLI into one file and records V8's compiled code for it (run by `npm run build`,
// after tsc). Why: a short `tsklee run` spent most of its time loading ~100 ES modules one by
// one (resolving, stat-ing, reading, compiling each); one script compiled from a code cache
// loads in a fraction of that.
//
// Outputs (next to tsc's dist/cli/main.js, the launcher that uses them):
//  - dist/cli/tsklee-bundle.cjs: dist/cli/cli.js and everything it imports, yargs included, as
//    CommonJS wrapped in one function expression `(function (exports, require, module,
//    __filename, __dirname, __bundleUrl, __importModule) { ... })`, so that the launcher
//    compiles the file's exact text with vm.Script (a code cache is only valid for its source).
//    `import.meta.url` becomes __bundleUrl (modules find the package root by walking up from
//    it, src/util/package-root.ts). z3-solver, sql.js, pino and highs stay in node_modules: they are
//    loaded with createRequire and carry wasm files next to their code; so do the experiment
//    command's ajv, yaml, bullmq, ioredis and @resvg/resvg-js (a native addon).
//  - dist/cli/tsklee-bundle.cache: V8's code cache, written by the launcher at the end of a
//    training run (TSKLEE_CODE_CACHE_OUT) of examples/bounds.bc followed by --help, so that it
//    holds the functions a run and the help compile, not only the top-level code. It carries
//    CRC-32s of the bundle and of itself (format in src/cli/main.ts): a cache left from
//    another bundle is ignored.
// Any failure fails the build.
import { build } from 'esbuild';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Script } from 'node:vm';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const ENTRY = join(ROOT, 'dist', 'cli', 'cli.js');
const BUNDLE = join(ROOT, 'dist', 'cli', 'tsklee-bundle.cjs');
const CACHE = join(ROOT, 'dist', 'cli', 'tsklee-bundle.cache');
const LAUNCHER = join(ROOT, 'dist', 'cli', 'main.js');
const TRAINING_PROGRAM = join(ROOT, 'examples', 'bounds.bc');
const quiet = process.argv.includes('--quiet');

/** Packages loaded at run time from node_modules (createRequire), never bundled. */
const EXTERNAL = ['z3-solver', 'sql.js', 'pino', 'highs', 'ajv', 'yaml', 'bullmq', 'ioredis', '@resvg/resvg-js'];

/**
 * yargs's ESM shim finds its locale files (y18n) from its own import.meta.url. In the bundle
 * that would be the bundle's URL, so it gets the installed yargs's location instead: help and
 * messages stay translated as with the unbundled yargs.
 */
const yargsLocales = {
  name: 'yargs-locales',
  setup(b) {
    b.onLoad({ filter: /[/\\]yargs[/\\]lib[/\\]platform-shims[/\\]esm\.mjs$/ }, (args) => {
      const text = readFileSync(args.path, 'utf8');
      if (!text.includes('import.meta.url')) throw new Error(`${args.path}: no import.meta.url to redirect (yargs changed?)`);
      const located = text.replaceAll('import.meta.url', '__yargsShimUrl(import.meta.url)');
      return { contents: `import { yargsShimUrl as __yargsShimUrl } from 'tsklee-bundle:yargs-location';\n${located}`, loader: 'js' };
    });
    b.onResolve({ filter: /^tsklee-bundle:yargs-location$/ }, () => ({ path: 'yargs-location', namespace: 'tsklee-bundle' }));
    b.onLoad({ filter: /^yargs-location$/, namespace: 'tsklee-bundle' }, () => ({
      loader: 'js',
      resolveDir: ROOT,
      contents: `
        import { existsSync } from 'node:fs';
        import { createRequire } from 'node:module';
        import { dirname, join } from 'node:path';
        import { fileURLToPath, pathToFileURL } from 'node:url';
        let url;
        export function yargsShimUrl(bundleUrl) {
          if (url === undefined) {
            try {
              // the package's own node_modules (the bundle is dist/cli/…) with one stat; Node's
              // resolution (a few ms of every start) only when yargs is elsewhere (hoisted)
              const own = join(dirname(fileURLToPath(bundleUrl)), '..', '..', 'node_modules', 'yargs', 'package.json');
              const pkg = existsSync(own) ? own : createRequire(bundleUrl).resolve('yargs/package.json');
              url = pathToFileURL(join(dirname(pkg), 'lib', 'platform-shims', 'esm.mjs')).href;
            } catch {
              url = bundleUrl; // no yargs installed: English messages (y18n's keys)
            }
          }
          return url;
        }`,
    }));
  },
};

/**
 * A URL relative to a module (`new URL('./x', import.meta.url)`, a worker's file) would point
 * next to the bundle: such modules find files through src/util/package-root.ts instead.
 */
const moduleRelativeUrls = {
  name: 'module-relative-urls',
  setup(b) {
    b.onLoad({ filter: /\.js$/ }, (args) => {
      if (!args.path.startsWith(join(ROOT, 'dist') + sep)) return undefined;
      if (/new URL\([^)]*import\.meta\.url/.test(readFileSync(args.path, 'utf8'))) {
        throw new Error(`${args.path}: a URL relative to import.meta.url breaks in the bundle; use packageRoot() (src/util/package-root.ts)`);
      }
      return undefined;
    });
  },
};

/**
 * A dynamic import esbuild cannot follow (a computed specifier: runtime.ts loading a runtime
 * build script by path) stays `import()`, which a vm.Script cannot run without an
 * experimental loader hook that a code cache also breaks. It calls the launcher's
 * __importModule instead, an ESM module's own import().
 */
const COMPUTED_IMPORT = /\bimport\((?!\s*['"`])/;
const computedImports = {
  name: 'computed-imports',
  setup(b) {
    b.onLoad({ filter: /\.js$/ }, (args) => {
      if (!args.path.startsWith(join(ROOT, 'dist') + sep)) return undefined;
      const text = readFileSync(args.path, 'utf8');
      return COMPUTED_IMPORT.test(text) ? { contents: text.replace(new RegExp(COMPUTED_IMPORT.source, 'g'), '__importModule('), loader: 'js' } : undefined;
    });
  },
};

/**
 * cliui and string-width only serve help text, but evaluating them (string-width builds an
 * Intl.Segmenter and Unicode-property regexps) cost every run ~30 ms. yargs's shim gets
 * stand-ins that load the real module on first call.
 */
const LAZY_FROM_YARGS_SHIM = ['cliui', 'string-width'];
const lazyHelpModules = {
  name: 'lazy-help-modules',
  setup(b) {
    const filter = new RegExp(`^(${LAZY_FROM_YARGS_SHIM.join('|')})$`);
    b.onResolve({ filter }, (args) => {
      if (args.kind !== 'import-statement' || !/[/\\]yargs[/\\]lib[/\\]platform-shims[/\\]/.test(args.importer)) return undefined;
      return { path: args.path, namespace: 'tsklee-lazy', pluginData: { resolveDir: args.resolveDir } };
    });
    b.onLoad({ filter: /.*/, namespace: 'tsklee-lazy' }, (args) => ({
      loader: 'js',
      resolveDir: args.pluginData.resolveDir,
      contents: `
        let loaded;
        export default function lazy(...args) {
          if (loaded === undefined) {
            const m = require(${JSON.stringify(args.path)});
            loaded = typeof m === 'function' ? m : m.default;
          }
          return loaded(...args);
        }`,
    }));
  },
};

/**
 * Node modules that most runs never use but that cost a few ms each to load (child_process
 * brings net and dgram): imports of them get an object whose properties load the module on
 * first access. The property names are the ones this node's module has.
 */
const LAZY_BUILTINS = ['child_process', 'worker_threads'];
const lazyBuiltins = {
  name: 'lazy-builtins',
  setup(b) {
    const filter = new RegExp(`^(node:)?(${LAZY_BUILTINS.join('|')})$`);
    b.onResolve({ filter }, (args) => (args.kind === 'import-statement' ? { path: args.path.replace(/^node:/, ''), namespace: 'tsklee-lazy-builtin' } : undefined));
    b.onLoad({ filter: /.*/, namespace: 'tsklee-lazy-builtin' }, (args) => {
      const getters = Object.keys(createRequire(import.meta.url)(args.path)).map((k) => `  get ${JSON.stringify(k)}() { return load()[${JSON.stringify(k)}]; },`);
      return { loader: 'js', contents: `let m;\nconst load = () => (m ??= require('node:${args.path}'));\nmodule.exports = {\n${getters.join('\n')}\n};\n` };
    });
  },
};

async function bundle() {
  const result = await build({
    entryPoints: [ENTRY],
    outfile: BUNDLE,
    write: false,
    bundle: true,
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    external: EXTERNAL,
    define: { 'import.meta.url': '__bundleUrl' },
    charset: 'ascii', // the launcher reads it as latin1, V8's cheapest string
    banner: { js: '(function (exports, require, module, __filename, __dirname, __bundleUrl, __importModule) {' },
    footer: { js: '})' },
    plugins: [yargsLocales, moduleRelativeUrls, computedImports, lazyHelpModules, lazyBuiltins],
    legalComments: 'none',
    logLevel: 'silent',
  });
  for (const w of result.warnings) console.error(`bundle: warning: ${w.location?.file ?? ''}:${w.location?.line ?? ''}: ${w.text}`);
  // import.meta other than .url would be undefined in the bundle
  if (result.warnings.some((w) => w.id === 'empty-import-meta')) throw new Error('import.meta other than import.meta.url cannot be bundled');
  const text = result.outputFiles[0].text;
  if (COMPUTED_IMPORT.test(text)) throw new Error('the bundle still contains an import() the launcher cannot serve');
  // under a temporary name, then renamed: a CLI started meanwhile (others' tests) never reads half a file
  const tmp = `${BUNDLE}.tmp-${process.pid}`;
  writeFileSync(tmp, result.outputFiles[0].contents);
  renameSync(tmp, BUNDLE);
}

/** Runs the launcher on the training program with TSKLEE_CODE_CACHE_OUT and installs the cache it writes. */
function train() {
  const tmp = mkdtempSync(join(tmpdir(), 'tsklee-bundle-'));
  const out = `${CACHE}.tmp-${process.pid}`; // renamed into place: same file system
  try {
    const r = spawnSync(process.execPath, [LAUNCHER, 'run', `--output-dir=${join(tmp, 'out')}`, TRAINING_PROGRAM], {
      encoding: 'utf8',
      maxBuffer: 1 << 26,
      env: { ...process.env, TSKLEE_CODE_CACHE_OUT: out },
    });
    if (r.status !== 0) throw new Error(`training run failed (exit ${r.status}):\n${r.stderr}`);
    if (statSync(out, { throwIfNoEntry: false })?.size === undefined) throw new Error('training run wrote no code cache');
    // V8 rejects a cache made under other flags (a run that leaves a V8 flag changed)
    const script = new Script(readFileSync(BUNDLE, 'latin1'), { filename: BUNDLE, cachedData: readFileSync(out).subarray(8) }); // 8-byte header (main.ts)
    if (script.cachedDataRejected) console.error('bundle: warning: V8 rejects the code cache of the training run; every start will compile the bundle');
    renameSync(out, CACHE);
  } finally {
    rmSync(tmp, { recursive: true, force: true });
    rmSync(out, { force: true });
  }
}

try {
  const t0 = performance.now();
  await bundle();
  const t1 = performance.now();
  train();
  const t2 = performance.now();
  if (!quiet) {
    const kb = (f) => `${Math.round(statSync(f).size / 1024)} KB`;
    console.log(`bundle: ${BUNDLE} (${kb(BUNDLE)}, ${Math.round(t1 - t0)} ms), code cache ${kb(CACHE)} (${Math.round(t2 - t1)} ms)`);
  }
} catch (e) {
  console.error(`bundle: ${e.message}`);
  process.exit(1);
}
