// Cuts a stream of items into batches by item count and request-body bytes. Each item is
// serialised once; a batch's body is the envelope around the items' JSON, joined — never a
// second walk over the objects.

export interface PlannedItem<M> {
  /** The item's JSON text. */
  json: string;
  /** Its size in bytes (UTF-8). */
  bytes: number;
  /** Whatever the caller needs to account for the row (file, line, externalId…). */
  meta: M;
}

export interface PlannedBatch<M> {
  seq: number;
  batchId: string;
  items: PlannedItem<M>[];
  /** The exact request body. */
  body: string;
}

export interface BatcherOptions {
  maxItems: number;
  maxBytes: number;
  source: string;
  /** Builds the batch id of sequence number `seq` (1-based). */
  batchIdOf(seq: number): string;
}

export interface Batcher<M> {
  /** Adds an item; returns the batch it completed, if any. */
  add(item: PlannedItem<M>): PlannedBatch<M> | undefined;
  /** The last, partial batch. */
  flush(): PlannedBatch<M> | undefined;
  /** Largest item that can still fit a request on its own. */
  readonly maxItemBytes: number;
}

export function envelopeBody(batchId: string, source: string, itemsJson: readonly string[]): string {
  return `{"batchId":${JSON.stringify(batchId)},"source":${JSON.stringify(source)},"items":[${itemsJson.join(',')}]}`;
}

export function itemBytes(json: string): number {
  return Buffer.byteLength(json, 'utf8');
}

export function createBatcher<M>(options: BatcherOptions): Batcher<M> {
  let seq = 0;
  let pending: PlannedItem<M>[] = [];
  let pendingBytes = 0;
  // the envelope with the longest id this run can produce; +1 per item for the comma
  const overhead = Buffer.byteLength(envelopeBody(options.batchIdOf(99_999), options.source, []), 'utf8');

  const cut = (): PlannedBatch<M> | undefined => {
    if (pending.length === 0) return undefined;
    seq += 1;
    const id = options.batchIdOf(seq);
    const items = pending;
    pending = [];
    pendingBytes = 0;
    return { seq, batchId: id, items, body: envelopeBody(id, options.source, items.map((i) => i.json)) };
  };

  return {
    maxItemBytes: options.maxBytes - overhead,
    add(item) {
      let done: PlannedBatch<M> | undefined;
      if (pending.length > 0 && overhead + pendingBytes + pending.length + item.bytes > options.maxBytes) done = cut();
      pending.push(item);
      pendingBytes += item.bytes;
      if (pending.length >= options.maxItems) return done ?? cut();
      return done;
    },
    flush: cut,
  };
}
