// What the run's page shows, as plain data built from the report's JSON shape (render-json.ts): a
// live run and an archived report.json go through the same door. Bounded here, whatever the run:
// at most MAX_ROWS rows, each cell cut at MAX_CELL characters; what was left out is counted.
import { groupLabel } from '../group-key.js';
import type { reportJson } from '../render-json.js';
import type { TimelineSample } from '../timeline.js';

export type ReportJson = Pick<
  ReturnType<typeof reportJson>,
  'runId' | 'mode' | 'startedAt' | 'endedAt' | 'aborted' | 'counts' | 'totals' | 'groups' | 'notAccepted' | 'notListed' | 'errorFiles' | 'traffic'
>;

type JsonRow = ReportJson['notAccepted'][number];

/** Rows embedded in a page: the rest are counted, and the errors CSV holds them all. */
export const MAX_ROWS = 25_000;
/** A cell's characters in a page: a 10 MB cell is cut, and says so. */
const MAX_CELL = 300;

export const BAR_OUTCOMES = ['accepted', 'rejected', 'invalid', 'held back', 'unverified', 'skipped'] as const;
type BarOutcome = (typeof BAR_OUTCOMES)[number];

export interface RunPageInput {
  report: ReportJson;
  exitCode: number | null;
  /** The settings that shaped the run, as label and text (none for an archived report: it does not hold them). */
  settings?: Array<[string, string]>;
  timeline?: TimelineSample[];
  /** Relative links to the run's other files. */
  links: Array<{ label: string; href: string }>;
}

interface PageReason {
  resource: string;
  outcome: string;
  reason: string;
  count: number;
}

export interface RunPageData {
  reasons: PageReason[];
  /** [reason index, file, line, resource, outcome, externalId, field, column, message] */
  rows: Array<[number, string, number, string, string, string, string, string, string]>;
  rowsLeftOut: number;
  files: string[];
}

const EXIT_MEANING: Record<number, string> = {
  0: 'every row accepted',
  1: 'some rows not accepted',
  2: 'unusable input or options: nothing sent',
  3: 'run aborted',
  4: 'another run holds the state directory',
};

export function exitMeaning(code: number | null, mode: string): string {
  if (code === null) return 'not recorded';
  if (mode !== 'push' && code <= 1) return code === 0 ? 'every row valid' : 'some rows not valid';
  return EXIT_MEANING[code] ?? 'internal error';
}

function cut(text: string | null | undefined, max = MAX_CELL): string {
  if (text === null || text === undefined) return '';
  return text.length <= max ? text : `${text.slice(0, max)}… (${(text.length - max).toLocaleString('en-US')} more characters)`;
}

/** A skipped group's kind: held back and unverified rows are shown apart from other skips. */
function skipKind(reason: string): BarOutcome {
  if (reason.startsWith('HELD_BACK')) return 'held back';
  if (reason.startsWith('UNVERIFIED')) return 'unverified';
  return 'skipped';
}

/** Per resource, each bar outcome's rows. */
export function outcomeBars(report: ReportJson): Array<{ resource: string; counts: Record<BarOutcome, number> }> {
  return Object.entries(report.counts).map(([resource, c]) => {
    const counts: Record<BarOutcome, number> = {
      accepted: c.accepted,
      rejected: c.rejected,
      invalid: c.invalid,
      'held back': 0,
      unverified: 0,
      skipped: c.skipped,
    };
    for (const g of report.groups) {
      if (g.resource !== resource || g.outcome !== 'skipped') continue;
      const kind = skipKind(g.reason);
      if (kind === 'skipped') continue;
      counts[kind] += g.count;
      counts.skipped -= g.count;
    }
    return { resource, counts };
  });
}

/** The reasons, biggest first, and each row embedded with the index of its reason. */
export function pageData(report: ReportJson): RunPageData {
  const key = (resource: string, outcome: string, reason: string) => `${resource}\u0000${outcome}\u0000${reason}`;
  const order = report.groups.map((_, i) => i).sort((a, b) => report.groups[b]!.count - report.groups[a]!.count);
  const index = new Map<string, number>();
  const others = new Map<string, number>();
  const reasons: PageReason[] = order.map((gi, at) => {
    const g = report.groups[gi]!;
    index.set(key(g.resource, g.outcome, g.reason), at);
    if (g.reason.startsWith('(other reasons')) others.set(key(g.resource, g.outcome, ''), at);
    return { resource: g.resource, outcome: g.outcome === 'skipped' ? skipKind(g.reason) : g.outcome, reason: cut(g.reason, 2000), count: g.count };
  });
  const other = (row: JsonRow) => others.get(key(row.resource, row.outcome, '')) ?? -1;
  const files = new Set<string>();
  const rows: RunPageData['rows'] = [];
  for (const row of report.notAccepted.slice(0, MAX_ROWS)) {
    const label = groupLabel({
      message: row.message,
      detail: row.detail,
      field: row.field ?? undefined,
      externalId: row.externalId ?? undefined,
      file: row.file,
    });
    const at = index.get(`${row.resource}\u0000${row.outcome}\u0000${label}`) ?? other(row);
    files.add(row.file);
    rows.push([
      at,
      cut(row.file),
      row.line,
      row.resource,
      row.outcome,
      cut(row.externalId),
      cut(row.field),
      cut(row.column),
      cut(`${row.message} ${row.detail}`),
    ]);
  }
  return { reasons, rows, rowsLeftOut: report.notAccepted.length - rows.length + report.notListed, files: [...files].sort() };
}
