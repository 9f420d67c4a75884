// The one gate every request of a run passes, whatever its kind, so what it learnt carries from one
// kind to the next: a rate (--max-rate, the rate learnt from 429s, the server's advertised policy),
// the server's advertised quota, then a place among the requests in flight (the adaptive limit, or
// --concurrency pinned). The arithmetic lives in concurrency-limit.ts, adaptive-rate.ts and
// token-bucket.ts; here are the clock, the waiting and the counts the report shows.
import { AdaptiveRate } from './adaptive-rate.js';
import { ConcurrencyLimit, type LoadSignal } from './concurrency-limit.js';
import { readRateLimit } from './rate-limit-headers.js';
import { sleep } from './sleep.js';
import { TokenBucket } from './token-bucket.js';
import type { Traffic } from './types.js';

export interface FlowOptions {
  /** Where the adaptive limit starts, or the pinned limit. */
  initial: number;
  max: number;
  pinned: boolean;
  /** --max-rate: requests per second, never exceeded. */
  maxRate?: number;
  now?: () => number;
}

/** A place in flight, given back with what its answer said. */
export interface Permit {
  release(signal: LoadSignal, headers?: Record<string, string | string[] | undefined>): void;
}

/** An advertised policy is paced a little under its quota: a fixed window on the server must never see one request too many. */
const POLICY_HEADROOM = 0.95;

export class FlowControl {
  private readonly limit: ConcurrencyLimit;
  private readonly learnt = new AdaptiveRate();
  private readonly bucket = new TokenBucket(1);
  private bucketRate: number | undefined;
  private readonly now: () => number;
  private inFlight = 0;
  private readonly queue: Array<() => void> = [];
  private quota: { remaining: number; resetAt: number } | undefined;
  private policyRate: number | undefined;
  private recovery = new AbortController();
  private troubled = false;
  readonly traffic: Traffic = { requests: 0, throttled: 0, retries: 0, waitMs: 0, peakConcurrency: 0 };
  /** Successful answers' latencies in 1 ms buckets up to 10 s (the last holds the rest): a fixed size, whatever the run's length. */
  private readonly latencies = new Uint32Array(10_001);
  private answeredOk = 0;

  constructor(private readonly options: FlowOptions) {
    this.now = options.now ?? Date.now;
    this.limit = new ConcurrencyLimit(options);
    this.traffic.peakConcurrency = this.limit.current;
  }

  /** Requests that may be in flight now, and the rate requests are paced at (undefined: not paced). */
  get state(): { concurrency: number; rate?: number } {
    return { concurrency: this.limit.current, rate: this.rate() };
  }

  /** Aborts when an answer succeeds after overload answers: retries waiting out a backoff may go now, in step with the limit. */
  get recovered(): AbortSignal {
    return this.recovery.signal;
  }

  /** The 95th percentile of successful answers' latency (ms), once there is one. */
  latencyP95(): number | undefined {
    if (this.answeredOk === 0) return undefined;
    const rank = Math.ceil(this.answeredOk * 0.95);
    let seen = 0;
    for (let ms = 0; ms < this.latencies.length; ms++) {
      seen += this.latencies[ms]!;
      if (seen >= rank) return ms;
    }
    return this.latencies.length - 1;
  }

  private rate(): number | undefined {
    const rates = [this.options.maxRate, this.learnt.current, this.policyRate && this.policyRate * POLICY_HEADROOM].filter((r): r is number => r !== undefined);
    return rates.length === 0 ? undefined : Math.min(...rates);
  }

  /** Waits for the rate, the quota and a place in flight; undefined when a signal aborted first. */
  async acquire(...signals: (AbortSignal | undefined)[]): Promise<Permit | undefined> {
    const waited = this.now();
    const pause = this.pacing();
    if (pause > 0 && !(await sleep(pause, ...signals))) return undefined;
    this.traffic.waitMs += this.now() - waited;
    if (this.queue.length === 0 && this.inFlight < this.limit.current) this.inFlight++;
    else if (!(await this.place(signals))) return undefined;
    this.traffic.requests++;
    const started = this.now();
    let released = false;
    return {
      release: (signal, headers) => {
        if (released) return;
        released = true;
        this.answered(signal, this.now() - started, headers);
      },
    };
  }

  /** How long the next request must wait for its token and for the advertised quota. */
  private pacing(): number {
    const now = this.now();
    const rate = this.rate();
    let pause = 0;
    if (rate !== undefined) {
      if (rate !== this.bucketRate) this.bucket.setRate(rate, now);
      this.bucketRate = rate;
      pause = this.bucket.reserve(now);
    }
    if (this.quota && now >= this.quota.resetAt) this.quota = undefined;
    if (this.quota) {
      if (this.quota.remaining <= 0) pause = Math.max(pause, this.quota.resetAt - now);
      this.quota.remaining--;
    }
    return pause;
  }

  /** Waits in line for a place; the place is taken (inFlight counted) by whoever wakes the waiter. */
  private place(signals: (AbortSignal | undefined)[]): Promise<boolean> {
    const live = signals.filter((s): s is AbortSignal => s !== undefined);
    if (live.some((s) => s.aborted)) return Promise.resolve(false);
    return new Promise((resolve) => {
      const wake = () => {
        for (const s of live) s.removeEventListener('abort', cancel);
        resolve(true);
      };
      const cancel = () => {
        const at = this.queue.indexOf(wake);
        if (at !== -1) this.queue.splice(at, 1);
        for (const s of live) s.removeEventListener('abort', cancel);
        resolve(false);
      };
      for (const s of live) s.addEventListener('abort', cancel, { once: true });
      this.queue.push(wake);
    });
  }

  private answered(signal: LoadSignal, latencyMs: number, headers: Record<string, string | string[] | undefined> | undefined): void {
    const now = this.now();
    this.limit.onAnswer(signal, latencyMs, this.inFlight, now);
    this.inFlight--;
    if (signal === 'throttled') {
      this.traffic.throttled++;
      this.learnt.onThrottle(now, this.limit.latencyMs ?? latencyMs);
    }
    if (signal === 'ok') {
      this.learnt.onSuccess(now);
      this.latencies[Math.min(this.latencies.length - 1, Math.max(0, Math.round(latencyMs)))]!++;
      this.answeredOk++;
    }
    if (signal === 'throttled' || signal === 'overloaded') this.troubled = true;
    else if (signal === 'ok' && this.troubled) {
      this.troubled = false;
      this.recovery.abort();
      this.recovery = new AbortController();
    }
    if (headers) this.advertised(headers, now);
    this.traffic.peakConcurrency = Math.max(this.traffic.peakConcurrency, this.limit.current);
    while (this.queue.length > 0 && this.inFlight < this.limit.current) {
      this.inFlight++;
      this.queue.shift()!();
    }
  }

  /** The server's own numbers: requests already in flight were not yet counted in its `remaining`. */
  private advertised(headers: Record<string, string | string[] | undefined>, now: number): void {
    const info = readRateLimit(headers, now);
    if (!info) return;
    if (info.policyRate !== undefined) this.policyRate = info.policyRate;
    if (info.remaining !== undefined && info.resetAt !== undefined) this.quota = { remaining: info.remaining - this.inFlight, resetAt: info.resetAt };
  }
}
