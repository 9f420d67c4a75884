// The one gate every request of a run passes, whatever its kind, so what it learnt carries from one
// kind to the next: a rate (--max-rate, the rate learnt from 429s, the server's advertised policy),
// the server's advertised quota, then a place among the requests in flight (the adaptive limit, or
// --concurrency pinned). The arithmetic lives in concurrency-limit.ts, adaptive-rate.ts and
// token-bucket.ts; here are the clock, the waiting and the counts the report shows.
import { onAbort } from './abort-fanout.js';
import { AdaptiveRate } from './adaptive-rate.js';
import { ConcurrencyLimit, type LoadSignal } from './concurrency-limit.js';
import { readRateLimit } from './rate-limit-headers.js';
import { parseRetryAfter } from './retry-policy.js';
import { sleep } from './sleep.js';
import { TokenBucket } from '../util/token-bucket.js';
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
  /** Places taken: requests sent, or waiting for the rate. */
  private inFlight = 0;
  /** Requests sent and not yet answered: what the server has seen or is about to. */
  private outstanding = 0;
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

  /**
   * Waits for a place in flight, then for the rate (this request's token) and the advertised quota,
   * checked again after every wait: a 429 meanwhile may have closed it. A token is taken only with a
   * place, so a rate learnt from a 429 applies at once to all but the requests already in flight.
   * Undefined when a signal aborted first.
   */
  async acquire(...signals: (AbortSignal | undefined)[]): Promise<Permit | undefined> {
    if (this.queue.length === 0 && this.inFlight < this.limit.current) this.inFlight++;
    else if (!(await this.place(signals))) return undefined;
    const waited = this.now();
    let wait = this.token();
    for (;;) {
      const quota = this.quotaWait();
      // after waiting for the quota, a fresh token: those held back must not all leave at its reset
      const pause = quota > 0 ? quota : wait;
      if (pause <= 0) break;
      if (!(await sleep(pause, ...signals))) {
        this.free();
        return undefined;
      }
      wait = quota > 0 ? this.token() : 0;
    }
    if (this.quota) this.quota.remaining--;
    this.outstanding++;
    // the report's peak: requests actually under way at once, not the limit that allowed them
    this.traffic.peakConcurrency = Math.max(this.traffic.peakConcurrency, this.outstanding);
    this.traffic.waitMs += this.now() - waited;
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

  /** This request's token: how long until it may go at the rate in force (0: not paced). */
  private token(): number {
    const now = this.now();
    const rate = this.rate();
    if (rate === undefined) return 0;
    if (rate !== this.bucketRate) this.bucket.setRate(rate, now);
    this.bucketRate = rate;
    return this.bucket.reserve(now);
  }

  /** How long the advertised (or 429-announced) quota keeps requests back. */
  private quotaWait(): number {
    const now = this.now();
    if (this.quota && now >= this.quota.resetAt) this.quota = undefined;
    return this.quota && this.quota.remaining <= 0 ? this.quota.resetAt - now : 0;
  }

  /** A place given back unused (cancelled while waiting for the rate). */
  private free(): void {
    this.inFlight--;
    this.wakeWaiters();
  }

  private wakeWaiters(): void {
    while (this.queue.length > 0 && this.inFlight < this.limit.current) {
      this.inFlight++;
      this.queue.shift()!();
    }
  }

  /** Waits in line for a place; the place is taken (inFlight counted) by whoever wakes the waiter. */
  private place(signals: (AbortSignal | undefined)[]): Promise<boolean> {
    const live = signals.filter((s): s is AbortSignal => s !== undefined);
    if (live.some((s) => s.aborted)) return Promise.resolve(false);
    return new Promise((resolve) => {
      // through abort-fanout: thirty-two requests waiting for a place add no listener each
      const unlink = live.map((s) => onAbort(s, () => cancel()));
      const wake = () => {
        for (const off of unlink) off();
        resolve(true);
      };
      const cancel = () => {
        const at = this.queue.indexOf(wake);
        if (at !== -1) this.queue.splice(at, 1);
        for (const off of unlink) off();
        resolve(false);
      };
      this.queue.push(wake);
    });
  }

  private answered(signal: LoadSignal, latencyMs: number, headers: Record<string, string | string[] | undefined> | undefined): void {
    const now = this.now();
    this.limit.onAnswer(signal, latencyMs, this.inFlight, now);
    this.inFlight--;
    this.outstanding--;
    if (signal === 'throttled') {
      this.traffic.throttled++;
      // the first 429 says the quota is spent: nothing goes until its Retry-After (a fixed window
      // refuses everything sent before it closes); later ones only lower the learnt rate
      const first = this.learnt.current === undefined;
      this.learnt.onThrottle(now, this.limit.latencyMs ?? latencyMs);
      const wait = first ? parseRetryAfter(headers?.['retry-after'], now) : undefined;
      if (wait !== undefined) this.quota = { remaining: 0, resetAt: now + wait };
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
    if (headers && signal !== 'throttled') this.advertised(headers, now);
    this.wakeWaiters();
  }

  /**
   * The server's own numbers. Requests still on their way were not counted in its `remaining` yet:
   * they are subtracted, unless a policy paces the run (the pacing keeps under the quota, and with
   * whole-second resets, stopping on an estimate would idle most of each window).
   */
  private advertised(headers: Record<string, string | string[] | undefined>, now: number): void {
    const info = readRateLimit(headers, now);
    if (!info) return;
    if (info.policyRate !== undefined) this.policyRate = info.policyRate;
    if (info.remaining === undefined || info.resetAt === undefined) return;
    const unseen = this.policyRate === undefined ? this.outstanding : 0;
    this.quota = { remaining: info.remaining - unseen, resetAt: info.resetAt };
  }
}
