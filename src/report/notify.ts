// What a run tells a chat webhook and a healthchecks-style monitor when it ends, and the monitor when
// it starts. Only counts, statuses and the run id: never a row value, a server's text or the key —
// a chat channel is read by more people than the report files (test/e2e/secrets-notify.test.ts).
import { hostname } from 'node:os';
import { postWebhook, shownUrl, type WebhookOptions } from '../send/webhook.js';
import { runStatus, summaryLine } from './summary-line.js';
import { commandName, durationSeconds, failedRows, type RunReport } from './run-report.js';

const NOTIFY_VERSION = 1;

export interface NotifySettings {
  notifyUrl?: string;
  notifyOn: 'failure' | 'always';
  pingUrl?: string;
}

/** The run's end: its report when it got one, else only the exit code (it stopped before: a lock, bad input). */
interface RunEnd {
  report?: RunReport;
  exitCode: number;
  /** The error's code when the run ended by one (CONFIG, LOCKED…): a code, never its message. */
  errorCode?: string;
}

/** The JSON posted to --notify-url: `text` for Slack and Teams, the rest for programs. */
function notifyPayload(end: RunEnd, host = hostname()) {
  const { report, exitCode } = end;
  const status = report ? runStatus(report, exitCode) : 'ABORTED';
  const head = report ? `batch-sync ${commandName(report.mode)} on ${host}: ${status}` : `batch-sync on ${host}: ${status} before the run started`;
  const text = report
    ? `${head} (exit ${exitCode}), ${report.totals.accepted} of ${report.totals.read} rows accepted, ${failedRows(report)} not; ${summaryLine(report, exitCode)}`
    : `${head} (exit ${exitCode}${end.errorCode ? `, ${end.errorCode}` : ''})`;
  return {
    version: NOTIFY_VERSION,
    text,
    status,
    exitCode,
    host,
    runId: report?.runId ?? null,
    mode: report?.mode ?? null,
    startedAt: report?.startedAt.toISOString() ?? null,
    endedAt: report?.endedAt.toISOString() ?? null,
    duration: report ? durationSeconds(report) : null,
    totals: report ? { ...report.totals } : null,
    counts: report ? Object.fromEntries(Object.entries(report.counts).map(([r, c]) => [r, { ...c }])) : null,
    aborted: report?.aborted ? report.aborted.code : (end.errorCode ?? null),
  };
}

/** healthchecks.io's convention: URL/start, then URL on success or URL/fail. */
function pingTarget(url: string, phase: 'start' | 'success' | 'fail'): string {
  if (phase === 'success') return url;
  const u = new URL(url);
  u.pathname = `${u.pathname.replace(/\/$/, '')}/${phase}`;
  return u.toString();
}

export interface CronNotifier {
  start(): Promise<void>;
  finish(end: RunEnd): Promise<void>;
}

/** Each failure is one line to `log`, naming the URL by its origin only; nothing here throws. */
export function createCronNotifier(settings: NotifySettings, options: WebhookOptions, log: (text: string) => void): CronNotifier {
  const ping = settings.pingUrl;
  const notify = settings.notifyUrl;
  const say = async (what: string, url: string, body: string) => {
    const result = await postWebhook(url, body, options);
    if (!result.ok) log(`warning: ${what} to ${shownUrl(url)} failed: ${result.reason}; the run's exit code is unchanged`);
  };
  if (ping) shownUrl(ping);
  if (notify) shownUrl(notify);
  return {
    async start() {
      if (ping) await say('the start ping', pingTarget(ping, 'start'), '');
    },
    async finish(end) {
      const failed = end.exitCode !== 0;
      const jobs: Promise<void>[] = [];
      // the ping's body is the summary line: counts only, shown in the monitor's event log
      if (ping)
        jobs.push(say('the ping', pingTarget(ping, failed ? 'fail' : 'success'), end.report ? summaryLine(end.report, end.exitCode) : `exit=${end.exitCode}`));
      if (notify && (failed || settings.notifyOn === 'always')) jobs.push(say('the notification', notify, JSON.stringify(notifyPayload(end))));
      await Promise.all(jobs);
    },
  };
}
