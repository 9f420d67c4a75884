// What the sandbox's page shows beyond the batch log: each item it refused, with the item as it
// came (its JSON text, cut at a bound), and the reason of each batch it refused whole. Bounded both
// ways (the most recent entries, each item's text capped), so a run of refusals or a 10 MB cell
// cannot grow the sandbox's memory without limit. Kept apart from BatchLogEntry, whose shape
// GET /_sandbox/batches already promises.
import type { Resource } from '../contract/resources.js';

export interface RefusedItem {
  /** The batch's seq in the batch log. */
  seq: number;
  batchId: string;
  method: 'POST' | 'PATCH';
  resource: Resource;
  /** The item's place in its batch, from 0. */
  index: number;
  externalId?: string;
  /** The answer's data.error entries for this item. */
  problems: { message: string; detail: string }[];
  /** The item as received, as JSON text; cut at ITEM_TEXT_LIMIT characters. */
  item: string;
  itemTruncated: boolean;
}

/** A batch refused whole (429, 500, 503, too many items): its answer's reason. */
export interface BatchRefusal {
  message: string;
  detail: string;
}

const ITEM_TEXT_LIMIT = 20_000;

export class RefusalLog {
  private items: RefusedItem[] = [];
  private reasons = new Map<number, BatchRefusal>();
  private total = 0;

  constructor(private readonly limit: number) {}

  addItem(entry: Omit<RefusedItem, 'item' | 'itemTruncated' | 'externalId'>, item: unknown): void {
    const text = JSON.stringify(item) ?? String(item);
    const id = (item as { externalId?: unknown } | null)?.externalId;
    this.items.push({
      ...entry,
      ...(typeof id === 'string' ? { externalId: id } : {}),
      item: text.length > ITEM_TEXT_LIMIT ? text.slice(0, ITEM_TEXT_LIMIT) : text,
      itemTruncated: text.length > ITEM_TEXT_LIMIT,
    });
    this.total++;
    // trimmed in chunks: O(1) per refusal
    if (this.items.length >= this.limit * 2) this.items = this.items.slice(-this.limit);
  }

  addBatch(seq: number, refusal: BatchRefusal): void {
    this.reasons.set(seq, refusal);
    if (this.reasons.size >= this.limit * 2) {
      const keep = [...this.reasons].slice(-this.limit);
      this.reasons = new Map(keep);
    }
  }

  reason(seq: number): BatchRefusal | undefined {
    return this.reasons.get(seq);
  }

  /** The most recent refusals, newest first. */
  recent(): RefusedItem[] {
    return this.items.slice(-this.limit).reverse();
  }

  /** Items refused since the start (or the last reset), beyond those still kept. */
  count(): number {
    return this.total;
  }

  reset(): void {
    this.items = [];
    this.reasons.clear();
    this.total = 0;
  }
}
