// One batch's request loop: attempts (attempt.ts) with bounded retries, until the batch is done,
// given up, cancelled, or the run is ended by an answer that makes every other batch pointless.
import type { Dispatcher } from 'undici';
import { BatchSyncError } from '../errors.js';
import { redact } from '../redact.js';
import { attemptOnce, type AttemptContext, type AttemptOutcome } from './attempt.js';
import type { LoadSignal } from './concurrency-limit.js';
import type { FlowControl } from './flow-control.js';
import { mayHaveApplied } from './classify-error.js';
import { beyondCap, nextDelay } from './retry-policy.js';
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
  flow: FlowControl;
}

/** Transport failures that say the server (or the way to it) is overloaded, as a 503 does. */
const OVERLOAD_CODES = new Set([
  'ATTEMPT_TIMEOUT',
  'UND_ERR_HEADERS_TIMEOUT',
  'UND_ERR_BODY_TIMEOUT',
  'UND_ERR_CONNECT_TIMEOUT',
  'ECONNRESET',
  'UND_ERR_SOCKET',
]);

/** What an attempt's outcome says about the server's load (concurrency-limit.ts). */
function loadSignal(outcome: AttemptOutcome | undefined): LoadSignal {
  if (outcome?.kind === 'done') return outcome.result.kind === 'ok' ? 'ok' : 'neutral';
  if (outcome?.kind !== 'retry') return 'neutral';
  const { status, code } = outcome.failure;
  if (status === 429) return 'throttled';
  if (status === 502 || status === 503 || status === 504 || OVERLOAD_CODES.has(code)) return 'overloaded';
  return 'neutral';
}

const attempts = (n: number) => `${n} ${n === 1 ? 'attempt' : 'attempts'}`;

function seconds(ms: number): string {
  const s = ms / 1000;
  return Number.isInteger(s) ? String(s) : s.toFixed(1);
}

/**
 * One attempt, once the run's flow control gives it a place: undefined when cancelled while
 * waiting (the run stopped taking batches: one not sent yet does not leave), the reason when the
 * flow control refuses to send (a wait beyond the cap). An error that ends the run is latched for
 * every other send before it is thrown.
 */
async function attemptLatched(state: ClientState, req: SendRequest, ctx: AttemptContext, attempt: number): Promise<AttemptOutcome | string | undefined> {
  const permit = await state.flow.acquire(req.signal, state.halt.signal, req.stop);
  if (!permit) return undefined;
  if ('closed' in permit) return permit.closed;
  if (attempt > 1) state.flow.traffic.retries++;
  let outcome: AttemptOutcome | undefined;
  let headers: Record<string, string | string[] | undefined> | undefined;
  try {
    outcome = await attemptOnce({ ...ctx, onHeaders: (h) => (headers = h) }, attempt);
    return outcome;
  } catch (err) {
    if (err instanceof BatchSyncError && !state.fatal) {
      state.fatal = err;
      state.halt.abort();
    }
    throw err;
  } finally {
    permit.release(loadSignal(outcome), headers);
  }
}

/**
 * Waits before the next attempt. A pure backoff (no Retry-After) ends early once another request
 * succeeded after the overload: the flow control's limit, cut by the overload, paces the return.
 * Any wait ends when the flow control closes: the next attempt is then refused at once.
 */
async function waitToRetry(state: ClientState, req: SendRequest, delayMs: number, serverAsked: boolean): Promise<boolean> {
  const from = Date.now();
  const { flow } = state;
  const slept = await sleep(delayMs, req.signal, state.halt.signal, req.stop, flow.closed, serverAsked ? undefined : flow.recovered);
  flow.traffic.waitMs += Date.now() - from;
  return slept || !(req.signal?.aborted || state.halt.signal.aborted || req.stop?.aborted);
}

/** After a retryable failure: the result that ends the batch, or how long to wait before the next attempt. */
function retryOrGiveUp(
  state: ClientState,
  failure: AttemptFailure,
  retryAfterMs: number | undefined,
  attempt: number,
  elapsedMs: number,
  mayBeApplied: boolean,
): SendResult | number {
  const { policy } = state;
  const giveUp = (reason: string): SendResult => ({
    kind: 'gave-up',
    reason: redact(reason),
    attempts: attempt,
    status: failure.status,
    lastError: failure,
    mayBeApplied,
  });
  if (retryAfterMs !== undefined && retryAfterMs > policy.maxRetryAfterMs) return giveUp(beyondCap(retryAfterMs, 'Retry-After', policy.maxRetryAfterMs));
  if (attempt >= policy.maxAttempts) return giveUp(`gave up after ${attempts(attempt)}; last: ${failure.message}`);
  const delayMs = nextDelay(attempt, policy, retryAfterMs);
  if (elapsedMs + delayMs > policy.maxTotalMs) {
    return giveUp(`retry budget of ${seconds(policy.maxTotalMs)} s for this batch used up after ${attempts(attempt)}; last: ${failure.message}`);
  }
  return delayMs;
}

export async function sendWithRetries(state: ClientState, req: SendRequest, ctx: AttemptContext): Promise<SendResult> {
  const started = Date.now();
  let lastError: AttemptFailure | undefined;
  // once one attempt may have been applied, the batch may be, whatever the later attempts meet
  let mayBeApplied = false;
  // not sent (again): what the attempts so far met, if any
  const cancelled = (attempts: number): SendResult => ({ kind: 'cancelled', attempts, inFlight: false, lastError, mayBeApplied });
  for (let attempt = 1; ; attempt++) {
    if (state.fatal) throw state.fatal;
    if (req.signal?.aborted) return cancelled(attempt - 1);
    const outcome = await attemptLatched(state, req, ctx, attempt);
    if (typeof outcome === 'string')
      return { kind: 'gave-up', reason: redact(outcome), attempts: attempt - 1, status: lastError?.status, lastError, mayBeApplied };
    if (outcome === undefined) {
      if (state.fatal && !req.signal?.aborted) throw state.fatal;
      return cancelled(attempt - 1);
    }
    // a batch that finished stays finished even if another send has just ended the run
    if (outcome.kind === 'done') return outcome.result;
    if (outcome.kind === 'cancelled') {
      if (state.fatal && !req.signal?.aborted) throw state.fatal;
      return { kind: 'cancelled', attempts: attempt, inFlight: true, lastError, mayBeApplied: true };
    }
    // (a 2xx we could not read is 'done' as unverified in attempt.ts: it never comes back here)
    if (outcome.kind === 'stop') {
      const { failure, body } = outcome;
      return {
        kind: 'gave-up',
        reason: redact(failure.message),
        attempts: attempt,
        status: failure.status,
        body,
        lastError: failure,
        mayBeApplied: mayBeApplied || mayHaveApplied(failure),
      };
    }
    if (state.fatal) throw state.fatal;
    lastError = outcome.failure;
    mayBeApplied ||= mayHaveApplied(outcome.failure);
    const next = retryOrGiveUp(state, outcome.failure, outcome.retryAfterMs, attempt, Date.now() - started, mayBeApplied);
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
    const slept = await waitToRetry(state, req, next, outcome.retryAfterMs !== undefined);
    if (state.fatal) throw state.fatal;
    // interrupted while waiting to retry: no request leaves after the run stopped taking batches
    if (!slept || req.stop?.aborted) return cancelled(attempt);
  }
}
