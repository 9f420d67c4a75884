// One HTTP request of a batch and what it means: done, retry (with the server's Retry-After), or
// cancelled. Throws AbortError for answers that make the whole run pointless (401, 404, redirects).
import { STATUS_CODES } from 'node:http';
import type { Dispatcher } from 'undici';
import { BatchSyncError } from '../errors.js';
import { redact } from '../redact.js';
import { onAbort as onRunAbort } from './abort-fanout.js';
import { classifyError } from './classify-error.js';
import { classifyStatus } from './classify-status.js';
import { ERROR_BODY_LIMIT, OK_BODY_LIMIT, discard, readBounded } from './read-body.js';
import { parseRetryAfter } from './retry-policy.js';
import type { AttemptFailure, SendResult, Timeouts } from './types.js';
import { verifyResponse } from './verify-response.js';

export interface AttemptContext {
  dispatcher: Dispatcher;
  origin: string;
  path: string;
  method: 'POST' | 'PATCH';
  headers: Record<string, string>;
  body: Buffer;
  timeouts: Timeouts;
  retryOn500: boolean;
  /** The caller's cancellation. */
  signal?: AbortSignal;
  /** Client-wide: aborted once any send hit an answer that ends the run (401, 404, redirect). */
  halt: AbortSignal;
  /** Told each answer's headers (rate-limit fields), before its body is read. */
  onHeaders?(headers: Record<string, string | string[] | undefined>): void;
}

export type AttemptOutcome =
  | { kind: 'done'; result: SendResult }
  /** Not retried, but not final either: the loop turns it into gave-up. */
  | { kind: 'stop'; failure: AttemptFailure; body?: string }
  | { kind: 'retry'; failure: AttemptFailure; retryAfterMs?: number }
  | { kind: 'cancelled' };

export async function attemptOnce(ctx: AttemptContext, attempts: number): Promise<AttemptOutcome> {
  // an attempt deadline on top of undici's timers: bodyTimeout is an idle timer, so a server
  // dripping a byte every few seconds would otherwise hold the batch forever. One controller per
  // attempt, linked to the run-wide signals through abort-fanout (one listener each, whatever the
  // concurrency) and unlinked in `finally`.
  const attempt = new AbortController();
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    attempt.abort();
  }, ctx.timeouts.attemptMs);
  const onAbort = () => attempt.abort();
  const unlink = [ctx.signal, ctx.halt].map((s) => s && onRunAbort(s, onAbort));
  if (ctx.signal?.aborted || ctx.halt.aborted) attempt.abort();
  const signal = attempt.signal;
  const url = `${ctx.origin}${ctx.path}`;
  /** Set once a 2xx status line arrived: a failure after it leaves the batch unverified. */
  let answered: string | undefined;
  try {
    const res = await untilAborted(
      ctx.dispatcher.request({
        origin: ctx.origin,
        path: ctx.path,
        method: ctx.method,
        headers: ctx.headers,
        body: ctx.body,
        signal,
        headersTimeout: ctx.timeouts.headersMs,
        bodyTimeout: ctx.timeouts.bodyMs,
      }),
      signal,
    );
    const { statusCode: status } = res;
    ctx.onHeaders?.(res.headers);
    const label = `${status} ${STATUS_CODES[status] ?? ''}`.trim();

    if (status >= 200 && status < 300) {
      // if its body breaks off, the batch may have been applied, whatever happens next (see the catch)
      answered = label;
      const { text, truncated } = await readBounded(res.body, OK_BODY_LIMIT);
      const verdict = verifyResponse(text, truncated, header(res.headers['content-type']));
      if (verdict.ok) return { kind: 'done', result: { kind: 'ok', status, response: verdict.response, attempts } };
      // a 2xx means the server processed the batch: it is never sent again within the run (issue 16.4)
      return unreadable2xx(`the API answered ${label} but ${verdict.reason}`, status, redact(text).slice(0, ERROR_BODY_LIMIT), attempts);
    }

    const disposition = classifyStatus({
      status,
      url,
      location: header(res.headers.location),
      retryOn500: ctx.retryOn500,
    });
    switch (disposition.action) {
      case 'abort':
        discard(res.body);
        throw disposition.error;
      case 'retry': {
        discard(res.body);
        const retryAfterMs = parseRetryAfter(res.headers['retry-after'], Date.now());
        return { kind: 'retry', failure: { code: `HTTP_${status}`, status, message: `the API answered ${label}` }, retryAfterMs };
      }
      case 'bad-request':
      case 'too-large': {
        const body = await errorBody(res.body);
        const result: SendResult =
          disposition.action === 'too-large' ? { kind: 'too-large', status: 413, body, attempts } : { kind: 'bad-request', status, body, attempts };
        return { kind: 'done', result };
      }
      case 'stop': {
        const body = await errorBody(res.body);
        return { kind: 'stop', failure: { code: `HTTP_${status}`, status, message: disposition.reason }, body };
      }
    }
    return disposition satisfies never;
  } catch (err) {
    if (err instanceof BatchSyncError) throw err; // ours, from the status table above
    if (ctx.signal?.aborted || ctx.halt.aborted) return { kind: 'cancelled' };
    // the server answered, with more header lines than the client reads: the batch may be applied (issue 28.8)
    if ((err as { code?: unknown }).code === 'UND_ERR_HEADERS_OVERFLOW') {
      return {
        kind: 'done',
        result: {
          kind: 'unverified',
          reason: 'the API answered with headers too large to read (Headers Overflow Error); the batch may have been applied',
          attempts,
        },
      };
    }
    const disposition = timedOut
      ? ({ action: 'retry', failure: { code: 'ATTEMPT_TIMEOUT', message: `the request to ${url} took longer than ${ctx.timeouts.attemptMs} ms` } } as const)
      : classifyError(err, ctx.origin);
    // a 2xx whose body broke off (reset, timeout, slow drip) was processed: never resent (issue 16.4)
    if (answered !== undefined) {
      const why = disposition.action === 'abort' ? (err as Error).message : disposition.failure.message;
      return unreadable2xx(`the API answered ${answered} but its body broke off (${why})`, Number.parseInt(answered, 10), '', attempts);
    }
    if (disposition.action === 'abort') throw disposition.error;
    return { kind: disposition.action, failure: disposition.failure };
  } finally {
    clearTimeout(timer);
    for (const off of unlink) off?.();
  }
}

function unreadable2xx(reason: string, status: number, body: string, attempts: number): AttemptOutcome {
  return { kind: 'done', result: { kind: 'unverified', reason: redact(reason), attempts, status, body } };
}

/**
 * The request, raced against the attempt's own deadline and cancellation. undici settles a request
 * when its signal fires only once the request holds a connection: one still queued for a connection
 * that never comes (undici 7's reconnect loop behind a proxy that closes CONNECT, nodejs/undici#3897)
 * would keep the batch, its retries and Ctrl-C waiting for ever.
 */
function untilAborted<T>(pending: Promise<T>, signal: AbortSignal): Promise<T> {
  pending.catch(() => {}); // a late rejection of an abandoned request is not unhandled
  if (signal.aborted) return Promise.reject(signal.reason);
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    signal.addEventListener('abort', onAbort, { once: true });
    pending.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
  });
}

/** Error bodies are best effort: a socket dying while we read one must not hide the status. */
async function errorBody(body: Dispatcher.ResponseData['body']): Promise<string> {
  try {
    const { text, truncated } = await readBounded(body, ERROR_BODY_LIMIT);
    // redacted before the ellipsis: a key cut at the limit is then still at the end, and masked
    return redact(text) + (truncated ? '…' : '');
  } catch {
    return '';
  }
}

function header(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}
