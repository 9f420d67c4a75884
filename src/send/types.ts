// The client's public shapes: what a caller sends, what comes back, what it is told along the way.
import type { BatchResponse } from '../contract/envelope.js';
import type { Method, Resource } from '../contract/resources.js';

export interface RetryPolicy {
  /** Requests per batch, the first one included. */
  maxAttempts: number;
  /** Backoff cap of the first retry; doubles per retry, full jitter. */
  baseDelayMs: number;
  /** Largest backoff between two attempts. */
  maxDelayMs: number;
  /** No new attempt is started once this much time has passed since the first one. */
  maxTotalMs: number;
  /** A 500 may mean the batch was half applied; retrying it is opt-in. */
  retryOn500: boolean;
  /** A Retry-After longer than this makes the client give up on the batch at once. */
  maxRetryAfterMs: number;
}

export interface Timeouts {
  /** TCP (+TLS) connect. */
  connectMs: number;
  /** From the request being written to the response headers. */
  headersMs: number;
  /** Longest silence between two body chunks (undici's bodyTimeout is an idle timer). */
  bodyMs: number;
  /** Whole attempt, so a server dripping one byte just inside bodyMs cannot hold a batch forever. */
  attemptMs: number;
}

export interface ApiClientOptions {
  baseUrl: string;
  apiKey: string;
  /** Requests in flight, pinned (--concurrency); without it the limit adapts up to `maxConcurrency`. */
  concurrency?: number;
  /** The adaptive limit's cap, and the connections of the one keep-alive pool to the API's origin. */
  maxConcurrency?: number;
  /** Requests per second, never exceeded (--max-rate). */
  maxRate?: number;
  timeouts?: Partial<Timeouts>;
  retry?: Partial<RetryPolicy>;
  /** PEM file of a private CA, trusted in addition to the public roots. Read once. */
  caFile?: string;
  /** Allows http:// to a host other than loopback (the key then travels in clear text). */
  allowInsecureHttp?: boolean;
  onEvent?: (event: SendEvent) => void;
  /** Where HTTPS_PROXY, HTTP_PROXY and NO_PROXY are read from (config/network-env.ts); none when not given. */
  env?: Record<string, string | undefined>;
  /** NODE_TLS_REJECT_UNAUTHORIZED=0 is set: the client still verifies, and warns that it ignores the variable. */
  tlsVerifyOffInEnv?: boolean;
}

export interface SendRequest {
  resource: Resource;
  method: Method;
  batchId: string;
  /** The serialised envelope. The same bytes go out on every attempt. */
  body: string | Buffer;
  itemCount: number;
  /** Cancels the request in flight (after Ctrl-C's grace period, or a second Ctrl-C). */
  signal?: AbortSignal;
  /** The run stopped taking batches (Ctrl-C, a guard): an attempt in flight may finish, no retry starts. */
  stop?: AbortSignal;
}

/** A failure of one attempt, already redacted: safe to print. */
export interface AttemptFailure {
  /** An errno/undici code (ECONNRESET, UND_ERR_HEADERS_TIMEOUT) or `HTTP_<status>` or `UNVERIFIED`. */
  code: string;
  message: string;
  status?: number;
}

export type SendResult =
  | { kind: 'ok'; status: number; response: BatchResponse; attempts: number }
  /** 400 or 422: the API refused the batch as a whole; the caller bisects it to find the bad item. */
  | { kind: 'bad-request'; status: number; body: string; attempts: number }
  /** 413: nothing wrong with the items, the batch is too big; the caller splits it. */
  | { kind: 'too-large'; status: 413; body: string; attempts: number }
  /** A 2xx arrived at least once but never with a body we could check: maybe applied, never count it accepted. */
  | { kind: 'unverified'; reason: string; attempts: number; status?: number; body?: string }
  /** `mayBeApplied`: an attempt may have reached the server and been applied (a 500, a reset after writing, a timeout). */
  | { kind: 'gave-up'; reason: string; attempts: number; status?: number; body?: string; lastError?: AttemptFailure; mayBeApplied?: boolean }
  /**
   * Not finished because the run was interrupted: `inFlight` while a request was out (the server
   * may have it), else before the next attempt left (none did when `attempts` is 0); `lastError`
   * is what the last attempt met, if one failed.
   */
  | { kind: 'cancelled'; attempts: number; inFlight: boolean; lastError?: AttemptFailure; mayBeApplied?: boolean };

export type SendEvent =
  | {
      type: 'retry';
      resource: Resource;
      method: Method;
      batchId: string;
      /** The attempt that failed. */
      attempt: number;
      delayMs: number;
      reason: string;
      error: AttemptFailure;
    }
  | { type: 'warning'; code: 'TLS_VERIFY_ENV' | 'INSECURE_HTTP'; message: string }
  /** A wait the server asked for has started (flow-control.ts): the run is not stuck, it is told to wait. */
  | ({ type: 'wait' } & ServerWait);

/** A wait the server asked for, as it starts: a hold until a quota's reset or a Retry-After, or the pace of its policy. */
export interface ServerWait {
  ms: number;
  /** Where it asked: `Retry-After`, `X-RateLimit-Reset`, `RateLimit-Policy`… */
  header: string;
  /** True for the pace of a policy (each request waits `ms` after the one before), false for one hold of all requests. */
  pacing: boolean;
}

/** What the requests met so far, as the client's flow() says it (the HTML report's timeline reads it once a second). */
export interface FlowCounts {
  requests?: number;
  throttled?: number;
  retries?: number;
  waitMs?: number;
  latencyP50Ms?: number;
  latencyP95Ms?: number;
}

/** What the client's requests met, for the report: did the API or batch-sync bound the run? */
export interface Traffic {
  /** HTTP requests sent, retries included. */
  requests: number;
  /** Answers 429. */
  throttled: number;
  /** Requests that were a retry of a batch's earlier attempt. */
  retries: number;
  /** Time requests waited before going out, summed over requests: for a rate (ours or the server's) and before retries. */
  waitMs: number;
  /** The most requests that were under way at once (counted where each starts and ends), not the limit that allowed them. */
  peakConcurrency: number;
}
