// Cron's view of a run: --ping-url pings start, then success or fail (healthchecks.io's convention);
// --notify-url posts a JSON summary on failure (or always). Against a local server that records what
// it received, and one that never answers: the run's exit code is its own either way.
import { mkdirSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
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
  expect(server.requests.map((q) => `${q.method} ${q.path.replace(/\?.*/, '')}`)).toEqual([`POST /${TOKEN}/start`, `POST /${TOKEN}`]);
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
  const byPath = Object.fromEntries(server.requests.map((q) => [q.path.replace(/\?.*/, ''), q]));
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
  expect(server.requests.map((q) => q.path.replace(/\?.*/, '')).sort()).toEqual([`/${TOKEN}`, `/${TOKEN}/start`, '/hook'].sort());
});

test('a run that stops before it reads (an unusable state directory) still pings fail and notifies, with its exit code; it never started', async () => {
  server = await startServer([], { status: 200, body: 'OK' });
  const dir = tempFiles({ 'accounts.csv': accounts() });
  const r = await spawnCli(
    ['push', '--sandbox', '--state-dir', 'accounts.csv', '--ping-url', `${server.url}/${TOKEN}`, '--notify-url', `${server.url}/hook`, 'accounts.csv'],
    {
      cwd: dir,
    },
  );
  expect(r.code).toBe(2);
  // the start ping goes once the lock is held: the state directory failed before that
  expect(server.requests.map((q) => q.path.replace(/\?.*/, '')).sort()).toEqual([`/${TOKEN}/fail`, '/hook'].sort());
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

// issue 27, item 4: a dry run proves nothing to the monitor of the real push
test('a dry run sends no start and no success ping, only a /log event, and its notification says valid, never accepted', async () => {
  server = await startServer([], { status: 200, body: 'OK' });
  const dir = tempFiles({ 'accounts.csv': accounts() });
  const r = await spawnCli(
    ['push', '--dry-run', '--quiet', '--ping-url', `${server.url}/${TOKEN}`, '--notify-url', `${server.url}/hook`, '--notify-on', 'always', 'accounts.csv'],
    { cwd: dir },
  );
  expect(r.code, r.stderr).toBe(0);
  const paths = server.requests.map((q) => q.path.replace(/\?.*/, ''));
  expect(paths.sort()).toEqual([`/${TOKEN}/log`, '/hook'].sort());
  const log = server.requests.find((q) => q.path.startsWith(`/${TOKEN}/log`))!;
  expect(log.body.toString()).toMatch(/^batch-sync push --dry-run: run \S+ OK exit=0 read=2 valid=2 /);
  const hook = server.requests.find((q) => q.path === '/hook')!;
  const payload = JSON.parse(hook.body.toString());
  expect(payload).toMatchObject({ status: 'OK', mode: 'dry-run', exitCode: 0 });
  expect(payload.text).toMatch(/^batch-sync push --dry-run on \S+: OK \(exit 0\), 2 of 2 rows valid, 0 not, nothing sent; /);
  expect(payload.text).not.toMatch(/accepted/);
});

// issue 27, item 6: healthchecks pairs a run's events by its rid
const RID = /^rid=[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

test('every ping carries the run id (rid, a lowercase UUID): the same on /start and its success, another on the next run', async () => {
  server = await startServer([], { status: 200, body: 'OK' });
  const dir = tempFiles({ 'accounts.csv': accounts() });
  const args = ['push', '--sandbox', '--quiet', '--ping-url', `${server.url}/${TOKEN}?create=1`, 'accounts.csv'];
  expect((await spawnCli(args, { cwd: dir })).code).toBe(0);
  expect((await spawnCli(args, { cwd: dir })).code).toBe(0);
  const seen = server.requests.map((q) => new URL(q.path, server!.url));
  expect(seen.map((u) => u.pathname)).toEqual([`/${TOKEN}/start`, `/${TOKEN}`, `/${TOKEN}/start`, `/${TOKEN}`]);
  // the URL's own query is kept
  for (const u of seen) {
    expect(u.searchParams.get('create')).toBe('1');
    expect(`rid=${u.searchParams.get('rid')}`).toMatch(RID);
  }
  const rids = seen.map((u) => u.searchParams.get('rid'));
  expect(rids[0]).toBe(rids[1]);
  expect(rids[2]).toBe(rids[3]);
  expect(rids[0]).not.toBe(rids[2]);
});

test('a run refused by the lock sends no /start and no /fail, only a /log event: the holder keeps its start and success paired', async () => {
  server = await startServer([], { status: 200, body: 'OK' });
  const dir = tempFiles({ 'accounts.csv': accounts() });
  mkdirSync(join(dir, 'state'));
  // held by this test's process: alive, on this host
  writeFileSync(
    join(dir, 'state', 'lock'),
    JSON.stringify({ pid: process.pid, hostname: hostname(), startedAt: new Date().toISOString(), runId: '20261124-0215-hold' }),
  );
  const r = await spawnCli(
    ['push', '--sandbox', '--quiet', '--state-dir', 'state', '--ping-url', `${server.url}/${TOKEN}`, '--notify-url', `${server.url}/hook`, 'accounts.csv'],
    { cwd: dir },
  );
  expect(r.code).toBe(4);
  const paths = server.requests.map((q) => q.path.replace(/\?.*/, ''));
  expect(paths.sort()).toEqual([`/${TOKEN}/log`, '/hook'].sort());
  const log = server.requests.find((q) => q.path.startsWith(`/${TOKEN}/log`))!;
  expect(`rid=${new URL(log.path, server.url).searchParams.get('rid')}`).toMatch(RID);
  expect(log.body.toString()).toBe('batch-sync push: refused, another run holds the lock (exit=4 LOCKED)');
  expect(JSON.parse(server.requests.find((q) => q.path === '/hook')!.body.toString())).toMatchObject({ exitCode: 4, aborted: 'LOCKED' });
});

// issue 27, item 7: Teams Workflows show nothing for a bare {text}
test('--notify-format teams posts an Adaptive Card message; slack posts {text} alone', async () => {
  server = await startServer([], { status: 202, body: '' });
  const dir = tempFiles({ 'accounts.csv': accounts(true) });
  const r = await spawnCli(['push', '--sandbox', '--quiet', '--notify-url', `${server.url}/workflows/x`, '--notify-format', 'teams', 'accounts.csv'], {
    cwd: dir,
  });
  expect(r.code).toBe(1);
  expect(r.stderr).not.toContain('warning: the notification');
  const card = JSON.parse(server.requests[0]!.body.toString());
  expect(card.type).toBe('message');
  expect(card.attachments).toHaveLength(1);
  expect(card.attachments[0].contentType).toBe('application/vnd.microsoft.card.adaptive');
  const content = card.attachments[0].content;
  expect(content).toMatchObject({ type: 'AdaptiveCard', version: '1.4' });
  const texts = JSON.stringify(content.body);
  expect(texts).toContain('batch-sync push on ');
  expect(texts).toContain('FAILED (exit 1)');
  expect(content.body.find((b: { type: string }) => b.type === 'FactSet').facts).toEqual(
    expect.arrayContaining([
      { title: 'read', value: '2' },
      { title: 'accepted', value: '1' },
      { title: 'invalid', value: '1' },
    ]),
  );
  expect(server.requests[0]!.body.toString()).not.toContain('beta-row-canary');

  server.requests.length = 0;
  const slack = await spawnCli(['push', '--sandbox', '--quiet', '--notify-url', `${server.url}/services/x`, '--notify-format', 'slack', 'accounts.csv'], {
    cwd: dir,
  });
  expect(slack.code).toBe(1);
  const body = JSON.parse(server.requests[0]!.body.toString());
  expect(Object.keys(body)).toEqual(['text']);
  expect(body.text).toMatch(/^batch-sync push on \S+: FAILED \(exit 1\), 1 of 2 rows accepted, 1 not; /);
});

test('user:password@ in --notify-url is sent as Basic authorization, never dropped, never printed (issue 36 row 9)', async () => {
  server = await startServer([], { status: 200, body: 'OK' });
  const dir = tempFiles({ 'accounts.csv': accounts() });
  const url = server.url.replace('http://', 'http://hook-user:S3cretPassw0rd-notify@');
  const r = await spawnCli(['push', '--sandbox', '--verbose', '--notify-url', `${url}/hook`, '--notify-on', 'always', 'accounts.csv'], { cwd: dir });
  expect(r.code, r.stderr).toBe(0);
  expect(server.requests).toHaveLength(1);
  expect(server.requests[0]!.headers.authorization).toBe(`Basic ${Buffer.from('hook-user:S3cretPassw0rd-notify').toString('base64')}`);
  expect(r.stdout + r.stderr).not.toMatch(/S3cretPassw0rd|hook-user/);
});
