// Ctrl-C during a push: no new batch is taken, the batches in flight settle and are counted as the
// server answered them, the rows read but not sent are reported NOT_SENT, the rest of the file is one
// range not read (interrupt-unread.test.ts), and the run exits 3 with its report.
import { join } from 'node:path';
import { afterEach, expect, test } from 'vitest';
import { startServer, type MisbehavingServer, type RecordedRequest } from '../helpers/misbehaving-server.js';
import { SALES_PROFILES_CSV, dealsCsv, startCli, tempFiles } from '../helpers/cli.js';

const KEY = 'interrupt-key-0123456789';
let server: MisbehavingServer | undefined;
afterEach(() => server?.close());

const itemsIn = (req: RecordedRequest) => (JSON.parse(req.body.toString()).items as unknown[]).length;
const isDeals = (req: RecordedRequest) => req.path.endsWith('/deals');

test('one SIGINT lets the batches in flight finish, sends nothing more, and reports every row read and where reading stopped', async () => {
  // every answer takes 3 s, so batches are in flight when the signal comes, and no third batch can
  // have left before it (there are two places in flight)
  server = await startServer([], {
    respond: (req) => ({ status: 200, delayMs: 3000, body: { data: { code: 200, success: itemsIn(req), error: [] }, status: 'SUCCESS' } }),
  });
  const dir = tempFiles({ 'sales-profiles.csv': SALES_PROFILES_CSV, 'deals.csv': dealsCsv(400) });
  const { child, result } = startCli(
    ['push', '--format', 'json', '--batch-size', '50', '--concurrency', '2', join(dir, 'sales-profiles.csv'), join(dir, 'deals.csv')],
    {
      env: { BATCH_SYNC_API_KEY: KEY, BATCH_SYNC_BASE_URL: server.url },
    },
  );
  // when the child says it has taken the signal: no request may arrive after that
  let handledAt = Infinity;
  child.stderr!.on('data', (c) => {
    if (String(c).includes('SIGINT: taking no new batches')) handledAt = Math.min(handledAt, Date.now());
  });
  while (!server.requests.some(isDeals)) await new Promise((r) => setTimeout(r, 20));
  child.kill('SIGINT');
  const { code, stdout, stderr } = await result;

  expect(code).toBe(3);
  expect(stderr).toMatch(/SIGINT: taking no new batches/);
  const deals = server.requests.filter(isDeals);
  // counted, not timed: the two batches in flight when it came, and none after
  expect(handledAt).toBeLessThan(Infinity);
  expect(deals.length).toBeLessThanOrEqual(2);
  const report = JSON.parse(stdout);
  expect(report.aborted.code).toBe('INTERRUPTED');
  const counts = report.counts.deal;
  // what was in flight was answered and counted; nothing else was sent
  expect(counts.accepted).toBe(deals.reduce((n, req) => n + itemsIn(req), 0));
  expect(counts.accepted).toBeGreaterThan(0);
  expect(counts.accepted).toBeLessThan(400);
  expect(counts.accepted + counts.skipped).toBe(counts.read);
  expect(report.notAccepted.every((r: { message: string }) => r.message === 'NOT_SENT')).toBe(true);
  // the rows not read: one range from the line after the last row read (the header is line 1)
  if (counts.read < 400) expect(report.notRead).toEqual([{ resource: 'deal', file: join(dir, 'deals.csv'), fromLine: counts.read + 2, rowsRead: counts.read }]);
  else expect(report.notRead).toEqual([]);
});
