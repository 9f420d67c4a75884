// Fills one chunk of the wire format (row-chunk.ts) in the read worker: typed arrays of the chunk's
// capacity, filled in place, trimmed and transferred when the chunk is full. A row read from a line
// without quotes travels as that line: copying every cell apart cost the worker more than the line.
import type { SourceRecord } from '../read/types.js';
import type { ItemHash } from '../util/item-hash.js';
import type { Diagnostic } from '../util/diagnostic.js';
import {
  ARRAYS,
  CELLS,
  DECIDED,
  ID_SLOTS,
  PLAIN,
  RAW,
  SAME,
  VERSION,
  chunkBuffers,
  type ArrayName,
  type ChunkArrays,
  type ChunkExtra,
  type RowChunk,
  type WorkerVerdict,
} from './row-chunk.js';

const EMPTY_BUFFER = Buffer.alloc(0);

/** How the rows of a CSV file split into cells (undefined for JSON sources, whose rows are never plain). */
export interface PlainLayout {
  header: string[];
  delimiter: string;
}

/** Fills one chunk in the worker: typed arrays of the chunk's capacity, filled in place. */
export class ChunkWriter {
  count = 0;
  file = '';
  /** The chunk's typed arrays (row-chunk.ts ARRAYS), of its capacity. */
  private readonly a: ChunkArrays;
  private plains: string[] = [];
  private plainChars = 0;
  /** Chars of row text (lines and cells) in the chunk so far. */
  private textChars = 0;
  private cellCount = 0;
  /**
   * The items' JSON, encoded as each arrives: the write returns the byte count, which a separate
   * Buffer.byteLength would cost the worker again.
   */
  private encoded: Buffer;
  private itemBytes = 0;
  private items = 0;
  private ids: string[] = [];
  private keys: string[] | undefined;
  private cells: string[] = [];
  private extras: ChunkExtra[] = [];
  private current: ChunkExtra | undefined;

  constructor(
    readonly job: number,
    readonly capacity: number,
    private readonly layout?: PlainLayout,
    fingerprints = false,
  ) {
    this.a = allocate(capacity, fingerprints);
    this.encoded = EMPTY_BUFFER; // allocated at the first item: a RAW chunk has none
  }

  get bytes(): number {
    return this.itemBytes;
  }

  /** Whether another row fits: the chunk is not full (rows, and bytes of items and text) and the row comes from the chunk's file. */
  fits(file: string, maxBytes: number): boolean {
    return this.count === 0 || (file === this.file && this.count < this.capacity && this.itemBytes + 2 * this.textChars < maxBytes);
  }

  /**
   * Starts a row. Readable CSV rows of one source all have the header's column names in the same
   * order, so only their cells travel (or only their line, when it is `plain`: its cells split on
   * the delimiter); others carry their names.
   */
  row(record: SourceRecord): void {
    const index = this.count++;
    if (index === 0) this.file = record.file;
    this.a.lines[index] = record.line;
    this.a.itemBytes[index] = DECIDED;
    this.current = undefined;
    if (record.kind === 'item') return;
    const regular = record.kind === 'row';
    const plain = regular ? record.plain : undefined;
    // before `record.row`, which a plain row builds only if asked
    if (plain !== undefined && this.layout !== undefined) {
      this.a.hasCells[index] = PLAIN;
      this.a.plainLengths[index] = plain.length;
      this.plainChars += plain.length;
      this.textChars += plain.length;
      this.plains.push(plain);
      return;
    }
    const row = record.row;
    if (row === undefined) return;
    if (regular) {
      const keys = (this.keys ??= Object.keys(row));
      if (this.cellCount + keys.length > this.a.cellLengths.length) {
        const grown = new Int32Array(2 * (this.cellCount + keys.length));
        grown.set(this.a.cellLengths);
        this.a.cellLengths = grown;
      }
      let text = '';
      let k = 0;
      for (; k < keys.length; k++) {
        const cell = row[keys[k]!];
        if (cell === undefined) break;
        text += cell;
        this.a.cellLengths[this.cellCount + k] = cell.length;
      }
      if (k === keys.length) {
        this.a.hasCells[index] = CELLS;
        this.cellCount += k;
        this.textChars += text.length;
        this.cells.push(text);
        return;
      }
    }
    const names = Object.keys(row);
    this.extra().row = [names, names.map((n) => row[n]!)];
  }

  private extra(): ChunkExtra {
    if (this.current === undefined) this.extras.push((this.current = { index: this.count - 1 }));
    return this.current;
  }

  /** The current row goes to the main thread as it was read (a readable CSV row: its cells are in the chunk). */
  raw(): void {
    this.a.itemBytes[this.count - 1] = RAW;
  }

  warn(d: Diagnostic): void {
    (this.extra().warnings ??= []).push(d);
  }

  verdict(v: WorkerVerdict): void {
    this.extra().verdict = v;
  }

  /** The current row's fingerprint. */
  fingerprint(fp: ItemHash): void {
    const at = 2 * (this.count - 1);
    this.a.fps[at] = fp.hi;
    this.a.fps[at + 1] = fp.lo;
  }

  /** The current row is unchanged (see SAME): only its ids travel. */
  same(ids: readonly unknown[]): void {
    this.a.itemBytes[this.count - 1] = SAME;
    this.writeIds(ids);
  }

  /** The current row's valid item, as JSON, and the ids it holds (see ID_SLOTS). */
  item(json: string, ids: readonly unknown[]): void {
    const index = this.count - 1;
    // UTF-8 takes at most 3 bytes per UTF-16 unit
    if (this.itemBytes + 3 * json.length > this.encoded.length) {
      const grown = Buffer.allocUnsafeSlow(Math.max(2 * this.encoded.length, this.capacity * 512, this.itemBytes + 3 * json.length));
      this.encoded.copy(grown, 0, 0, this.itemBytes);
      this.encoded = grown;
    }
    const bytes = this.encoded.write(json, this.itemBytes, 'utf8');
    this.a.itemBytes[index] = bytes;
    this.itemBytes += bytes;
    this.writeIds(ids);
  }

  private writeIds(ids: readonly unknown[]): void {
    const slot = this.items++ * ID_SLOTS;
    for (let i = 0; i < ID_SLOTS; i++) {
      const id = ids[i];
      if (typeof id === 'string') {
        this.ids.push(id);
        this.a.idLengths[slot + i] = id.length;
      } else this.a.idLengths[slot + i] = -1;
    }
  }

  finish(): { chunk: RowChunk; transfer: ArrayBuffer[] } {
    const n = this.count;
    const chunk: RowChunk = {
      version: VERSION,
      job: this.job,
      file: this.file,
      count: n,
      ...trimmed(this.a, { row: n, item: this.items, cell: this.cellCount }),
      // never the shared empty buffer: a transfer would detach it
      items: this.encoded === EMPTY_BUFFER ? new Uint8Array(0) : new Uint8Array(this.encoded.buffer, this.encoded.byteOffset, this.itemBytes),
      ids: this.ids.join(''),
      keys: this.keys ?? [],
      cells: writeAll(this.cells, 2 * cellChars(this.a.cellLengths, this.cellCount), 'utf16le'),
      header: this.layout?.header ?? [],
      delimiter: this.layout?.delimiter ?? '',
      plain: writeAll(this.plains, 2 * this.plainChars, 'utf16le'),
      extras: this.extras,
    };
    return { chunk, transfer: chunkBuffers(chunk) };
  }
}

/** The arrays of a chunk of `capacity` rows; without fingerprints, `fps` is empty. */
function allocate(capacity: number, fingerprints: boolean): ChunkArrays {
  const count = { row: capacity, item: capacity, cell: 16 * capacity };
  const a: Record<string, unknown> = {};
  for (const name in ARRAYS) {
    const { type, per, width } = ARRAYS[name as ArrayName];
    a[name] = new type(name === 'fps' && !fingerprints ? 0 : count[per] * width);
  }
  return a as ChunkArrays;
}

/** Copies of the arrays holding only what was filled in (an empty `fps` stays empty). */
function trimmed(a: ChunkArrays, count: { row: number; item: number; cell: number }): ChunkArrays {
  const out: Record<string, unknown> = {};
  for (const name in ARRAYS) {
    const { per, width } = ARRAYS[name as ArrayName];
    const array = a[name as ArrayName];
    out[name] = array.slice(0, Math.min(array.length, count[per] * width));
  }
  return out as ChunkArrays;
}

function cellChars(lengths: Int32Array, count: number): number {
  let n = 0;
  for (let i = 0; i < count; i++) n += lengths[i]!;
  return n;
}

/** The texts one after the other in a buffer of their exact size, to be transferred. */
function writeAll(texts: readonly string[], size: number, encoding: 'utf8' | 'utf16le'): Uint8Array {
  const out = Buffer.allocUnsafeSlow(size);
  let at = 0;
  for (const t of texts) at += out.write(t, at, encoding);
  return new Uint8Array(out.buffer, out.byteOffset, out.byteLength);
}
