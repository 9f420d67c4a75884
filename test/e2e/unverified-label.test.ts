// A 2xx the client could not read means the batch may have been applied: whatever happens after
// (a body cut short then 503s, an unreadable body then a 401 ending the run), its rows are
// UNVERIFIED, never NOT_DELIVERED ("it never got through").
import { join } from 'node:path';
import { afterEach, expect, test } from 'vitest';
import { OK_BODY, startServer, type MisbehavingServer } from '../helpers/misbehaving-server.js';
import { dealsCsv, runCli, tempFiles } from '../helpers/cli.js';

const KEY = 'unverified-key-0123456789';
let server: MisbehavingServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function push(steps: Parameters<typeof startServer>[0], fallback: Parameters<typeof startServer>[1]) {
  server = await startServer(steps, fallback);
  const dir = tempFiles({ 'deals.csv': dealsCsv(1) });
  const r = await runCli(['push', '--retries', '1', '--retry-delay', '10', '--format', 'json', join(dir, 'deals.csv')], {
    BATCH_SYNC_API_KEY: KEY,
    BATCH_SYNC_BASE_URL: server.url,
  });
  return { ...r, report: JSON.parse(r.stdout) as { notAccepted: { message: string; detail: string }[] } };
}

test('a 200 cut short, then 503: the row is UNVERIFIED (maybe applied), not NOT_DELIVERED', async () => {
  const r = await push([{ status: 200, body: OK_BODY, cutAfterBytes: 10 }], { status: 503 });
  expect(r.code).toBe(3);
  expect(r.report.notAccepted.map((n) => n.message)).toEqual(['UNVERIFIED']);
});

test('a 200 with an unreadable body, then 401: the row stays UNVERIFIED, not NOT_DELIVERED', async () => {
  const r = await push([{ status: 200, body: '<html>proxy</html>' }], { status: 401 });
  expect(r.code).toBe(3);
  expect(r.report.notAccepted.map((n) => n.message)).toEqual(['UNVERIFIED']);
});

test('an answer with 3,000 header lines (past what the client reads): the batch was applied, its row UNVERIFIED, never resent (issue 28.8)', async () => {
  const flood: Record<string, string> = {};
  for (let i = 0; i < 3000; i++) flood[`x-padding-${i}`] = 'v';
  const r = await push([], { status: 200, body: OK_BODY, headers: flood });
  expect(r.code).toBe(3);
  expect(r.report.notAccepted.map((n) => n.message)).toEqual(['UNVERIFIED']);
  expect(r.report.notAccepted[0]!.detail).toMatch(/headers .*too large to read/);
  // a request the server answered is never sent again in the run
  expect(server!.requests).toHaveLength(1);
});
