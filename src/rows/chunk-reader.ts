// Walks a chunk of the wire format (row-chunk.ts) on the main thread, row by row, and decodes a
// row's original cells only when an outcome needs them.
import { CsvRow } from '../read/csv/row-builder.js';
import type { SourceRecord } from '../read/types.js';
import type { ItemHash } from '../util/item-hash.js';
import { CELLS, ID_SLOTS, PLAIN, VERSION, type ChunkExtra, type RowChunk } from './row-chunk.js';

/** Walks a chunk on the main thread, row by row. */
export class ChunkReader {
  /** The current row's index. */
  index = -1;
  private itemAt = 0;
  private idAt = 0;
  private idSlot = 0;
  private cellAt = 0;
  private cellSlot = 0;
  private plainAt = 0;
  private extraAt = 0;
  /** Extra of the current row, if it has one. */
  extra: ChunkExtra | undefined;
  /** Offsets of the current row's cells in `cells` (first cell slot and char offset), or of its line in `plain`. */
  rowCellSlot = -1;
  rowCellAt = 0;
  rowPlainAt = -1;
  readonly ids: (string | undefined)[] = new Array<string | undefined>(ID_SLOTS);

  private readonly items: Buffer;
  private plainText: Buffer | undefined;
  /** The header RAW rows are read under: the main thread's own array when equal, so its mapper reads their cells by index. */
  private readonly names: readonly string[];

  constructor(
    readonly chunk: RowChunk,
    header?: readonly string[],
  ) {
    if (chunk.version !== VERSION) throw new Error(`the read worker speaks chunk format ${chunk.version}, this build ${VERSION}: rebuild (npm run build)`);
    this.items = Buffer.from(chunk.items.buffer, chunk.items.byteOffset, chunk.items.byteLength);
    const same = header !== undefined && header.length === chunk.header.length && header.every((h, i) => h === chunk.header[i]);
    this.names = same ? header : chunk.header;
  }

  /** The current RAW row as the reader gave it, for the main thread to map. */
  rawRecord(): SourceRecord {
    const c = this.chunk;
    if (this.rowPlainAt >= 0) {
      const n = c.plainLengths[this.index]!;
      // one view of the chunk's lines for all its RAW rows, not one per row
      this.plainText ??= Buffer.from(c.plain.buffer, c.plain.byteOffset, c.plain.byteLength);
      const text = this.plainText.toString('utf16le', 2 * this.rowPlainAt, 2 * (this.rowPlainAt + n));
      return new CsvRow(c.file, this.line, text.split(c.delimiter), this.names, text);
    }
    return { kind: 'row', file: c.file, line: this.line, row: decodeRow(this.rowSource()!) };
  }

  next(): boolean {
    const c = this.chunk;
    if (++this.index >= c.count) return false;
    const i = this.index;
    const e = c.extras[this.extraAt];
    if (e !== undefined && e.index === i) {
      this.extra = e;
      this.extraAt++;
    } else this.extra = undefined;
    this.rowCellSlot = -1;
    this.rowPlainAt = -1;
    const has = c.hasCells[i];
    if (has === CELLS) {
      this.rowCellSlot = this.cellSlot;
      this.rowCellAt = this.cellAt;
      const n = c.keys.length;
      for (let k = 0; k < n; k++) this.cellAt += c.cellLengths[this.cellSlot++]!;
    } else if (has === PLAIN) {
      this.rowPlainAt = this.plainAt;
      this.plainAt += c.plainLengths[i]!;
    }
    return true;
  }

  get line(): number {
    return this.chunk.lines[this.index]!;
  }

  /** The current (valid) row's item size in bytes. */
  get itemBytes(): number {
    return this.chunk.itemBytes[this.index]!;
  }

  /** The current row's fingerprint, if it has one. */
  fingerprint(): ItemHash | undefined {
    const { fps } = this.chunk;
    const at = 2 * this.index;
    if (at >= fps.length) return undefined;
    const hi = fps[at]!;
    const lo = fps[at + 1]!;
    return hi === 0 && lo === 0 ? undefined : { hi, lo };
  }

  /** The current (valid) row's item JSON as UTF-8; fills `ids`. Call once per valid row. */
  takeItem(): Buffer {
    const length = this.chunk.itemBytes[this.index]!;
    const json = this.items.subarray(this.itemAt, this.itemAt + length);
    this.itemAt += length;
    this.takeIds();
    return json;
  }

  /** Fills `ids` for the current valid or SAME row (once per row) and returns its externalId. */
  takeIds(): string | undefined {
    const { ids, idLengths } = this.chunk;
    for (let s = 0; s < ID_SLOTS; s++) {
      const n = idLengths[this.idSlot++]!;
      if (n < 0) this.ids[s] = undefined;
      else {
        this.ids[s] = ids.slice(this.idAt, this.idAt + n);
        this.idAt += n;
      }
    }
    return this.ids[0];
  }

  /** A decoder of the current row's original cells, for when an outcome needs them. */
  rowSource(): RowSource | undefined {
    if (this.rowCellSlot >= 0) return { chunk: this.chunk, slot: this.rowCellSlot, at: this.rowCellAt };
    if (this.rowPlainAt >= 0) return { chunk: this.chunk, slot: -1, at: this.rowPlainAt, plainLength: this.chunk.plainLengths[this.index]! };
    const raw = this.extra?.row;
    if (raw) return { chunk: this.chunk, slot: -1, at: 0, raw };
    return undefined;
  }
}

export interface RowSource {
  chunk: RowChunk;
  slot: number;
  at: number;
  /** Set for a PLAIN row: its line's length in chars, at `at` in `plain`. */
  plainLength?: number;
  raw?: [string[], string[]];
}

/** The row's cells as the reader gave them: header → cell, null prototype. */
export function decodeRow(source: RowSource): Record<string, string> {
  const row: Record<string, string> = Object.create(null);
  if (source.raw) {
    const [names, cells] = source.raw;
    for (let i = 0; i < names.length; i++) row[names[i]!] = cells[i]!;
    return row;
  }
  if (source.plainLength !== undefined) {
    const { header, delimiter, plain } = source.chunk;
    const text = Buffer.from(plain.buffer, plain.byteOffset, plain.byteLength).toString('utf16le', 2 * source.at, 2 * (source.at + source.plainLength));
    // as the reader built it: the first header-many cells (any more are blank trailing ones)
    const cells = text.split(delimiter);
    for (let k = 0; k < header.length; k++) row[header[k]!] = cells[k]!;
    return row;
  }
  const { keys, cells, cellLengths } = source.chunk;
  const text = Buffer.from(cells.buffer, cells.byteOffset, cells.byteLength);
  let at = source.at;
  for (let k = 0; k < keys.length; k++) {
    const n = cellLengths[source.slot + k]!;
    row[keys[k]!] = text.toString('utf16le', 2 * at, 2 * (at + n));
    at += n;
  }
  return row;
}
