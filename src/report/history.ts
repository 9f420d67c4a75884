// `batch-sync history`: the archived runs of a state directory as a table, with Unicode bars of
// accepted vs not accepted rows and sparklines of duration and failures, so a job's owner sees the
// trend at a glance. Reads the report.json files the nightly session wrote (render-json.ts's shape).
import { z } from 'zod';
import { plural } from './plural.js';

const counts = z.object({ read: z.number(), accepted: z.number(), rejected: z.number(), invalid: z.number(), skipped: z.number() });
const archived = z.object({
  runId: z.string(),
  mode: z.string(),
  startedAt: z.string(),
  endedAt: z.string(),
  aborted: z.object({ code: z.string() }).nullable(),
  totals: counts,
  groups: z.array(z.object({ outcome: z.string(), reason: z.string(), count: z.number() })),
  exitCode: z.number().optional(),
});

export interface HistoryRun {
  runId: string;
  mode: string;
  startedAt: string;
  durationSeconds: number;
  read: number;
  accepted: number;
  rejected: number;
  invalid: number;
  skipped: number;
  /** Rejected, invalid, and skipped for a reason other than the user's (unchanged and skipIf rows are not). */
  notAccepted: number;
  exitCode: number | null;
  aborted: string | null;
}

/** The top-level fields of a report.json that history reads (its rows are skipped unread). */
export const HISTORY_FIELDS: readonly string[] = Object.keys(archived.shape);

/** One archived report (its HISTORY_FIELDS) as a history row; undefined for a file that is not one (it is said, not fatal). */
export function historyRun(fields: unknown): HistoryRun | undefined {
  const result = archived.safeParse(fields);
  if (!result.success) return undefined;
  const parsed = result.data;
  const t = parsed.totals;
  // unchanged, skipIf and identical repeated rows were meant to be left out (plan/outcome.ts isDeliberateSkip)
  const deliberate = parsed.groups
    .filter((g) => g.outcome === 'skipped' && /^(UNCHANGED|SKIPPED|DUPLICATE_IDENTICAL)\b/.test(g.reason))
    .reduce((n, g) => n + g.count, 0);
  const ms = Date.parse(parsed.endedAt) - Date.parse(parsed.startedAt);
  return {
    runId: parsed.runId,
    mode: parsed.mode,
    startedAt: parsed.startedAt,
    durationSeconds: Number.isFinite(ms) ? Math.max(0, ms) / 1000 : 0,
    read: t.read,
    accepted: t.accepted,
    rejected: t.rejected,
    invalid: t.invalid,
    skipped: t.skipped,
    notAccepted: t.rejected + t.invalid + t.skipped - deliberate,
    exitCode: parsed.exitCode ?? null,
    aborted: parsed.aborted?.code ?? null,
  };
}

const SPARKS = '▁▂▃▄▅▆▇█';
const BAR_WIDTH = 30;

/** `▁▃█▂`: each value's height between the least and the most. */
function sparkline(values: readonly number[]): string {
  const min = Math.min(...values);
  const max = Math.max(...values);
  return values.map((v) => SPARKS[max === min ? (max === 0 ? 0 : SPARKS.length - 1) : Math.round(((v - min) / (max - min)) * (SPARKS.length - 1))]).join('');
}

/** `████████░░`: accepted then not accepted, scaled to the run that read the most rows. */
function bar(run: Pick<HistoryRun, 'accepted' | 'notAccepted'>, most: number): string {
  if (most === 0) return '';
  const width = (n: number) => (n === 0 ? 0 : Math.max(1, Math.round((n / most) * BAR_WIDTH)));
  return '█'.repeat(width(run.accepted)) + '░'.repeat(width(run.notAccepted));
}

const HEAD = ['start (UTC)', 'mode', 'duration', 'read', 'accepted', 'rejected', 'invalid', 'skipped', 'exit'];

export function historyLines(runs: readonly HistoryRun[], where: string, unreadable: number): string[] {
  if (runs.length === 0) return [`No archived runs in ${where}.${unreadable ? ` (${unreadable} unreadable report files)` : ''}`];
  const rows = runs.map((r) => [
    r.startedAt.replace('T', ' ').slice(0, 19),
    r.mode,
    `${r.durationSeconds.toFixed(1)}s`,
    ...[r.read, r.accepted, r.rejected, r.invalid, r.skipped].map(String),
    r.exitCode === null ? '?' : String(r.exitCode),
  ]);
  const widths = HEAD.map((h, i) => Math.max(h.length, ...rows.map((row) => row[i]!.length)));
  const line = (cells: string[]) => cells.map((c, i) => (i < 2 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join('  ');
  const most = Math.max(...runs.map((r) => r.accepted + r.notAccepted));
  const out = [`batch-sync history: ${plural(runs.length, 'run')} in ${where}, oldest first`, ''];
  out.push(`${line(HEAD)}  █ accepted ░ not accepted`);
  for (const [i, r] of runs.entries()) out.push(`${line(rows[i]!)}  ${bar(r, most)}${r.aborted ? ` ABORTED ${r.aborted}` : ''}`);
  const durations = runs.map((r) => r.durationSeconds);
  const failures = runs.map((r) => r.notAccepted);
  out.push(
    '',
    `duration      ${sparkline(durations)}  ${Math.min(...durations).toFixed(1)}s … ${Math.max(...durations).toFixed(1)}s`,
    `not accepted  ${sparkline(failures)}  ${Math.min(...failures)} … ${plural(Math.max(...failures), 'row')}`,
  );
  if (unreadable > 0) out.push('', `${plural(unreadable, 'report file is', 'report files are')} not readable as a run report and left out.`);
  return out;
}

export function historyJson(runs: readonly HistoryRun[], reportDir: string, unreadable: number) {
  return { version: 1, reportDir, runs, unreadable };
}
