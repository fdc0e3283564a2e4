/**
 * report.html: one self-contained page (inline style, inline SVG charts, no script, nothing
 * fetched) about a run: the summary, charts over time, each error with its stack, its test's
 * input bytes and a replay command, the program's source with covered and uncovered lines
 * and branch marks, and every test's ending. Elements tests and tools look for carry ids:
 * #count-tests, #count-errors, #count-paths, #count-instructions, and one #error-testNNNNNN
 * per error.
 */
import type { RunReport, ReportSource } from './model.js';

export function escapeHtml(s: string): string {
  return s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);
}

const STYLE = `
body{font:14px/1.4 system-ui,sans-serif;margin:24px;color:#222;max-width:1100px}
h1{font-size:22px}h2{font-size:18px;margin-top:32px;border-bottom:1px solid #ddd}
code,pre{font:12px/1.35 ui-monospace,monospace}
.cmd{background:#f4f4f4;padding:6px 8px;border-radius:4px;overflow-x:auto;white-space:pre}
.cards{display:flex;flex-wrap:wrap;gap:12px}.card{border:1px solid #ddd;border-radius:6px;padding:8px 14px}
.card b{display:block;font-size:20px}
.charts{display:flex;flex-wrap:wrap;gap:8px}
.error{border-left:4px solid #c33;padding:4px 12px;margin:16px 0;background:#fff8f8}
.kind{display:inline-block;background:#c33;color:#fff;border-radius:3px;padding:0 6px;font-size:12px}
table{border-collapse:collapse}td,th{padding:1px 8px;text-align:left;vertical-align:top}
table.inputs td,table.inputs th,table.tests td,table.tests th{border:1px solid #ddd}
table.src{width:100%}table.src td{padding:0 6px;white-space:pre;font:12px/1.35 ui-monospace,monospace}
table.src td.n,table.src td.h{color:#888;text-align:right;user-select:none}
tr.cov td.code{background:#e6ffe6}tr.unc td.code{background:#ffe0e0}tr.err td.code{outline:2px solid #c33}
td.b{color:#a60;text-align:center}
.muted{color:#888}
`;

function card(label: string, value: string | number, id?: string): string {
  return `<div class="card">${escapeHtml(label)}<b${id !== undefined ? ` id="${id}"` : ''}>${escapeHtml(String(value))}</b></div>`;
}

function sourceTable(src: ReportSource, errorLines: Map<number, string[]>): string {
  const hits = new Map(src.lines.map((l) => [l.line, l.hits]));
  const branches = new Map<number, { taken: number; total: number }>();
  for (const b of src.branches) {
    const cur = branches.get(b.line) ?? { taken: 0, total: 0 };
    cur.total++;
    if (b.taken !== null && b.taken > 0) cur.taken++;
    branches.set(b.line, cur);
  }
  const text = src.text ?? '';
  const lines = src.text === null ? [...hits.keys()].map(() => '') : text.split('\n');
  if (src.text === null) return `<p class="muted">${escapeHtml(src.path)}: the source file cannot be read any more.</p>`;
  const rows: string[] = [];
  lines.forEach((code, i) => {
    const n = i + 1;
    const h = hits.get(n);
    const errs = errorLines.get(n);
    const cls = [h === undefined ? '' : h > 0 ? 'cov' : 'unc', errs !== undefined ? 'err' : ''].filter((c) => c !== '').join(' ');
    const b = branches.get(n);
    const mark = b === undefined ? '' : `<span title="${b.taken} of ${b.total} branch sides taken">${b.taken}/${b.total}</span>`;
    const title = errs !== undefined ? ` title="${escapeHtml(errs.join('; '))}"` : '';
    rows.push(`<tr${cls !== '' ? ` class="${cls}"` : ''}${title}><td class="n">${n}</td><td class="h">${h ?? ''}</td><td class="b">${mark}</td><td class="code">${escapeHtml(code)}</td></tr>`);
  });
  return `<table class="src">${rows.join('\n')}</table>`;
}

export function renderReportHtml(r: RunReport, charts: readonly string[]): string {
  const d = r.done;
  const out: string[] = [];
  out.push('<!DOCTYPE html>', '<html lang="en"><head><meta charset="utf-8">', `<title>tsklee report: ${escapeHtml(r.dir)}</title>`, `<style>${STYLE}</style></head><body>`);
  out.push(`<h1>tsklee report: ${escapeHtml(r.dir)}</h1>`, `<div class="cmd">${escapeHtml(r.command)}</div>`);
  if (r.haltReason !== undefined) out.push(`<p>Stopped early: ${escapeHtml(r.haltReason)}</p>`);
  out.push('<div class="cards">');
  out.push(card('explored paths', d['explored paths'] ?? 0, 'count-paths'));
  out.push(card('completed paths', d['completed paths'] ?? 0));
  out.push(card('tests', r.tests.length, 'count-tests'));
  out.push(card('errors', r.errors.length, 'count-errors'));
  out.push(card('instructions', d['total instructions'] ?? 0, 'count-instructions'));
  out.push(card('solver queries', d['total queries'] ?? 0));
  out.push('</div>');
  for (const l of r.coverageLines) out.push(`<p>${escapeHtml(l.replace(/^tsklee: /, ''))}</p>`);
  if (charts.length > 0) out.push('<h2>Over time</h2>', `<div class="charts">${charts.join('\n')}</div>`);

  out.push(`<h2>Errors (${r.errors.length})</h2>`);
  if (r.errors.length === 0) out.push('<p class="muted">No errors.</p>');
  for (const e of r.errors) {
    const where = e.file !== undefined ? `${e.file}:${e.line ?? 0}` : '(no source location)';
    out.push(`<div class="error" id="error-${e.test}"><p><span class="kind">${escapeHtml(e.kind)}</span> <b>${escapeHtml(e.message)}</b><br>${escapeHtml(where)} — ${escapeHtml(e.test)}</p>`);
    if (e.stack.length > 0) out.push(`<pre>${e.stack.map((f) => escapeHtml(f.text)).join('\n')}</pre>`);
    if (e.info !== undefined) out.push(`<pre class="muted">${escapeHtml(e.info)}</pre>`);
    if (e.inputs.length > 0) {
      out.push('<table class="inputs"><tr><th>input</th><th>bytes</th><th>hex</th><th>text</th></tr>');
      for (const o of e.inputs) out.push(`<tr><td>${escapeHtml(o.name)}</td><td>${o.size}</td><td><code>${escapeHtml(o.hex)}</code></td><td><code>${escapeHtml(o.text)}</code></td></tr>`);
      out.push('</table>');
    }
    out.push(`<p>Replay: <code>${escapeHtml(e.replay)}</code></p></div>`);
  }

  out.push(`<h2>Source coverage (${r.sources.length} file${r.sources.length === 1 ? '' : 's'})</h2>`);
  if (r.sources.length === 0) out.push('<p class="muted">No coverage.lcov in this directory.</p>');
  for (const s of r.sources) {
    const errorLines = new Map<number, string[]>();
    for (const e of r.errors) if (e.file === s.path && e.line !== undefined) errorLines.set(e.line, [...(errorLines.get(e.line) ?? []), `${e.test}: ${e.message}`]);
    const hit = s.lines.filter((l) => l.hits > 0).length;
    out.push(`<h3>${escapeHtml(s.path)}</h3>`, `<p>${hit} of ${s.lines.length} lines run; functions: ${s.functions.map((f) => `${escapeHtml(f.name)} (${f.hits}×)`).join(', ')}</p>`);
    out.push(sourceTable(s, errorLines));
  }

  out.push(`<h2>Tests (${r.tests.length})</h2>`, '<table class="tests"><tr><th>test</th><th>ending</th></tr>');
  for (const t of r.tests) out.push(`<tr><td>${escapeHtml(t.test)}</td><td>${escapeHtml(t.ending)}</td></tr>`);
  out.push('</table>', '</body></html>');
  return `${out.join('\n')}\n`;
}
