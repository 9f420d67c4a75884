// Answers that stop the run (AbortError, exit 3) without another request, redirects, and cancellation.
import { afterEach, describe, expect, it } from 'vitest';
import { AbortError, EXIT } from '../../src/errors.js';
import { OK_BODY, startServer, type MisbehavingServer } from '../helpers/misbehaving-server.js';
import { batch, closedAfterEach } from '../helpers/fast-client.js';

const servers: MisbehavingServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});
async function server(...args: Parameters<typeof startServer>) {
  const s = await startServer(...args);
  servers.push(s);
  return s;
}
const client = closedAfterEach();
async function abortOf(p: Promise<unknown>): Promise<AbortError> {
  const err = await p.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(AbortError);
  return err as AbortError;
}

describe('send: answers that abort the run', () => {
  it('401 → AbortError AUTH (exit 3) naming the key sources, and no further request', async () => {
    const s = await server([], { status: 401, body: 'Unauthorized' });
    const c = client(s.url);
    const err = await abortOf(c.send(batch()));
    expect(err).toMatchObject({ code: 'AUTH', exitCode: EXIT.aborted });
    expect(err.message).toContain('401');
    expect(err.suggestion).toMatch(/BATCH_SYNC_API_KEY/);
    expect(err.suggestion).toMatch(/--api-key-file/);
    expect(s.requests).toHaveLength(1);
  });

  it('403 → AbortError FORBIDDEN', async () => {
    const s = await server([{ status: 403 }]);
    expect(await abortOf(client(s.url).send(batch()))).toMatchObject({ code: 'FORBIDDEN' });
    expect(s.requests).toHaveLength(1);
  });

  it('404 → AbortError NOT_FOUND with the path used and a base-URL hint', async () => {
    const s = await server([{ status: 404 }]);
    const err = await abortOf(client(`${s.url}/wrong`).send(batch()));
    expect(err.code).toBe('NOT_FOUND');
    expect(err.message).toContain(`${s.url}/wrong/v2/integration/deals`);
    expect(err.suggestion).toMatch(/root, without \/v2\/integration/);
    expect(s.requests).toHaveLength(1);
  });

  it.each([307, 302, 301, 308])('%i → AbortError naming the Location; the key never reaches the target', async (status) => {
    const target = await server();
    const s = await server([{ status, headers: { location: `${target.url}/v2/integration/deals` } }]);
    const err = await abortOf(client(s.url).send(batch()));
    expect(err.code).toBe('REDIRECT');
    expect(err.message).toContain(`the API answered ${status} redirect to ${target.url}/v2/integration/deals`);
    expect(err.message).toContain('never follows redirects');
    expect(err.suggestion).toMatch(/--base-url/);
    expect(s.requests).toHaveLength(1);
    expect(target.requests).toHaveLength(0);
  });
});

describe('send: cancellation', () => {
  it('an in-flight request aborted by the signal → cancelled', async () => {
    const s = await server([{ status: 200, body: OK_BODY, delayMs: 2000 }]);
    const ac = new AbortController();
    setTimeout(() => ac.abort(), 50);
    const started = Date.now();
    const result = await client(s.url).send(batch({ signal: ac.signal }));
    // the request was out: the server may have it
    expect(result).toEqual({ kind: 'cancelled', attempts: 1, inFlight: true, mayBeApplied: true });
    expect(Date.now() - started).toBeLessThan(1500);
  });

  it('no new attempt once the signal is aborted during a backoff wait', async () => {
    const s = await server([], { status: 503 });
    const ac = new AbortController();
    const c = client(s.url, {
      retry: { baseDelayMs: 10_000, maxDelayMs: 10_000 },
      onEvent: (e) => e.type === 'retry' && ac.abort(),
    });
    const result = await c.send(batch({ signal: ac.signal }));
    // between attempts: what the last one met is kept for the row's reason
    expect(result).toEqual({ kind: 'cancelled', attempts: 1, inFlight: false, lastError: expect.objectContaining({ status: 503 }), mayBeApplied: false });
    expect(s.requests).toHaveLength(1);
  });

  it('an already-aborted signal sends nothing', async () => {
    const s = await server();
    const result = await client(s.url).send(batch({ signal: AbortSignal.abort() }));
    expect(result).toEqual({ kind: 'cancelled', attempts: 0, inFlight: false, mayBeApplied: false });
    expect(s.requests).toHaveLength(0);
  });
});

describe('send: one fatal answer stops the whole client', () => {
  it('a 401 on one of several parallel sends: the queued ones never leave, later sends throw at once', async () => {
    const s = await server([{ status: 401, delayMs: 50 }]);
    const c = client(s.url, { concurrency: 1 });
    const settled = await Promise.allSettled([c.send(batch()), c.send(batch({ batchId: 'b2' })), c.send(batch({ batchId: 'b3' }))]);
    for (const r of settled) {
      expect(r.status).toBe('rejected');
      if (r.status === 'rejected') expect(r.reason).toMatchObject({ code: 'AUTH' });
    }
    await expect(c.send(batch({ batchId: 'b4' }))).rejects.toMatchObject({ code: 'AUTH' });
    expect(s.requests).toHaveLength(1);
  });

  it('a send waiting to retry stops when another send hits a 404', async () => {
    const s = await server([{ status: 503 }, { status: 404, delayMs: 30 }]);
    const c = client(s.url, { concurrency: 1, retry: { baseDelayMs: 5000, maxDelayMs: 5000 } });
    const first = c.send(batch());
    await new Promise((r) => setTimeout(r, 10));
    const second = c.send(batch({ batchId: 'b2' }));
    const started = Date.now();
    await expect(second).rejects.toMatchObject({ code: 'NOT_FOUND' });
    await expect(first).rejects.toMatchObject({ code: 'NOT_FOUND' });
    expect(Date.now() - started).toBeLessThan(2000);
    expect(s.requests).toHaveLength(2);
  });
});

describe('send: requests in flight when the run ends', () => {
  it('are aborted and report the run-ending error: the same key/origin would get the same answer', async () => {
    const s = await server([
      { status: 401, delayMs: 30 },
      { status: 200, body: OK_BODY, delayMs: 1000 },
    ]);
    const c = client(s.url, { concurrency: 2 });
    const auth = c.send(batch());
    const slow = c.send(batch({ batchId: 'b2' }));
    const started = Date.now();
    await expect(auth).rejects.toMatchObject({ code: 'AUTH' });
    await expect(slow).rejects.toMatchObject({ code: 'AUTH' });
    expect(Date.now() - started).toBeLessThan(900);
    expect(s.requests).toHaveLength(2);
  });
});
