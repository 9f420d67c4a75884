// `push --sandbox --keep-open` (issue 35 item 3): the embedded sandbox and its page keep serving
// after the run, until Ctrl+C; the page's URL is printed; the exit code is still the run's.
import { resolve } from 'node:path';
import { expect, test } from 'vitest';
import { spawnCli, startCli } from '../helpers/cli.js';

const ROOT = resolve(__dirname, '../..');

test("push --sandbox --keep-open: the page serves after the report until Ctrl+C; exit code the run's", async () => {
  const { child, result } = startCli(['push', '--sandbox', '--keep-open', '--config', 'fixtures/crm-sales-opportunities/batch-sync.config.json'], {
    cwd: ROOT,
  });
  let stderr = '';
  let stdout = '';
  child.stderr!.on('data', (c) => (stderr += c));
  child.stdout!.on('data', (c) => (stdout += c));
  const deadline = Date.now() + 20_000;
  while (!/Ctrl\+C/.test(stderr) && Date.now() < deadline && child.exitCode === null) await new Promise((r) => setTimeout(r, 100));
  expect(stderr).toMatch(/Ctrl\+C/);
  expect(stdout).toContain('OK: all 8920 rows accepted.');
  const url = stderr.match(/page: (http:\/\/127\.0\.0\.1:\d+\/)/)?.[1];
  expect(url, stderr).toBeDefined();
  const summary = (await (await fetch(new URL('data/summary', url))).json()) as { records: Record<string, number> };
  expect(summary.records).toMatchObject({ deal: 8800, account: 85, 'sales-profile': 35 });
  expect(child.exitCode).toBe(null);
  child.kill('SIGINT');
  const done = await result;
  expect(done.code).toBe(0);
  await expect(fetch(new URL('data/summary', url))).rejects.toThrow();
}, 30_000);

test('--keep-open without --sandbox is refused before anything is sent', async () => {
  const r = await spawnCli(['push', '--keep-open', '--base-url', 'http://127.0.0.1:9', 'fixtures/canonical/sales-profiles.csv'], {
    cwd: ROOT,
    env: { BATCH_SYNC_API_KEY: 'k' },
  });
  expect(r.code).toBe(2);
  expect(r.stderr).toContain('--keep-open goes with --sandbox');
});

test("--help lists --keep-open with sending and the sandbox's --page-port", async () => {
  const push = await spawnCli(['push', '--help'], { cwd: ROOT });
  expect(push.stdout.split(/\n(?=\S)/).find((block) => block.startsWith('Sending:'))).toContain('--keep-open');
  const sandbox = await spawnCli(['sandbox', '--help'], { cwd: ROOT });
  expect(sandbox.stdout).toContain('--page-port');
});
