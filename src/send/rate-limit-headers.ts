// What a server says about its rate limit, read from its answer's headers before it has to refuse:
// the IETF fields (draft-ietf-httpapi-ratelimit-headers: `RateLimit: "default";r=50;t=30` and
// `RateLimit-Policy: "default";q=100;w=60`, Structured Field lists), the draft's older forms
// (`RateLimit-Limit/-Remaining/-Reset` and `RateLimit: limit=100, remaining=50, reset=30`), and the
// common `X-RateLimit-Limit/-Remaining/-Reset`. Pure: headers and the clock in, numbers out.
import { parseDictionary, parseList, type Item, type InnerList } from 'structured-headers';

export interface RateLimitInfo {
  /** Requests left in the current window, when the server said so. */
  remaining?: number;
  /** When that window ends, as a time on the caller's clock (ms). */
  resetAt?: number;
  /** The fields `remaining` and `resetAt` were read from, as a person would look for them (`X-RateLimit-Reset`). */
  header?: string;
  /** The quota's rate, in requests per second (quota ÷ window), when the server said both. */
  policyRate?: number;
}

type Headers = Record<string, string | string[] | undefined>;

/**
 * An `X-RateLimit-Reset` of 1,000,000,000 or more is a Unix time (seconds: GitHub, Twitter; from
 * 10^12, milliseconds), anything smaller is seconds from now (the IETF draft's meaning): no window
 * lasts 31 years, and no Unix time in this century is below 10^9.
 */
export function resetFromValue(value: number, nowMs: number): number {
  if (value >= 1e12) return Math.max(nowMs, value);
  if (value >= 1e9) return Math.max(nowMs, value * 1000);
  return nowMs + value * 1000;
}

const one = (v: string | string[] | undefined) => (Array.isArray(v) ? v.join(', ') : v)?.trim() || undefined;

/**
 * The number a field starts with, alone or as the first member of a list (`100`, `100, 100;w=60`):
 * a whole number for a count, also a fraction or an exponent (`1.5`, `1e15`) for a time. Anything
 * else is no number: `1e15` is never read as 1, nor `12abc` as 12.
 */
function leadingNumber(v: string | undefined, kind: 'count' | 'time'): number | undefined {
  const pattern = kind === 'count' ? /^\s*(\d+)\s*(?:[,;]|$)/ : /^\s*(\d+(?:\.\d+)?(?:[eE][+-]?\d+)?)\s*(?:[,;]|$)/;
  const m = v === undefined ? null : pattern.exec(v);
  return m ? Number(m[1]) : undefined;
}

function param(member: Item | InnerList, key: string): number | undefined {
  const value = member[1].get(key);
  return typeof value === 'number' && Number.isFinite(value) && value >= 0 ? value : undefined;
}

function safely<T>(parse: () => T): T | undefined {
  try {
    return parse();
  } catch {
    return undefined;
  }
}

/** The current draft's `RateLimit` list: the policy with the fewest requests left binds. */
function currentDraft(field: string, nowMs: number): RateLimitInfo | undefined {
  const list = safely(() => parseList(field));
  let best: RateLimitInfo | undefined;
  for (const member of list ?? []) {
    const remaining = param(member, 'r');
    if (remaining === undefined) continue;
    const t = param(member, 't');
    if (best?.remaining === undefined || remaining < best.remaining)
      best = { remaining, resetAt: t === undefined ? undefined : nowMs + t * 1000, header: 'RateLimit' };
  }
  return best;
}

/** Draft 07's `RateLimit: limit=100, remaining=50, reset=30` (a dictionary). */
function dictionaryDraft(field: string, nowMs: number): RateLimitInfo | undefined {
  const dict = safely(() => parseDictionary(field));
  const value = (key: string) => {
    const v = dict?.get(key)?.[0];
    return typeof v === 'number' && v >= 0 ? v : undefined;
  };
  const remaining = value('remaining');
  const reset = value('reset');
  return remaining === undefined ? undefined : { remaining, resetAt: reset === undefined ? undefined : nowMs + reset * 1000, header: 'RateLimit' };
}

/** `RateLimit-Policy`: the slowest policy's quota per second. */
function policyRate(field: string | undefined): number | undefined {
  let rate: number | undefined;
  for (const member of (field && safely(() => parseList(field))) || []) {
    const q = param(member, 'q');
    const w = param(member, 'w');
    if (q !== undefined && w !== undefined && w > 0 && (rate === undefined || q / w < rate)) rate = q / w;
  }
  return rate;
}

/** Separate fields: `RateLimit-Remaining`/`-Reset` (older drafts, seconds) or `X-RateLimit-*` (seconds or a Unix time). */
function separateFields(headers: Headers, prefix: 'ratelimit' | 'x-ratelimit', nowMs: number): RateLimitInfo | undefined {
  const remaining = leadingNumber(one(headers[`${prefix}-remaining`]), 'count');
  if (remaining === undefined) return undefined;
  const name = prefix === 'x-ratelimit' ? 'X-RateLimit' : 'RateLimit';
  const reset = leadingNumber(one(headers[`${prefix}-reset`]), 'time');
  if (reset === undefined) return { remaining, header: `${name}-Remaining` };
  return { remaining, resetAt: prefix === 'x-ratelimit' ? resetFromValue(reset, nowMs) : nowMs + reset * 1000, header: `${name}-Reset` };
}

/** Everything the headers (lower-case names, as undici gives them) say; undefined when they say nothing. */
export function readRateLimit(headers: Headers, nowMs: number): RateLimitInfo | undefined {
  const field = one(headers.ratelimit);
  const window =
    (field && (currentDraft(field, nowMs) ?? dictionaryDraft(field, nowMs))) ||
    separateFields(headers, 'ratelimit', nowMs) ||
    separateFields(headers, 'x-ratelimit', nowMs);
  const rate = policyRate(one(headers['ratelimit-policy']));
  if (!window && rate === undefined) return undefined;
  return { ...window, ...(rate === undefined ? {} : { policyRate: rate }) };
}
