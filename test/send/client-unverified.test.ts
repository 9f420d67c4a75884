// A 200 we cannot read is not an acceptance: retried with the same bytes, and reported as unverified.
import { afterEach, describe, expect, it } from 'vitest';
import { OK_BODY, startServer, type MisbehavingServer, type Step } from '../helpers/misbehaving-server.js';
import { batch, closedAfterEach } from '../helpers/fast-client.js';

let server: MisbehavingServer;
afterEach(async () => {
  await server?.close();
});
const client = closedAfterEach();

const cases: [string, Step, RegExp][] = [
  ['HTML', { status: 200, body: '<html><body>Welcome to the portal</body></html>', headers: { 'content-type': 'text/html' } }, /HTML/],
  ['invalid JSON', { status: 200, body: '{"data": {"code": 200,' }, /not valid JSON/],
  ['an empty body', { status: 200, body: '' }, /empty/],
  ['JSON without data', { status: 200, body: { status: 'SUCCESS' } }, /not a batch result \(data:/],
  ['data of the wrong shape', { status: 200, body: { data: { code: 'x', success: 1, error: [] }, status: 'SUCCESS' } }, /data\.code/],
];

describe('send: unverifiable 2xx', () => {
  it.each(cases)('200 with %s → retried, then unverified after maxAttempts', async (_name, step, reason) => {
    server = await startServer([], step);
    const c = client(server.url, { retry: { maxAttempts: 3 } });
    const result = await c.send(batch());
    expect(result).toMatchObject({ kind: 'unverified', attempts: 3, status: 200 });
    if (result.kind === 'unverified') expect(result.reason).toMatch(reason);
    expect(server.requests).toHaveLength(3);
    const bodies = new Set(server.requests.map((r) => r.body.toString()));
    expect(bodies.size).toBe(1);
  });

  it('an unreadable 200 then a good one → ok', async () => {
    server = await startServer([{ status: 200, body: '<html></html>' }], { status: 200, body: OK_BODY });
    expect(await client(server.url).send(batch())).toMatchObject({ kind: 'ok', attempts: 2 });
  });

  it('an unreadable 200 then only failures → still unverified, never gave-up (it may have been applied)', async () => {
    server = await startServer([{ status: 200, body: 'OK' }], { status: 503 });
    const result = await client(server.url, { retry: { maxAttempts: 3 } }).send(batch());
    expect(result).toMatchObject({ kind: 'unverified', attempts: 3 });
  });

  it('an unreadable 200 then a 500 (not retried) → unverified', async () => {
    server = await startServer([{ status: 200, body: 'OK' }], { status: 500 });
    expect(await client(server.url).send(batch())).toMatchObject({ kind: 'unverified', attempts: 2 });
  });
});
