// 429 Retry-After through push: 0, garbage and an HTTP date are retried (never earlier than asked,
// with the same batchId and bytes); an hour is beyond the cap, so that batch stops at once, the run
// says why and exits 3, and a rerun completes the rest with every row applied exactly once.
import { afterEach, describe, expect, test } from 'vitest';
import type { SandboxHandle } from '../../src/sandbox/index.js';
import { sandboxPerFile } from '../helpers/sandbox.js';
import { startServer, type MisbehavingServer } from '../helpers/misbehaving-server.js';
import { spawnCli } from '../helpers/cli.js';
import { KEY, accountsFile, allIds, applyingServerLedger, batchIdOf, expectExactlyOnce, pushJson, type JsonReport } from './faults-helpers.js';
import { healthyApiAt } from './faults-helpers.js';

let server: MisbehavingServer | undefined;
let sandbox: SandboxHandle;
sandboxPerFile(KEY, (s) => {
  sandbox = s;
});
afterEach(() => server?.close());

describe('429 Retry-After through push', () => {
  test.each([
    ['0', 0],
    ['garbage', 0],
    ['-5', 0],
  ])('Retry-After: %s → retried with the same batchId and bytes, every row accepted', async (value) => {
    const { applied, ok } = applyingServerLedger();
    server = await startServer([{ status: 429, headers: { 'retry-after': value } }], ok);
    const { file, stateDir } = accountsFile(3);
    const r = await pushJson(file, server.url, stateDir);
    expect(r.code).toBe(0);
    expect(r.report.totals).toMatchObject({ read: 3, accepted: 3 });
    expect(server.requests).toHaveLength(2);
    expect(server.requests[1]!.body.equals(server.requests[0]!.body)).toBe(true);
    expect([...applied.keys()].sort()).toEqual(allIds(3));
  });

  test('an HTTP-date Retry-After is never retried before that date', async () => {
    const at = Math.ceil((Date.now() + 1200) / 1000) * 1000;
    server = await startServer([{ status: 429, headers: { 'retry-after': new Date(at).toUTCString() } }], applyingServerLedger().ok);
    const { file, stateDir } = accountsFile(2);
    const r = await pushJson(file, server.url, stateDir);
    expect(r.code).toBe(0);
    expect(server.requests).toHaveLength(2);
    expect(server.requests[1]!.at).toBeGreaterThanOrEqual(at - 5);
    expect(batchIdOf(server.requests[1]!)).toBe(batchIdOf(server.requests[0]!));
  });

  test('an hour is beyond the cap: that batch is not retried, the run says so and exits 3; a rerun applies the rest exactly once', async () => {
    const { applied, ok } = applyingServerLedger();
    // batch 1 is applied, batch 2 is told to come back in an hour, batch 3 would be fine
    server = await startServer([ok, { status: 429, headers: { 'retry-after': '3600' } }], ok);
    const { file, stateDir } = accountsFile(6);
    const first = await pushJson(file, server.url, stateDir, ['--batch-size', '2', '--concurrency', '1']);
    expect(first.code).toBe(3);
    expect(first.report.aborted?.message).toMatch(/Retry-After.*beyond the 120 s cap/);
    expect(first.stderr).toMatch(/ABORTED exit=3/);
    // never retried early: the refused batch was asked for once, and nothing came after it
    expect(server.requests).toHaveLength(2);
    expect(first.report.totals).toMatchObject({ read: 6, accepted: 2, skipped: 4 });
    expect(first.report.notAccepted.map((r) => [r.externalId, r.message])).toEqual([
      ['A-3', 'NOT_DELIVERED'],
      ['A-4', 'NOT_DELIVERED'],
      ['A-5', 'NOT_SENT'],
      ['A-6', 'NOT_SENT'],
    ]);

    sandbox = await healthyApiAt(server, sandbox);
    const rerun = await pushJson(file, sandbox.url, stateDir);
    expect(rerun.code).toBe(0);
    expect(rerun.report.totals).toMatchObject({ read: 6, accepted: 4, skipped: 2 });
    expectExactlyOnce(allIds(6), applied, sandbox);
  });
});

describe('429 to every request (issue 28.8)', () => {
  test('each batch is given up after its 6 attempts, within the ~15 s of backoff docs/pushing.md states (not a minute at a learnt 0.5 a second)', async () => {
    server = await startServer([], { status: 429, headers: { 'retry-after': '1' } });
    const { file } = accountsFile(8);
    // the built CLI with the default retry policy, as a user runs it: docs/pushing.md's figure is about these defaults
    const r = await spawnCli(['push', '--format', 'json', '--batch-size', '2', file], {
      env: { BATCH_SYNC_API_KEY: KEY, BATCH_SYNC_BASE_URL: server.url },
      timeoutMs: 120_000,
    });
    const report = JSON.parse(r.stdout) as JsonReport & { traffic: { requests: number; throttled: number } };
    expect(r.code).toBe(3);
    expect(report.totals).toMatchObject({ read: 8, accepted: 0, skipped: 8 });
    // every request sent was a batch's attempt: 6 per batch at most, all answered 429
    expect(report.traffic.requests).toBe(server.requests.length);
    expect(report.traffic.throttled).toBe(server.requests.length);
    expect(server.requests.length).toBeLessThanOrEqual(4 * 6);
    // backoff of 5 retries is at most 0.5 + 1 + 2 + 4 + 8 s (each at least the 1 s asked); the old pacing made it 48 s and more
    const duration = Number(/ duration=(\d+\.\d)s /.exec(r.stderr)?.[1]);
    expect(duration).toBeLessThan(30);
  }, 130_000);
});
