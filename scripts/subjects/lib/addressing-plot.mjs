#!/usr/bin/env node
/**
 * The plots of the relocatable-addressing measurements (paper 003), vega-lite → SVG, and a PNG
 * of each when chromium is there (`chromium --headless --screenshot`):
 *  - addressing-split: CPU seconds and paths against the partition size (32…512, log scale),
 *    one line per program, the forking model's value as a dashed rule (the paper's Table 7);
 *  - addressing-k: resolution queries of segment merging by k (default resolution as k = -1),
 *    one line per program (the paper's Table 4).
 * Input: the `split` and `k` lists of results files ({ driver, config, cpu, paths,
 * resolutionQueries, completed }) as scripts/subjects/apr-addressing.mjs and
 * scripts/bench-addressing.mjs --json write them.
 *
 *   node scripts/subjects/lib/addressing-plot.mjs OUTDIR RESULTS.json...
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

async function render(spec, file) {
  const vega = await import('vega');
  const vl = await import('vega-lite');
  const view = new vega.View(vega.parse(vl.compile(spec).spec), { renderer: 'none' });
  writeFileSync(file, await view.toSVG());
  return file;
}

/** chromium's screenshot of the SVG at its own size; null when there is no chromium. */
function png(svg) {
  const m = /<svg[^>]*\bwidth="([\d.]+)"[^>]*\bheight="([\d.]+)"/.exec(readFileSync(svg, 'utf8'));
  const [w, h] = m === null ? [800, 400] : [Math.ceil(Number(m[1])), Math.ceil(Number(m[2]))];
  const out = svg.replace(/\.svg$/, '.png');
  const r = spawnSync('chromium', ['--headless', '--no-sandbox', '--disable-gpu', '--hide-scrollbars', `--screenshot=${out}`, `--window-size=${w},${h}`, `file://${svg}`], { encoding: 'utf8', timeout: 60_000 });
  return r.status === 0 && existsSync(out) ? out : null;
}

/** Writes the plots of `res` ({ split: [...], k: [...] }) into `outDir`; resolves to the files. */
export async function plotAddressing(res, outDir) {
  const files = [];
  const split = res.split.filter((r) => r.config !== 'forking').map((r) => ({ program: r.driver, partition: Number(r.config.slice(1)), cpu: r.cpu, paths: r.paths, status: r.completed ? 'completed' : 'cut by the budget' }));
  const forking = res.split.filter((r) => r.config === 'forking').map((r) => ({ program: r.driver, cpu: r.cpu, paths: r.paths }));
  if (split.length > 0) {
    const panel = (field, title) => ({
      width: 300,
      height: 220,
      layer: [
        {
          data: { values: split },
          mark: { type: 'line', point: true },
          encoding: {
            x: { field: 'partition', type: 'quantitative', scale: { type: 'log', base: 2 }, axis: { values: [32, 64, 128, 256, 512] }, title: 'partition size (bytes)' },
            y: { field, type: 'quantitative', scale: { type: 'log' }, title },
            color: { field: 'program', type: 'nominal' },
            shape: { field: 'status', type: 'nominal', title: null },
          },
        },
        { data: { values: forking }, mark: { type: 'rule', strokeDash: [4, 3] }, encoding: { y: { field, type: 'quantitative' }, color: { field: 'program', type: 'nominal' } } },
      ],
    });
    const spec = { $schema: 'https://vega.github.io/schema/vega-lite/v5.json', title: 'Splitting by partition size (dashed: forking model)', hconcat: [panel('cpu', 'CPU seconds'), panel('paths', 'completed paths')] };
    const svg = await render(spec, resolve(outDir, 'addressing-split.svg'));
    files.push(svg, png(svg));
  }
  const k = res.k.map((r) => ({ program: r.driver, k: r.config === 'default' ? -1 : Number(r.config.slice(2)), queries: r.resolutionQueries }));
  if (k.length > 0) {
    const spec = {
      $schema: 'https://vega.github.io/schema/vega-lite/v5.json',
      title: 'Resolution queries of segment merging by k (-1: default resolution)',
      data: { values: k },
      width: 300,
      height: 200,
      mark: { type: 'line', point: true },
      encoding: {
        x: { field: 'k', type: 'quantitative', axis: { values: [-1, 0, 1, 2, 3, 4] }, title: 'k' },
        y: { field: 'queries', type: 'quantitative', scale: { type: 'log' }, title: 'resolution queries' },
        color: { field: 'program', type: 'nominal' },
      },
    };
    const svg = await render(spec, resolve(outDir, 'addressing-k.svg'));
    files.push(svg, png(svg));
  }
  return files.filter((f) => f !== null);
}

if (process.argv[1] !== undefined && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const [outDir, ...inputs] = process.argv.slice(2);
  if (outDir === undefined || inputs.length === 0) {
    process.stderr.write('usage: node scripts/subjects/lib/addressing-plot.mjs OUTDIR RESULTS.json...\n');
    process.exitCode = 1;
  } else {
    const res = { split: [], k: [] };
    for (const f of inputs) {
      const r = JSON.parse(readFileSync(f, 'utf8'));
      res.split.push(...(r.split ?? []));
      res.k.push(...(r.k ?? []));
    }
    for (const f of await plotAddressing(res, outDir)) process.stderr.write(`plot: ${f}\n`);
  }
}
