// One line for cron mail subjects and log scrapers: key=value pairs in a fixed order, no colour, no
// row data, so `grep 'batch-sync push: .* FAILED'` and simple parsers keep working across versions.
import { trafficPairs } from './traffic.js';
import { commandName, durationSeconds, failedRows, isSendingMode, type RunReport } from './run-report.js';

export type RunStatus = 'OK' | 'FAILED' | 'ABORTED';

/**
 * The status word follows the exit code when one is given (the entry point decides it, and the line
 * must never contradict it); otherwise it is derived from the counts.
 */
export function runStatus(report: Pick<RunReport, 'aborted' | 'totals' | 'deliberateSkips'>, exitCode?: number): RunStatus {
  if (exitCode !== undefined) return exitCode === 0 ? 'OK' : exitCode === 3 || report.aborted ? 'ABORTED' : 'FAILED';
  if (report.aborted) return 'ABORTED';
  return failedRows(report) > 0 ? 'FAILED' : 'OK';
}

/**
 * `batch-sync push: run 20261121-0544-ab12 FAILED exit=1 read=8950 accepted=8940 rejected=7 invalid=3 skipped=0 warnings=2 duration=12.3s`.
 * validate and dry runs accept nothing: their rows are `valid=N`, as the report's table says.
 */
export function summaryLine(report: RunReport, exitCode?: number): string {
  const t = report.totals;
  const accepted = isSendingMode(report.mode) ? 'accepted' : 'valid';
  const parts = [
    `batch-sync ${commandName(report.mode)}: run ${report.runId} ${runStatus(report, exitCode)}`,
    ...(exitCode === undefined ? [] : [`exit=${exitCode}`]),
    `read=${t.read}`,
    `${accepted}=${t.accepted}`,
    `rejected=${t.rejected}`,
    `invalid=${t.invalid}`,
    `skipped=${t.skipped}`,
    `warnings=${t.warnings}`,
    `duration=${durationSeconds(report)}`,
  ];
  if (report.isolation) parts.push(`isolation-requests=${report.isolation.requests}`);
  if (report.traffic) parts.push(...trafficPairs(report.traffic));
  if (report.aborted) parts.push(`aborted=${report.aborted.code}`);
  return parts.join(' ');
}
