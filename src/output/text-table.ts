/**
 * Text tables in the formats of Python's `tabulate`, which KLEE's klee-stats prints with
 * (`--table-format`): klee (its own: dashes above, below and under the header, `|` between
 * cells, no padding), plain, simple, grid, pipe (Markdown), orgtbl, rst, mediawiki, latex,
 * and csv. Numbers are right-aligned with a fixed number of decimals for non-integers, text
 * is centred (klee-stats' numalign/stralign), and every column is at least its header plus
 * two wide (tabulate's MIN_PADDING).
 *
 * Written here rather than taken from npm: cli-table3 and table draw box tables only and
 * markdown-table only pipe tables; none renders tabulate's set, which klee-stats users pick
 * from, and each format is a few lines of column padding.
 */

export const TABLE_FORMATS = ['klee', 'plain', 'simple', 'grid', 'pipe', 'orgtbl', 'rst', 'mediawiki', 'latex', 'csv'] as const;
export type TableFormat = (typeof TABLE_FORMATS)[number];

/** A number always printed with the table's decimals (a percentage that happens to be 100). */
export class Real {
  constructor(readonly value: number) {}
}

export type Cell = string | number | Real | null;

/** A cell as text: integers as they are, other numbers and Reals with `precision` decimals, null as ''. */
export function formatCell(v: Cell, precision: number): string {
  if (v === null) return '';
  if (typeof v === 'string') return v;
  if (v instanceof Real) return Number.isFinite(v.value) ? v.value.toFixed(precision) : String(v.value);
  if (!Number.isFinite(v)) return String(v);
  return Number.isInteger(v) ? String(v) : v.toFixed(precision);
}

/** CSV field, quoted when it holds a comma, quote or line break (RFC 4180). */
export function csvField(s: string): string {
  return /[",\r\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}

function pad(s: string, width: number, align: 'left' | 'right' | 'center'): string {
  const room = width - s.length;
  if (room <= 0) return s;
  if (align === 'right') return ' '.repeat(room) + s;
  if (align === 'left') return s + ' '.repeat(room);
  const left = Math.floor(room / 2);
  return ' '.repeat(left) + s + ' '.repeat(room - left);
}

export function renderTable(headers: readonly string[], rows: readonly (readonly Cell[])[], format: TableFormat, precision = 2): string {
  const text = rows.map((r) => headers.map((_, i) => formatCell(r[i] ?? null, precision)));
  if (format === 'csv') return [headers, ...text].map((r) => r.map(csvField).join(',')).join('\n') + '\n';
  const numeric = headers.map((_, i) => rows.length > 0 && rows.every((r) => r[i] === null || r[i] === undefined || typeof r[i] === 'number' || r[i] instanceof Real));
  const align = numeric.map((n) => (n ? ('right' as const) : ('center' as const)));
  const widths = headers.map((h, i) => Math.max(h.length + 2, ...text.map((r) => r[i]!.length)));
  const cells = (r: readonly string[]): string[] => r.map((c, i) => pad(c, widths[i]!, align[i]!));
  const head = cells(headers);
  const body = text.map(cells);
  const bar = (fill: string, join: string, edge = ''): string => edge + widths.map((w) => fill.repeat(w)).join(join) + edge;
  const row = (r: string[], sep: string, edge = ''): string => edge + r.join(sep) + edge;
  const out: string[] = [];
  switch (format) {
    case 'klee': {
      const line = '-'.repeat(widths.reduce((a, w) => a + w, 0) + widths.length + 1);
      out.push(line, row(head, '|', '|'), line, ...body.map((r) => row(r, '|', '|')), line);
      break;
    }
    case 'plain':
      out.push(row(head, '  '), ...body.map((r) => row(r, '  ')));
      break;
    case 'simple':
      out.push(row(head, '  '), bar('-', '  '), ...body.map((r) => row(r, '  ')));
      break;
    case 'grid': {
      const padded = (r: string[]): string => `| ${r.join(' | ')} |`;
      const sep = (c: string): string => `+${widths.map((w) => c.repeat(w + 2)).join('+')}+`;
      out.push(sep('-'), padded(head), sep('='));
      for (const r of body) out.push(padded(r), sep('-'));
      if (body.length === 0) out.push(sep('-'));
      break;
    }
    case 'pipe': {
      const rule = widths.map((w, i) => (align[i] === 'right' ? `${'-'.repeat(w + 1)}:` : `:${'-'.repeat(w)}:`));
      out.push(`| ${head.join(' | ')} |`, `|${rule.join('|')}|`, ...body.map((r) => `| ${r.join(' | ')} |`));
      break;
    }
    case 'orgtbl':
      out.push(`| ${head.join(' | ')} |`, `|${widths.map((w) => '-'.repeat(w + 2)).join('+')}|`, ...body.map((r) => `| ${r.join(' | ')} |`));
      break;
    case 'rst': {
      const rule = bar('=', '  ');
      out.push(rule, row(head, '  '), rule, ...body.map((r) => row(r, '  ')), rule);
      break;
    }
    case 'mediawiki':
      out.push('{| class="wikitable" style="text-align: left;"', '|+ <!-- caption -->', '|-');
      out.push(`! ${headers.map((h, i) => (align[i] === 'right' ? `align="right"| ${h}` : `align="center"| ${h}`)).join(' !! ')}`);
      for (const r of text) out.push('|-', `| ${r.map((c, i) => (align[i] === 'right' ? `align="right"| ${c}` : `align="center"| ${c}`)).join(' || ')}`);
      out.push('|}');
      break;
    case 'latex': {
      const esc = (s: string): string => s.replace(/([&%$#_{}])/g, '\\$1');
      out.push(`\\begin{tabular}{${align.map((a) => (a === 'right' ? 'r' : 'c')).join('')}}`, '\\hline');
      out.push(`${headers.map(esc).join(' & ')} \\\\`, '\\hline');
      for (const r of text) out.push(`${r.map(esc).join(' & ')} \\\\`);
      out.push('\\hline', '\\end{tabular}');
      break;
    }
  }
  return `${out.join('\n')}\n`;
}
