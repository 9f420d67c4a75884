// Ctrl-C on a push of a large file: the run stops reading at once. The rows not read yet are one
// line of the report (`deals.csv from line N on: not sent`), not read to be listed one by one, so
// the run ends in about the time the requests in flight take, whatever the file's size; a rerun of
// an incremental push sends the rest, each row once.
import { closeSync, openSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, expect, test } from 'vitest';
import { startServer, type MisbehavingServer, type RecordedRequest } from '../helpers/misbehaving-server.js';
import { SALES_PROFILES_CSV, dealsCsv, spawnCli, startCli, tempFiles } from '../helpers/cli.js';

const KEY = 'interrupt-unread-key-0123456789';
let server: MisbehavingServer | undefined;
afterEach(() => server?.close());

const itemsOf = (req: RecordedRequest) => JSON.parse(req.body.toString()).items as Array<{ externalId: string }>;
const isDeals = (req: RecordedRequest) => req.path.endsWith('/deals');
const slow = (delayMs: number) => ({
  respond: (req: RecordedRequest) => ({ status: 200, delayMs, body: { data: { code: 200, success: itemsOf(req).length, error: [] }, status: 'SUCCESS' } }),
});

/** `rows` deals in a file written in blocks (3,000,000 rows: about 100 MB, a second or two to write). */
function bigDeals(dir: string, rows: number): string {
  const file = join(dir, 'deals.csv');
  const fd = openSync(file, 'w');
  writeSync(fd, 'externalId,title,ownerExternalId,agentExternalId,isWon,amount.value,amount.currency\n');
  let block = '';
  for (let i = 1; i <= rows; i++) {
    block += `D${i},T,ana,ana,false,1,USD\n`;
    if (block.length > 1 << 20) {
      writeSync(fd, block);
      block = '';
    }
  }
  writeSync(fd, block);
  closeSync(fd);
  return file;
}

async function untilDeals(n: number): Promise<void> {
  while (server!.requests.filter(isDeals).length < n) await new Promise((r) => setTimeout(r, 20));
}

test('SIGINT on a 3,000,000-row push ends the run in seconds and names the rows not read as one range', async () => {
  server = await startServer([], slow(300));
  const dir = tempFiles({ 'sales-profiles.csv': SALES_PROFILES_CSV });
  const deals = bigDeals(dir, 3_000_000);
  const { child, result } = startCli(['push', '--batch-size', '500', '--concurrency', '2', join(dir, 'sales-profiles.csv'), deals], {
    env: { BATCH_SYNC_API_KEY: KEY, BATCH_SYNC_BASE_URL: server.url },
  });
  await untilDeals(2);
  const signalledAt = Date.now();
  child.kill('SIGINT');
  const { code, stdout, stderr } = await result;
  const tookMs = Date.now() - signalledAt;
  // the figure, for the record: the requests in flight take 300 ms; reading the rest took 7-18 s at 300k rows
  console.info(`3,000,000-row push: ended ${tookMs} ms after SIGINT`);

  expect(code, stderr).toBe(3);
  const line = /deals\.csv from line ([\d,]+) on: not sent/.exec(stdout);
  expect(line, stdout).not.toBeNull();
  const from = Number(line![1]!.replaceAll(',', ''));
  expect(from).toBeGreaterThan(2);
  expect(from).toBeLessThan(3_000_002);
  // the rows before that line each have their outcome: accepted, or NOT_SENT when read but not sent
  const read = Number(/^deal\s+(\d+)/m.exec(stdout)?.[1]);
  expect(read).toBe(from - 2);
  // and the line counts them: the rows are one a line here
  expect(stdout).toContain(`the ${read.toLocaleString('en-US')} read before it have their outcomes`);
  // a generous bound for a loaded machine: the point is seconds, not the minutes reading the rest took
  expect(tookMs).toBeLessThan(10_000);
}, 120_000);

test('the rows an interrupted incremental push did not send go in the next run, each once', async () => {
  server = await startServer([], slow(200));
  const dir = tempFiles({ 'sales-profiles.csv': SALES_PROFILES_CSV, 'deals.csv': dealsCsv(20_000) });
  const args = ['push', '--incremental', '--state-dir', join(dir, 'state'), '--batch-size', '100', '--concurrency', '2', 'sales-profiles.csv', 'deals.csv'];
  const env = { BATCH_SYNC_API_KEY: KEY, BATCH_SYNC_BASE_URL: server.url };
  const { child, result } = startCli(args, { env, cwd: dir });
  await untilDeals(3);
  child.kill('SIGTERM');
  const first = await result;
  expect(first.code, first.stderr).toBe(3);
  expect(first.stdout).toMatch(/deals\.csv from line [\d,]+ on: not sent/);
  const dealIds = () => server!.requests.filter(isDeals).flatMap((r) => itemsOf(r).map((i) => i.externalId));
  const firstIds = dealIds();
  expect(firstIds.length).toBeLessThan(20_000);

  // the same API (the state is per target), answering at once now
  server.script([], slow(0));
  const second = await spawnCli(args, { env, cwd: dir });
  expect(second.code, second.stderr).toBe(0);
  const secondIds = dealIds().slice(firstIds.length);
  const all = [...firstIds, ...secondIds];
  expect(new Set(all).size).toBe(20_000);
  expect(all.length).toBe(20_000);
}, 120_000);
