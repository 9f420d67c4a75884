// Requests per second, counted in windows of one second that open with the first request after the
// previous window closed. A fixed window (not a sliding log) keeps the check O(1) at 200 batches/s
// and makes "n allowed, the next refused" exact for tests.

export interface RateDecision {
  allowed: boolean;
  /** Whole seconds until the window closes (the Retry-After header); at least 1. */
  retryAfterSeconds: number;
}

export interface RateLimiter {
  take(): RateDecision;
  reset(): void;
}

export function rateLimiter(perSecond: number | undefined, now: () => number): RateLimiter {
  let windowStart = -Infinity;
  let used = 0;
  return {
    take() {
      if (perSecond === undefined) return { allowed: true, retryAfterSeconds: 0 };
      const t = now();
      if (t - windowStart >= 1000) {
        windowStart = t;
        used = 0;
      }
      if (used < perSecond) {
        used++;
        return { allowed: true, retryAfterSeconds: 0 };
      }
      return { allowed: false, retryAfterSeconds: Math.max(1, Math.ceil((windowStart + 1000 - t) / 1000)) };
    },
    reset() {
      windowStart = -Infinity;
      used = 0;
    },
  };
}
