// What the main thread makes of a chunk's rows: row metadata whose cells are decoded only when an outcome needs them (most rows are accepted and
// never do).
import type { PlannedItem } from '../plan/batcher.js';
import { decodeRow, type ChunkReader, type RowSource } from './row-chunk.js';
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
export class EncodedItem implements PlannedItem<RowMeta> {
  readonly bytes: number;
  constructor(
    readonly encoded: Buffer,
    private text: string | undefined,
    readonly meta: RowMeta,
  ) {
    this.bytes = encoded.length;
  }
  get json(): string {
    return (this.text ??= this.encoded.toString('utf8'));
  }
}
