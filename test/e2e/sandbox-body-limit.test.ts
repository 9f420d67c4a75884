// A 10 MB cell against the sandbox's body limit. The API's spec states no maximum body size, so the
// sandbox keeps one (unbounded is not safe) but says what it is and how to raise it: in its 413, in
// the push report that quotes it, and `--max-body-bytes` raises it, for `batch-sync sandbox` and for
// the embedded sandbox of `push --sandbox` (which takes what push's own --max-body-bytes lets it send).
import { expect, test } from 'vitest';
import { spawnCli, tempFiles } from '../helpers/cli.js';
import { sandboxCli } from '../helpers/sandbox.js';

const KEY = 'body-limit-key-41';
const BIG = 'A'.repeat(10 * 1024 * 1024);
const files = () => tempFiles({ 'accounts.csv': `externalId,name,type\nA-1,${BIG},COMPANY\nA-2,Small,CLIENT\n` });
// push itself must be let to read and send such a row
const LET_THROUGH = ['--max-record-bytes', '20000000', '--max-body-bytes', '20000000', '--batch-size', '1'];

test('batch-sync sandbox: the 413 names its limit and the flag that raises it; with --max-body-bytes the row is accepted', async () => {
  const dir = files();
  const strict = await sandboxCli(KEY);
  try {
    const r = await spawnCli(['push', 'accounts.csv', ...LET_THROUGH], { cwd: dir, env: { BATCH_SYNC_API_KEY: KEY, BATCH_SYNC_BASE_URL: strict.url } });
    expect(r.code, r.stdout + r.stderr).not.toBe(0);
    expect(r.stdout + r.stderr).toMatch(/413/);
    expect(r.stdout + r.stderr).toContain("over the sandbox's limit of 10 MiB (10485760 bytes; the API's spec states none)");
    expect(r.stdout + r.stderr).toContain('--max-body-bytes');
  } finally {
    await strict.stop();
  }
  const raised = await sandboxCli(KEY, ['--max-body-bytes', '20000000']);
  try {
    const r = await spawnCli(['push', 'accounts.csv', ...LET_THROUGH], { cwd: dir, env: { BATCH_SYNC_API_KEY: KEY, BATCH_SYNC_BASE_URL: raised.url } });
    expect(r.code, r.stdout + r.stderr).toBe(0);
  } finally {
    await raised.stop();
  }
}, 60_000);

test('push --sandbox: the embedded sandbox takes what push --max-body-bytes lets it send', async () => {
  const r = await spawnCli(['push', '--sandbox', 'accounts.csv', ...LET_THROUGH], { cwd: files() });
  expect(r.code, r.stdout + r.stderr).toBe(0);
  expect(r.stdout).toContain('The embedded sandbox now holds: 0 sales-profiles, 2 accounts');
}, 60_000);
