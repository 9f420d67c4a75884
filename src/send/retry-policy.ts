// Pure retry arithmetic: defaults, backoff with full jitter, Retry-After parsing. No I/O, no clock of its own.
import type { RetryPolicy, Timeouts } from './types.js';
import { ConfigError } from '../errors.js';

export const DEFAULT_RETRY: RetryPolicy = {
  maxAttempts: 6,
  baseDelayMs: 500,
  maxDelayMs: 30_000,
  maxTotalMs: 5 * 60_000,
  retryOn500: false,
  maxRetryAfterMs: 120_000,
};

const DEFAULT_TIMEOUTS: Timeouts = {
  connectMs: 10_000,
  headersMs: 60_000,
  bodyMs: 60_000,
  attemptMs: 120_000,
};

/** Where the adaptive limit starts (the fixed default it replaced). */
export const DEFAULT_CONCURRENCY = 4;
/** The adaptive limit's default cap (--max-concurrency). */
export const DEFAULT_MAX_CONCURRENCY = 32;

/**
 * Delay before the retry that follows failed attempt `attempt` (1-based): uniform in
 * [0, min(maxDelay, base·2^(attempt-1))]. Full jitter spreads the retries of parallel batches (and of
 * other clients hit by the same outage) instead of having them return in lock-step.
 */
export function backoffDelay(attempt: number, policy: RetryPolicy, random: () => number = Math.random): number {
  const cap = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** Math.max(0, attempt - 1));
  return Math.floor(random() * cap);
}

/**
 * Retry-After as milliseconds from `nowMs`: delta-seconds ("0", "120") or an HTTP-date. A date in the
 * past means 0. Anything else (garbage, negative, fractional) → undefined, and the caller falls back
 * to backoff rather than guessing.
 */
export function parseRetryAfter(value: string | string[] | undefined, nowMs: number): number | undefined {
  const raw = (Array.isArray(value) ? value[0] : value)?.trim();
  if (!raw) return undefined;
  if (/^\d+$/.test(raw)) return Number(raw) * 1000;
  // HTTP-date: IMF-fixdate and the two obsolete forms all start with a day name. Checked first
  // because V8's Date.parse is lenient enough to read "-5" or "Someday 99" as dates.
  if (!/^(Mon|Tue|Wed|Thu|Fri|Sat|Sun)[a-z]*,?\s/i.test(raw)) return undefined;
  const at = Date.parse(raw);
  if (Number.isNaN(at)) return undefined;
  return Math.max(0, at - nowMs);
}

/** Seconds as a person reads them: tenths for a short wait, whole seconds from 100 on. */
const secondsText = (ms: number) => {
  const s = ms / 1000;
  return Number.isInteger(s) || s >= 100 ? String(Math.round(s)) : s.toFixed(1);
};

/**
 * Why a wait the server asked for is not waited (`server asked to wait 3600 s (Retry-After), beyond
 * the 120 s cap`): a batch given up, or the flow control closed (flow-control.ts).
 */
export function beyondCap(waitMs: number, header: string, capMs: number): string {
  const wait = Number.isFinite(waitMs) ? `${secondsText(waitMs)} s` : 'without end';
  return `server asked to wait ${wait} (${header}), beyond the ${secondsText(capMs)} s cap`;
}

/**
 * What to wait before the next attempt. Never earlier than the server's Retry-After, and never
 * less than our own backoff either: a Retry-After of 0 repeated must not turn into a tight loop.
 */
export function nextDelay(attempt: number, policy: RetryPolicy, retryAfterMs: number | undefined, random?: () => number): number {
  const backoff = backoffDelay(attempt, policy, random);
  return retryAfterMs === undefined ? backoff : Math.max(retryAfterMs, backoff);
}

export function resolvePolicy(partial: Partial<RetryPolicy> | undefined): RetryPolicy {
  const policy = { ...DEFAULT_RETRY, ...stripUndefined(partial ?? {}) };
  if (!Number.isInteger(policy.maxAttempts) || policy.maxAttempts < 1) {
    throw new ConfigError(`retry.maxAttempts must be an integer ≥ 1, got ${policy.maxAttempts}`);
  }
  for (const key of ['baseDelayMs', 'maxDelayMs', 'maxTotalMs', 'maxRetryAfterMs'] as const) {
    if (!(policy[key] >= 0)) throw new ConfigError(`retry.${key} must be ≥ 0, got ${policy[key]}`);
  }
  return policy;
}

export function resolveTimeouts(partial: Partial<Timeouts> | undefined): Timeouts {
  const t = { ...DEFAULT_TIMEOUTS, ...stripUndefined(partial ?? {}) };
  for (const key of ['connectMs', 'headersMs', 'bodyMs', 'attemptMs'] as const) {
    if (!(t[key] > 0)) throw new ConfigError(`timeouts.${key} must be > 0, got ${t[key]}`);
  }
  return t;
}

function stripUndefined<T extends object>(o: T): Partial<T> {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as Partial<T>;
}
