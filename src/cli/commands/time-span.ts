/** KLEE's time spans (--max-time, --max-solver-time, --batch-time). */
import { UsageError } from '../errors.js';

/** KLEE's time spans: "90", "90s", "1.5min", "2h", "500ms", "1h30min". Seconds. */
export function parseTimeSpan(s: string, option: string): number {
  const t = s.trim();
  if (/^\d+(\.\d+)?$/.test(t)) return Number(t);
  const re = /(\d+(?:\.\d+)?)(h|min|s|ms|us|ns)/gy;
  let total = 0;
  let m: RegExpExecArray | null;
  let pos = 0;
  const unit: Record<string, number> = { h: 3600, min: 60, s: 1, ms: 1e-3, us: 1e-6, ns: 1e-9 };
  while ((m = re.exec(t)) !== null) {
    total += Number(m[1]) * unit[m[2]!]!;
    pos = re.lastIndex;
  }
  if (pos !== t.length || t.length === 0) throw new UsageError(`--${option}: invalid time span '${s}' (e.g. 30, 30s, 5min, 1h)`);
  return total;
}

