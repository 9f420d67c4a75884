// One batch's request loop: attempts (attempt.ts) with bounded retries, until the batch is done,
// given up, cancelled, or the run is ended by an answer that makes every other batch pointless.
import type { Dispatcher } from 'undici';
import { BatchSyncError } from '../errors.js';
import { redact } from '../redact.js';
import { attemptOnce, type AttemptContext, type AttemptOutcome } from './attempt.js';
import { nextDelay } from './retry-policy.js';
import { sleep } from './sleep.js';
import type { AttemptFailure, RetryPolicy, SendEvent, SendRequest, SendResult, Timeouts } from './types.js';

/** What every send of one client shares. */
export interface ClientState {
  dispatcher: Dispatcher;
  origin: string;
  basePath: string;
  headers: Record<string, string>;
  policy: RetryPolicy;
  timeouts: Timeouts;
  emit(event: SendEvent): void;
  /**
   * The first answer that ends the run (401, 404, redirect, TLS...) is latched: parallel sends stop
   * too, queued requests are aborted before they leave, and later sends throw without a request.
   */
  fatal?: BatchSyncError;
  halt: AbortController;
}

const attempts = (n: number) => `${n} ${n === 1 ? 'attempt' : 'attempts'}`;

export function seconds(ms: number): string {
  const s = ms / 1000;
  return Number.isInteger(s) ? String(s) : s.toFixed(1);
}

/** One attempt; an error that ends the run is latched for every other send before it is thrown. */
async function attemptLatched(state: ClientState, ctx: AttemptContext, attempt: number): Promise<AttemptOutcome> {
  try {
    return await attemptOnce(ctx, attempt);
  } catch (err) {
    if (err instanceof BatchSyncError && !state.fatal) {
      state.fatal = err;
      state.halt.abort();
    }
    throw err;
  }
}

/** After a retryable failure: the result that ends the batch, or how long to wait before the next attempt. */
function retryOrGiveUp(state: ClientState, failure: AttemptFailure, retryAfterMs: number | undefined, attempt: number, elapsedMs: number): SendResult | number {
  const { policy } = state;
  const giveUp = (reason: string): SendResult => ({ kind: 'gave-up', reason: redact(reason), attempts: attempt, status: failure.status, lastError: failure });
  if (retryAfterMs !== undefined && retryAfterMs > policy.maxRetryAfterMs) {
    return giveUp(`server asked to wait ${seconds(retryAfterMs)} s (Retry-After), beyond the ${seconds(policy.maxRetryAfterMs)} s cap`);
  }
  if (attempt >= policy.maxAttempts) return giveUp(`gave up after ${attempts(attempt)}; last: ${failure.message}`);
  const delayMs = nextDelay(attempt, policy, retryAfterMs);
  if (elapsedMs + delayMs > policy.maxTotalMs) {
    return giveUp(`retry budget of ${seconds(policy.maxTotalMs)} s for this batch used up after ${attempts(attempt)}; last: ${failure.message}`);
  }
  return delayMs;
}

export async function sendWithRetries(state: ClientState, req: SendRequest, ctx: AttemptContext): Promise<SendResult> {
  const started = Date.now();
  for (let attempt = 1; ; attempt++) {
    if (state.fatal) throw state.fatal;
    if (req.signal?.aborted) return { kind: 'cancelled', attempts: attempt - 1 };
    const outcome = await attemptLatched(state, ctx, attempt);
    // a batch that finished stays finished even if another send has just ended the run
    if (outcome.kind === 'done') return outcome.result;
    if (outcome.kind === 'cancelled') {
      if (state.fatal && !req.signal?.aborted) throw state.fatal;
      return { kind: 'cancelled', attempts: attempt };
    }
    // (a 2xx we could not read is 'done' as unverified in attempt.ts: it never comes back here)
    if (outcome.kind === 'stop') {
      const { failure, body } = outcome;
      return { kind: 'gave-up', reason: redact(failure.message), attempts: attempt, status: failure.status, body, lastError: failure };
    }
    if (state.fatal) throw state.fatal;
    const next = retryOrGiveUp(state, outcome.failure, outcome.retryAfterMs, attempt, Date.now() - started);
    if (typeof next !== 'number') return next;
    const { failure } = outcome;
    state.emit({
      type: 'retry',
      resource: req.resource,
      method: req.method,
      batchId: req.batchId,
      attempt,
      delayMs: next,
      reason: redact(failure.message),
      error: failure,
    });
    const slept = await sleep(next, req.signal, state.halt.signal, req.stop);
    if (state.fatal) throw state.fatal;
    // interrupted while waiting to retry: no request leaves after the run stopped taking batches
    if (!slept || req.stop?.aborted) return { kind: 'cancelled', attempts: attempt };
  }
}
