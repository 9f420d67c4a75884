// The HTTP client of batch-sync: one keep-alive pool, one request loop with bounded retries, and
// every answer of the API turned into a SendResult or a typed AbortError. It never prints.
//
// Retries are our own loop around Dispatcher.request rather than undici's RetryAgent: RetryAgent
// does not retry POST/PATCH unless told to, silently clamps a long Retry-After to its maxTimeout
// (we must give up instead and say so), has no per-batch time budget, cannot treat a 200 with an
// unreadable body as "processed: never resend" (attempt.ts), and reports nothing per retry for our events.
import { RESOURCE_PATHS } from '../contract/resources.js';
import { ConfigError, UsageError } from '../errors.js';
import { addSecret } from '../redact.js';
import type { AttemptContext } from './attempt.js';
import { parseBaseUrl } from './base-url.js';
import { createDispatcher } from './dispatcher.js';
import { FlowControl } from './flow-control.js';
import type { FlowWait } from './rate-waits.js';
import { DEFAULT_CONCURRENCY, DEFAULT_MAX_CONCURRENCY, resolvePolicy, resolveTimeouts } from './retry-policy.js';
import { sendWithRetries, type ClientState } from './send-loop.js';
import type { ApiClientOptions, SendEvent, SendRequest, SendResult, Traffic } from './types.js';

type TrafficView = Traffic & {
  concurrency: number;
  inFlight: number;
  rate?: number;
  wait?: FlowWait;
  latencyP95Ms?: number;
  readonly latencyP50Ms?: number;
  readonly latencyCounts?: ArrayLike<number>;
};

export interface ApiClient {
  send(req: SendRequest): Promise<SendResult>;
  /** What the requests met so far, and the limit and rate now (progress, the report). */
  traffic(): TrafficView;
  /** Lets in-flight requests finish, then closes the pool's connections. */
  close(): Promise<void>;
}

export function createApiClient(options: ApiClientOptions): ApiClient {
  const apiKey = usableKey(options.apiKey);
  const emit = (event: SendEvent) => options.onEvent?.(event);
  const target = parseBaseUrl(options.baseUrl, options.allowInsecureHttp);
  warnAtStart(emit, target, options.tlsVerifyOffInEnv === true);
  const timeouts = resolveTimeouts(options.timeouts);
  const policy = resolvePolicy(options.retry);
  const flow = flowControl(options, policy.maxRetryAfterMs, emit);
  const state: ClientState = {
    dispatcher: createDispatcher({
      concurrency: flow.max,
      connectTimeoutMs: timeouts.connectMs,
      caFile: options.caFile,
      env: options.env ?? {},
    }),
    origin: target.origin,
    basePath: target.basePath,
    headers: { 'x-api-key': apiKey, 'content-type': 'application/json', accept: 'application/json', 'user-agent': 'batch-sync' },
    policy,
    timeouts,
    emit,
    halt: new AbortController(),
    flow: flow.control,
  };
  let closed = false;
  return {
    async send(req) {
      if (closed) throw new Error('batch-sync bug: send() after close()');
      if (state.fatal) throw state.fatal;
      return sendWithRetries(state, req, attemptContext(state, req));
    },
    traffic: () => ({
      ...flow.control.traffic,
      ...flow.control.state,
      latencyP95Ms: flow.control.latencyP95(),
      // only the HTML report's timeline reads it (once a second): not worked out otherwise
      get latencyP50Ms() {
        return flow.control.latencyAt(0.5);
      },
      // the timeline's per-second percentiles: the counts as they stand (it copies them)
      get latencyCounts(): ArrayLike<number> {
        return flow.control.latencies;
      },
    }),
    async close() {
      if (closed) return;
      closed = true;
      await closePool(state.dispatcher, timeouts.attemptMs);
    },
  };
}

/**
 * Pinned at --concurrency when given; otherwise adaptive from the old fixed default up to
 * --max-concurrency. The waits a server asks for are capped as a Retry-After is, and said as they start.
 */
function flowControl(options: ApiClientOptions, maxServerWaitMs: number, emit: (event: SendEvent) => void): { control: FlowControl; max: number } {
  const pinned = options.concurrency !== undefined;
  const max = options.concurrency ?? options.maxConcurrency ?? DEFAULT_MAX_CONCURRENCY;
  for (const [name, value] of [
    ['concurrency', max],
    ['maxRate', options.maxRate ?? 1],
  ] as const) {
    if (!(value > 0)) throw new ConfigError(`${name} must be > 0, got ${value}`);
  }
  const initial = Math.min(max, DEFAULT_CONCURRENCY);
  const control = new FlowControl({
    initial: pinned ? max : initial,
    max,
    pinned,
    maxRate: options.maxRate,
    maxServerWaitMs,
    onWait: (wait) => emit({ type: 'wait', ...wait }),
  });
  return { control, max };
}

function usableKey(given: string | undefined): string {
  const apiKey = given?.trim() ?? '';
  if (!apiKey || /[\r\n]/.test(apiKey)) {
    throw new UsageError('no usable API key was given', {
      suggestion: 'set BATCH_SYNC_API_KEY or pass --api-key-file <file> (one line, mode 600)',
    });
  }
  addSecret(apiKey);
  return apiKey;
}

function warnAtStart(emit: (event: SendEvent) => void, target: { origin: string; insecure: boolean }, tlsVerifyOffInEnv: boolean): void {
  if (tlsVerifyOffInEnv) {
    emit({
      type: 'warning',
      code: 'TLS_VERIFY_ENV',
      message:
        "NODE_TLS_REJECT_UNAUTHORIZED=0 is set: batch-sync ignores it and still verifies the API's certificate; " +
        'for a private CA use --ca-file, and unset the variable (it disables verification for everything else in Node)',
    });
  }
  if (target.insecure) {
    emit({ type: 'warning', code: 'INSECURE_HTTP', message: `sending the API key in clear text to ${target.origin} (--allow-insecure-http)` });
  }
}

function attemptContext(state: ClientState, req: SendRequest): AttemptContext {
  return {
    dispatcher: state.dispatcher,
    origin: state.origin,
    path: `${state.basePath}${RESOURCE_PATHS[req.resource]}`,
    method: req.method === 'patch' ? 'PATCH' : 'POST',
    headers: state.headers,
    // serialised once by the caller; the same bytes (and batchId) on every attempt, so the API
    // can recognise a retried batch
    body: typeof req.body === 'string' ? Buffer.from(req.body, 'utf8') : req.body,
    timeouts: state.timeouts,
    retryOn500: state.policy.retryOn500,
    signal: req.signal,
    halt: state.halt.signal,
  };
}

/**
 * Lets in-flight requests finish, then closes the pool. A request undici never settled (an attempt
 * stopped waiting for it, see attempt.ts) would hold close() for ever: past one attempt's deadline,
 * the pool is destroyed instead.
 */
async function closePool(dispatcher: ClientState['dispatcher'], attemptMs: number): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<'late'>((resolve) => (timer = setTimeout(resolve, attemptMs, 'late')));
  const closing = dispatcher.close().then(() => 'closed' as const);
  const how = await Promise.race([closing, late]);
  clearTimeout(timer);
  if (how === 'late') await dispatcher.destroy();
}
