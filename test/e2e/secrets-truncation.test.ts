// A key echoed back by a server must be masked even when our text is cut to a length inside it
// (a body read up to a limit, a message clipped to 200 characters).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, test } from 'vitest';
import { startServer, type MisbehavingServer } from '../helpers/misbehaving-server.js';
import { dealsCsv, runCli, tempFiles } from '../helpers/cli.js';

const KEY = 'truncation-secret-key-ABCDEFGHIJKLMNOP';
const PREFIX = KEY.slice(0, -2); // what leaks
let server: MisbehavingServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function push(step: Parameters<typeof startServer>[1], args: string[] = []) {
  server = await startServer([], step);
  const dir = tempFiles({ 'deals.csv': dealsCsv(1) });
  const errors = join(dir, 'failed.csv');
  const r = await runCli(['push', '--retries', '0', '--errors', errors, '--format', 'json', ...args, join(dir, 'deals.csv')], {
    BATCH_SYNC_API_KEY: KEY,
    BATCH_SYNC_BASE_URL: server.url,
  });
  return { ...r, errorsCsv: readFileSync(errors, 'utf8') };
}

describe('a key echoed back by the server, across the length cut', () => {
  test('400 body (cut at 2048 bytes, then redacted)', async () => {
    // the server echoes the request headers in its error page; the key ends 2 bytes past the 2048th
    const r = await push({ status: 400, body: 'x'.repeat(2048 - PREFIX.length) + KEY });
    expect(r.code).toBe(1);
    expect(r.stdout + r.stderr + r.errorsCsv).not.toContain(PREFIX);
  });

  test('400 body holding the key \\u-escaped (.NET), cut inside it at 2048 bytes', async () => {
    const escaped = [...KEY].map((c) => `\\u${c.charCodeAt(0).toString(16).toUpperCase().padStart(4, '0')}`).join('');
    // 6 characters of the key fit before the cut (36 bytes of escapes), the rest is past it
    const r = await push({ status: 400, body: 'x'.repeat(2048 - 36) + escaped });
    expect(r.code).toBe(1);
    const out = r.stdout + r.stderr + r.errorsCsv;
    expect(out).toContain('x***');
    expect(out).not.toContain(escaped.slice(0, 24));
  });

  test('data.error element of unexpected shape (cut at 200, then redacted)', async () => {
    const element = { msg: 'y'.repeat(200 - 8 - PREFIX.length) + KEY };
    const r = await push({ status: 200, body: { data: { code: 200, success: 0, error: [element] }, status: 'SUCCESS' } });
    expect(r.stdout + r.stderr + r.errorsCsv).toMatch(/UNVERIFIED/);
    expect(r.stdout + r.stderr + r.errorsCsv).not.toContain(PREFIX);
  });
});
