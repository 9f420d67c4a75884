// The HTTP client of batch-sync: one keep-alive pool, one request loop with bounded retries, and
// every answer of the API turned into a SendResult or a typed AbortError. It never prints.
//
// Retries are our own loop around Dispatcher.request rather than undici's RetryAgent: RetryAgent
// does not retry POST/PATCH unless told to, silently clamps a long Retry-After to its maxTimeout
// (we must give up instead and say so), has no per-batch time budget, cannot treat a 200 with an
// unreadable body as "processed: never resend" (attempt.ts), and reports nothing per retry for our events.
import { RESOURCE_PATHS } from '../contract/resources.js';
import { BatchSyncError, UsageError } from '../errors.js';
import { addSecret, redact } from '../redact.js';
import { attemptOnce, type AttemptContext } from './attempt.js';
import { parseBaseUrl } from './base-url.js';
import { createDispatcher } from './dispatcher.js';
import { DEFAULT_CONCURRENCY, nextDelay, resolvePolicy, resolveTimeouts } from './retry-policy.js';
import { sleep } from './sleep.js';
import type { ApiClientOptions, AttemptFailure, SendEvent, SendRequest, SendResult } from './types.js';

const attempts = (n: number) => `${n} ${n === 1 ? 'attempt' : 'attempts'}`;

export interface ApiClient {
  send(req: SendRequest): Promise<SendResult>;
  /** Lets in-flight requests finish, then closes the pool's connections. */
  close(): Promise<void>;
}

export function createApiClient(options: ApiClientOptions): ApiClient {
  const apiKey = options.apiKey?.trim() ?? '';
  if (!apiKey || /[\r\n]/.test(apiKey)) {
    throw new UsageError('no usable API key was given', {
      suggestion: 'set BATCH_SYNC_API_KEY or pass --api-key-file <file> (one line, mode 600)',
    });
  }
  addSecret(apiKey);
  const emit = (event: SendEvent) => options.onEvent?.(event);
  const target = parseBaseUrl(options.baseUrl, options.allowInsecureHttp);
  const policy = resolvePolicy(options.retry);
  const timeouts = resolveTimeouts(options.timeouts);

  if (process.env.NODE_TLS_REJECT_UNAUTHORIZED === '0') {
    emit({
      type: 'warning',
      code: 'TLS_VERIFY_ENV',
      message:
        "NODE_TLS_REJECT_UNAUTHORIZED=0 is set: batch-sync ignores it and still verifies the API's certificate; " +
        'for a private CA use --ca-file, and unset the variable (it disables verification for everything else in Node)',
    });
  }
  if (target.insecure) {
    emit({
      type: 'warning',
      code: 'INSECURE_HTTP',
      message: `sending the API key in clear text to ${target.origin} (--allow-insecure-http)`,
    });
  }

  const dispatcher = createDispatcher({
    concurrency: options.concurrency ?? DEFAULT_CONCURRENCY,
    connectTimeoutMs: timeouts.connectMs,
    caFile: options.caFile,
    env: options.env ?? process.env,
  });
  const headers = {
    'x-api-key': apiKey,
    'content-type': 'application/json',
    accept: 'application/json',
    'user-agent': 'batch-sync',
  };
  let closed = false;
  // The first answer that ends the run (401, 404, redirect, TLS...) is latched: parallel sends stop
  // too, queued requests are aborted before they leave, and later sends throw without a request.
  let fatal: BatchSyncError | undefined;
  const halt = new AbortController();

  async function send(req: SendRequest): Promise<SendResult> {
    if (closed) throw new Error('batch-sync bug: send() after close()');
    if (fatal) throw fatal;
    const ctx: AttemptContext = {
      dispatcher,
      origin: target.origin,
      path: `${target.basePath}${RESOURCE_PATHS[req.resource]}`,
      method: req.method === 'patch' ? 'PATCH' : 'POST',
      headers,
      // serialised once by the caller; the same bytes (and batchId) on every attempt, so the API
      // can recognise a retried batch
      body: typeof req.body === 'string' ? Buffer.from(req.body, 'utf8') : req.body,
      timeouts,
      retryOn500: policy.retryOn500,
      signal: req.signal,
      halt: halt.signal,
    };
    const started = Date.now();

    for (let attempt = 1; ; attempt++) {
      if (fatal) throw fatal;
      if (req.signal?.aborted) return { kind: 'cancelled', attempts: attempt - 1 };
      let outcome: Awaited<ReturnType<typeof attemptOnce>>;
      try {
        outcome = await attemptOnce(ctx, attempt);
      } catch (err) {
        if (err instanceof BatchSyncError && !fatal) {
          fatal = err;
          halt.abort();
        }
        throw err;
      }
      // a batch that finished stays finished even if another send has just ended the run
      if (outcome.kind === 'done') return outcome.result;
      if (outcome.kind === 'cancelled') {
        if (fatal && !req.signal?.aborted) throw fatal;
        return { kind: 'cancelled', attempts: attempt };
      }
      // (a 2xx we could not read is 'done' as unverified in attempt.ts: it never comes back here)
      const giveUp = (reason: string, failure: AttemptFailure, body?: string): SendResult => ({
        kind: 'gave-up',
        reason: redact(reason),
        attempts: attempt,
        status: failure.status,
        body,
        lastError: failure,
      });

      if (outcome.kind === 'stop') return giveUp(outcome.failure.message, outcome.failure, outcome.body);
      if (fatal) throw fatal;
      const { failure, retryAfterMs } = outcome;
      if (retryAfterMs !== undefined && retryAfterMs > policy.maxRetryAfterMs) {
        return giveUp(`server asked to wait ${seconds(retryAfterMs)} s (Retry-After), beyond the ${seconds(policy.maxRetryAfterMs)} s cap`, failure);
      }
      if (attempt >= policy.maxAttempts) {
        return giveUp(`gave up after ${attempts(attempt)}; last: ${failure.message}`, failure);
      }
      const delayMs = nextDelay(attempt, policy, retryAfterMs);
      const elapsed = Date.now() - started;
      if (elapsed + delayMs > policy.maxTotalMs) {
        return giveUp(`retry budget of ${seconds(policy.maxTotalMs)} s for this batch used up after ${attempts(attempt)}; last: ${failure.message}`, failure);
      }
      emit({
        type: 'retry',
        resource: req.resource,
        method: req.method,
        batchId: req.batchId,
        attempt,
        delayMs,
        reason: redact(failure.message),
        error: failure,
      });
      const slept = await sleep(delayMs, req.signal, halt.signal, req.stop);
      if (fatal) throw fatal;
      // interrupted while waiting to retry: no request leaves after the run stopped taking batches
      if (!slept || req.stop?.aborted) return { kind: 'cancelled', attempts: attempt };
    }
  }

  return {
    send,
    async close() {
      if (closed) return;
      closed = true;
      // a request undici never settled (an attempt stopped waiting for it, see attempt.ts) would hold
      // close() for ever: past one attempt's deadline, the pool is destroyed instead
      let timer: NodeJS.Timeout | undefined;
      const late = new Promise<'late'>((resolve) => (timer = setTimeout(resolve, timeouts.attemptMs, 'late')));
      const closing = dispatcher.close().then(() => 'closed' as const);
      const how = await Promise.race([closing, late]);
      clearTimeout(timer);
      if (how === 'late') await dispatcher.destroy();
    },
  };
}

function seconds(ms: number): string {
  const s = ms / 1000;
  return Number.isInteger(s) ? String(s) : s.toFixed(1);
}
