// A worksheet part → its rows, streamed: each row's cells as text (shared strings looked up, numbers
// and dates written by cell-value.ts) with a type letter per cell. Rows without a value are not
// rows here; a formula without a stored value, a cell reference that is malformed or names another
// row, and a cell stored twice are problems of their row, naming the cell. A cell Excel shows empty
// (serial 0 under a date format; a value under a merged range, not its top-left cell) is empty,
// and its row names it for the reader's one warning.
import type { Readable } from 'node:stream';
import { columnLetter, dateText, isoCell, numberText, refColumn, ZERO_DATE } from './cell-value.js';
import type { MergedRanges } from './merged-ranges.js';
import { type SharedStrings, unescapeXstring } from './shared-strings.js';
import { NumberKind, UNDECLARED_EAST_ASIAN } from './styles.js';
import { parseXml, type XmlHandlers } from './xml-stream.js';

/**
 * The widest sheet read: Excel allows 16,384 columns (A–XFD), but an export with more than this
 * many is almost always a stray value far to the right, and each row would cost that many cells.
 */
export const MAX_COLUMNS = 2048;
/** Excel's last row. */
const MAX_ROWS = 1_048_576;

/** A cell's type letter: text, number, date (ISO text), boolean (`true`/`false`). */
type CellType = 's' | 'n' | 'd' | 'b';

export interface SheetRow {
  /** The sheet's row number (1-based), as Excel shows it. */
  line: number;
  /** Cells by column index (0 = A); empty cells are ''. */
  cells: string[];
  /** Type letters by column index; ' ' for an empty cell. */
  types: string[];
  /** What makes the row unreadable (a formula without its value), naming the cell. */
  problem?: string;
  /** The first cell with a value at or past MAX_COLUMNS. */
  beyond?: string;
  /** Cells read as empty, by reference: serial 0 under a date format, a value under a merged range. */
  zeroDates?: string[];
  covered?: string[];
  /** Cells read as dates in an East Asian built-in format (50–58) the workbook does not declare. */
  eastAsian?: string[];
}

export interface SheetContext {
  strings: SharedStrings;
  styles: Uint8Array;
  date1904: boolean;
  maxTextChars: number;
}

/**
 * Streams the rows that hold at least one value; `break` in the caller's loop ends the read.
 * `merges`: the sheet's merged ranges (merged-ranges.ts), whose covered cells are empty.
 */
export async function* sheetRows(stream: Readable, ctx: SheetContext, merges?: MergedRanges): AsyncGenerator<SheetRow> {
  const parser = new SheetParser(ctx, merges);
  const ready = parser.ready;
  for await (const _ of parseXml(stream, parser, ctx.maxTextChars)) {
    for (let i = 0; i < ready.length; i++) yield ready[i]!;
    ready.length = 0;
  }
  parser.end();
  for (let i = 0; i < ready.length; i++) yield ready[i]!;
}

/** The sheet's XML events → rows: the row and the cell being read, and the rows finished. */
class SheetParser implements XmlHandlers {
  readonly ready: SheetRow[] = [];
  private row: SheetRow | undefined;
  /**
   * The row last closed, held until the next opens: a writer may store a row's cells in repeated
   * `<row>` elements of one number, one after the other (one cell each), which are one row.
   */
  private held: SheetRow | undefined;
  private heldValue = false;
  private lastLine = 0;
  private hasValue = false;
  // the cell being read
  private col = -1;
  private ref = '';
  private refProblem: string | undefined;
  private type = '';
  private style = 0;
  private value = '';
  /** An inline string's text (`<is>`): the cell's value whatever a stray `<v>` beside it holds. */
  private inlineText = '';
  private inlineSeen = false;
  private formula = false;
  /** A `<v>` (or `<is>`) element was there, even empty (a formula whose result is the empty text). */
  private stored = false;
  /** 1 inside `<v>`, 2 inside an inline string's `<t>`. */
  private capture = 0;
  private inline = 0;

  constructor(
    private readonly ctx: SheetContext,
    private readonly merges: MergedRanges | undefined,
  ) {}

  /** The stream's end: the row held is finished. */
  end(): void {
    if (this.held && (this.heldValue || this.held.problem)) this.ready.push(this.held);
    this.held = undefined;
  }

  open(name: string, a: Record<string, string>): void {
    if (name === 'c') this.openCell(a);
    else if (name === 'v') {
      this.capture = 1;
      this.stored = true;
    } else if (name === 'is') {
      this.inline++;
      this.stored = true;
      this.inlineSeen = true;
    } else if (name === 't') this.capture = this.inline > 0 ? 2 : 0;
    else if (name === 'rPh')
      this.inline -= 1000; // phonetic guides are not the cell's text
    else if (name === 'f') this.formula = true;
    else if (name === 'row') this.openRow(a);
  }

  close(name: string): void {
    if (name === 'v' || name === 't') this.capture = 0;
    else if (name === 'is') this.inline--;
    else if (name === 'rPh') this.inline += 1000;
    else if (name === 'c') this.finishCell();
    else if (name === 'row') {
      this.held = this.row;
      this.heldValue = this.hasValue;
      this.row = undefined;
    }
  }

  text(t: string): void {
    if (this.capture === 1) this.value += t;
    else if (this.capture === 2) this.inlineText += t;
  }

  private openRow(a: Record<string, string>): void {
    const r = a.r === undefined ? this.lastLine + 1 : Number(a.r);
    const held = this.held;
    if (held && a.r !== undefined && r === held.line) {
      // the same row again, straight after itself: its cells go on where the last element's ended
      this.row = held;
      this.hasValue = this.heldValue;
      this.held = undefined;
      return;
    }
    this.end();
    const valid = Number.isInteger(r) && r > 0 && r <= MAX_ROWS;
    this.lastLine = valid ? r : this.lastLine + 1;
    this.row = { line: this.lastLine, cells: [], types: [] };
    if (!valid) this.row.problem = `row number "${a.r}" after row ${this.lastLine - 1} is malformed`;
    this.hasValue = false;
    this.col = -1;
  }

  private openCell(a: Record<string, string>): void {
    const ref = a.r ?? '';
    this.ref = ref;
    this.refProblem = undefined;
    if (ref === '') this.col++;
    else {
      const at = refColumn(ref, this.lastLine);
      if (at >= 0) this.col = at;
      else if (at === -3) {
        // a column index (r="0"), not a reference: the cell is where it stands in the row
        this.col++;
        this.ref = '';
      } else if (at === -1) this.refProblem = `cell reference "${ref}" in row ${this.lastLine} is malformed`;
      else this.refProblem = `cell ${ref} is stored in row ${this.lastLine}: a cell reference that names another row`;
    }
    this.type = a.t ?? 'n';
    this.style = a.s ? Number(a.s) : 0;
    this.value = '';
    this.inlineText = '';
    this.inlineSeen = false;
    this.formula = false;
    this.stored = false;
  }

  private finishCell(): void {
    const row = this.row;
    if (!row) return;
    if (this.refProblem) {
      row.problem ??= this.refProblem;
      return;
    }
    const col = this.col;
    const text = this.type === 'inlineStr' && this.inlineSeen ? this.inlineText : this.value;
    const cell = cellValue(this.type, text, this.formula && !this.stored, this.style, this.ctx);
    if (cell === undefined) return;
    const at = this.ref || `${columnLetter(col)}${row.line}`;
    if ('problem' in cell) {
      row.problem ??= `cell ${at}: ${cell.problem}`;
      return;
    }
    if (cell.text === '') {
      if (cell === ZERO) (row.zeroDates ??= []).push(at);
      return;
    }
    if (this.merges?.covers(row.line, col)) {
      (row.covered ??= []).push(at);
      return;
    }
    if (cell.type === 'd' && (this.ctx.styles[this.style]! & UNDECLARED_EAST_ASIAN) !== 0) (row.eastAsian ??= []).push(at);
    this.hasValue = true;
    if (col >= MAX_COLUMNS) {
      row.beyond ??= at;
      return;
    }
    while (row.cells.length < col) {
      row.cells.push('');
      row.types.push(' ');
    }
    // (never read past the array's end: V8 makes every such read slow)
    if (col < row.types.length && row.types[col] !== ' ') {
      row.problem ??= `cell ${at} is stored twice in row ${row.line}`;
      return;
    }
    row.cells[col] = cell.text;
    row.types[col] = cell.type;
  }
}

type Cell = { text: string; type: CellType } | { problem: string } | undefined;

/** A style's NumberKind without its flags. */
const KIND = UNDECLARED_EAST_ASIAN - 1;

/** Serial 0 under a date format (cell-value.ts ZERO_DATE): an empty cell, named in a warning. */
const ZERO = { text: ZERO_DATE, type: 'd' } as const;

const UNSTORED = { problem: 'a formula without a stored value (save the workbook in Excel so its values are stored)' };

/** `unstored`: a formula without a `<v>`, its result never calculated into the file. */
function cellValue(type: string, value: string, unstored: boolean, style: number, ctx: SheetContext): Cell {
  switch (type) {
    case 's': {
      if (value === '') return undefined;
      const text = ctx.strings.get(Number(value));
      return text === undefined ? { problem: `shared string ${value} is not in the workbook's table` } : { text, type: 's' };
    }
    case 'inlineStr':
    case 'str':
      if (unstored) return UNSTORED;
      return { text: unescapeXstring(value), type: 's' };
    case 'b':
      if (value === '') return unstored ? UNSTORED : undefined;
      return { text: value === '1' || value === 'true' ? 'true' : 'false', type: 'b' };
    case 'e':
      return { text: value, type: 's' }; // #N/A, #REF!: the mapper's Excel-error check names them
    case 'd': {
      if (value === '') return undefined;
      const iso = isoCell(value, ((ctx.styles[style] ?? NumberKind.plain) & KIND) as NumberKind);
      if (iso === undefined) return { problem: `"${value}" is a duration too long to be a number` };
      if (iso.text === ZERO_DATE) return ZERO;
      return { text: iso.text, type: iso.duration ? 'n' : 'd' };
    }
    default: {
      if (value === '') return unstored ? UNSTORED : undefined;
      const kind = ((ctx.styles[style] ?? NumberKind.plain) & KIND) as NumberKind;
      if (kind !== NumberKind.plain) {
        const date = dateText(Number(value), kind, ctx.date1904);
        if (date === ZERO_DATE) return ZERO;
        if (date !== undefined) return { text: date, type: 'd' };
      }
      const text = numberText(value);
      return text === undefined ? { problem: `"${value}" is not a number` } : { text, type: 'n' };
    }
  }
}
