// What is retried, how often, how long apart, and when the client stops.
import { afterEach, describe, expect, it } from 'vitest';
import { OK_BODY, closedPort, startServer, type MisbehavingServer } from '../helpers/misbehaving-server.js';
import { batch, closedAfterEach } from '../helpers/fast-client.js';

let server: MisbehavingServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});
const client = closedAfterEach();
const ok = { status: 200, body: OK_BODY };

describe('send: retries', () => {
  it('503 then 200 → ok after 2 attempts, same batchId and the same bytes both times', async () => {
    server = await startServer([{ status: 503 }]);
    const c = client(server.url);
    const result = await c.send(batch({ batchId: 'b-42' }));
    expect(result).toMatchObject({ kind: 'ok', attempts: 2 });
    const [a, b] = server.requests;
    expect(b?.body.equals(a!.body)).toBe(true);
    expect(JSON.parse(b!.body.toString()).batchId).toBe('b-42');
    expect(c.events).toEqual([expect.objectContaining({ type: 'retry', attempt: 1, batchId: 'b-42', resource: 'deal' })]);
  });

  it.each([502, 504, 429, 408])('%i is retried', async (status) => {
    server = await startServer([{ status }, { status }]);
    expect(await client(server.url).send(batch())).toMatchObject({ kind: 'ok', attempts: 3 });
  });

  it('500 is not retried by default: gave-up after 1 request, with the body', async () => {
    server = await startServer([{ status: 500, body: 'boom' }]);
    const result = await client(server.url).send(batch());
    expect(result).toMatchObject({ kind: 'gave-up', attempts: 1, status: 500, body: 'boom' });
    expect(server.requests).toHaveLength(1);
  });

  it('500 is retried with retryOn500', async () => {
    server = await startServer([{ status: 500 }]);
    const result = await client(server.url, { retry: { retryOn500: true } }).send(batch());
    expect(result).toMatchObject({ kind: 'ok', attempts: 2 });
  });

  it('429 Retry-After: 0 → retried promptly', async () => {
    server = await startServer([{ status: 429, headers: { 'retry-after': '0' } }]);
    expect(await client(server.url).send(batch())).toMatchObject({ kind: 'ok', attempts: 2 });
  });

  it('429 with a garbage Retry-After falls back to backoff', async () => {
    server = await startServer([{ status: 429, headers: { 'retry-after': 'soon-ish' } }]);
    const c = client(server.url);
    expect(await c.send(batch())).toMatchObject({ kind: 'ok', attempts: 2 });
    expect(c.events[0]).toMatchObject({ type: 'retry' });
    if (c.events[0]?.type === 'retry') expect(c.events[0].delayMs).toBeLessThanOrEqual(20);
  });

  it('429 with Retry-After seconds is not retried earlier than asked', async () => {
    server = await startServer([{ status: 429, headers: { 'retry-after': '1' } }]);
    const result = await client(server.url).send(batch());
    expect(result).toMatchObject({ kind: 'ok', attempts: 2 });
    const [a, b] = server.requests;
    expect(b!.at - a!.at).toBeGreaterThanOrEqual(950);
  });

  it('429 with an HTTP-date Retry-After is not retried earlier than that date', async () => {
    // HTTP-dates have whole seconds: 2 s ahead is at least 1 s ahead
    const until = new Date(Date.now() + 2000);
    server = await startServer([{ status: 429, headers: { 'retry-after': until.toUTCString() } }]);
    const result = await client(server.url).send(batch());
    expect(result).toMatchObject({ kind: 'ok', attempts: 2 });
    expect(server.requests[1]!.at).toBeGreaterThanOrEqual(Math.floor(until.getTime() / 1000) * 1000 - 50);
  });

  it('Retry-After beyond the cap → gave-up at once, exactly 1 request, saying why', async () => {
    server = await startServer([{ status: 429, headers: { 'retry-after': '3600' } }]);
    const result = await client(server.url, { retry: { maxRetryAfterMs: 120_000 } }).send(batch());
    expect(result).toMatchObject({
      kind: 'gave-up',
      attempts: 1,
      reason: 'server asked to wait 3600 s (Retry-After), beyond the 120 s cap',
    });
    expect(server.requests).toHaveLength(1);
  });

  it('a connection dropped without an answer, then success', async () => {
    server = await startServer([{ drop: true }]);
    expect(await client(server.url).send(batch())).toMatchObject({ kind: 'ok', attempts: 2 });
  });

  it('a socket destroyed in the middle of a 200 body → unverified, never resent (the batch was processed)', async () => {
    server = await startServer([{ status: 200, body: OK_BODY, cutAfterBytes: 10 }]);
    expect(await client(server.url).send(batch())).toMatchObject({ kind: 'unverified', attempts: 1, reason: expect.stringMatching(/broke off/) });
    expect(server.requests).toHaveLength(1);
  });

  it('a 200 body dripped slower than the body timeout → cut, unverified, never resent', async () => {
    // undici's headers/body timers tick about every 500 ms, so the gaps must be well above that
    server = await startServer([{ status: 200, body: OK_BODY, drip: { bytes: 20, everyMs: 1500 } }]);
    const c = client(server.url, { timeouts: { bodyMs: 100 } });
    expect(await c.send(batch())).toMatchObject({ kind: 'unverified', attempts: 1 });
    expect(server.requests).toHaveLength(1);
  });

  it('headers slower than the headers timeout → retried (UND_ERR_HEADERS_TIMEOUT)', async () => {
    server = await startServer([{ ...ok, delayMs: 1500 }]);
    const c = client(server.url, { timeouts: { headersMs: 100 } });
    expect(await c.send(batch())).toMatchObject({ kind: 'ok', attempts: 2 });
    expect(c.events[0]).toMatchObject({ error: { code: 'UND_ERR_HEADERS_TIMEOUT' } });
  });

  it('a drip just inside the body timeout is still cut by the attempt deadline (a 200: unverified, not resent)', async () => {
    server = await startServer([{ status: 200, body: OK_BODY, drip: { bytes: 1, everyMs: 50 } }]);
    const c = client(server.url, { timeouts: { bodyMs: 200, attemptMs: 300 } });
    expect(await c.send(batch())).toMatchObject({ kind: 'unverified', attempts: 1, reason: expect.stringMatching(/longer than 300 ms/) });
    expect(server.requests).toHaveLength(1);
  });

  it('ECONNREFUSED → gave-up after maxAttempts, never more', async () => {
    const port = await closedPort();
    const c = client(`http://127.0.0.1:${port}`, { retry: { maxAttempts: 3 } });
    const result = await c.send(batch());
    expect(result).toMatchObject({ kind: 'gave-up', attempts: 3, lastError: { code: 'ECONNREFUSED' } });
    expect(c.events.filter((e) => e.type === 'retry')).toHaveLength(2);
  });

  it('an API down for longer than the total budget → gave-up on the budget, requests bounded', async () => {
    server = await startServer([], { status: 503 });
    const c = client(server.url, { retry: { maxAttempts: 1000, baseDelayMs: 20, maxDelayMs: 40, maxTotalMs: 300 } });
    const result = await c.send(batch());
    expect(result.kind).toBe('gave-up');
    if (result.kind === 'gave-up') expect(result.reason).toMatch(/retry budget of 0.3 s/);
    // the waits it chose, counted, not the time the machine took: within the budget
    const waits = c.events.flatMap((e) => (e.type === 'retry' ? [e.delayMs] : []));
    expect(waits.reduce((sum, ms) => sum + ms, 0)).toBeLessThanOrEqual(300);
    // ≤ 300 ms of waits of ≥ 0 ms each is unbounded in theory; in practice with jitter over 20–40 ms caps
    // and one round trip each, a generous bound catches a loop that ignores the budget
    expect(server.requests.length).toBeGreaterThan(1);
    expect(server.requests.length).toBeLessThan(200);
    expect(result.attempts).toBe(server.requests.length);
  });
});
