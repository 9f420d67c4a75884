// What the main thread makes of a chunk's rows: row metadata whose cells are decoded only when an
// outcome needs them (most rows are accepted and never do), and the lease that gives the chunk's
// memory back as soon as nothing can read it any more.
import type { PlannedItem } from '../plan/batcher.js';
import { decodeRow, type ChunkReader, type RowSource } from './chunk-reader.js';
import { chunkBuffers, type RowChunk } from './row-chunk.js';
import type { ItemHash } from '../util/item-hash.js';
import type { RowMeta } from './types.js';

/** A row's cells: at hand, not there, or still in its chunk. */
export type RowRef = Record<string, string> | undefined | LazyRow;

export class LazyRow {
  private decoded: Record<string, string> | undefined;
  /** Where the cells are: a chunk's row (no closure per row), or a function that builds them. */
  constructor(private source: RowSource | (() => Record<string, string>) | undefined) {}
  get(): Record<string, string> {
    if (this.decoded === undefined) {
      const source = this.source!;
      this.decoded = typeof source === 'function' ? source() : decodeRow(source);
      this.source = undefined; // the source holds the chunk
    }
    return this.decoded;
  }
}

export function rowOf(ref: RowRef): Record<string, string> | undefined {
  return ref instanceof LazyRow ? ref.get() : ref;
}

export function lazyRow(reader: ChunkReader): LazyRow | undefined {
  const source = reader.rowSource();
  return source === undefined ? undefined : new LazyRow(source);
}

export class ChunkRowMeta implements RowMeta {
  constructor(
    readonly file: string,
    readonly line: number,
    readonly externalId: string | undefined,
    private readonly ref: RowRef,
    readonly fp?: ItemHash,
  ) {}
  get row(): Record<string, string> | undefined {
    return rowOf(this.ref);
  }
}

/** An item in a batch that may still need its chunk: `detach` copies out what it needs. */
interface LeasedItem {
  lease: ChunkLease | undefined;
  detach(): void;
}

/** A sparse chunk (this many of its items or fewer still in batches when its rows are all read) is copied out of. */
const SPARSE = 64;

/**
 * Who still reads a chunk's buffers: the loop over its rows, and each of its items in a batch until
 * that batch has all its outcomes (a rejected row's cells are decoded then). At zero the buffers
 * are handed back to the worker (transferred, so detached here at once). Left to the garbage
 * collector, many chunks piled up waiting to be freed, since a chunk outlives a few scavenges and
 * so waits for a full collection.
 *
 * In an incremental rerun, a batch of 500 changed items gathers them from some 50 chunks, and would
 * hold all of them: when a chunk's rows are all read and only a few of its items are still in
 * batches, those items take a copy of their bytes and cells, and the chunk goes back at once.
 */
export class ChunkLease {
  private holds = 1;
  private readonly items: LeasedItem[] = [];
  constructor(
    readonly chunk: RowChunk,
    private readonly giveBack: (buffers: ArrayBuffer[]) => void,
  ) {}
  hold(item: LeasedItem): void {
    this.holds++;
    this.items.push(item);
  }
  drop(): void {
    if (--this.holds === 0) this.giveBack(chunkBuffers(this.chunk));
  }
  /** The loop over the chunk's rows is done. */
  end(): void {
    if (this.holds - 1 <= SPARSE) for (const item of this.items) if (item.lease === this) item.detach();
    this.items.length = 0; // nothing is detached later: settled items need not stay reachable from here
    this.drop();
  }
}

/** Leaves an item's chunk, its row's cells decoded first (its rejection may need them later). */
function leaveChunk(item: LeasedItem & { meta: RowMeta }): void {
  void item.meta.row;
  const lease = item.lease!;
  item.lease = undefined;
  lease.drop();
}

/** A valid row from the worker: its JSON as bytes, decoded only when a hook needs the text. */
export class EncodedItem implements PlannedItem<RowMeta>, LeasedItem {
  readonly bytes: number;
  constructor(
    public encoded: Buffer,
    readonly meta: RowMeta,
    public lease: ChunkLease | undefined,
  ) {
    this.bytes = encoded.length;
  }
  get json(): string {
    return this.encoded.toString('utf8');
  }
  detach(): void {
    this.encoded = Buffer.from(this.encoded);
    leaveChunk(this);
  }
}

/** A RAW row the main thread mapped: its JSON is its own, only its cells are in the chunk. */
export class MappedItem implements PlannedItem<RowMeta>, LeasedItem {
  constructor(
    readonly json: string,
    readonly bytes: number,
    readonly meta: RowMeta,
    public lease: ChunkLease | undefined,
  ) {}
  detach(): void {
    leaveChunk(this);
  }
}
