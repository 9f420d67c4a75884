// Everything a running sandbox knows, apart from its socket: records, the batch log, the rate
// limiter and the faults it plays. The HTTP routes and the programmatic handle share this one object,
// so `handle.records('deal')` and `GET /_sandbox/records/deals` can never disagree.
import { RESOURCES, type Resource } from '../contract/resources.js';
import { BatchHistory, type BatchLogEntry, type SandboxStats } from './batch-history.js';
import type { ResolvedSandboxOptions } from './options.js';
import { makeRandom, type Random } from './random.js';
import { rateLimiter, type RateLimiter } from './rate-limit.js';
import { RecordStore, type StoredRecord } from './record-store.js';

export interface Faults {
  latencyMs: number;
  failRate: number;
  rateLimit?: number;
}

/** A fault to play instead of applying a batch. */
export type FaultDecision = { status: 429; retryAfterSeconds: number } | { status: 500 };

export type SandboxStatsView = SandboxStats & { records: Record<Resource, number> };

export class SandboxState {
  readonly store: RecordStore;
  readonly history: BatchHistory;
  private faults: Faults;
  private limiter: RateLimiter;
  private readonly random: Random;
  /** Statuses to answer the next batches with, before any rate or chance applies (retry tests). */
  private forced: Array<429 | 500> = [];

  constructor(
    options: ResolvedSandboxOptions,
    private readonly now: () => number,
  ) {
    this.store = new RecordStore(options.store);
    this.history = new BatchHistory(options.historyLimit);
    this.faults = { latencyMs: options.latencyMs, failRate: options.failRate, rateLimit: options.rateLimit };
    this.limiter = rateLimiter(options.rateLimit, now);
    this.random = makeRandom(options.seed);
  }

  get latencyMs(): number {
    return this.faults.latencyMs;
  }

  setFaults(change: Partial<Faults>): void {
    this.faults = { ...this.faults, ...change };
    if ('rateLimit' in change) this.limiter = rateLimiter(this.faults.rateLimit, this.now);
  }

  failNext(count: number, status: 429 | 500 = 500): void {
    for (let i = 0; i < count; i++) this.forced.push(status);
  }

  /** Faults a test asked for first, then the rate limit (a gateway refuses before the service works), then chance. */
  nextFault(): FaultDecision | undefined {
    const forced = this.forced.shift();
    if (forced === 429) return { status: 429, retryAfterSeconds: 1 };
    if (forced === 500) return { status: 500 };
    const rate = this.limiter.take();
    if (!rate.allowed) return { status: 429, retryAfterSeconds: rate.retryAfterSeconds };
    if (this.faults.failRate > 0 && this.random() < this.faults.failRate) return { status: 500 };
    return undefined;
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
    this.limiter.reset();
    this.forced = [];
  }
}
