// What the sandbox remembers about the batches it answered: a bounded log (never the items
// themselves) and running counts. Enough for tests to assert the order of kinds, and that a retry
// carried the same batchId as the attempt that failed.
import type { Resource } from '../contract/resources.js';

export interface BatchLogEntry {
  /** Order of arrival, from 1; keeps counting across resets so entries are never confused. */
  seq: number;
  method: 'POST' | 'PATCH';
  resource: Resource;
  batchId: string;
  source: string;
  items: number;
  accepted: number;
  errors: number;
  /** HTTP status of the answer: 200, or 400 (too many items), 429 (rate limit), 500 (injected fault). */
  status: number;
  /** data.code of a 200 answer. */
  code?: number;
}

export interface SandboxStats {
  requests: number;
  byStatus: Record<string, number>;
  batches: number;
  itemsReceived: number;
  itemsAccepted: number;
  itemsRejected: number;
}

export class BatchHistory {
  private entries: BatchLogEntry[] = [];
  private seq = 0;
  private counts: SandboxStats = BatchHistory.zero();

  constructor(private readonly limit: number) {}

  private static zero(): SandboxStats {
    return { requests: 0, byStatus: {}, batches: 0, itemsReceived: 0, itemsAccepted: 0, itemsRejected: 0 };
  }

  /** Every answered API request, logged batch or not (401s and malformed bodies too; not inspection). */
  countRequest(status: number): void {
    this.counts.requests++;
    this.counts.byStatus[status] = (this.counts.byStatus[status] ?? 0) + 1;
  }

  add(entry: Omit<BatchLogEntry, 'seq'>): BatchLogEntry {
    const full = { seq: ++this.seq, ...entry };
    this.entries.push(full);
    // trim in chunks so the log costs O(1) per batch instead of a shift() per batch
    if (this.entries.length >= this.limit * 2) this.entries = this.entries.slice(-this.limit);
    this.counts.batches++;
    if (entry.status === 200) {
      this.counts.itemsReceived += entry.items;
      this.counts.itemsAccepted += entry.accepted;
      this.counts.itemsRejected += entry.items - entry.accepted;
    }
    return full;
  }

  /** The seq of the last batch logged (0 before any). */
  lastSeq(): number {
    return this.seq;
  }

  list(): BatchLogEntry[] {
    return this.entries.slice(-this.limit);
  }

  stats(): SandboxStats {
    return { ...this.counts, byStatus: { ...this.counts.byStatus } };
  }

  reset(): void {
    this.entries = [];
    this.counts = BatchHistory.zero();
  }
}
