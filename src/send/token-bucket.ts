// A token bucket that hands out reservations: `reserve(now)` takes a token and says how long the
// caller must wait before using it (0 when one was there). Tokens come at `rate` per second, at most
// `burst` are saved up, so no interval ever sees more than rate × its length + burst requests. Pure:
// the caller passes the time and does the waiting.

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

  private refill(nowMs: number): void {
    if (this.at !== undefined && nowMs > this.at) this.tokens = Math.min(this.burst, this.tokens + ((nowMs - this.at) / 1000) * this.rate);
    this.at = Math.max(this.at ?? nowMs, nowMs);
  }
}
