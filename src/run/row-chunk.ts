// Rows handed from the read worker to the main thread, a chunk at a time, in a few flat buffers
// and strings: structured-cloning one object per row cost 3–6 µs a row, more than the work moved
// off the main thread. A chunk carries, per row, its start line, its original cells (for the errors
// CSV), and either the valid item (its JSON bytes, externalId and the ids it references) or what
// the worker found wrong with it; warnings ride along as small plain objects. A row read from a
// line without quotes travels as that line (split again only if an outcome needs its cells):
// copying every cell apart cost the worker ~1 s per million rows.
import { CsvRow } from '../read/csv/row-builder.js';
import type { SourceRecord } from '../read/types.js';
import type { ItemHash } from '../state/item-hash.js';
import type { Diagnostic } from '../validate/diagnostic.js';

/** What the worker decided about a row that does not go on (built into an outcome on the main thread). */
export type WorkerVerdict =
  | { kind: 'skip'; reason: string }
  | { kind: 'invalid'; externalId?: string; field?: string; column?: string; detail: string };

export interface RowChunk {
  /** Index of the job (in the order the worker was given them). */
  job: number;
  file: string;
  count: number;
  lines: Uint32Array;
  /**
   * Size in bytes (UTF-8) of each row's item JSON; DECIDED for a row the worker decided about, RAW
   * for one it left to the main thread, SAME for one whose item the state held at the run's start.
   */
  itemBytes: Int32Array;
  /** Incremental runs: each row's fingerprint (row-fingerprint.ts), two words a row, 0 and 0 for none; empty otherwise. */
  fps: Uint32Array;
  /**
   * The items' JSON as UTF-8, concatenated: the main thread copies it into request bodies. Bytes,
   * not a string: a transferred buffer is freed with its small wrapper at the next scavenge, where
   * a string this size sat in the main thread's large-object space until a full GC (~50 MB of it).
   */
  items: Uint8Array;
  /** externalId, owner, agent, associated account, associated deal of each valid or SAME row, concatenated. */
  ids: string;
  /** Five lengths per valid row, -1 for a value that is not a string. */
  idLengths: Int32Array;
  /** Column names of the rows whose cells are in `cells` (all rows of a chunk share them). */
  keys: string[];
  /** Every cell of the chunk's rows, concatenated, as UTF-16LE (decoded only for rows an outcome hands back). */
  cells: Uint8Array;
  /**
   * Per row: PLAIN when it is a line in `plain`, CELLS when its cells are in `cells` under `keys`,
   * 0 when it has none or they are in `extras`.
   */
  hasCells: Uint8Array;
  cellLengths: Int32Array;
  /** The file's header, in file order, and delimiter: a PLAIN row's line split on it gives its cells under it. */
  header: string[];
  delimiter: string;
  /** The PLAIN rows' lines, concatenated, as UTF-16LE, and each one's length in chars (0 for other rows). */
  plain: Uint8Array;
  plainLengths: Int32Array;
  /** The rare rows that need more: warnings, a verdict, cells under other column names. */
  extras: ChunkExtra[];
}

export interface ChunkExtra {
  index: number;
  warnings?: Diagnostic[];
  verdict?: WorkerVerdict;
  /** Cells under column names other than `keys` (an unreadable row's column_N), as [names, cells]. */
  row?: [string[], string[]];
}

export const ID_SLOTS = 5;
const EMPTY_BUFFER = Buffer.alloc(0);
/** itemBytes of a row the worker found wrong or skipped (its verdict is in extras). */
const DECIDED = -1;
/**
 * itemBytes of a readable CSV row the worker only read: the main thread maps, validates and
 * serialises it (when it would otherwise wait for the worker, see read-worker.ts).
 */
export const RAW = -2;
/**
 * itemBytes of a row whose fingerprint is in the state's set (incremental runs): the item the server
 * last accepted for its id came from this very row. Only its ids travel (read from its cells where
 * the mapper can); it is neither validated nor serialised.
 */
export const SAME = -3;
const CELLS = 1;
const PLAIN = 2;

/** How the rows of a CSV file split into cells (undefined for JSON sources, whose rows are never plain). */
export interface PlainLayout {
  header: string[];
  delimiter: string;
}

/** Fills one chunk in the worker: typed arrays of the chunk's capacity, filled in place. */
export class ChunkWriter {
  count = 0;
  file = '';
  private readonly lines: Uint32Array;
  private readonly itemByteCounts: Int32Array;
  private readonly hasCells: Uint8Array;
  private readonly idLengths: Int32Array;
  private readonly plainLengths: Int32Array;
  private readonly fps: Uint32Array;
  private plains: string[] = [];
  private plainChars = 0;
  /** Chars of row text (lines and cells) in the chunk so far. */
  private textChars = 0;
  private cellLengths: Int32Array;
  private cellCount = 0;
  /**
   * The items' JSON, encoded as each arrives: the write returns the byte count, which a separate
   * Buffer.byteLength cost the worker again (up to 1.5 s per million rows, GC included).
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
    this.fps = new Uint32Array(fingerprints ? 2 * capacity : 0);
    this.lines = new Uint32Array(capacity);
    this.itemByteCounts = new Int32Array(capacity);
    this.hasCells = new Uint8Array(capacity);
    this.idLengths = new Int32Array(capacity * ID_SLOTS);
    this.plainLengths = new Int32Array(capacity);
    this.encoded = EMPTY_BUFFER; // allocated at the first item: a RAW chunk has none
    this.cellLengths = new Int32Array(capacity * 16);
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
    this.lines[index] = record.line;
    this.itemByteCounts[index] = DECIDED;
    this.current = undefined;
    if (record.kind === 'item') return;
    const regular = record.kind === 'row';
    const plain = regular ? record.plain : undefined;
    // before `record.row`, which a plain row builds only if asked
    if (plain !== undefined && this.layout !== undefined) {
      this.hasCells[index] = PLAIN;
      this.plainLengths[index] = plain.length;
      this.plainChars += plain.length;
      this.textChars += plain.length;
      this.plains.push(plain);
      return;
    }
    const row = record.row;
    if (row === undefined) return;
    if (regular) {
      const keys = (this.keys ??= Object.keys(row));
      if (this.cellCount + keys.length > this.cellLengths.length) {
        const grown = new Int32Array(2 * (this.cellCount + keys.length));
        grown.set(this.cellLengths);
        this.cellLengths = grown;
      }
      let text = '';
      let k = 0;
      for (; k < keys.length; k++) {
        const cell = row[keys[k]!];
        if (cell === undefined) break;
        text += cell;
        this.cellLengths[this.cellCount + k] = cell.length;
      }
      if (k === keys.length) {
        this.hasCells[index] = CELLS;
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
    this.itemByteCounts[this.count - 1] = RAW;
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
    this.fps[at] = fp.hi;
    this.fps[at + 1] = fp.lo;
  }

  /** The current row is unchanged (see SAME): only its ids travel. */
  same(ids: readonly unknown[]): void {
    this.itemByteCounts[this.count - 1] = SAME;
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
    this.itemByteCounts[index] = bytes;
    this.itemBytes += bytes;
    this.writeIds(ids);
  }

  private writeIds(ids: readonly unknown[]): void {
    const slot = this.items++ * ID_SLOTS;
    for (let i = 0; i < ID_SLOTS; i++) {
      const id = ids[i];
      if (typeof id === 'string') {
        this.ids.push(id);
        this.idLengths[slot + i] = id.length;
      } else this.idLengths[slot + i] = -1;
    }
  }

  finish(): { chunk: RowChunk; transfer: ArrayBuffer[] } {
    const n = this.count;
    const lines = this.lines.slice(0, n);
    const itemBytes = this.itemByteCounts.slice(0, n);
    const hasCells = this.hasCells.slice(0, n);
    const idLengths = this.idLengths.slice(0, this.items * ID_SLOTS);
    const cellLengths = this.cellLengths.slice(0, this.cellCount);
    const plainLengths = this.plainLengths.slice(0, n);
    const fps = this.fps.slice(0, this.fps.length === 0 ? 0 : 2 * n);
    const chunk: RowChunk = {
      job: this.job,
      file: this.file,
      count: n,
      lines,
      itemBytes,
      fps,
      // never the shared empty buffer: a transfer would detach it
      items: this.encoded === EMPTY_BUFFER ? new Uint8Array(0) : new Uint8Array(this.encoded.buffer, this.encoded.byteOffset, this.itemBytes),
      ids: this.ids.join(''),
      idLengths,
      keys: this.keys ?? [],
      cells: writeAll(this.cells, 2 * cellChars(this.cellLengths, this.cellCount), 'utf16le'),
      hasCells,
      cellLengths,
      header: this.layout?.header ?? [],
      delimiter: this.layout?.delimiter ?? '',
      plain: writeAll(this.plains, 2 * this.plainChars, 'utf16le'),
      plainLengths,
      extras: this.extras,
    };
    return { chunk, transfer: chunkBuffers(chunk) };
  }
}

/** Every buffer of a chunk, each once: what is transferred to the main thread, and back once read. */
export function chunkBuffers(c: RowChunk): ArrayBuffer[] {
  return [c.lines, c.itemBytes, c.fps, c.idLengths, c.cellLengths, c.hasCells, c.plainLengths, c.items, c.cells, c.plain].map((a) => a.buffer as ArrayBuffer);
}

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
