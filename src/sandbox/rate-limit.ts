// The sandbox's rate limit, in batches per second, as one of two shapes a gateway uses:
// - a fixed window (the default): windows of one second that open with the first request after the
//   previous window closed. O(1) at 200 batches/s, and "n allowed, the next refused" is exact for tests;
// - a token bucket (`burst` given): n tokens a second, at most `burst` saved up, so a quiet client
//   may send `burst` at once and then only n a second.
// Both say what they have left, for the RateLimit headers (--rate-limit-headers).
import { TokenBucket } from '../util/token-bucket.js';

interface RateDecision {
  allowed: boolean;
  /** Whole seconds until a request would be allowed (the Retry-After header); at least 1. */
  retryAfterSeconds: number;
}

/** What the limiter would advertise now: requests left and whole seconds until the quota is back. */
interface RateState {
  limit: number;
  remaining: number;
  resetSeconds: number;
}

export interface RateLimiter {
  take(): RateDecision;
  state(): RateState | undefined;
  reset(): void;
}

const UNLIMITED: RateLimiter = { take: () => ({ allowed: true, retryAfterSeconds: 0 }), state: () => undefined, reset: () => {} };

export function rateLimiter(perSecond: number | undefined, now: () => number, burst?: number): RateLimiter {
  if (perSecond === undefined) return UNLIMITED;
  return burst === undefined ? fixedWindow(perSecond, now) : tokenBucket(perSecond, burst, now);
}

function fixedWindow(perSecond: number, now: () => number): RateLimiter {
  let windowStart = Number.NEGATIVE_INFINITY;
  let used = 0;
  const open = (t: number) => t - windowStart < 1000;
  return {
    take() {
      const t = now();
      if (!open(t)) {
        windowStart = t;
        used = 0;
      }
      if (used < perSecond) {
        used++;
        return { allowed: true, retryAfterSeconds: 0 };
      }
      return { allowed: false, retryAfterSeconds: Math.max(1, Math.ceil((windowStart + 1000 - t) / 1000)) };
    },
    state() {
      const t = now();
      if (!open(t)) return { limit: perSecond, remaining: perSecond, resetSeconds: 0 };
      return { limit: perSecond, remaining: perSecond - used, resetSeconds: Math.ceil((windowStart + 1000 - t) / 1000) };
    },
    reset() {
      windowStart = Number.NEGATIVE_INFINITY;
      used = 0;
    },
  };
}

function tokenBucket(perSecond: number, burst: number, now: () => number): RateLimiter {
  const bucket = new TokenBucket(perSecond, burst);
  return {
    take() {
      const t = now();
      if (bucket.tryTake(t)) return { allowed: true, retryAfterSeconds: 0 };
      return { allowed: false, retryAfterSeconds: Math.max(1, Math.ceil((1 - bucket.available(t)) / perSecond)) };
    },
    state() {
      const tokens = bucket.available(now());
      return { limit: perSecond, remaining: Math.floor(tokens), resetSeconds: Math.ceil((burst - tokens) / perSecond) };
    },
    reset() {
      bucket.reset();
    },
  };
}
