// Push against an API that limits it (issue 18), through the built CLI and a sandbox on a real
// socket: a rate limit learnt from 429s, one announced in RateLimit headers, --max-rate, an outage of
// 503s, --concurrency pinned. Small inputs and no timing asserts: request counts and outcomes, from
// the report and from the sandbox's own log.
import { join } from 'node:path';
import { afterEach, describe, expect, test } from 'vitest';
import { startSandbox, type SandboxHandle, type SandboxOptions } from '../../src/sandbox/index.js';
import { runCli, tempFiles } from '../helpers/cli.js';
import { busiestWindow } from '../helpers/flow-sim.js';
import { startServer } from '../helpers/misbehaving-server.js';
import { KEY as FAULTS_KEY, accountsCsv, allIds, okBody } from './faults-helpers.js';

const KEY = 'rate-limits-key-5b2e';
const started: SandboxHandle[] = [];
afterEach(async () => {
  await Promise.all(started.splice(0).map((s) => s.close()));
});

interface Traffic {
  requests: number;
  throttled: number;
  retries: number;
  waitMs: number;
  peakConcurrency: number;
  latencyP95Ms: number | null;
}

/** `count` accounts pushed one per batch to a fresh sandbox with `options`. */
async function push(count: number, options: Partial<SandboxOptions>, args: string[] = [], before?: (sb: SandboxHandle) => void) {
  const sb = await startSandbox({ port: 0, apiKey: KEY, ...options });
  started.push(sb);
  before?.(sb);
  const dir = tempFiles({ 'accounts.csv': accountsCsv(count) });
  const r = await runCli(['push', '--format', 'json', '--batch-size', '1', '--retry-delay', '10', ...args, join(dir, 'accounts.csv')], {
    BATCH_SYNC_API_KEY: KEY,
    BATCH_SYNC_BASE_URL: sb.url,
  });
  const report = JSON.parse(r.stdout) as { totals: Record<string, number>; traffic: Traffic };
  const log = sb.batches();
  const statuses = (status: number) => log.filter((b) => b.status === status).length;
  const appliedIds = log.filter((b) => b.status === 200).map((b) => b.batchId);
  return { code: r.code, report, traffic: report.traffic, sb, statuses, appliedIds, stderr: r.stderr };
}

/** Every row accepted, stored, and applied by exactly one request. */
function expectEachOnce(run: Awaited<ReturnType<typeof push>>, count: number) {
  expect(run.code).toBe(0);
  expect(run.report.totals).toMatchObject({ read: count, accepted: count, skipped: 0, rejected: 0 });
  expect(
    run.sb
      .records('account')
      .map((r) => r.externalId)
      .sort(),
  ).toEqual(allIds(count).sort());
  expect(run.appliedIds).toHaveLength(count);
  expect(new Set(run.appliedIds).size).toBe(count);
}

describe('a rate limit the server only shows by 429s', () => {
  test('every row once; the report counts the requests, 429s and retries the sandbox saw', async () => {
    const run = await push(12, { rateLimit: 5 });
    expectEachOnce(run, 12);
    expect(run.traffic.requests).toBe(run.sb.batches().length);
    expect(run.traffic.throttled).toBe(run.statuses(429));
    expect(run.traffic.retries).toBe(run.statuses(429));
    expect(run.traffic.requests).toBe(12 + run.traffic.throttled);
  });
});

describe('a rate limit announced in RateLimit / RateLimit-Policy headers', () => {
  test('push slows down before the limit: no 429 at all', async () => {
    const run = await push(12, { rateLimit: 5, rateLimitHeaders: true });
    expectEachOnce(run, 12);
    expect(run.statuses(429)).toBe(0);
    expect(run.traffic).toMatchObject({ requests: 12, throttled: 0, retries: 0 });
  });
});

describe('--max-rate', () => {
  test('paced under a fixed window of 2 a second, 4 batches meet no 429; without it, they do', async () => {
    const paced = await push(4, { rateLimit: 2 }, ['--max-rate', '1.5']);
    expectEachOnce(paced, 4);
    expect(paced.statuses(429)).toBe(0);
    expect(paced.traffic).toMatchObject({ requests: 4, throttled: 0 });
    // the control: the same push unpaced sends its first 4 batches at once, and 2 of them are refused
    const unpaced = await push(4, { rateLimit: 2 });
    expectEachOnce(unpaced, 4);
    expect(unpaced.statuses(429)).toBeGreaterThan(0);
  });

  test('--max-rate 5: no second at the server holds more than 5 requests (issue 28.8: 6 arrived within 994 ms)', async () => {
    const server = await startServer([], { respond: (req) => ({ status: 200, body: okBody(req) }) });
    try {
      const dir = tempFiles({ 'accounts.csv': accountsCsv(14) });
      const r = await runCli(['push', '--format', 'json', '--batch-size', '1', '--max-rate', '5', '--concurrency', '4', join(dir, 'accounts.csv')], {
        BATCH_SYNC_API_KEY: FAULTS_KEY,
        BATCH_SYNC_BASE_URL: server.url,
      });
      expect(r.code).toBe(0);
      expect(server.requests).toHaveLength(14);
      expect(busiestWindow(server.requests.map((q) => q.at))).toBeLessThanOrEqual(5);
    } finally {
      await server.close();
    }
  });

  test('0 and words are usage errors (exit 2), nothing sent', async () => {
    for (const [value, message] of [
      ['0', '--max-rate takes a number of requests per second above 0'],
      ['fast', '--max-rate takes a number of requests per second'],
    ] as const) {
      const run = await runCli(['push', '--max-rate', value, 'accounts.csv'], { BATCH_SYNC_API_KEY: KEY, BATCH_SYNC_BASE_URL: 'http://127.0.0.1:9' });
      expect(run.code).toBe(2);
      expect(run.stderr).toContain(message);
    }
  });
});

describe('an outage of 503s', () => {
  test('retried: every row once, the 503s counted as retries', async () => {
    const run = await push(4, {}, [], (sb) => sb.failNext(3, 503));
    expectEachOnce(run, 4);
    expect(run.statuses(503)).toBe(3);
    expect(run.traffic).toMatchObject({ requests: 7, throttled: 0, retries: 3 });
  });
});

describe('concurrency', () => {
  test('--concurrency pins the requests in flight; --max-concurrency caps the adaptive limit', async () => {
    // the peak counts requests really under way at once: a slow answer makes sure they overlap
    const pinned = await push(20, { latencyMs: 50 }, ['--concurrency', '2']);
    expectEachOnce(pinned, 20);
    expect(pinned.traffic.peakConcurrency).toBe(2);
    const capped = await push(40, { latencyMs: 50 }, ['--max-concurrency', '6']);
    expectEachOnce(capped, 40);
    expect(capped.traffic.peakConcurrency).toBeGreaterThanOrEqual(4);
    expect(capped.traffic.peakConcurrency).toBeLessThanOrEqual(6);
  });

  test('the peak is the most requests that were in flight at once, in every report format', async () => {
    const formats = async (count: number, options: Partial<SandboxOptions>, args: string[]) => {
      const json = await push(count, options, args);
      expectEachOnce(json, count);
      const sb = await startSandbox({ port: 0, apiKey: KEY, ...options });
      started.push(sb);
      const dir = tempFiles({ 'accounts.csv': accountsCsv(count) });
      const human = await runCli(['push', '--batch-size', '1', ...args, join(dir, 'accounts.csv')], { BATCH_SYNC_API_KEY: KEY, BATCH_SYNC_BASE_URL: sb.url });
      return {
        json: json.traffic.peakConcurrency,
        human: /up to (\d+) in flight/.exec(human.stdout)?.[1],
        summary: /peak-concurrency=(\d+)/.exec(human.stderr)?.[1],
      };
    };
    // one request: one in flight, whatever the limit allowed
    expect(await formats(1, {}, [])).toEqual({ json: 1, human: '1', summary: '1' });
    // two batches under a pinned 4: two in flight, never 4
    expect(await formats(2, { latencyMs: 200 }, ['--concurrency', '4'])).toEqual({ json: 2, human: '2', summary: '2' });
    // 12 slow batches under a pinned 4: the four places are all taken at once
    expect(await formats(12, { latencyMs: 200 }, ['--concurrency', '4'])).toEqual({ json: 4, human: '4', summary: '4' });
  });

  test('push --help documents the defaults', async () => {
    const help = (await runCli(['push', '--help-all'])).stdout.replace(/\s+/g, ' ');
    expect(help).toContain('--concurrency <n> pin the requests in flight to n');
    expect(help).toContain('--max-concurrency <n> most requests in flight the adaptive limit may reach (default 32)');
    expect(help).toContain('--max-rate <n> requests per second, never exceeded');
  });
});
