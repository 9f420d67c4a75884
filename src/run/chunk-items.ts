// What the main thread makes of a chunk's rows: row metadata whose cells are decoded only when an
// outcome needs them (most rows are accepted and never do), and the lease that gives the chunk's
// memory back as soon as nothing can read it any more.
import type { PlannedItem } from '../plan/batcher.js';
import { chunkBuffers, decodeRow, type ChunkReader, type RowChunk, type RowSource } from './row-chunk.js';
import type { RowMeta } from './types.js';

/** A row's cells: at hand, not there, or still in its chunk. */
export type RowRef = Record<string, string> | undefined | LazyRow;

export class LazyRow {
  private decoded: Record<string, string> | undefined;
  constructor(private readonly build: () => Record<string, string>) {}
  get(): Record<string, string> {
    return (this.decoded ??= this.build());
  }
}

export function rowOf(ref: RowRef): Record<string, string> | undefined {
  return ref instanceof LazyRow ? ref.get() : ref;
}

export function lazyRow(reader: ChunkReader): LazyRow | undefined {
  const source = reader.rowSource();
  return source === undefined ? undefined : new LazyRow(() => decodeRow(source));
}

export class ChunkRowMeta implements RowMeta {
  constructor(
    readonly file: string,
    readonly line: number,
    readonly externalId: string | undefined,
    private readonly ref: RowRef,
  ) {}
  get row(): Record<string, string> | undefined {
    return rowOf(this.ref);
  }
}

/** A valid row from the worker: its JSON as bytes, decoded only when a hook needs the text. */
/**
 * Who still reads a chunk's buffers: the loop over its rows, and each of its items in a batch until
 * that batch has all its outcomes (a rejected row's cells are decoded then). At zero the buffers
 * are handed back to the worker (transferred, so detached here at once). Left to the garbage
 * collector, up to 92 chunks (1M-row push) and 392 (rerun) of about 1 MB each were waiting to be
 * freed, since a chunk outlives a few scavenges and so waits for a full collection.
 */
export class ChunkLease {
  private holds = 1;
  constructor(
    readonly chunk: RowChunk,
    private readonly giveBack: (buffers: ArrayBuffer[]) => void,
  ) {}
  hold(): void {
    this.holds++;
  }
  drop(): void {
    if (--this.holds === 0) this.giveBack(chunkBuffers(this.chunk));
  }
}

export class EncodedItem implements PlannedItem<RowMeta> {
  readonly bytes: number;
  constructor(
    readonly encoded: Buffer,
    private text: string | undefined,
    readonly meta: RowMeta,
    readonly lease?: ChunkLease,
  ) {
    this.bytes = encoded.length;
  }
  get json(): string {
    return (this.text ??= this.encoded.toString('utf8'));
  }
}
