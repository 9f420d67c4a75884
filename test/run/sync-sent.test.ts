// sync() says whether any request went out to the API: the command decides an output file's
// failure from it (exit 3 once anything was sent, exit 2 before), not from the rows' messages.
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, expect, test } from 'vitest';
import { startSandbox, type SandboxHandle } from '../../src/sandbox/index.js';
import { sync } from '../../src/run/sync.js';
import { dealsCsv, SALES_PROFILES_CSV, tempFiles } from '../helpers/cli.js';

const KEY = 'sync-sent-key-4d1c';
let sb: SandboxHandle;
beforeAll(async () => {
  sb = await startSandbox({ port: 0, apiKey: KEY, answers: 'named' });
});
afterAll(() => sb.close());
beforeEach(() => sb.reset());

const run = (mode: 'push' | 'validate' | 'dry-run', files: Record<string, string>) => {
  const dir = tempFiles(files);
  return sync({
    mode,
    files: Object.keys(files).map((f) => join(dir, f)),
    flags: { answerStyle: 'named' },
    env: { BATCH_SYNC_API_KEY: KEY, BATCH_SYNC_BASE_URL: sb.url },
  });
};

test('validate and a dry run send nothing', async () => {
  const files = { 'sales-profiles.csv': SALES_PROFILES_CSV, 'deals.csv': dealsCsv(3) };
  expect((await run('validate', files)).sent).toBe(false);
  expect((await run('dry-run', files)).sent).toBe(false);
  expect(sb.stats().requests).toBe(0);
});

test('a push whose every row is invalid sends nothing', async () => {
  const outcome = await run('push', { 'deals.csv': dealsCsv(3, { currency: () => 'USX' }) });
  expect(outcome.report.totals.invalid).toBe(3);
  expect(outcome.sent).toBe(false);
  expect(sb.stats().requests).toBe(0);
});

test('a push that sent rows says so, whether the server took them or refused them', async () => {
  const accepted = await run('push', { 'sales-profiles.csv': SALES_PROFILES_CSV });
  expect(accepted.report.totals.accepted).toBe(2);
  expect(accepted.sent).toBe(true);
  sb.reset();
  // no sales profiles on the server: every deal is refused
  const refused = await run('push', { 'deals.csv': dealsCsv(3) });
  expect(refused.report.totals.rejected).toBe(3);
  expect(refused.sent).toBe(true);
});
