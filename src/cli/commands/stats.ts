/**
 * `tsklee stats DIR…`: the statistics of one or several output directories as KLEE's
 * klee-stats prints them (output/klee-stats.ts says what each column is). A DIR without an
 * `info` file is searched for output directories below it, as klee-stats does.
 *
 *   --print-more / --print-all / --print-rel-times / --print-abs-times   more or other columns
 *   --print-columns=A,B  just these columns (klee-stats names: Instrs, TermExit, …, or run.stats')
 *   --table-format=klee|plain|simple|grid|pipe|orgtbl|rst|mediawiki|latex|csv
 *   --to-csv             every row of run.stats as CSV (a Path column first with several DIRs)
 *   --compare-by=COL     each run at the point where COL (Instrs, Time, …) reached the first
 *   --compare-at=VALUE   run's last value (or VALUE; 'last': the smallest last value of all)
 *   --sort-by=COL [--ascending]   order of the rows
 *   --precision=N        decimals (default 2)
 * Several runs get a "Total (N)" row, as in klee-stats. A long option may have one dash
 * (`-to-csv`), as klee-stats' own spelling in KLEE's tests.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { Argv, CommandModule } from 'yargs';
import { readRunStats } from '../../output/run-stats.js';
import { columnOfName, findOutputDirs, rowAtOrBefore, statsRecord, stripCommonPrefix, tableOf, tableOfColumns, totalRecord, type PrintMode, type RunStatsData } from '../../output/klee-stats.js';
import { csvField, renderTable, TABLE_FORMATS, type TableFormat } from '../../output/text-table.js';
import type { GlobalArgs } from '../context.js';
import { UsageError, writeStdout } from '../errors.js';

interface StatsArgs extends GlobalArgs {
  dirs: string[];
  printAll?: boolean;
  printMore?: boolean;
  printRelTimes?: boolean;
  printAbsTimes?: boolean;
  printColumns?: string;
  tableFormat?: string;
  toCsv?: boolean;
  compareBy?: string;
  compareAt?: string;
  sortBy?: string;
  ascending?: boolean;
  precision?: number;
}

async function load(dir: string): Promise<RunStatsData> {
  const file = join(dir, 'run.stats');
  if (!existsSync(file)) throw new UsageError(`${dir}: no run.stats`);
  try {
    return await readRunStats(file);
  } catch (e) {
    throw new UsageError(`${file}: not a readable run.stats (${(e as Error).message.split('\n')[0]})`);
  }
}

function printMode(a: StatsArgs): PrintMode {
  const chosen = [a.printAll && 'all', a.printMore && 'more', a.printRelTimes && 'reltime', a.printAbsTimes && 'abstime'].filter((m): m is PrintMode => typeof m === 'string');
  if (chosen.length + (a.printColumns !== undefined ? 1 : 0) > 1) throw new UsageError('--print-all, --print-more, --print-rel-times, --print-abs-times and --print-columns exclude each other');
  return chosen[0] ?? 'default';
}

function toCsv(paths: readonly string[], datas: readonly RunStatsData[]): string {
  const several = datas.length > 1;
  let out = '';
  datas.forEach((d, n) => {
    if (n === 0) out += `${[...(several ? ['Path'] : []), ...d.columns].map(csvField).join(',')}\n`;
    for (const row of d.rows) out += `${[...(several ? [csvField(paths[n]!)] : []), ...row.map(String)].join(',')}\n`;
  });
  return out;
}

export const statsCommand: CommandModule<GlobalArgs, StatsArgs> = {
  command: 'stats <dirs..>',
  describe: "Print the statistics of output directories (like KLEE's klee-stats)",
  builder: (y: Argv<GlobalArgs>) =>
    y
      .positional('dirs', { type: 'string', array: true, demandOption: true, describe: 'output directories (or directories holding them)' })
      .option('print-all', { type: 'boolean', describe: 'every column' })
      .option('print-more', { type: 'boolean', describe: 'also states and memory (for watching a run)' })
      .option('print-rel-times', { type: 'boolean', describe: 'times relative to the wall time (%)' })
      .option('print-abs-times', { type: 'boolean', describe: 'times in seconds' })
      .option('print-columns', { type: 'string', describe: "only these columns, comma-separated: klee-stats' names (Instrs, Time(s), TermExit, TermProgrErr, …) or run.stats'" })
      .option('table-format', { type: 'string', describe: `table style: ${TABLE_FORMATS.join(', ')} (default klee)` })
      .option('to-csv', { type: 'boolean', describe: 'every row of run.stats as CSV' })
      .option('compare-by', { type: 'string', describe: 'compare the runs at the point where this column (Instrs, Time, …) reached the first run\'s last value' })
      .option('compare-at', { type: 'string', describe: "with --compare-by: the value to compare at ('last': the smallest last value)" })
      .option('sort-by', { type: 'string', describe: 'sort the rows by this column' })
      .option('ascending', { type: 'boolean', describe: 'with --sort-by: smallest first' })
      .option('precision', { type: 'number', describe: 'decimals of non-integers (default 2)' })
      .example('$0 stats klee-last', '')
      .example('$0 stats --print-more --compare-by=Instrs klee-out-0 klee-out-1', '') as unknown as Argv<StatsArgs>,
  handler: async (argv) => {
    const format = (argv.tableFormat ?? 'klee') as TableFormat;
    if (!TABLE_FORMATS.includes(format)) throw new UsageError(`--table-format=${argv.tableFormat}: unknown format (${TABLE_FORMATS.join(', ')})`);
    const precision = argv.precision ?? 2;
    if (!Number.isInteger(precision) || precision < 0 || precision > 20) throw new UsageError(`--precision=${argv.precision}: expected a whole number from 0 to 20`);
    const mode = printMode(argv);
    const dirs = findOutputDirs(argv.dirs.map(String));
    if (dirs.length === 0) throw new UsageError(`no output directory (with an info file) in ${argv.dirs.join(', ')}`);
    const datas = await Promise.all(dirs.map(load));
    const paths = dirs.length > 1 ? stripCommonPrefix(dirs) : dirs;
    if (argv.toCsv === true) {
      await writeStdout(toCsv(paths, datas));
      return;
    }
    let records = datas.map((d) => statsRecord(d));
    if (argv.compareBy !== undefined) {
      const column = wrap(() => columnOfName(argv.compareBy!, datas[0]!.columns));
      const lastOf = (d: RunStatsData): number => d.rows[d.rows.length - 1]?.[d.columns.indexOf(column)] ?? 0;
      let target: number;
      if (argv.compareAt === undefined) target = lastOf(datas[0]!);
      else if (argv.compareAt === 'last') target = Math.min(...datas.map(lastOf));
      else {
        target = Number(argv.compareAt);
        if (!Number.isFinite(target)) throw new UsageError(`--compare-at=${argv.compareAt}: expected a number or 'last'`);
      }
      records = datas.map((d) => statsRecord(d, wrap(() => rowAtOrBefore(d, column, target))));
    }
    let order = records.map((_, i) => i);
    if (argv.sortBy !== undefined) {
      const key = wrap(() => columnOfName(argv.sortBy!, Object.keys(records[0]!)));
      const dir = argv.ascending === true ? 1 : -1;
      order = order.sort((a, b) => dir * ((records[a]![key] ?? 0) - (records[b]![key] ?? 0)));
    }
    const shownPaths = order.map((i) => paths[i]!);
    const shown = order.map((i) => records[i]!);
    if (datas.length > 1) {
      shownPaths.push(`Total (${datas.length})`);
      shown.push(totalRecord(datas));
    }
    const columns = argv.printColumns?.split(',').map((c) => c.trim()).filter((c) => c.length > 0);
    if (columns !== undefined && columns.length === 0) throw new UsageError('--print-columns: no column named');
    const { headers, rows } = columns !== undefined ? wrap(() => tableOfColumns(shownPaths, shown, columns)) : tableOf(shownPaths, shown, mode);
    await writeStdout(renderTable(headers, rows, format, precision));
  },
};

/** A bad column name as a usage error. */
function wrap<T>(f: () => T): T {
  try {
    return f();
  } catch (e) {
    throw new UsageError((e as Error).message);
  }
}

/** Long option names of `tsklee stats`, for klee-stats' one-dash spelling (`-to-csv`). */
const STATS_LONG_OPTIONS = new Set(['print-all', 'print-more', 'print-rel-times', 'print-abs-times', 'print-columns', 'table-format', 'to-csv', 'compare-by', 'compare-at', 'sort-by', 'ascending', 'precision']);

/** `stats` arguments with `-name[=v]` of a long option spelled `--name[=v]` (yargs reads `-to-csv` as -t -o …). */
export function statsLongOptions(args: readonly string[]): string[] {
  return args.map((a) => (/^-[a-z]/.test(a) && STATS_LONG_OPTIONS.has(a.slice(1).split('=')[0]!) ? `-${a}` : a));
}
