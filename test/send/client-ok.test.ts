// Answers that end a batch at once: accepted, refused as a whole, too large; and what went over the wire.
import { afterEach, describe, expect, it } from 'vitest';
import { OK_BODY, startServer, type MisbehavingServer } from '../helpers/misbehaving-server.js';
import { TEST_KEY, batch, closedAfterEach } from '../helpers/fast-client.js';

let server: MisbehavingServer;
afterEach(async () => {
  await server?.close();
});
const client = closedAfterEach();

describe('send: final answers', () => {
  it('200 with a batch result → ok, with the key, content type, method, path and bytes the API expects', async () => {
    server = await startServer();
    const req = batch();
    const result = await client(server.url).send(req);
    expect(result).toEqual({ kind: 'ok', status: 200, response: OK_BODY, attempts: 1 });
    expect(server.requests).toHaveLength(1);
    const [got] = server.requests;
    expect(got?.method).toBe('POST');
    expect(got?.path).toBe('/v2/integration/deals');
    expect(got?.headers['x-api-key']).toBe(TEST_KEY);
    expect(got?.headers['content-type']).toBe('application/json');
    expect(got?.body.toString()).toBe(req.body);
  });

  it('PATCH goes to the resource path under a base path prefix, trailing slash or not', async () => {
    server = await startServer();
    const c = client(`${server.url}/api/`);
    await c.send(batch({ resource: 'sales-profile', method: 'patch' }));
    await c.send(batch({ resource: 'account', body: Buffer.from('{"x":1}') }));
    expect(server.requests.map((r) => `${r.method} ${r.path}`)).toEqual(['PATCH /api/v2/integration/sales-profile', 'POST /api/v2/integration/account']);
    expect(server.requests[1]?.body.toString()).toBe('{"x":1}');
  });

  it('400 → bad-request with the body, not retried', async () => {
    server = await startServer([{ status: 400, body: { message: 'items[3].amount: required' } }]);
    const result = await client(server.url).send(batch());
    expect(result).toEqual({ kind: 'bad-request', status: 400, body: '{"message":"items[3].amount: required"}', attempts: 1 });
    expect(server.requests).toHaveLength(1);
  });

  it('a huge error body is cut to 2 KB', async () => {
    server = await startServer([{ status: 400, body: 'x'.repeat(100_000) }]);
    const result = await client(server.url).send(batch());
    expect(result.kind).toBe('bad-request');
    if (result.kind === 'bad-request') expect(result.body.length).toBeLessThanOrEqual(2049);
  });

  it('413 → too-large, not retried', async () => {
    server = await startServer([{ status: 413, body: 'Payload Too Large' }]);
    const result = await client(server.url).send(batch());
    expect(result).toEqual({ kind: 'too-large', status: 413, body: 'Payload Too Large', attempts: 1 });
    expect(server.requests).toHaveLength(1);
  });

  it('N parallel sends share one pool of `concurrency` connections', async () => {
    server = await startServer([], { status: 200, body: OK_BODY, delayMs: 50 });
    const c = client(server.url, { concurrency: 3 });
    const results = await Promise.all(Array.from({ length: 9 }, (_, i) => c.send(batch({ batchId: `b-${i}` }))));
    expect(results.every((r) => r.kind === 'ok')).toBe(true);
    expect(server.requests).toHaveLength(9);
    expect(server.connections).toBeLessThanOrEqual(3);
    expect(server.maxInFlight).toBeGreaterThan(1);
    expect(server.maxInFlight).toBeLessThanOrEqual(3);
  });
});
