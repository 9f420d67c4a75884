// The one gate every request of a run passes, whatever its kind, so what it learnt carries from one
// kind to the next: a place among the requests in flight (the adaptive limit, or --concurrency
// pinned), then a rate (--max-rate, the rate learnt from 429s, the server's advertised policy:
// pacer.ts) and the waits the server asks for (a quota spent until its reset, the first 429's
// Retry-After). A wait the server asks for is capped: past the cap the flow closes, and every
// request not yet sent is refused at once with the reason (the run ends with its report instead of
// sitting out an hour, or 31,000 years). The arithmetic lives in concurrency-limit.ts,
// adaptive-rate.ts and pacer.ts; here are the clock, the waiting and the counts the report shows.
import { onAbort } from './abort-fanout.js';
import { AdaptiveRate } from './adaptive-rate.js';
import { ConcurrencyLimit, type LoadSignal } from './concurrency-limit.js';
import { Pacer } from './pacer.js';
import { readRateLimit } from './rate-limit-headers.js';
import { causeOfHold, RateWaits, type FlowWait } from './rate-waits.js';
import { beyondCap, DEFAULT_RETRY, parseRetryAfter } from './retry-policy.js';
import { sleep } from './sleep.js';
import type { ServerWait, Traffic } from './types.js';

type Headers = Record<string, string | string[] | undefined>;

export interface FlowOptions {
  /** Where the adaptive limit starts, or the pinned limit. */
  initial: number;
  max: number;
  pinned: boolean;
  /** --max-rate: requests per second, never exceeded. */
  maxRate?: number;
  /** The longest wait a server may ask for; the retry policy's cap by default (120 s). */
  maxServerWaitMs?: number;
  /** Told when a wait the server asked for starts, if it is longer than a second (for the log). */
  onWait?(wait: ServerWait): void;
  now?: () => number;
  /** How the flow control waits (send/sleep.ts); a test passes virtual time. */
  sleep?: typeof sleep;
}

/** A place in flight, given back with what its answer said. */
export interface Permit {
  release(signal: LoadSignal, headers?: Headers): void;
}

/** The flow is closed: the server asked for a wait beyond the cap. Nothing more is sent. */
export interface Closed {
  closed: string;
}

/** An advertised policy is paced a little under its quota: a fixed window on the server must never see one request too many. */
const POLICY_HEADROOM = 0.95;
/** Waits the server asks for that are said on the log when they start: longer than this. */
const SAY_LONGER_THAN_MS = 1000;

export class FlowControl {
  private readonly limit: ConcurrencyLimit;
  private readonly learnt = new AdaptiveRate();
  private readonly pacer = new Pacer();
  private readonly now: () => number;
  private readonly sleep: typeof sleep;
  private readonly capMs: number;
  /** Places taken: requests sent, or waiting for the rate. */
  private inFlight = 0;
  /** Requests sent and not yet answered: what the server has seen or is about to. */
  private outstanding = 0;
  private readonly queue: Array<() => void> = [];
  private quota: { remaining: number; resetAt: number; header: string; since: number } | undefined;
  /** The reset of the hold last said on the log: each hold is said once. */
  private saidHold: number | undefined;
  private policyRate: number | undefined;
  private throttledBefore = false;
  private readonly waits = new RateWaits();
  private closedBy: string | undefined;
  private readonly closing = new AbortController();
  private recovery = new AbortController();
  private troubled = false;
  readonly traffic: Traffic = { requests: 0, throttled: 0, retries: 0, waitMs: 0, peakConcurrency: 0 };
  /** Successful answers' latencies in 1 ms buckets up to 10 s (the last holds the rest): a fixed size, whatever the run's length; read by the HTML report's timeline. */
  readonly latencies = new Uint32Array(10_001);
  private answeredOk = 0;

  constructor(private readonly options: FlowOptions) {
    this.now = options.now ?? Date.now;
    this.sleep = options.sleep ?? sleep;
    this.capMs = options.maxServerWaitMs ?? DEFAULT_RETRY.maxRetryAfterMs;
    this.limit = new ConcurrencyLimit(options);
  }

  /** Requests that may be in flight now, those that are, the rate requests are paced at (undefined: not paced), and the wait they are held in. */
  get state(): { concurrency: number; inFlight: number; rate?: number; wait?: FlowWait } {
    return { concurrency: this.limit.current, inFlight: this.outstanding, rate: this.rate(), wait: this.waits.first(this.now(), this.quota) };
  }

  /** Who set the wait a request is put in: the quota's header (the first 429's Retry-After as `429`), else the slowest rate. */
  private causeOf(hold: number): string {
    if (hold > 0) return causeOfHold(this.quota?.header);
    const rate = this.rate();
    if (rate === this.options.maxRate) return '--max-rate';
    return rate === this.learnt.current ? '429' : 'RateLimit-Policy';
  }

  /** Aborts when an answer succeeds after overload answers: retries waiting out a backoff may go now, in step with the limit. */
  get recovered(): AbortSignal {
    return this.recovery.signal;
  }

  /** Aborts when the flow closes (a wait beyond the cap): a retry asleep learns at once that it will not be sent. */
  get closed(): AbortSignal {
    return this.closing.signal;
  }

  /** The 95th percentile of successful answers' latency (ms), once there is one. */
  latencyP95(): number | undefined {
    return this.latencyAt(0.95);
  }

  /** A percentile (0..1) of successful answers' latency (ms), once there is one. */
  latencyAt(q: number): number | undefined {
    if (this.answeredOk === 0) return undefined;
    const rank = Math.ceil(this.answeredOk * q);
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
   * Waits for a place in flight, then for the rate and the server's waits, looked at again after
   * every wait: an answer meanwhile may have changed them. A place is taken first, so a rate learnt
   * from a 429 applies at once to all but the requests already in flight. Undefined when a signal
   * aborted first; Closed when the server asked for a wait beyond the cap.
   */
  async acquire(...signals: (AbortSignal | undefined)[]): Promise<Permit | Closed | undefined> {
    if (this.closedBy !== undefined) return { closed: this.closedBy };
    if (this.queue.length === 0 && this.inFlight < this.limit.current) this.inFlight++;
    else if (!(await this.place(signals))) return undefined;
    const waited = this.now();
    const cleared = await this.clearance(signals);
    // every wait counts, also one that ended in a cancel or a refusal
    this.traffic.waitMs += this.now() - waited;
    if (typeof cleared !== 'number') {
      this.free();
      return cleared === false ? undefined : { closed: cleared };
    }
    this.outstanding++;
    // the report's peak: requests actually under way at once, not the limit that allowed them
    this.traffic.peakConcurrency = Math.max(this.traffic.peakConcurrency, this.outstanding);
    this.traffic.requests++;
    const started = this.now();
    let released = false;
    return {
      release: (signal, headers) => {
        if (released) return;
        released = true;
        const now = this.now();
        this.pacer.answered(cleared, now);
        this.answered(signal, now - started, started, headers);
      },
    };
  }

  /**
   * Until the rate and the server let this request go; then it leaves, in the same turn as the
   * check (another request checking meanwhile sees it gone): its departure number. False when a
   * signal aborted; the reason when the flow closed.
   */
  private async clearance(signals: (AbortSignal | undefined)[]): Promise<number | false | string> {
    for (;;) {
      const now = this.now();
      const hold = this.holdFor(now);
      if (this.closedBy !== undefined) return this.closedBy;
      const pause = Math.max(hold, this.pacer.wait(this.rate(), now));
      if (pause <= 0) {
        if (this.quota) this.quota.remaining--;
        return this.pacer.depart(now);
      }
      const wait = this.waits.sleeps(now, pause, () => this.causeOf(hold));
      const slept = await this.sleep(pause, ...signals, this.closing.signal);
      this.waits.woke(wait);
      if (!slept && signals.some((s) => s?.aborted)) return false;
    }
  }

  /** How long the advertised (or 429-announced) quota keeps requests back; past the cap, the flow closes. */
  private holdFor(now: number): number {
    if (this.quota && now >= this.quota.resetAt) this.quota = undefined;
    if (!this.quota || this.quota.remaining > 0) return 0;
    const { resetAt, header } = this.quota;
    const wait = resetAt - now;
    if (wait > this.capMs) this.close(beyondCap(wait, header, this.capMs));
    else if (wait > SAY_LONGER_THAN_MS && this.saidHold !== resetAt) {
      this.saidHold = resetAt;
      this.options.onWait?.({ ms: wait, header, pacing: false });
    }
    return wait;
  }

  /** A wait beyond the cap: every request not yet sent is refused, now and from now on. */
  private close(reason: string): void {
    if (this.closedBy !== undefined) return;
    this.closedBy = reason;
    this.closing.abort();
  }

  /** A place given back unused (cancelled or refused while waiting for the rate). */
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

  private answered(signal: LoadSignal, latencyMs: number, sentAt: number, headers: Headers | undefined): void {
    const now = this.now();
    this.limit.onAnswer(signal, latencyMs, this.inFlight, now);
    this.inFlight--;
    this.outstanding--;
    if (signal === 'throttled') this.throttled(now, sentAt, headers);
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
   * A 429. The first says the quota is spent: nothing goes until its Retry-After (a fixed window
   * refuses everything sent before it closes); later ones only lower the learnt rate. A Retry-After
   * beyond the cap closes the flow: that batch is given up (send-loop.ts), and so is the run.
   */
  private throttled(now: number, sentAt: number, headers: Headers | undefined): void {
    this.traffic.throttled++;
    const wait = parseRetryAfter(headers?.['retry-after'], now);
    if (wait !== undefined && wait > this.capMs) return this.close(beyondCap(wait, 'Retry-After', this.capMs));
    this.learnt.onThrottle(now, sentAt);
    if (!this.throttledBefore && wait !== undefined) this.quota = { remaining: 0, resetAt: now + wait, header: 'Retry-After', since: now };
    this.throttledBefore = true;
  }

  /**
   * The server's own numbers. Requests still on their way were not counted in its `remaining` yet:
   * they are subtracted, unless a policy paces the run (the pacing keeps under the quota, and with
   * whole-second resets, stopping on an estimate would idle most of each window).
   */
  private advertised(headers: Headers, now: number): void {
    const info = readRateLimit(headers, now);
    if (!info) return;
    if (info.policyRate !== undefined && info.policyRate !== this.policyRate) this.policy(info.policyRate);
    if (info.remaining === undefined || info.resetAt === undefined) return;
    const unseen = this.policyRate === undefined ? this.outstanding : 0;
    this.quota = { remaining: info.remaining - unseen, resetAt: info.resetAt, header: info.header ?? 'RateLimit', since: now };
  }

  /** A new advertised policy: one request every 1/rate s, said when slower than one a second, the flow closed when beyond the cap. */
  private policy(rate: number): void {
    this.policyRate = rate;
    const every = 1000 / (rate * POLICY_HEADROOM);
    if (every > this.capMs) this.close(beyondCap(every, 'RateLimit-Policy', this.capMs));
    else if (every > SAY_LONGER_THAN_MS) this.options.onWait?.({ ms: every, header: 'RateLimit-Policy', pacing: true });
  }
}
