// A proxy that accepts the connection, reads CONNECT and closes: undici 7.30 reconnected to it in a
// tight loop (31,676 CONNECTs in 10 s) and its request never settled, not even after its AbortSignal
// fired, so --timeout, --retries, --max-retry-time and Ctrl-C were all ignored. Each attempt must
// fail as a network error, the retry policy must apply, and one SIGINT must end the run.
import { join } from 'node:path';
import { afterEach, expect, test } from 'vitest';
import { startClosingProxy, type ClosingProxy } from '../helpers/connect-proxy.js';
import { SALES_PROFILES_CSV, dealsCsv, startCli, tempFiles } from '../helpers/cli.js';

const KEY = 'proxy-loop-key-0123456789';
let proxy: ClosingProxy | undefined;
afterEach(() => proxy?.close());

function start(args: string[], killAfterMs = 20_000) {
  const dir = tempFiles({ 'sales-profiles.csv': SALES_PROFILES_CSV, 'deals.csv': dealsCsv(10) });
  const run = startCli(['push', '--format', 'json', ...args, join(dir, 'sales-profiles.csv'), join(dir, 'deals.csv')], {
    env: { BATCH_SYNC_API_KEY: KEY, BATCH_SYNC_BASE_URL: 'https://api.example.test', HTTPS_PROXY: proxy!.url, NO_PROXY: '' },
  });
  // the bound: a run that loops for ever is killed, and SIGKILL (128) is not the code any test expects
  const timer = setTimeout(() => run.child.kill('SIGKILL'), killAfterMs);
  run.result.finally(() => clearTimeout(timer)).catch(() => {});
  return run;
}

test('every attempt through a proxy that closes CONNECT fails as a network error; retries end the run with exit 3', async () => {
  proxy = await startClosingProxy();
  const { result } = start(['--retries', '2', '--retry-delay', '50', '--timeout', '2000', '--max-retry-time', '10000']);
  const { code, stdout, stderr } = await result;
  expect(code).toBe(3);
  // 3 attempts of the first batch; a small constant per attempt, never thousands
  expect(proxy.connects).toBeGreaterThanOrEqual(3);
  expect(proxy.connects).toBeLessThanOrEqual(3 * 2);
  expect(stderr).toMatch(
    /retrying sales-profile batch \S+ in [\d.]+ s \(attempt 1 failed: the proxy at http:\/\/127\.0\.0\.1:\d+ closed the connection before the tunnel to api\.example\.test:443 was set up\)/,
  );
  const report = JSON.parse(stdout);
  expect(report.aborted).toBeTruthy();
  expect(report.counts['sales-profile'].accepted).toBe(0);
  expect(report.counts.deal.accepted).toBe(0);
}, 30_000);

test('one SIGINT ends a run whose proxy closes every CONNECT', async () => {
  proxy = await startClosingProxy();
  // retries that would last minutes: only the signal can end this run in time
  const { child, result } = start(['--retries', '20', '--retry-delay', '2000', '--timeout', '60000']);
  while (proxy.connects === 0 && child.exitCode === null) await new Promise((r) => setTimeout(r, 20));
  child.kill('SIGINT');
  const { code, stdout, stderr } = await result;
  expect(code).toBe(3);
  expect(stderr).toMatch(/SIGINT: taking no new batches/);
  expect(JSON.parse(stdout).aborted.code).toBe('INTERRUPTED');
  expect(proxy.connects).toBeLessThanOrEqual(10);
}, 30_000);
