// Everything the renderers need about one run, as plain data: the orchestrator fills it once at the
// end, and the human, json and summary-line renderers all read the same thing.
import { RESOURCES, type Resource } from '../contract/resources.js';
import type { Diagnostic } from '../util/diagnostic.js';
import type { Collector, FileCounts, OutcomeGroup, ResourceCounts, WarningGroup } from './collector.js';
import type { RowOutcome } from '../plan/outcome.js';
import { plural } from './plural.js';

export type RunMode = 'validate' | 'push' | 'dry-run';

/** A batch `push --dry-run` would have sent. */
export interface PlannedBatchInfo {
  batchId: string;
  resource: Resource;
  items: number;
  bytes: number;
}

/** Why the run stopped before every row had been sent (auth refused, API unreachable, retries out). */
interface RunAbort {
  code: string;
  message: string;
}

/** The extra requests --isolate-unattributed sent to pin errors that named no item. */
interface IsolationCount {
  requests: number;
  budget: number;
  /** Batches left UNVERIFIED because the budget was used up. */
  overBudget: number;
}

/** `push --dry-run --incremental`: what the state says of a resource's valid rows; nothing is recorded. */
interface PreviewCounts {
  /** Rows whose externalId the state does not hold: they would be created. */
  new: number;
  /** Rows whose externalId the state holds with another item: they would be sent again. */
  changed: number;
  /** Rows the server last accepted as they are: they would not be sent. */
  unchanged: number;
}

/** What a push's requests met: see send/types.ts Traffic. */
export interface TrafficCount {
  requests: number;
  throttled: number;
  retries: number;
  waitMs: number;
  peakConcurrency: number;
  /** 95th percentile of the successful answers' latency. */
  latencyP95Ms?: number;
}

/** A file's rows a stopped run did not read: from `fromLine` on (after `rowsRead` of its rows), or all of them when it is undefined. */
export interface NotRead {
  resource: Resource;
  file: string;
  fromLine?: number;
  rowsRead?: number;
}

export interface RunReport {
  runId: string;
  mode: RunMode;
  startedAt: Date;
  endedAt: Date;
  aborted?: RunAbort;
  counts: Partial<Record<Resource, ResourceCounts>>;
  totals: ResourceCounts;
  /** Per input file (warnings counted when the file's resource is known): the JUnit report's test suites. */
  files: FileCounts[];
  groups: OutcomeGroup[];
  notAccepted: readonly RowOutcome[];
  /** Rows not accepted beyond the collector's cap: counted and grouped, not listed. */
  notListed: number;
  /** Skipped rows that were meant to be left out (by the profile, or unchanged): not failures. */
  deliberateSkips: number;
  warningGroups: WarningGroup[];
  /** The first examples of each warning group, in the order found; the others are only counted. */
  warnings: readonly Diagnostic[];
  warningsNotListed: number;
  /** Errors CSV files written, so the report can say where the rows went. */
  errorFiles?: string[];
  /** Distinct owner/agent ids of deals and activities that no sales profile of this run carries. */
  ownersNotInRun: number;
  isolation?: IsolationCount;
  /** push only: the requests, 429s, retries, waits and concurrency of the run. */
  traffic?: TrafficCount;
  /** `push --dry-run`: the batches that would have been sent, in order. */
  batches?: PlannedBatchInfo[];
  /** A stopped run's files, where it stopped reading them: those rows have no outcome of their own. */
  notRead?: NotRead[];
  /** `push --dry-run --incremental`: per resource, new, changed and unchanged rows against the state. */
  preview?: Partial<Record<Resource, PreviewCounts>>;
}

export interface RunMeta {
  runId: string;
  mode: RunMode;
  startedAt: Date;
  endedAt: Date;
  aborted?: RunAbort;
  errorFiles?: string[];
  ownersNotInRun?: number;
  isolation?: IsolationCount;
  traffic?: TrafficCount;
  notRead?: NotRead[];
}

/** `sent`: in a dry-run preview, the rows the state found new or changed per resource. */
export function buildRunReport(meta: RunMeta, collector: Collector, sent?: PreviewSent): RunReport {
  const groups = collector.groups();
  return {
    ...(sent ? { preview: previewCounts(sent, groups) } : {}),
    ...meta,
    ownersNotInRun: meta.ownersNotInRun ?? 0,
    counts: collector.counts(),
    totals: collector.totals(),
    files: collector.fileCounts(),
    groups,
    notAccepted: collector.notAccepted(),
    notListed: collector.notListed(),
    deliberateSkips: collector.deliberateSkips(),
    warningGroups: collector.warningGroups(),
    warnings: collector.warnings(),
    warningsNotListed: collector.warningsNotListed(),
  };
}

/**
 * Rows that did not get in: rejected by the server, invalid locally, or skipped for a reason other
 * than the user's (UNVERIFIED, NOT_SENT…); unchanged and skipIf rows were meant to be left out.
 */
export function failedRows(report: Pick<RunReport, 'totals' | 'deliberateSkips'>): number {
  return report.totals.rejected + report.totals.invalid + report.totals.skipped - report.deliberateSkips;
}

/** Nothing is sent in these modes: "accepted" then means "valid, would be sent". */
export function isSendingMode(mode: RunMode): boolean {
  return mode === 'push';
}

/** The one line about owners the run does not carry (issue 15.7); undefined when there are none. */
export function ownersNotInRunLine(report: Pick<RunReport, 'ownersNotInRun'>): string | undefined {
  const n = report.ownersNotInRun;
  return n > 0 ? `owners not in this run: ${plural(n, 'distinct id, it', 'distinct ids, they')} must already exist on the server` : undefined;
}

export function commandName(mode: RunMode): string {
  return mode === 'dry-run' ? 'push --dry-run' : mode;
}

export function durationSeconds(report: Pick<RunReport, 'startedAt' | 'endedAt'>): string {
  return `${(Math.max(0, report.endedAt.getTime() - report.startedAt.getTime()) / 1000).toFixed(1)}s`;
}

/** The preview from what the state said of each row sent (new or changed) and the rows found unchanged. */
export type PreviewSent = Partial<Record<Resource, Pick<PreviewCounts, 'new' | 'changed'>>>;

function previewCounts(sent: PreviewSent, groups: readonly OutcomeGroup[]) {
  const out: Partial<Record<Resource, PreviewCounts>> = {};
  for (const [resource, c] of Object.entries(sent) as Array<[Resource, Pick<PreviewCounts, 'new' | 'changed'>]>) out[resource] = { ...c, unchanged: 0 };
  for (const g of groups) {
    if (g.outcome !== 'skipped' || !g.label.startsWith('UNCHANGED')) continue;
    (out[g.resource] ??= { new: 0, changed: 0, unchanged: 0 }).unchanged += g.count;
  }
  return Object.fromEntries(RESOURCES.filter((r) => out[r]).map((r) => [r, out[r]])) as typeof out;
}

/** `account: 3 new, 2 changed, 95 unchanged`, one line per resource. */
export function previewLines(preview: NonNullable<RunReport['preview']>): string[] {
  return Object.entries(preview).map(([r, c]) => `${r}: ${c.new} new, ${c.changed} changed, ${c.unchanged} unchanged`);
}

/** `deals.csv from line 123,457 on: not sent (not read)`: the rows a stopped run left, as one range. */
export function notReadLine(n: NotRead): string {
  if (n.fromLine === undefined) return `${n.file}: not read, not sent`;
  const before = n.rowsRead === undefined ? '' : `; the ${n.rowsRead.toLocaleString('en-US')} read before it have their outcomes`;
  return `${n.file} from line ${n.fromLine.toLocaleString('en-US')} on: not sent (not read${before}; a rerun reads them)`;
}
