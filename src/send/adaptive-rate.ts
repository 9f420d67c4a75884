// The request rate learnt from 429s, as the AWS SDKs' adaptive retry mode does (a CUBIC-shaped rate):
// off until the first 429; then the rate drops to a share of what the server let through in the
// last second, climbs back fast towards that level, lingers near it, and only slowly probes above
// it. A server with a fixed quota then sees a rate just under its quota, with a rare 429 as it probes.
// Pure arithmetic: the caller passes the time.

/** Share of the measured rate kept after a 429. */
const BETA = 0.9;
/** CUBIC's scale: requests/s³ of growth away from the last ceiling. */
const SCALE = 0.4;
const WINDOW_MS = 1000;
const MIN_RATE = 0.5;

export class AdaptiveRate {
  private enabled = false;
  private rate = 0;
  private ceiling = 0;
  private cutAt = 0;
  private k = 0;
  /** Times of the successful answers of the last second, oldest first. */
  private readonly successes: number[] = [];
  private firstAt: number | undefined;

  /** Requests per second, or undefined while no 429 was seen. */
  get current(): number | undefined {
    return this.enabled ? Math.max(MIN_RATE, this.rate) : undefined;
  }

  onSuccess(nowMs: number): void {
    this.firstAt ??= nowMs;
    this.successes.push(nowMs);
    this.forget(nowMs);
    if (!this.enabled) return;
    const t = (nowMs - this.cutAt) / 1000;
    const cubic = SCALE * (t - this.k) ** 3 + this.ceiling;
    this.rate = Math.min(cubic, 2 * Math.max(this.measured(nowMs), MIN_RATE));
  }

  /** A 429: the rate drops below what got through; a second 429 within the same round trip (`coolMs`) does not drop it again. */
  onThrottle(nowMs: number, coolMs: number): void {
    if (this.enabled && nowMs - this.cutAt < coolMs) return;
    this.forget(nowMs);
    const measured = Math.max(this.measured(nowMs), MIN_RATE);
    this.ceiling = this.enabled ? Math.min(measured, Math.max(this.rate, measured * BETA)) : measured;
    this.rate = this.ceiling * BETA;
    this.k = Math.cbrt((this.ceiling * (1 - BETA)) / SCALE);
    this.cutAt = nowMs;
    this.enabled = true;
  }

  /** Successes per second over the last second (or since the first success, when that is shorter). */
  private measured(nowMs: number): number {
    if (this.firstAt === undefined) return 0;
    const span = Math.min(WINDOW_MS, Math.max(100, nowMs - this.firstAt));
    return (this.successes.length * 1000) / span;
  }

  private forget(nowMs: number): void {
    while (this.successes.length > 0 && this.successes[0]! <= nowMs - WINDOW_MS) this.successes.shift();
  }
}
