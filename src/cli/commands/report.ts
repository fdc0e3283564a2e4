/**
 * `tsklee report DIR`: a report of one output directory (output/report/).
 *
 *   --format=html   DIR/report.html (default): one self-contained page, charts included
 *   --format=sarif  DIR/errors.sarif: the errors as SARIF 2.1.0
 *   --format=json   DIR/report.json: a machine-readable summary
 *   --output=FILE   write there instead ('-': standard output)
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Argv, CommandModule } from 'yargs';
import { writeFileAtomic } from '../../output/ktest.js';
import { loadRunReport, ReportInputError } from '../../output/report/model.js';
import { renderReportHtml } from '../../output/report/html.js';
import { chartSvg, runCharts } from '../../output/report/charts.js';
import { reportJson, reportSarif } from '../../output/report/sarif.js';
import { packageRoot } from '../../util/package-root.js';
import type { GlobalArgs } from '../context.js';
import { UsageError, writeStdout } from '../errors.js';

const FORMATS = { html: 'report.html', sarif: 'errors.sarif', json: 'report.json' } as const;
type Format = keyof typeof FORMATS;

interface ReportArgs extends GlobalArgs {
  dir: string;
  format?: string;
  output?: string;
}

function version(): string {
  return (JSON.parse(readFileSync(join(packageRoot(import.meta.url), 'package.json'), 'utf8')) as { version: string }).version;
}

export const reportCommand: CommandModule<GlobalArgs, ReportArgs> = {
  command: 'report <dir>',
  describe: 'Write a report of an output directory: report.html (covered source, errors with inputs, charts), errors.sarif or report.json',
  builder: (y: Argv<GlobalArgs>) =>
    y
      .positional('dir', { type: 'string', demandOption: true, describe: 'an output directory (klee-out-N)' })
      .option('format', { type: 'string', describe: 'html (default), sarif or json' })
      .option('output', { type: 'string', describe: "where to write (default: in DIR; '-': standard output)" })
      .example('$0 report klee-last', '')
      .example('$0 report --format=sarif klee-last', '') as unknown as Argv<ReportArgs>,
  handler: async (argv) => {
    const format = (argv.format ?? 'html') as Format;
    if (!(format in FORMATS)) throw new UsageError(`--format=${argv.format}: expected html, sarif or json`);
    let report;
    try {
      report = await loadRunReport(argv.dir);
    } catch (e) {
      if (e instanceof ReportInputError) throw new UsageError(e.message);
      throw e;
    }
    let text: string;
    if (format === 'html') text = renderReportHtml(report, await Promise.all(runCharts(report.stats).map((c) => chartSvg(c))));
    else text = `${JSON.stringify(format === 'sarif' ? reportSarif(report, version()) : reportJson(report), null, 2)}\n`;
    if (argv.output === '-') {
      await writeStdout(text);
      return;
    }
    const path = argv.output ?? join(argv.dir, FORMATS[format]);
    writeFileAtomic(path, text);
    await writeStdout(`tsklee: wrote ${path}\n`);
  },
};
