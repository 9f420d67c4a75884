// Incremental state is kept per target: rows one API accepted are not "unchanged" for another.
import { join } from 'node:path';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { startSandbox, type SandboxHandle } from '../../src/sandbox/index.js';
import { stateScope } from '../../src/state/state-scope.js';
import { SALES_PROFILES_CSV, runCli, tempFiles } from '../helpers/cli.js';

const KEY = 'targets-key-0123456789';
let staging: SandboxHandle;
let production: SandboxHandle;
beforeAll(async () => {
  [staging, production] = await Promise.all([startSandbox({ port: 0, apiKey: KEY }), startSandbox({ port: 0, apiKey: KEY })]);
});
afterAll(() => Promise.all([staging.close(), production.close()]));

test('a state recorded against staging does not make a production run skip rows', async () => {
  const dir = tempFiles({ 'sales-profiles.csv': SALES_PROFILES_CSV });
  const push = (api: SandboxHandle) =>
    runCli(['push', '--incremental', '--state-dir', join(dir, 'state'), join(dir, 'sales-profiles.csv')], {
      BATCH_SYNC_API_KEY: KEY,
      BATCH_SYNC_BASE_URL: api.url,
    });
  expect((await push(staging)).code).toBe(0);
  expect((await push(production)).code).toBe(0);
  expect(production.records('sales-profile')).toHaveLength(2);
  // and each target still remembers its own: a second run to either sends nothing
  const again = await push(production);
  expect(again.code).toBe(0);
  expect(again.stdout).toMatch(/UNCHANGED/);
  expect(production.batches()).toHaveLength(1);
});

test('the target is the base URL without a trailing slash, per method', () => {
  expect(stateScope('post', 'https://api.example.com/')).toBe('post@https://api.example.com');
  expect(stateScope('post', 'https://API.example.com')).toBe(stateScope('post', 'https://api.example.com/'));
  expect(stateScope('patch', 'https://api.example.com')).not.toBe(stateScope('post', 'https://api.example.com'));
  expect(stateScope('post', 'https://api.example.com/eu')).not.toBe(stateScope('post', 'https://api.example.com'));
});
