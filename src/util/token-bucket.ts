// A token bucket: tokens come at `rate` per second, at most `burst` are saved up, so no interval
// ever sees more than rate × its length + burst takers. The client reserves (`reserve(now)`: a token
// now, and how long to wait before using it, send/flow-control.ts); the sandbox refuses when none is
// there (`tryTake(now)`, sandbox/rate-limit.ts). Pure: the caller passes the time and does the waiting.

export class TokenBucket {
  private tokens: number;
  private at: number | undefined;

  constructor(
    private rate: number,
    private readonly burst = 1,
  ) {
    this.tokens = burst;
  }

  /** A new rate takes effect from now; tokens already earned are kept. */
  setRate(rate: number, nowMs: number): void {
    this.refill(nowMs);
    this.rate = rate;
  }

  /** Takes a token; returns the ms to wait before it may be used. Tokens owed are queued in order. */
  reserve(nowMs: number): number {
    this.refill(nowMs);
    this.tokens -= 1;
    return this.tokens >= 0 ? 0 : Math.ceil((-this.tokens / this.rate) * 1000);
  }

  /** Takes a token if one is there now; never goes into debt. */
  tryTake(nowMs: number): boolean {
    this.refill(nowMs);
    if (this.tokens < 1) return false;
    this.tokens -= 1;
    return true;
  }

  /** Tokens saved up at `nowMs` (fractional; negative while reservations are owed). */
  available(nowMs: number): number {
    this.refill(nowMs);
    return this.tokens;
  }

  /** Full again, as when made. */
  reset(): void {
    this.tokens = this.burst;
    this.at = undefined;
  }

  private refill(nowMs: number): void {
    if (this.at !== undefined && nowMs > this.at) this.tokens = Math.min(this.burst, this.tokens + ((nowMs - this.at) / 1000) * this.rate);
    this.at = Math.max(this.at ?? nowMs, nowMs);
  }
}
