// Waits the server asks for, through the built CLI (issue 28.6, 28.7): absurd rate-limit values
// (a reset 31,000 years away, a Retry-After of 10^15 s, a policy of one request per 1,000,000 s, a
// plain hour) end the run promptly with its report, saying which header asked for how long, and
// never spin a timer (TimeoutOverflowWarning); a wait within the 120 s cap is waited out, said on
// stderr when it starts, and counted in waited=.
import { join } from 'node:path';
import { afterEach, describe, expect, test } from 'vitest';
import { spawnCli, tempFiles } from '../helpers/cli.js';
import { startServer, type MisbehavingServer, type Step } from '../helpers/misbehaving-server.js';
import { KEY, accountsCsv, okBody, type JsonReport } from './faults-helpers.js';

let server: MisbehavingServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const ok = (headers: Record<string, string> = {}): Step => ({ respond: (req) => ({ status: 200, headers, body: okBody(req) }) });

/** 10 accounts in batches of 2, pushed by the built CLI; a run that stalls is killed after 40 s (exit 128+). */
async function push(first: Step, rest: Step = ok(), args: string[] = []) {
  server = await startServer([first], rest);
  const dir = tempFiles({ 'accounts.csv': accountsCsv(10) });
  const started = Date.now();
  const r = await spawnCli(['push', '--format', 'json', '--batch-size', '2', '--retry-delay', '10', ...args, join(dir, 'accounts.csv')], {
    env: { BATCH_SYNC_API_KEY: KEY, BATCH_SYNC_BASE_URL: server.url },
    timeoutMs: 40_000,
  });
  const seconds = (Date.now() - started) / 1000;
  const overflowWarnings = r.stderr.split('TimeoutOverflowWarning').length - 1;
  let report: JsonReport & { traffic: { waitMs: number } };
  try {
    report = JSON.parse(r.stdout);
  } catch {
    throw new Error(`no JSON report (exit ${r.code}, ${seconds.toFixed(1)} s, ${overflowWarnings} TimeoutOverflowWarning):\n${r.stderr.slice(0, 2000)}`);
  }
  return { ...r, report, overflowWarnings, summary: r.stderr.trim().split('\n').at(-1)! };
}

describe('a wait the server asks for beyond the 120 s cap ends the run promptly, with its report', { timeout: 60_000 }, () => {
  const absurd: [string, Step, RegExp][] = [
    ['X-RateLimit-Reset: 1e15', ok({ 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': '1e15' }), /\(X-RateLimit-Reset\)/],
    ['RateLimit-Reset: 999999999', ok({ 'ratelimit-remaining': '0', 'ratelimit-reset': '999999999' }), /wait 999999999 s \(RateLimit-Reset\)/],
    ['Retry-After: 1000000000000000 on a 429', { status: 429, headers: { 'retry-after': '1000000000000000' } }, /wait 1000000000000000 s \(Retry-After\)/],
    ['RateLimit-Policy: 1 per 1,000,000 s', ok({ 'ratelimit-policy': '"default";q=1;w=1000000' }), /\(RateLimit-Policy\)/],
  ];
  test.each(absurd)('%s: no timer spins, exit 3 at once, the report says which header asked for how long', async (_, first, said) => {
    const r = await push(first);
    expect(r.overflowWarnings).toBe(0);
    expect(r.code).toBe(3);
    expect(r.report.aborted?.message).toMatch(said);
    expect(r.report.aborted?.message).toMatch(/beyond the 120 s cap/);
    // every row has its one outcome: what the server answered 200 is accepted, the rest was never sent
    expect(r.report.totals.read).toBe(10);
    for (const row of r.report.notAccepted) expect(['NOT_SENT', 'NOT_DELIVERED']).toContain(row.message);
    expect(r.report.notAccepted.filter((row) => row.message === 'NOT_SENT').length).toBeGreaterThan(0);
    expect(server!.requests.length).toBeLessThanOrEqual(5);
    expect(r.summary).toMatch(/ABORTED exit=3 .* waited=\d+\.\ds /);
  });

  test('one 429 asking for an hour, with batches in flight beside it: that batch given up, the rest not sent, no silent hour', async () => {
    // four go out at once; the first is told to come back in an hour
    const hour = await push({ status: 429, headers: { 'retry-after': '3600' } });
    expect(hour.code).toBe(3);
    expect(hour.report.aborted?.message).toBe('server asked to wait 3600 s (Retry-After), beyond the 120 s cap');
    const byMessage = (m: string) => hour.report.notAccepted.filter((row) => row.message === m).length;
    expect(byMessage('NOT_DELIVERED')).toBe(2);
    expect(hour.report.totals.accepted + byMessage('NOT_DELIVERED') + byMessage('NOT_SENT')).toBe(10);
    expect(hour.summary).toMatch(/ABORTED exit=3 /);
  });
});

describe('a wait within the cap', { timeout: 60_000 }, () => {
  test('is waited out, said on stderr when it starts, and counted in waited=', async () => {
    const r = await push(ok({ 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': '2' }), ok(), ['--concurrency', '2']);
    expect(r.code).toBe(0);
    expect(r.report.totals.accepted).toBe(10);
    expect(r.stderr).toMatch(/the API asked for a pause: no request goes for [12]\.\d s \(X-RateLimit-Reset\)/);
    expect(r.stderr.match(/the API asked for a pause/g)).toHaveLength(1);
    const waited = Number(/ waited=(\d+\.\d)s /.exec(r.summary)?.[1]);
    expect(waited).toBeGreaterThanOrEqual(1.5);
    expect(r.report.traffic.waitMs).toBeGreaterThanOrEqual(1500);
  });
});
