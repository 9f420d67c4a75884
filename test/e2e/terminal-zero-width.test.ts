// A terminal that reports 0 columns (a pty nobody sized: `script` in cron, some CI runners) once made
// every run spin forever drawing cursor-up/clear-line codes, deaf to SIGTERM. Progress must fall back
// to plain lines there, the run must end with its own exit code, and SIGTERM must end it as documented.
import { join } from 'node:path';
import { afterEach, expect, test } from 'vitest';
import { startServer, type MisbehavingServer, type RecordedRequest } from '../helpers/misbehaving-server.js';
import { SALES_PROFILES_CSV, dealsCsv, tempFiles } from '../helpers/cli.js';
import { startCliOnPty } from '../helpers/pty.js';

const KEY = 'zero-width-key-0123456789';
let server: MisbehavingServer | undefined;
afterEach(() => server?.close());

const itemsIn = (req: RecordedRequest) => (JSON.parse(req.body.toString()).items as unknown[]).length;
const CURSOR_UP = '\x1b[1A';

test('validate on a 0-column terminal ends with its exit code and prints plain progress', async () => {
  const dir = tempFiles({ 'sales-profiles.csv': SALES_PROFILES_CSV, 'deals.csv': dealsCsv(300) });
  const run = startCliOnPty(['validate', join(dir, 'sales-profiles.csv'), join(dir, 'deals.csv')]);
  const { code, output } = await run.result;
  expect(code).toBe(0);
  expect(output).not.toContain(CURSOR_UP);
  expect(output).toMatch(/Z {2}deal: \d+ rows read/);
  expect(output).toMatch(/OK: all 302 rows valid/);
}, 40_000);

test('push on a 0-column terminal ends, and the spinner codes never start', async () => {
  server = await startServer([], { respond: (req) => ({ status: 200, body: { data: { code: 200, success: itemsIn(req), error: [] }, status: 'SUCCESS' } }) });
  const dir = tempFiles({ 'sales-profiles.csv': SALES_PROFILES_CSV, 'deals.csv': dealsCsv(200) });
  const run = startCliOnPty(['push', '--batch-size', '50', join(dir, 'sales-profiles.csv'), join(dir, 'deals.csv')], {
    env: { BATCH_SYNC_API_KEY: KEY, BATCH_SYNC_BASE_URL: server.url },
  });
  const { code, output } = await run.result;
  expect(code).toBe(0);
  expect(output).not.toContain(CURSOR_UP);
  expect(output).toMatch(/OK: all rows accepted|exit=0/);
}, 40_000);

test('SIGTERM mid-push on a 0-column terminal ends the run with exit 3 and its report', async () => {
  // every answer takes 400 ms: batches are in flight when the signal comes
  server = await startServer([], {
    respond: (req) => ({ status: 200, delayMs: 400, body: { data: { code: 200, success: itemsIn(req), error: [] }, status: 'SUCCESS' } }),
  });
  const dir = tempFiles({ 'sales-profiles.csv': SALES_PROFILES_CSV, 'deals.csv': dealsCsv(400) });
  const run = startCliOnPty(['push', '--batch-size', '20', '--concurrency', '2', join(dir, 'sales-profiles.csv'), join(dir, 'deals.csv')], {
    env: { BATCH_SYNC_API_KEY: KEY, BATCH_SYNC_BASE_URL: server.url },
  });
  const pid = await run.pid;
  while (!run.exited() && !server.requests.some((r) => r.path.endsWith('/deals'))) await new Promise((r) => setTimeout(r, 20));
  process.kill(pid, 'SIGTERM');
  const { code, output } = await run.result;
  expect(code).toBe(3);
  expect(output).toMatch(/SIGTERM: taking no new batches/);
  expect(output).toMatch(/NOT_SENT/);
  expect(output).not.toContain(CURSOR_UP);
}, 40_000);
