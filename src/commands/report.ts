// `batch-sync report RUN-FOLDER|report.json --html FILE`: an archived run's page, from the report.json
// its push left in the report directory (state/report-archive.ts). Thin: the file read and checked
// here, the page made by report/html/.
import { closeSync, constants, existsSync, fstatSync, openSync, readFileSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { Command } from 'commander';
import { ARCHIVED_REPORT_OPTIONS } from '../config/options-history.js';
import { resolveOptions } from '../config/option.js';
import { EXIT, InputError, UsageError } from '../errors.js';
import { writeReason } from '../report/errors-csv.js';
import { archivedReport } from '../report/html/archived.js';
import { runPage } from '../report/html/run-page.js';
import type { Output } from '../report/output.js';
import { openOutput } from '../util/output-file.js';
import { readRunReports } from '../state/report-archive.js';
import { addOptions, givenFlags } from './add-options.js';
import { examples } from './examples.js';
import { linkFrom } from './html-output.js';
import type { SetExit } from './set-exit.js';

/** A run report is capped at 100,000 rows: a file past this is not one. */
const MAX_BYTES = 512 * 1024 * 1024;

function readReport(path: string): unknown {
  let fd: number | undefined;
  try {
    fd = openSync(path, constants.O_RDONLY | constants.O_NONBLOCK);
    const st = fstatSync(fd);
    if (!st.isFile()) throw new InputError(`${path}: not a regular file`);
    if (st.size > MAX_BYTES)
      throw new InputError(`${path}: ${Math.round(st.size / 1024 ** 2)} MiB, over the ${MAX_BYTES / 1024 ** 2} MiB a run report can have`);
    return JSON.parse(readFileSync(fd, 'utf8'));
  } catch (error) {
    if (error instanceof InputError) throw error;
    throw new InputError(`${path}: ${error instanceof SyntaxError ? `not JSON (${error.message})` : writeReason(error)}`);
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

/** A run folder's report.json; a report directory's newest run's; else the file named. */
function reportPath(run: string): string {
  if (!statSync(run, { throwIfNoEntry: false })?.isDirectory()) return run;
  if (existsSync(join(run, 'report.json'))) return join(run, 'report.json');
  for (const archived of readRunReports(run, [])) return archived.path;
  throw new UsageError(`${run}: neither a run folder (no report.json) nor a report directory with a run in it`);
}

export function registerReport(program: Command, output: Output, setExit: SetExit): void {
  const command = program
    .command('report')
    .description('write an archived run as an HTML page, from its run folder or report.json')
    .argument('<run>', 'a run folder of the report directory (<state-dir>/reports/<run id>) or its report.json; a report directory: its newest run')
    .addHelpText(
      'after',
      examples(
        ['batch-sync report fixtures/crm-sales-opportunities/.batch-sync/reports --html last-run.html', "the newest archived run of that plan's pushes"],
        [
          'batch-sync report fixtures/crm-sales-opportunities/.batch-sync/reports/$(ls fixtures/crm-sales-opportunities/.batch-sync/reports | head -1) --html first-run.html',
        ],
      ),
    );
  addOptions(command, ARCHIVED_REPORT_OPTIONS).action((run: string, _flags: unknown, self: Command) => {
    const { html } = resolveOptions(ARCHIVED_REPORT_OPTIONS, givenFlags(self, ARCHIVED_REPORT_OPTIONS), {});
    if (html === undefined) throw new UsageError('report needs --html FILE: the page to write');
    const path = reportPath(run);
    const read = archivedReport(readReport(path));
    if ('problem' in read) throw new InputError(`${path}: ${read.problem}`);
    // the errors CSV the run wrote beside its report, linked from where the page goes
    const links = read.report.errorFiles.map((f) => ({ label: `errors CSV: ${f}`, href: linkFrom(html, resolve(path, '..', f)) }));
    const file = openOutput(resolve(html));
    try {
      file.write(runPage({ report: read.report, exitCode: read.exitCode, links }));
      file.commit();
    } catch (error) {
      file.discard();
      throw new UsageError(`cannot write --html ${html}: ${writeReason(error)}`);
    }
    output.err(`wrote ${html}`);
    setExit(EXIT.ok);
  });
}
