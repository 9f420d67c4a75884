// The body --notify-url gets, in the shape its target shows: Slack's incoming webhooks take `{text}`;
// Microsoft Teams' Workflows ("When a Teams webhook request is received", which replaced the
// retired Office 365 connectors) take a message holding an Adaptive Card and answer 2xx while
// showing nothing for a bare `{text}`; anything else gets the whole JSON summary. Only counts,
// statuses, codes, the run id and the host: never a row value, a server's text or the key.
import { runStatus, summaryLine } from './summary-line.js';
import { commandName, durationSeconds, failedRows, isSendingMode, type RunReport } from './run-report.js';
import { plural } from './plural.js';

const NOTIFY_VERSION = 1;

export type NotifyFormat = 'slack' | 'teams' | 'json';

/** The run's end: its report when it got one, else only the exit code (it stopped before: a lock, bad input). */
export interface RunEnd {
  report?: RunReport;
  exitCode: number;
  /** The error's code when the run ended by one (CONFIG, LOCKED…): a code, never its message. */
  errorCode?: string;
}

// by the host's whole labels: `evil-logic.azure.com` or `logic.azure.com.example.net` are not Microsoft's
const TEAMS_HOSTS = ['logic.azure.com', 'powerplatform.com', 'webhook.office.com'];
const TEAMS_EXACT = ['outlook.office.com', 'outlook.office365.com'];
const within = (host: string, domain: string) => host.endsWith(`.${domain}`);

/** `auto`: Teams for Power Automate and connector hosts, Slack for hooks.slack.com, else the JSON summary. */
export function notifyFormatFor(url: string, format: NotifyFormat | 'auto'): NotifyFormat {
  if (format !== 'auto') return format;
  const host = new URL(url).hostname.toLowerCase();
  if (TEAMS_EXACT.includes(host) || TEAMS_HOSTS.some((d) => within(host, d))) return 'teams';
  return host === 'hooks.slack.com' ? 'slack' : 'json';
}

/** The summary line as a dry run says it: its rows are valid, none was accepted. */
export function runLine(report: RunReport, exitCode: number): string {
  return summaryLine(report, exitCode);
}

/** `batch-sync push on db-1: FAILED (exit 1), 8940 of 8950 rows accepted, 10 not; <summary line>` */
function headline(end: RunEnd, host: string): { title: string; text: string } {
  const { report, exitCode } = end;
  if (!report) {
    const title = `batch-sync on ${host}: ABORTED before the run started`;
    return { title, text: `${title} (exit ${exitCode}${end.errorCode ? `, ${end.errorCode}` : ''})` };
  }
  const title = `batch-sync ${commandName(report.mode)} on ${host}: ${runStatus(report, exitCode)} (exit ${exitCode})`;
  const sending = isSendingMode(report.mode);
  const counts = `${report.totals.accepted} of ${plural(report.totals.read, 'row')} ${sending ? 'accepted' : 'valid'}, ${failedRows(report)} not${sending ? '' : ', nothing sent'}`;
  return { title, text: `${title}, ${counts}; ${runLine(report, exitCode)}` };
}

/** The JSON summary, for programs (its `text` is what a chat shows). */
function jsonPayload(end: RunEnd, host: string) {
  const { report, exitCode } = end;
  return {
    version: NOTIFY_VERSION,
    text: headline(end, host).text,
    status: report ? runStatus(report, exitCode) : 'ABORTED',
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

/** Slack reads `&`, `<` and `>` as the start of its own markup. */
const slackText = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

function factsOf(end: RunEnd, host: string): Array<{ title: string; value: string }> {
  const { report, exitCode } = end;
  const facts: Array<[string, string | number]> = [['exit code', exitCode]];
  if (report) {
    const t = report.totals;
    const verb = isSendingMode(report.mode) ? 'accepted' : 'valid';
    facts.push(['read', t.read], [verb, t.accepted], ['rejected', t.rejected], ['invalid', t.invalid], ['skipped', t.skipped], ['warnings', t.warnings]);
    facts.push(['run', report.runId], ['duration', durationSeconds(report)]);
    if (report.aborted) facts.push(['aborted', report.aborted.code]);
  } else if (end.errorCode) facts.push(['error', end.errorCode]);
  facts.push(['host', host]);
  return facts.map(([title, value]) => ({ title, value: String(value) }));
}

/** A Teams message holding one Adaptive Card (1.4: what Teams renders everywhere): the headline, then the counts as facts. */
function teamsPayload(end: RunEnd, host: string) {
  const { title, text } = headline(end, host);
  const failed = end.exitCode !== 0;
  return {
    type: 'message',
    attachments: [
      {
        contentType: 'application/vnd.microsoft.card.adaptive',
        contentUrl: null,
        content: {
          $schema: 'http://adaptivecards.io/schemas/adaptive-card.json',
          type: 'AdaptiveCard',
          version: '1.4',
          body: [
            { type: 'TextBlock', text: title, weight: 'Bolder', size: 'Medium', wrap: true, color: failed ? 'Attention' : 'Good' },
            { type: 'TextBlock', text: end.report ? runLine(end.report, end.exitCode) : text, wrap: true, isSubtle: true },
            { type: 'FactSet', facts: factsOf(end, host) },
          ],
        },
      },
    ],
  };
}

export function notifyBody(format: NotifyFormat, end: RunEnd, host: string): string {
  if (format === 'slack') return JSON.stringify({ text: slackText(headline(end, host).text) });
  if (format === 'teams') return JSON.stringify(teamsPayload(end, host));
  return JSON.stringify(jsonPayload(end, host));
}
