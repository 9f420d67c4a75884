// Cuts a stream of items into batches by item count and request-body bytes. Each item is
// serialised once; a batch's body is the envelope around the items' JSON, written straight into
// one UTF-8 buffer — never a second walk over the objects.

export interface PlannedItem<M> {
  /** The item's JSON text. */
  json: string;
  /** Its size in bytes (UTF-8). */
  bytes: number;
  /** The JSON already encoded (items from the read worker): copied, not encoded again. */
  encoded?: Uint8Array;
  /** Held while the item is in a batch (see ChunkLease): dropped once the batch has all its outcomes. */
  lease?: { drop(): void };
  /** Whatever the caller needs to account for the row (file, line, externalId…). */
  meta: M;
}

export interface PlannedBatch<M> {
  seq: number;
  batchId: string;
  items: PlannedItem<M>[];
  /** The exact request body, UTF-8, written when first asked for (validate never asks). */
  readonly body: Buffer;
  /** The body's memory may serve a later batch: call only once no request can read it any more. */
  release(): void;
}

export interface BatcherOptions {
  maxItems: number;
  maxBytes: number;
  source: string;
  /** Where bodies are written: memory of released ones, else new (see BodyBuffers). */
  bodies?: BodyBuffers;
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

/** How every batch body begins; its items follow, comma-separated, then `]}`. */
export const envelopeHead = (batchId: string, source: string) => `{"batchId":${JSON.stringify(batchId)},"source":${JSON.stringify(source)},"items":[`;

/** The size of a batch's body, without writing it (`push --dry-run` lists batches it never builds). */
export function envelopeBytes(batchId: string, source: string, items: readonly Pick<PlannedItem<unknown>, 'bytes'>[]): number {
  let size = Buffer.byteLength(envelopeHead(batchId, source), 'utf8') + 2 + Math.max(0, items.length - 1);
  for (const item of items) size += item.bytes;
  return size;
}

/**
 * The envelope as bytes. Each item's JSON is encoded once into a buffer of the exact size (its
 * byte count is already known): joining a string and encoding it after cost twice the copies and a
 * half-megabyte string per batch in V8's old space, which showed in both a push's time and its peak RSS.
 */
export function envelopeBody(
  batchId: string,
  source: string,
  items: readonly Pick<PlannedItem<unknown>, 'json' | 'bytes' | 'encoded'>[],
  bodies?: BodyBuffers,
): Buffer {
  const head = envelopeHead(batchId, source);
  const size = envelopeBytes(batchId, source, items);
  const body = bodies === undefined ? Buffer.allocUnsafe(size) : bodies.take(size);
  let at = body.write(head, 0, 'utf8');
  for (let i = 0; i < items.length; i++) {
    if (i > 0) body[at++] = 0x2c; // ,
    const item = items[i]!;
    if (item.encoded !== undefined) {
      // a chunk given back too early would leave a detached (empty) view here: never send what it left
      if (item.encoded.length !== item.bytes) throw new Error('batch-sync bug: an item was released before its batch was sent');
      body.set(item.encoded, at);
      at += item.bytes;
    } else at += body.write(item.json, at, 'utf8');
  }
  body[at++] = 0x5d; // ]
  body[at++] = 0x7d; // }
  return body;
}

/**
 * The memory of request bodies, reused once their batch is answered. A body of a usual batch
 * is too big for Node's buffer pool, so each was a buffer of its own outside the heap, freed only
 * when the GC got to its wrapper, which outlived a few scavenges while its request was in flight:
 * dozens of them waited at the peak of a big push. A body is handed back only when no request
 * can read it any more: its batch was answered, item by item, which the API does after reading the
 * whole body. (A server or proxy answering before it read the body, on a connection it keeps, could
 * see the unread rest of that body overwritten; it has already answered for it.) One never handed
 * back is left to the GC as before.
 */
export class BodyBuffers {
  private readonly free: Buffer[] = [];
  /** `keep`: how many released bodies to hold for reuse (about the requests in flight). */
  constructor(private readonly keep: number) {}

  /** A body of exactly `size` bytes, on released memory when some is large enough. */
  take(size: number): Buffer {
    for (let i = this.free.length - 1; i >= 0; i--) {
      const memory = this.free[i]!;
      if (memory.length < size) continue;
      this.free.splice(i, 1);
      return memory.subarray(0, size);
    }
    // an eighth more: the next batch's body is rarely exactly as large
    return Buffer.allocUnsafeSlow(size + (size >> 3)).subarray(0, size);
  }

  give(body: Buffer): void {
    if (this.free.length < this.keep) this.free.push(Buffer.from(body.buffer, 0, body.buffer.byteLength));
  }
}

class Batch<M> implements PlannedBatch<M> {
  private written: Buffer | undefined;
  constructor(
    readonly seq: number,
    readonly batchId: string,
    readonly items: PlannedItem<M>[],
    private readonly source: string,
    private readonly bodies: BodyBuffers | undefined,
  ) {}
  get body(): Buffer {
    return (this.written ??= envelopeBody(this.batchId, this.source, this.items, this.bodies));
  }
  release(): void {
    if (this.written !== undefined) this.bodies?.give(this.written);
    this.written = undefined;
  }
}

export function itemBytes(json: string): number {
  return Buffer.byteLength(json, 'utf8');
}

export function createBatcher<M>(options: BatcherOptions): Batcher<M> {
  let seq = 0;
  let pending: PlannedItem<M>[] = [];
  let pendingBytes = 0;
  // the envelope with the longest id this run can produce; +1 per item for the comma
  const overhead = envelopeBody(options.batchIdOf(99_999), options.source, []).length;

  const cut = (): PlannedBatch<M> | undefined => {
    if (pending.length === 0) return undefined;
    seq += 1;
    const id = options.batchIdOf(seq);
    const items = pending;
    pending = [];
    pendingBytes = 0;
    return new Batch(seq, id, items, options.source, options.bodies);
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
