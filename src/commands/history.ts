// `batch-sync history`: the runs a state directory archived, newest last, as a table with charts or
// as JSON. Thin: options from their table, the reports read by state/, rendered by report/.
import { existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import type { Command } from 'commander';
import { HISTORY_OPTIONS, resolveHistory } from '../config/options-history.js';
import { UsageError } from '../errors.js';
import { HISTORY_FIELDS, historyJson, historyLines, historyRun, type HistoryRun } from '../report/history.js';
import type { Output } from '../report/output.js';
import { writeReason } from '../report/errors-csv.js';
import { HISTORY_PAGE_FIELDS, historyPage, type HistoryPageRun } from '../report/html/history-page.js';
import { openOutput } from '../util/output-file.js';
import { linkFrom } from './html-output.js';
import { visible } from '../report/terminal-text.js';
import { loadPlanFor } from '../run/sync.js';
import { readRunReports } from '../state/report-archive.js';
import { addOptions, givenFlags } from './add-options.js';
import { examples } from './examples.js';
import type { SetExit } from './set-exit.js';

/** The run's page when one was written beside its report (report.html), else its report.json. */
function runLink(page: string, reportJson: string): string {
  const beside = join(dirname(reportJson), 'report.html');
  return linkFrom(page, existsSync(beside) ? beside : reportJson);
}

function writeHistoryPage(path: string, text: string): void {
  const file = openOutput(resolve(path));
  try {
    file.write(text);
    file.commit();
  } catch (error) {
    file.discard();
    throw new UsageError(`cannot write --html ${path}: ${writeReason(error)}`);
  }
}

export function registerHistory(program: Command, output: Output, _setExit: SetExit): void {
  const command = program
    .command('history')
    .description("show the archived runs of a state directory: counts, exit codes and the trend of each push's rows and duration")
    .addHelpText(
      'after',
      examples(
        ['batch-sync history --config fixtures/crm-sales-opportunities/batch-sync.config.json', "the runs of that plan's incremental pushes"],
        ['batch-sync history --state-dir fixtures/crm-sales-opportunities/.batch-sync --last 5 --format json'],
      ),
    );
  addOptions(command, HISTORY_OPTIONS).action(async (_flags: unknown, self: Command) => {
    const given = givenFlags(self, HISTORY_OPTIONS);
    const plan = await loadPlanFor({ config: given.config as string | undefined });
    const { reportDir, last, format, html } = resolveHistory(given, plan, process.cwd());
    if (!existsSync(reportDir))
      throw new UsageError(`no report directory at ${reportDir}`, {
        suggestion: 'name the state directory of the pushes (--state-dir) or their --report-dir; pushes archive their reports when they keep a state',
      });
    // newest first, only until the last n runs are found: each report is streamed, its rows unread
    const shown: HistoryRun[] = [];
    const pages: HistoryPageRun[] = [];
    let unreadable = 0;
    for (const report of readRunReports(reportDir, html ? [...HISTORY_FIELDS, ...HISTORY_PAGE_FIELDS] : HISTORY_FIELDS)) {
      const run = 'fields' in report ? historyRun(report.fields) : undefined;
      if ('problem' in report) output.err(`warning: ${visible(report.path)}: ${report.problem}; left out`);
      if (run) shown.unshift(run);
      else unreadable++;
      if (run && html && 'fields' in report) pages.unshift({ run, fields: report.fields, href: runLink(html, report.path) });
      if (shown.length === last) break;
    }
    if (html) writeHistoryPage(html, historyPage(pages, reportDir, unreadable));
    if (format === 'json') output.out(`${JSON.stringify(historyJson(shown, reportDir, unreadable), null, 2)}\n`);
    else for (const line of historyLines(shown, visible(reportDir), unreadable)) output.out(line);
  });
}
