// An attempt ends at its own deadline, or when the run cancels it, even when the HTTP library never
// settles the request (undici 7 behind a proxy that closes CONNECT: nodejs/undici#3897). The stand-in
// below is undici's own Dispatcher whose dispatch accepts a request and never calls back: exactly
// that library behaviour, with no socket needed to reproduce it.
import { Dispatcher } from 'undici';
import { expect, test } from 'vitest';
import { attemptOnce, type AttemptContext } from '../../src/send/attempt.js';

class NeverSettles extends Dispatcher {
  requests = 0;
  override dispatch(): boolean {
    this.requests++;
    return true;
  }
}

function context(dispatcher: Dispatcher, over: Partial<AttemptContext> = {}): AttemptContext {
  return {
    dispatcher,
    origin: 'https://api.example.test',
    path: '/v2/integration/deals',
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: Buffer.from('{}'),
    timeouts: { connectMs: 60_000, headersMs: 60_000, bodyMs: 60_000, attemptMs: 300 },
    retryOn500: false,
    halt: new AbortController().signal,
    ...over,
  };
}

test('a request the library never settles fails at the attempt deadline, as a retryable timeout', async () => {
  const stuck = new NeverSettles();
  const outcome = await attemptOnce(context(stuck), 1);
  expect(stuck.requests).toBe(1);
  expect(outcome).toMatchObject({ kind: 'retry', failure: { code: 'ATTEMPT_TIMEOUT', message: expect.stringMatching(/took longer than 300 ms/) } });
});

test('cancelling the run ends an attempt the library never settles', async () => {
  const cancel = new AbortController();
  const pending = attemptOnce(
    context(new NeverSettles(), { signal: cancel.signal, timeouts: { connectMs: 60_000, headersMs: 60_000, bodyMs: 60_000, attemptMs: 600_000 } }),
    1,
  );
  setTimeout(() => cancel.abort(), 50);
  expect(await pending).toEqual({ kind: 'cancelled' });
});
