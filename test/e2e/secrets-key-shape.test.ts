// A key that cannot travel in an HTTP header (control characters, DEL, non-ASCII) is refused before
// anything is sent, with exit 2 and one line that does not echo it; a token pasted into the base
// URL's query string is refused without being echoed either.
import { chmodSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, test } from 'vitest';
import { spawnCli } from '../helpers/cli.js';
import { startServer, type MisbehavingServer } from '../helpers/misbehaving-server.js';
import { expectCleanStderr, expectOneLineError } from './bad-input-checks.js';
import { accountsFile } from './faults-helpers.js';

let server: MisbehavingServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

describe('an API key that cannot be sent', () => {
  // NUL cannot be passed in an environment variable: it comes from a key file
  test.each([
    ['NUL', 'env-key\u0000tail-1234', 'file'],
    ['DEL', 'env-key\u007ftail-1234', 'env'],
    ['ESC', 'env-key\u001btail-1234', 'env'],
    ['a tab', 'env-key\ttail-1234', 'env'],
    ['an emoji', 'env-key\u{1F600}tail-1234', 'env'],
    ['é', 'env-kéy-tail-1234', 'file'],
  ])('a key holding %s: exit 2 before sending, one line, the key not echoed', async (_name, key, from) => {
    server = await startServer();
    const { dir, file } = accountsFile(2);
    const keyFile = join(dir, 'key.txt');
    writeFileSync(keyFile, `${key}\n`);
    chmodSync(keyFile, 0o600);
    const args = from === 'file' ? ['--api-key-file', keyFile] : [];
    const env = { BATCH_SYNC_API_KEY: from === 'env' ? key : undefined, BATCH_SYNC_BASE_URL: server.url };
    const r = await spawnCli(['push', '--retries', '0', ...args, file], { env });
    expect(r.code, r.stderr).toBe(2);
    expectCleanStderr(r.stderr);
    const line = expectOneLineError(r.stderr, from === 'file' ? `the API key file ${keyFile}` : 'BATCH_SYNC_API_KEY');
    expect(line).toMatch(/character .*U\+[0-9A-F]{4}.* position \d+/);
    expect(r.stdout + r.stderr).not.toContain('tail-1234');
    expect(server.requests).toHaveLength(0);
  });
});

describe('a token in the base URL', () => {
  test.each([
    ['a query', 'http://127.0.0.1:9/?apikey=TOKEN-in-the-query-77'],
    ['a fragment', 'http://127.0.0.1:9/api#access_token=TOKEN-in-the-query-77'],
    ['an invalid URL', 'http//127.0.0.1:9/?apikey=TOKEN-in-the-query-77'],
  ])('%s: refused without echoing it', async (_name, baseUrl) => {
    const { file } = accountsFile(1);
    const r = await spawnCli(['push', file], { env: { BATCH_SYNC_API_KEY: 'a-good-key-1234', BATCH_SYNC_BASE_URL: baseUrl } });
    expect(r.code).toBe(2);
    expectCleanStderr(r.stderr);
    expect(r.stderr).toMatch(/^error: (the base URL|--base-url|BATCH_SYNC_BASE_URL)/m);
    expect(r.stdout + r.stderr).not.toContain('TOKEN');
  });
});
