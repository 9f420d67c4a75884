// Everything a running sandbox knows, apart from its socket: records, the batch log, the rate
// limiter and the faults it plays. The HTTP routes and the programmatic handle share this one object,
// so `handle.records('deal')` and `GET /_sandbox/records/deals` can never disagree.
import { RESOURCES, type Resource } from '../contract/resources.js';
import { BatchHistory, type BatchLogEntry, type SandboxStats } from './batch-history.js';
import type { ResolvedSandboxOptions } from './options.js';
import { makeRandom, type Random } from './random.js';
import { rateLimiter, type RateLimiter } from './rate-limit.js';
import { RecordStore, type StoredRecord } from './record-store.js';
import { RefusalLog } from './refusal-log.js';

export interface Faults {
  latencyMs: number;
  failRate: number;
  rateLimit?: number;
  rateBurst?: number;
  /** Items per second it can apply; past it, answers queue. */
  capacity?: number;
  /** Every batch answered 503 (an outage), until set back. */
  unavailable?: boolean;
}

/** A fault to play instead of applying a batch. */
export type FaultDecision = { status: 429; retryAfterSeconds: number } | { status: 500 } | { status: 503 };

/** Refused items the page can list: the most recent ones (each item's text is capped too). */
const REFUSALS_KEPT = 1000;

export type SandboxStatsView = SandboxStats & { records: Record<Resource, number> };

export class SandboxState {
  readonly store: RecordStore;
  readonly history: BatchHistory;
  /** Refused items and whole-batch refusals, for the sandbox's page. */
  readonly refusals: RefusalLog;
  private faults: Faults;
  private limiter: RateLimiter;
  private readonly random: Random;
  /** Statuses to answer the next batches with, before any rate or chance applies (retry tests). */
  private forced: Array<429 | 500 | 503> = [];
  /** When the queue of work accepted so far is done (--capacity). */
  private busyUntil = 0;

  constructor(
    options: ResolvedSandboxOptions,
    private readonly now: () => number,
  ) {
    this.store = new RecordStore(options.store);
    this.history = new BatchHistory(options.historyLimit);
    this.refusals = new RefusalLog(REFUSALS_KEPT);
    const { latencyMs, failRate, rateLimit, rateBurst, capacity } = options;
    this.faults = { latencyMs, failRate, rateLimit, rateBurst, capacity };
    this.limiter = rateLimiter(rateLimit, now, rateBurst);
    this.random = makeRandom(options.seed);
  }

  get latencyMs(): number {
    return this.faults.latencyMs;
  }

  setFaults(change: Partial<Faults>): void {
    this.faults = { ...this.faults, ...change };
    if ('rateLimit' in change || 'rateBurst' in change) this.limiter = rateLimiter(this.faults.rateLimit, this.now, this.faults.rateBurst);
  }

  failNext(count: number, status: 429 | 500 | 503 = 500): void {
    for (let i = 0; i < count; i++) this.forced.push(status);
  }

  /** Faults a test asked for first, then the rate limit (a gateway refuses before the service works), then chance. */
  nextFault(): FaultDecision | undefined {
    const forced = this.forced.shift();
    if (forced === 429) return { status: 429, retryAfterSeconds: 1 };
    if (forced === 500 || forced === 503) return { status: forced };
    if (this.faults.unavailable) return { status: 503 };
    const rate = this.limiter.take();
    if (!rate.allowed) return { status: 429, retryAfterSeconds: rate.retryAfterSeconds };
    if (this.faults.failRate > 0 && this.random() < this.faults.failRate) return { status: 500 };
    return undefined;
  }

  /** The RateLimit fields (IETF draft) for an answer, as the limit stands after this request. */
  rateHeaders(): Record<string, string> {
    const state = this.limiter.state();
    if (!state) return {};
    return { ratelimit: `"default";r=${state.remaining};t=${state.resetSeconds}`, 'ratelimit-policy': `"default";q=${state.limit};w=1` };
  }

  /**
   * How long a batch of `items` waits to be applied: one queue served at `capacity` items a second.
   * Under it the wait is the batch's own share; past it the queue grows, and so does every answer's latency.
   */
  serviceDelayMs(items: number): number {
    const capacity = this.faults.capacity;
    if (capacity === undefined) return 0;
    const t = this.now();
    this.busyUntil = Math.max(this.busyUntil, t) + (items * 1000) / capacity;
    return this.busyUntil - t;
  }

  records(resource: Resource): StoredRecord[] {
    return [...this.store.map(resource).values()];
  }

  record(resource: Resource, externalId: string): StoredRecord | undefined {
    return this.store.map(resource).get(externalId);
  }

  batches(): BatchLogEntry[] {
    return this.history.list();
  }

  stats(): SandboxStatsView {
    const records = {} as Record<Resource, number>;
    for (const resource of RESOURCES) records[resource] = this.store.map(resource).size;
    return { ...this.history.stats(), records };
  }

  /** Empties records (and the store file, at the next save), the log, the counts and pending faults. */
  reset(): void {
    this.store.clear();
    this.history.reset();
    this.refusals.reset();
    this.limiter.reset();
    this.forced = [];
    this.busyUntil = 0;
  }
}
