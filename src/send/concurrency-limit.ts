// How many requests may be in flight: a loss-based controller (AIMD, as TCP's congestion window) with
// a latency check (as the gradient limiters of Netflix concurrency-limits and Envoy's adaptive
// concurrency filter). It starts at the old fixed default and grows ×1.5 per round trip (slow start)
// while answers come back fast and successful; past the first cut it adds one per round trip. It cuts
// on a 429 (×0.7), on a 503, a timeout or a dropped connection (×0.5), and when answers grow slower
// than the unloaded latency allows (in proportion, ×0.5 to ×0.9), at most once per round trip, so one burst of refusals
// counts once. Pure arithmetic: the caller passes the time; no timer, no I/O.

/** What one answer says about the server's load. */
export type LoadSignal = 'ok' | 'throttled' | 'overloaded' | 'neutral';

export interface ConcurrencyLimitOptions {
  initial: number;
  max: number;
  /** A pinned limit (`--concurrency`) never moves. */
  pinned?: boolean;
}

const MIN = 1;
/**
 * Per answer in slow start: ×1.5 per round trip. Doubling reached 32 a round trip sooner, but a
 * limit that overshoots a quota has every request of its last round trip refused. Slower ramps keep
 * that last round trip within 1% of (h1)'s answers but cost (h3) past 1.1 × the best fixed limit
 * (issue 36: BENCHMARKS.md, twelve ramps tried in the model).
 */
const SLOW_START_STEP = 0.5;
/** An answer is "slow" when the smoothed latency exceeds the unloaded one by both of these. */
const SLOW_FACTOR = 1.5;
const SLOW_MARGIN_MS = 25;
const CUT: Record<'throttled' | 'overloaded' | 'slow', number> = { throttled: 0.7, overloaded: 0.5, slow: 0.9 };
/** How fast the unloaded-latency estimate forgets a low sample (per answer), so a changed network is followed. */
const BASELINE_DRIFT = 0.002;

export class ConcurrencyLimit {
  private value: number;
  private readonly max: number;
  private readonly pinned: boolean;
  /** Below it the limit doubles per round trip; set at the first cut. */
  private threshold = Number.POSITIVE_INFINITY;
  private baselineMs: number | undefined;
  private smoothedMs: number | undefined;
  private lastCutAt = Number.NEGATIVE_INFINITY;
  /** The highest limit reached, for the report. */
  peak: number;

  constructor(options: ConcurrencyLimitOptions) {
    this.max = Math.max(MIN, options.max);
    this.value = Math.min(this.max, Math.max(MIN, options.initial));
    this.pinned = options.pinned === true;
    this.peak = this.current;
  }

  /** Requests that may be in flight now. */
  get current(): number {
    return Math.max(MIN, Math.floor(this.value));
  }

  /** The smoothed latency of successful answers (ms), once there is one. */
  get latencyMs(): number | undefined {
    return this.smoothedMs;
  }

  /**
   * One answer: what it signals, how long it took, and how many requests were in flight when it
   * came (itself included). A limit that was not used up is not raised: a run paced by a rate limit
   * or by its reader must not learn a limit it never tried.
   */
  onAnswer(signal: LoadSignal, latencyMs: number, inFlight: number, nowMs: number): void {
    if (signal === 'ok') this.observe(latencyMs);
    if (this.pinned || signal === 'neutral') return;
    if (signal !== 'ok') return this.cut(CUT[signal], nowMs);
    if (this.isSlow()) return this.cut(this.slowCut(), nowMs);
    if (inFlight < this.current) return;
    this.value = Math.min(this.max, this.value + (this.value < this.threshold ? SLOW_START_STEP : 1 / this.value));
    this.peak = Math.max(this.peak, this.current);
  }

  private observe(latencyMs: number): void {
    this.smoothedMs = this.smoothedMs === undefined ? latencyMs : this.smoothedMs * 0.8 + latencyMs * 0.2;
    this.baselineMs =
      this.baselineMs === undefined || latencyMs < this.baselineMs ? latencyMs : this.baselineMs + (latencyMs - this.baselineMs) * BASELINE_DRIFT;
  }

  /**
   * A queue on the server: cut in proportion to how far the latency rose (as a gradient limiter
   * does), aiming back at 1.2 × the unloaded latency; between ×0.5 and ×0.9.
   */
  private slowCut(): number {
    return Math.min(CUT.slow, Math.max(0.5, (1.2 * this.baselineMs!) / this.smoothedMs!));
  }

  private isSlow(): boolean {
    if (this.smoothedMs === undefined || this.baselineMs === undefined) return false;
    return this.smoothedMs > this.baselineMs * SLOW_FACTOR && this.smoothedMs > this.baselineMs + SLOW_MARGIN_MS;
  }

  /** At most once per round trip: the refusals of one burst were all caused by the same excess. */
  private cut(factor: number, nowMs: number): void {
    if (nowMs - this.lastCutAt < (this.smoothedMs ?? 0)) return;
    this.lastCutAt = nowMs;
    this.value = Math.max(MIN, this.value * factor);
    this.threshold = this.value;
  }
}
