// A canary API key through every path push has — success, 401, 404, redirect, unverified answers,
// retries, --verbose, --format json, errors CSV, dry-run, reports on disk — with servers that echo
// the key back in bodies, headers and locations: it must appear in no output and no file we write.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, test } from 'vitest';
import { startSandbox, type SandboxHandle } from '../../src/sandbox/index.js';
import { runCli, type CliResult } from '../helpers/cli.js';
import { startServer, type MisbehavingServer, type Step } from '../helpers/misbehaving-server.js';
import { accountsFile, okBody } from './faults-helpers.js';

const CANARY = 'canary-7e1b4c2d9f00a1b2c3d4';
let sandbox: SandboxHandle;
let server: MisbehavingServer | undefined;
beforeAll(async () => {
  sandbox = await startSandbox({ port: 0, apiKey: CANARY });
});
afterAll(() => sandbox.close());
afterEach(() => server?.close());

function filesUnder(dir: string): string[] {
  return readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .map((f) => join(dir, f))
    .filter((f) => statSync(f).isFile());
}

function expectNoCanary(r: CliResult, dir: string) {
  expect(r.stdout).not.toContain(CANARY);
  expect(r.stderr).not.toContain(CANARY);
  // the inputs never held it; every report, errors CSV and state file we wrote must not either
  for (const f of filesUnder(dir)) expect(readFileSync(f, 'latin1'), f).not.toContain(CANARY);
}

const echo = (status: number, extra: Partial<Step> = {}): Step => ({
  respond: (req) => ({
    status,
    headers: { 'x-echo': String(req.headers['x-api-key']) },
    body: { message: `bad key ${String(req.headers['x-api-key'])}` },
    ...extra,
  }),
});

const PATHS: [string, () => Promise<string>, string[], number][] = [
  ['success', async () => sandbox.url, [], 0],
  ['success, --format json --verbose', async () => sandbox.url, ['--format', 'json', '--verbose'], 0],
  ['dry-run', async () => sandbox.url, ['--dry-run', '--verbose'], 0],
  ['401 echoing the key', async () => (server = await startServer([], echo(401))).url, ['--verbose'], 3],
  ['404 echoing the key', async () => (server = await startServer([], echo(404))).url, ['--format', 'json'], 3],
  [
    'a redirect to a URL holding the key',
    async () =>
      (server = await startServer([], {
        respond: (req) => ({ status: 307, headers: { location: `http://127.0.0.1:9/?key=${String(req.headers['x-api-key'])}` } }),
      })).url,
    ['--verbose'],
    3,
  ],
  [
    'unverified 200 echoing the key',
    async () => (server = await startServer([], { respond: (req) => ({ status: 200, body: `<html>${String(req.headers['x-api-key'])}</html>` }) })).url,
    ['--retries', '1', '--verbose'],
    3,
  ],
  [
    'retries on 503 echoing the key',
    async () => (server = await startServer([echo(503), echo(503)], { respond: (req) => ({ status: 200, body: okBody(req) }) })).url,
    ['--verbose'],
    0,
  ],
  [
    'server rejections quoting the key, into the errors CSV',
    async () =>
      (server = await startServer([], {
        respond: (req) => ({
          status: 200,
          body: okBody(req, [{ message: 'VALIDATION_ERROR', detail: `items[0] externalId=A-1: key ${String(req.headers['x-api-key'])} is not allowed` }]),
        }),
      })).url,
    ['--verbose'],
    1,
  ],
];

describe('a canary API key never leaks', () => {
  test.each(PATHS)('%s', async (_name, base, args, code) => {
    const { dir, file, stateDir } = accountsFile(3);
    const r = await runCli(['push', '--retry-delay', '10', '--state-dir', stateDir, '--incremental', '--errors', join(dir, 'failed.csv'), ...args, file], {
      BATCH_SYNC_API_KEY: CANARY,
      BATCH_SYNC_BASE_URL: await base(),
    });
    expect(r.code, r.stderr).toBe(code);
    expectNoCanary(r, dir);
    // the paths that write files did write them: the check above looked at something
    if (code !== 0 && !args.includes('--dry-run')) expect(readFileSync(join(dir, 'failed.csv'), 'utf8')).toContain('A-1');
  });
});

test('the notification and the pings never carry the key, even when the server quotes it in its rejections', async () => {
  server = await startServer([], {
    respond: (req) => ({
      status: 200,
      body: okBody(req, [{ message: 'VALIDATION_ERROR', detail: `items[0] externalId=A-1: key ${String(req.headers['x-api-key'])} is not allowed` }]),
    }),
  });
  const hooks = await startServer([], { status: 200, body: 'OK' });
  try {
    const { dir, file } = accountsFile(3);
    const r = await runCli(
      ['push', '--notify-url', `${hooks.url}/hook`, '--notify-on', 'always', '--ping-url', `${hooks.url}/ping`, '--format', 'json', file],
      {
        BATCH_SYNC_API_KEY: CANARY,
        BATCH_SYNC_BASE_URL: server.url,
      },
    );
    expect(r.code, r.stderr).toBe(1);
    expectNoCanary(r, dir);
    expect(hooks.requests.map((q) => q.path.replace(/\?.*/, '')).sort()).toEqual(['/hook', '/ping/fail', '/ping/start']);
    for (const q of hooks.requests) {
      expect(`${q.path} ${JSON.stringify(q.headers)} ${q.body.toString('latin1')}`).not.toContain(CANARY);
      // the server's text is not sent on either: only counts
      expect(q.body.toString()).not.toContain('is not allowed');
    }
  } finally {
    await hooks.close();
  }
});

// Issue 36 row 7: a key pasted as userinfo into --base-url whose characters end the URL's
// authority early (`/`, `?`, `#`, `\`) parsed as a host name, which the errors then showed
test.each([
  'https://CANARY/key-abc@api.example.com',
  'https://user:CANARY?x@api.example.com',
  'https://CANARY#frag@api.example.com',
  'https://CANARY@api.example.com',
])('a key pasted as userinfo into --base-url (%s) is refused without a word of it', async (pattern) => {
  const key = 'Canarykey-5f1e2d3c4b5a69788796a5b4';
  const { dir, file } = accountsFile(1);
  for (const base of [pattern.replace('CANARY', key), pattern.replace('CANARY', encodeURIComponent(key))]) {
    const r = await runCli(['push', file], { BATCH_SYNC_API_KEY: 'another-key-0123456789abcdef', BATCH_SYNC_BASE_URL: base });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(
      /^error: (the base URL must not contain credentials \(user:password@\)|BATCH_SYNC_BASE_URL "https:\/\/…@api\.example\.com" is not a URL)/,
    );
    for (const text of [r.stdout, r.stderr]) {
      expect(text.toLowerCase()).not.toContain('canarykey');
      expect(text).not.toContain('5f1e2d3c');
    }
    expect(readdirSync(dir).join(' ')).not.toContain('canary');
  }
});
