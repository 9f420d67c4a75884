// Safety around the key and the data, through the CLI: key files readable by others, clear-text
// http to other hosts, the TLS override, formula cells in the errors CSV (server messages too),
// payload values kept out of the terminal, and the sandbox's key check and size limits.
import { chmodSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, test } from 'vitest';
import { startSandbox, type SandboxHandle } from '../../src/sandbox/index.js';
import { runCli, tempFiles } from '../helpers/cli.js';
import { startServer, type MisbehavingServer } from '../helpers/misbehaving-server.js';
import { expectCleanStderr } from './bad-input-checks.js';
import { KEY, accountsFile, okBody } from './faults-helpers.js';

let sandbox: SandboxHandle;
let server: MisbehavingServer | undefined;
beforeAll(async () => {
  sandbox = await startSandbox({ port: 0, apiKey: KEY, maxItems: 5, maxBodyBytes: 4096 });
});
afterAll(() => sandbox.close());
afterEach(() => server?.close());

describe('the key and the connection', () => {
  test('--api-key-file readable by others (644) is refused with a clear message; 600 is used', async () => {
    const { dir, file } = accountsFile(2);
    const keyFile = join(dir, 'key.txt');
    writeFileSync(keyFile, `${KEY}\n`);
    chmodSync(keyFile, 0o644);
    const env = { BATCH_SYNC_API_KEY: undefined, BATCH_SYNC_BASE_URL: sandbox.url };
    const open = await runCli(['push', '--api-key-file', keyFile, file], env);
    expect(open.code).toBe(2);
    expectCleanStderr(open.stderr);
    expect(open.stderr).toMatch(/^error: .*key\.txt.*(readable|permissions|mode)/m);
    expect(open.stderr).toMatch(/chmod 600/);
    expect(sandbox.records('account')).toHaveLength(0);

    chmodSync(keyFile, 0o600);
    const ok = await runCli(['push', '--api-key-file', keyFile, file], env);
    expect(ok.code).toBe(0);
    expect(sandbox.records('account')).toHaveLength(2);
    sandbox.reset();
  });

  test('http:// to a host other than this machine is refused unless --allow-insecure-http', async () => {
    const { file } = accountsFile(1);
    const env = { BATCH_SYNC_API_KEY: KEY, BATCH_SYNC_BASE_URL: 'http://api.example.invalid' };
    const refused = await runCli(['push', file], env);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toMatch(/^error: .*http:\/\/api\.example\.invalid/m);
    expect(refused.stderr).toContain('--allow-insecure-http');
    // allowed, it goes on to the network (here: a name that never resolves) and warns about the key
    const allowed = await runCli(['push', '--allow-insecure-http', '--retries', '0', file], env);
    expect(allowed.code).toBe(3);
    expect(allowed.stderr).toMatch(/clear text/);
  });

  test('NODE_TLS_REJECT_UNAUTHORIZED=0 draws a loud warning', async () => {
    const { file } = accountsFile(1);
    const r = await runCli(['push', file], { BATCH_SYNC_API_KEY: KEY, BATCH_SYNC_BASE_URL: sandbox.url, NODE_TLS_REJECT_UNAUTHORIZED: '0' });
    expect(r.code).toBe(0);
    expect(r.stderr).toMatch(/warning: NODE_TLS_REJECT_UNAUTHORIZED=0 is set: batch-sync ignores it/);
    sandbox.reset();
  });
});

describe('the errors CSV', () => {
  const TRIGGERS = ['=1+1', '+1+1', '-1+1', '@SUM(A1)', '\tx', '\rx', '\nx', '＝1+1', '＋1', '－1', '＠x'];

  test("formula-like cells, ours and the server's, are neutralised; UTF-8 with BOM; atomic; never over an input", async () => {
    const rows = TRIGGERS.map((t, i) => `E-${i},"${t}",`); // no type: every row invalid locally
    const dir = tempFiles({ 'accounts.csv': ['externalId,name,type', ...rows, 'S-1,Ação,COMPANY'].join('\n') });
    const input = join(dir, 'accounts.csv');
    server = await startServer([], {
      respond: (req) => ({ status: 200, body: okBody(req, [{ message: '=HYPERLINK("http://evil")', detail: '+cmd|calc items[0]' }]) }),
    });
    const errors = join(dir, 'failed.csv');
    const r = await runCli(['push', '--errors', errors, input], { BATCH_SYNC_API_KEY: KEY, BATCH_SYNC_BASE_URL: server.url });
    expect(r.code).toBe(1);
    const bytes = readFileSync(errors);
    expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    const text = bytes.toString('utf8');
    expect(text).toContain('Ação');
    for (const t of TRIGGERS) expect(text).toContain(`'${t}`);
    expect(text).toContain(`'=HYPERLINK`);
    expect(text).toContain(`'+cmd|calc`);
    // no cell of the file starts with a trigger (csv-quoted cells start after the quote)
    for (const cell of text.slice(1).split(/,(?=(?:[^"]*"[^"]*")*[^"]*$)/)) expect(cell.replace(/^"/, '')).not.toMatch(/^[=+@\uFF1D\uFF0B\uFF20]/);
    // written atomically: nothing half-written left beside it
    expect(readdirSync(dir).sort()).toEqual(['accounts.csv', 'failed.csv']);

    const before = readFileSync(input);
    const over = await runCli(['push', '--errors', input, input], { BATCH_SYNC_API_KEY: KEY, BATCH_SYNC_BASE_URL: server.url });
    expect(over.code).toBe(2);
    expect(over.stderr).toMatch(/^error: .*accounts\.csv/m);
    expect(readFileSync(input).equals(before)).toBe(true);
  });
});

describe('payload values stay out of the terminal', () => {
  test.each([[[]], [['--verbose']], [['--format', 'json', '--verbose']]])('rejected row, %j: not on stdout or stderr, but in the errors CSV', async (args) => {
    const dir = tempFiles({ 'accounts.csv': 'externalId,name,type\nA-1,SECRET-PAYLOAD-VALUE,COMPANY\nA-2,Fine,COMPANY' });
    // the server names the field, not the value (a server quoting values back is printed as it
    // came: see the hardening table of docs/tested.md)
    server = await startServer([], {
      respond: (req) => ({ status: 200, body: okBody(req, [{ message: 'VALIDATION_ERROR', detail: 'items[0] externalId=A-1: name is not allowed' }]) }),
    });
    const errors = join(dir, 'failed.csv');
    const r = await runCli(['push', '--errors', errors, ...args, join(dir, 'accounts.csv')], { BATCH_SYNC_API_KEY: KEY, BATCH_SYNC_BASE_URL: server.url });
    expect(r.code).toBe(1);
    expect(r.stdout + r.stderr).toMatch(/accounts\.csv(:|",\s*"line": )2/);
    expect(r.stdout).not.toContain('SECRET-PAYLOAD-VALUE');
    expect(r.stderr).not.toContain('SECRET-PAYLOAD-VALUE');
    expect(readFileSync(errors, 'utf8')).toContain('A-1,SECRET-PAYLOAD-VALUE,COMPANY');
  });
});

describe('the sandbox', () => {
  const post = (key: string, body: string) =>
    fetch(`${sandbox.url}/v2/integration/account`, { method: 'POST', headers: { 'x-api-key': key, 'content-type': 'application/json' }, body });
  const envelope = (n: number, name = 'A') =>
    JSON.stringify({ batchId: `b-${n}`, source: 't', items: Array.from({ length: n }, (_, i) => ({ externalId: `x${i}`, name, type: 'COMPANY' })) });

  // the comparison itself: src/sandbox/api-key.ts hashes both sides and uses timingSafeEqual
  test.each([
    ['same length', KEY.replace(/.$/, (c) => (c === 'x' ? 'y' : 'x'))],
    ['shorter', KEY.slice(0, 5)],
    ['longer', `${KEY}-and-more`],
    ['empty', ''],
  ])('a wrong key (%s) gets 401', async (_name, key) => {
    expect(key).not.toBe(KEY);
    expect((await post(key, envelope(1))).status).toBe(401);
  });

  test('bounds items per batch (400) and body size (413)', async () => {
    expect((await post(KEY, envelope(2))).status).toBe(200);
    expect((await post(KEY, envelope(6))).status).toBe(400);
    expect((await post(KEY, envelope(1, 'x'.repeat(5000)))).status).toBe(413);
    sandbox.reset();
  });
});
