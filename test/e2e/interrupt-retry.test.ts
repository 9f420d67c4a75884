// After the first SIGINT ("taking no new batches"), a batch waiting between two attempts must not
// send its retry: no request leaves after the run was interrupted.
import { join } from 'node:path';
import { afterEach, expect, test } from 'vitest';
import { startServer, type MisbehavingServer } from '../helpers/misbehaving-server.js';
import { dealsCsv, startCli, tempFiles } from '../helpers/cli.js';

const KEY = 'interrupt-retry-key-0123456789';
let server: MisbehavingServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

test('no request leaves after SIGINT was taken, not even a retry', async () => {
  // the first answer is a 503 asking to come back in 2 s
  server = await startServer([{ status: 503, headers: { 'retry-after': '2' } }]);
  const dir = tempFiles({ 'deals.csv': dealsCsv(3) });
  const { child, result } = startCli(['push', '--format', 'json', join(dir, 'deals.csv')], {
    env: { BATCH_SYNC_API_KEY: KEY, BATCH_SYNC_BASE_URL: server.url },
  });
  let handledAt = Infinity;
  child.stderr!.on('data', (c) => {
    if (String(c).includes('SIGINT: taking no new batches')) handledAt = Math.min(handledAt, Date.now());
  });
  while (server.requests.length === 0) await new Promise((r) => setTimeout(r, 20));
  await new Promise((r) => setTimeout(r, 300)); // the 503 is back; the client sleeps before its retry
  child.kill('SIGINT');
  const { code } = await result;
  expect(code).toBe(3);
  expect(handledAt).toBeLessThan(Infinity);
  // one request (the 503), counted: the retry due 2 s later is not sent
  expect(server.requests).toHaveLength(1);
});
