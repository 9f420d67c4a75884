// The request rate learnt from 429s, as the AWS SDKs' adaptive retry mode does (a CUBIC-shaped rate):
// off until the first 429; then the rate drops to a share of what the server let through in the
// last second, climbs back towards that level, stays at it for a while, and only then slowly probes
// above it. The pacer (pacer.ts) keeps every window of requests a margin under the rate, so a
// server with a fixed quota sees a rate just under its quota, with a rare 429 as it probes.
// Pure arithmetic: the caller passes the time.

/** Share of the measured rate kept after a 429. */
const BETA = 0.9;
/** CUBIC's scale: requests/s³ of growth away from the last ceiling. */
const SCALE = 0.1;
const WINDOW_MS = 1000;
/**
 * For this long after a 429 the rate stays at the level that got through (held under it by 0.98 up
 * to issue 28: with the pacer's margin that cost throughput and no longer bought anything); only
 * then does it probe above, slower than CUBIC's own scale: a quota rarely grows, and every probe
 * past it costs a burst of 429s.
 */
const HOLD_MS = 30_000;
const PROBE_SCALE = 0.02;
const MIN_RATE = 0.5;

export class AdaptiveRate {
  private enabled = false;
  private rate = 0;
  private ceiling = 0;
  private cutAt = 0;
  private k = 0;
  /** Times of the successful answers of the last second, oldest first. */
  private readonly successes: number[] = [];

  /** Requests per second, or undefined while no 429 was seen. */
  get current(): number | undefined {
    return this.enabled ? Math.max(MIN_RATE, this.rate) : undefined;
  }

  onSuccess(nowMs: number): void {
    this.successes.push(nowMs);
    this.forget(nowMs);
    if (!this.enabled) return;
    const since = nowMs - this.cutAt;
    // successes of requests sent before the 429 still arrive for a moment: what got through is
    // counted once they are in (early in a run the last second held only a part of the quota)
    if (since < WINDOW_MS && this.measured() > this.ceiling) this.setCeiling(this.measured());
    // back towards the ceiling along CUBIC's concave part, held there; past the hold, the convex
    // part starts from the ceiling: slow at first, faster the longer no 429 comes
    const climb =
      since < HOLD_MS
        ? Math.min(SCALE * (since / 1000 - this.k) ** 3 + this.ceiling, this.ceiling)
        : PROBE_SCALE * ((since - HOLD_MS) / 1000) ** 3 + this.ceiling;
    this.rate = Math.min(climb, 2 * Math.max(this.measured(), MIN_RATE));
  }

  /**
   * A 429 for a request that left at `sentAtMs`: the rate drops below what got through. One that
   * left before the last drop says nothing new (it went at the old rate) and changes nothing. Before
   * anything got through there is no level to learn: the rate stays off, and the server's
   * Retry-After and the concurrency limit pace the retries.
   */
  onThrottle(nowMs: number, sentAtMs: number): void {
    if (this.enabled && sentAtMs <= this.cutAt) return;
    this.forget(nowMs);
    if (!this.enabled && this.successes.length === 0) return;
    const measured = Math.max(this.measured(), MIN_RATE);
    this.setCeiling(this.enabled ? Math.min(measured, this.rate) : measured);
    this.cutAt = nowMs;
    this.enabled = true;
  }

  private setCeiling(ceiling: number): void {
    this.ceiling = ceiling;
    this.rate = ceiling * BETA;
    this.k = Math.cbrt((ceiling * (1 - BETA)) / SCALE);
  }

  /**
   * Successes in the last second, even early in a run: a quota of n a second has let through n
   * requests by its first refusal, however soon that came (dividing by a shorter span read 20 as 80).
   */
  private measured(): number {
    return (this.successes.length * 1000) / WINDOW_MS;
  }

  private forget(nowMs: number): void {
    while (this.successes.length > 0 && this.successes[0]! <= nowMs - WINDOW_MS) this.successes.shift();
  }
}
