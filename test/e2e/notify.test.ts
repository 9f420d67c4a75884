// Cron's view of a run: --ping-url pings start, then success or fail (healthchecks.io's convention);
// --notify-url posts a JSON summary on failure (or always). Against a local server that records what
// it received, and one that never answers: the run's exit code is its own either way.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, expect, test } from 'vitest';
import { spawnCli, tempFiles } from '../helpers/cli.js';
import { startServer, type MisbehavingServer } from '../helpers/misbehaving-server.js';

const TOKEN = '5f0c1d7e-3b2a-4c9d-8e6f-0a1b2c3d4e5f';
let server: MisbehavingServer | undefined;
afterEach(() => server?.close());

// the failing row's id and cells are values: none may reach a notification
const accounts = (bad = false) => `externalId,name,type\nacme,Acme,COMPANY\n${bad ? 'beta-row-canary,,COMPANY' : 'beta,Beta,COMPANY'}\n`;

test('a succeeding run pings start and success, and posts no notification by default', async () => {
  server = await startServer([], { status: 200, body: 'OK' });
  const dir = tempFiles({ 'accounts.csv': accounts() });
  const r = await spawnCli(['push', '--sandbox', '--quiet', '--ping-url', `${server.url}/${TOKEN}`, '--notify-url', `${server.url}/hook`, 'accounts.csv'], {
    cwd: dir,
  });
  expect(r.code, r.stderr).toBe(0);
  expect(server.requests.map((q) => `${q.method} ${q.path}`)).toEqual([`POST /${TOKEN}/start`, `POST /${TOKEN}`]);
  expect(server.requests[1]!.body.toString()).toMatch(/^batch-sync push: run \S+ OK exit=0 read=2 accepted=2 /);
});

test('a failing run pings fail and posts the summary, from the plan too; --notify-on always posts on success', async () => {
  server = await startServer([], { status: 200, body: 'OK' });
  const dir = tempFiles({ 'accounts.csv': accounts(true) });
  writeFileSync(
    join(dir, 'batch-sync.config.json'),
    JSON.stringify({ notify: { url: `${server.url}/hook`, pingUrl: `${server.url}/${TOKEN}` }, jobs: [{ file: 'accounts.csv' }] }),
  );
  const r = await spawnCli(['push', '--sandbox', '--quiet'], { cwd: dir });
  expect(r.code).toBe(1);
  const byPath = Object.fromEntries(server.requests.map((q) => [q.path, q]));
  expect(Object.keys(byPath).sort()).toEqual([`/${TOKEN}/fail`, `/${TOKEN}/start`, '/hook'].sort());
  const hook = byPath['/hook']!;
  expect(hook.headers['content-type']).toBe('application/json');
  const payload = JSON.parse(hook.body.toString());
  expect(payload).toMatchObject({
    version: 1,
    status: 'FAILED',
    exitCode: 1,
    mode: 'push',
    totals: { read: 2, accepted: 1, invalid: 1 },
    counts: { account: { read: 2, accepted: 1, invalid: 1 } },
    aborted: null,
  });
  expect(payload.text).toMatch(/^batch-sync push on \S+: FAILED \(exit 1\), 1 of 2 rows accepted, 1 not; batch-sync push: run /);
  // the row's value never travels: only counts
  expect(hook.body.toString()).not.toContain('beta-row-canary');
  expect(byPath[`/${TOKEN}/fail`]!.body.toString()).not.toContain('beta-row-canary');

  server.requests.length = 0;
  writeFileSync(join(dir, 'accounts.csv'), accounts());
  const ok = await spawnCli(['push', '--sandbox', '--quiet', '--notify-on', 'always'], { cwd: dir });
  expect(ok.code).toBe(0);
  expect(server.requests.map((q) => q.path).sort()).toEqual([`/${TOKEN}`, `/${TOKEN}/start`, '/hook'].sort());
});

test('a run that stops before it reads (an unusable state directory) still pings fail and notifies, with its exit code', async () => {
  server = await startServer([], { status: 200, body: 'OK' });
  const dir = tempFiles({ 'accounts.csv': accounts() });
  const r = await spawnCli(
    ['push', '--sandbox', '--state-dir', 'accounts.csv', '--ping-url', `${server.url}/${TOKEN}`, '--notify-url', `${server.url}/hook`, 'accounts.csv'],
    {
      cwd: dir,
    },
  );
  expect(r.code).toBe(2);
  expect(server.requests.map((q) => q.path).sort()).toEqual([`/${TOKEN}/fail`, `/${TOKEN}/start`, '/hook'].sort());
  const payload = JSON.parse(server.requests.find((q) => q.path === '/hook')!.body.toString());
  expect(payload).toMatchObject({ status: 'ABORTED', exitCode: 2, runId: null, totals: null, aborted: 'CONFIG' });
});

test('a notification server that never answers: each call gives up after 5 s and one retry, logged without the URL path, exit code unchanged', async () => {
  server = await startServer([], { delayMs: 120_000, status: 200 });
  const dir = tempFiles({ 'accounts.csv': accounts(true) });
  const r = await spawnCli(['push', '--sandbox', '--quiet', '--notify-url', `${server.url}/hooks/${TOKEN}`, 'accounts.csv'], { cwd: dir, timeoutMs: 60_000 });
  expect(r.code).toBe(1);
  expect(r.stderr).toContain(`warning: the notification to ${server.url}/… failed: no answer within 5 s (tried 2 times); the run's exit code is unchanged`);
  expect(r.stderr).not.toContain(TOKEN);
  // the summary line is still the last line on stderr
  expect(r.stderr.trim().split('\n').at(-1)).toMatch(/^batch-sync push: run \S+ FAILED exit=1 /);
  expect(server.requests.map((q) => q.path)).toEqual([`/hooks/${TOKEN}`, `/hooks/${TOKEN}`]);
}, 60_000);

test('a refused ping (HTTP 404) is logged and retried only when it may pass', async () => {
  server = await startServer([], { status: 404, body: 'not found' });
  const dir = tempFiles({ 'accounts.csv': accounts() });
  const r = await spawnCli(['push', '--sandbox', '--quiet', '--ping-url', `${server.url}/${TOKEN}`, 'accounts.csv'], { cwd: dir });
  expect(r.code).toBe(0);
  expect(r.stderr).toContain(`warning: the start ping to ${server.url}/… failed: answered HTTP 404`);
  expect(r.stderr).not.toContain(TOKEN);
  expect(server.requests).toHaveLength(2);
});

test('a URL that is not http(s) is refused before anything runs, without echoing it', async () => {
  const dir = tempFiles({ 'accounts.csv': accounts() });
  const r = await spawnCli(['push', '--sandbox', '--ping-url', `ftp://example.com/${TOKEN}`, 'accounts.csv'], { cwd: dir });
  expect(r.code).toBe(2);
  expect(r.stderr).toContain('--ping-url takes an http:// or https:// URL (not shown: it may hold a token)');
  expect(r.stderr).not.toContain(TOKEN);
});
