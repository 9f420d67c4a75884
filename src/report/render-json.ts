// `--format json`: one document on stdout for CI. Keys are written in a fixed order and absent values
// are null, so consumers (and snapshot tests) can rely on the shape. Raw row cells never appear here:
// they are personal data and belong only in the errors CSV the user asked for.
import type { Diagnostic } from '../util/diagnostic.js';
import type { OutcomeGroup, ResourceCounts } from './collector.js';
import type { RowOutcome } from '../plan/outcome.js';
import type { Output } from './output.js';
import type { RunReport } from './run-report.js';
import { trafficJson } from './traffic.js';

const JSON_REPORT_VERSION = 1;

const countsJson = (c: ResourceCounts) => ({
  read: c.read,
  accepted: c.accepted,
  rejected: c.rejected,
  invalid: c.invalid,
  skipped: c.skipped,
  warnings: c.warnings,
});

/** Only the fields listed here leave the process: `row` is deliberately not one of them. */
const rowJson = (o: RowOutcome) => ({
  file: o.file,
  line: o.line,
  resource: o.resource,
  externalId: o.externalId ?? null,
  outcome: o.outcome,
  field: o.field ?? null,
  column: o.column ?? null,
  message: o.message,
  detail: o.detail,
  batchId: o.batchId ?? null,
});

const groupJson = (g: OutcomeGroup) => ({
  resource: g.resource,
  outcome: g.outcome,
  reason: g.label,
  count: g.count,
  examples: g.examples.map(rowJson),
});

const warningJson = (d: Diagnostic) => ({
  file: d.file,
  line: d.line ?? null,
  column: d.column ?? null,
  field: d.field ?? null,
  reason: d.reason,
  suggestion: d.suggestion ?? null,
});

export function reportJson(report: RunReport) {
  return {
    version: JSON_REPORT_VERSION,
    runId: report.runId,
    mode: report.mode,
    startedAt: report.startedAt.toISOString(),
    endedAt: report.endedAt.toISOString(),
    aborted: report.aborted ? { code: report.aborted.code, message: report.aborted.message } : null,
    counts: Object.fromEntries(Object.entries(report.counts).map(([r, c]) => [r, countsJson(c)])),
    totals: countsJson(report.totals),
    groups: report.groups.map(groupJson),
    notAccepted: report.notAccepted.map(rowJson),
    notListed: report.notListed,
    // a stopped run's files from the line where it stopped reading them (fromLine null: none of it read)
    notRead: (report.notRead ?? []).map((n) => ({ resource: n.resource, file: n.file, fromLine: n.fromLine ?? null, rowsRead: n.rowsRead ?? null })),
    warningGroups: report.warningGroups.map((g) => ({
      resource: g.resource ?? null,
      reason: g.label,
      count: g.count,
      examples: g.examples.map(warningJson),
    })),
    warnings: report.warnings.map(warningJson),
    warningsNotListed: report.warningsNotListed,
    ownersNotInRun: report.ownersNotInRun,
    errorFiles: report.errorFiles ?? [],
    // --isolate-unattributed: the extra requests it sent (null when it was off)
    isolation: report.isolation ? { requests: report.isolation.requests, budget: report.isolation.budget, overBudget: report.isolation.overBudget } : null,
    // push only: what the requests met (null in validate and --dry-run)
    traffic: report.traffic ? trafficJson(report.traffic) : null,
    /** `push --dry-run` only: the batches that would have been sent. */
    batches: report.batches ? report.batches.map((b) => ({ batchId: b.batchId, resource: b.resource, items: b.items, bytes: b.bytes })) : null,
    /** `push --dry-run --incremental` only: per resource, rows new, changed and unchanged against the state. */
    preview: report.preview
      ? Object.fromEntries(Object.entries(report.preview).map(([r, c]) => [r, { new: c.new, changed: c.changed, unchanged: c.unchanged }]))
      : null,
  };
}

export function renderJson(report: RunReport, output: Output): void {
  output.out(`${JSON.stringify(reportJson(report), null, 2)}\n`);
}
