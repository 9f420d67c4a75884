// The waits for a rate limit requests are in now, as progress shows them (issue 37.4): a hold until a
// quota's reset (the first 429's Retry-After among them), or requests asleep for a pace slower than
// one a second. A wait no longer than a moment at its start (a pace of 20 a second) is a rate, not a
// wait. Pure: the caller passes the time.

/** A wait every request not yet sent is in now, for a rate limit: how long still, and what set it (`429`, a header, `--max-rate`). */
export interface FlowWait {
  ms: number;
  cause: string;
}

/** Shown when longer than this at its start. */
const MOMENT_MS = 1000;

/** A hold's cause as the progress line says it: the first 429's Retry-After is the 429 itself. */
export const causeOfHold = (header: string | undefined) => (header === undefined || header === 'Retry-After' ? '429' : header);

interface Asleep {
  until: number;
  cause: string;
}

export class RateWaits {
  private readonly asleep = new Set<Asleep>();

  /** A request goes to sleep for `ms` from `now`; what to pass to `woke` (none for a moment's wait). */
  sleeps(now: number, ms: number, cause: () => string): Asleep | undefined {
    if (ms <= MOMENT_MS) return undefined;
    const wait = { until: now + ms, cause: cause() };
    this.asleep.add(wait);
    return wait;
  }

  woke(wait: Asleep | undefined): void {
    if (wait) this.asleep.delete(wait);
  }

  /**
   * The quota's hold when there is one (even with no request asleep in it: the refused request waits
   * out its Retry-After in send-loop.ts), else the wait that ends first.
   */
  first(now: number, quota?: { remaining: number; resetAt: number; since: number; header: string }): FlowWait | undefined {
    if (quota && quota.remaining <= 0 && quota.resetAt > now && quota.resetAt - quota.since > MOMENT_MS)
      return { ms: quota.resetAt - now, cause: causeOfHold(quota.header) };
    let first: Asleep | undefined;
    // a timer that fires late leaves its wait here a moment past its end: over, not `0s`
    for (const w of this.asleep) if (w.until > now && (!first || w.until < first.until)) first = w;
    return first && { ms: first.until - now, cause: first.cause };
  }
}
