// Ctrl-C during a push: no new batch is taken, the batches in flight settle and are counted as the
// server answered them, every other row is reported NOT_SENT, and the run exits 3 with its report.
import { join } from 'node:path';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { startSandbox, type SandboxHandle } from '../../src/sandbox/index.js';
import { SALES_PROFILES_CSV, dealsCsv, startCli, tempFiles } from '../helpers/cli.js';

const KEY = 'interrupt-key-0123456789';
let sandbox: SandboxHandle;
beforeAll(async () => {
  sandbox = await startSandbox({ port: 0, apiKey: KEY, latencyMs: 600 });
});
afterAll(() => sandbox.close());

test('one SIGINT lets the batches in flight finish, sends nothing more, and reports every row', async () => {
  const dir = tempFiles({ 'sales-profiles.csv': SALES_PROFILES_CSV, 'deals.csv': dealsCsv(400) });
  const { child, result } = startCli(['push', '--format', 'json', '--batch-size', '50', '--concurrency', '2', join(dir, 'sales-profiles.csv'), join(dir, 'deals.csv')], {
    env: { BATCH_SYNC_API_KEY: KEY, BATCH_SYNC_BASE_URL: sandbox.url },
  });
  // interrupt once the deals have started: two batches are then in flight, held by the latency
  while (!sandbox.batches().some((b) => b.resource === 'deal')) await new Promise((r) => setTimeout(r, 20));
  const dealsBefore = sandbox.batches().filter((b) => b.resource === 'deal').length;
  child.kill('SIGINT');
  const { code, stdout, stderr } = await result;

  expect(code).toBe(3);
  expect(stderr).toMatch(/SIGINT: taking no new batches/);
  const report = JSON.parse(stdout);
  expect(report.aborted.code).toBe('INTERRUPTED');
  const deals = report.counts.deal;
  // the batches in flight when the signal came were answered and counted; nothing after them was sent
  const received = sandbox.records('deal').length;
  expect(deals.accepted).toBe(received);
  expect(received).toBeGreaterThan(0);
  expect(received).toBeLessThanOrEqual(50 * (dealsBefore + 2));
  expect(deals.read).toBe(400);
  expect(deals.accepted + deals.skipped).toBe(400);
  expect(report.notAccepted.every((r: { message: string }) => r.message === 'NOT_SENT')).toBe(true);
});
