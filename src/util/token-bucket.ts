// A token bucket: tokens come at `rate` per second, at most `burst` are saved up, so no interval
// ever sees more than rate × its length + burst takers. The sandbox refuses when none is there
// (`tryTake(now)`, sandbox/rate-limit.ts). (The client paced by it until issue 28: it now paces on
// the times its requests really left, send/pacer.ts.) Pure: the caller passes the time.

export class TokenBucket {
  private tokens: number;
  private at: number | undefined;

  constructor(
    private readonly rate: number,
    private readonly burst = 1,
  ) {
    this.tokens = burst;
  }

  /** Takes a token if one is there now; never goes into debt. */
  tryTake(nowMs: number): boolean {
    this.refill(nowMs);
    if (this.tokens < 1) return false;
    this.tokens -= 1;
    return true;
  }

  /** Tokens saved up at `nowMs` (fractional). */
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
