// What a run tells a chat webhook and a healthchecks-style monitor when it ends, and the monitor when
// it starts. Only counts, statuses and the run id: never a row value, a server's text or the key —
// a chat channel is read by more people than the report files (test/e2e/secrets-notify.test.ts).
// The bodies by target are notify-body.ts.
import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import { EXIT } from '../errors.js';
import { postWebhook, shownUrl, type WebhookOptions } from '../send/webhook.js';
import { notifyBody, notifyFormatFor, runLine, type NotifyFormat, type RunEnd } from './notify-body.js';

export interface NotifySettings {
  notifyUrl?: string;
  notifyOn: 'failure' | 'always';
  notifyFormat: NotifyFormat | 'auto';
  pingUrl?: string;
}

type PingPhase = 'start' | 'success' | 'fail' | 'log';

/**
 * healthchecks.io's convention: URL/start, then URL on success or URL/fail; URL/log records an event
 * that is neither. Every ping carries the run's `rid` (a UUID), so the monitor pairs a start with its
 * own end even when runs overlap; the URL's own query (`?create=1`) is kept.
 */
function pingTarget(url: string, phase: PingPhase, rid: string): string {
  const u = new URL(url);
  if (phase !== 'success') u.pathname = `${u.pathname.replace(/\/$/, '')}/${phase}`;
  u.searchParams.set('rid', rid);
  return u.toString();
}

/** What the monitor hears when the run ends: a dry run or a run refused by the lock is only logged. */
function endPing(end: RunEnd, dryRun: boolean): { phase: PingPhase; body: string } {
  // the holder of the lock is running: a /fail (or a /start) from here would break its start–success pair
  if (end.exitCode === EXIT.locked) return { phase: 'log', body: `batch-sync push: refused, another run holds the lock (exit=${end.exitCode} LOCKED)` };
  // the ping belongs to the real push: a preview proves nothing about it, in success or failure
  const body = end.report ? runLine(end.report, end.exitCode) : `exit=${end.exitCode}${end.errorCode ? ` ${end.errorCode}` : ''}`;
  if (dryRun) return { phase: 'log', body };
  return { phase: end.exitCode === 0 ? 'success' : 'fail', body };
}

export interface CronNotifier {
  /** The run holds its lock (when it takes one) and is about to read: the start ping, for a real push. */
  start(): Promise<void>;
  finish(end: RunEnd): Promise<void>;
}

/** Each failure is one line to `log`, naming the URL by its origin only; nothing here throws. */
export function createCronNotifier(settings: NotifySettings, options: WebhookOptions & { dryRun: boolean }, log: (text: string) => void): CronNotifier {
  const ping = settings.pingUrl;
  const notify = settings.notifyUrl;
  const rid = randomUUID();
  const say = async (what: string, url: string, body: string) => {
    const result = await postWebhook(url, body, options);
    if (!result.ok) log(`warning: ${what} to ${shownUrl(url)} failed: ${result.reason}; the run's exit code is unchanged`);
  };
  if (ping) shownUrl(ping);
  if (notify) shownUrl(notify);
  return {
    async start() {
      if (ping && !options.dryRun) await say('the start ping', pingTarget(ping, 'start', rid), '');
    },
    async finish(end) {
      const jobs: Promise<void>[] = [];
      if (ping) {
        // the ping's body is the summary line: counts only, shown in the monitor's event log
        const { phase, body } = endPing(end, options.dryRun);
        jobs.push(say(phase === 'log' ? 'the log ping' : 'the ping', pingTarget(ping, phase, rid), body));
      }
      if (notify && (end.exitCode !== 0 || settings.notifyOn === 'always'))
        jobs.push(say('the notification', notify, notifyBody(notifyFormatFor(notify, settings.notifyFormat), end, hostname())));
      await Promise.all(jobs);
    },
  };
}
