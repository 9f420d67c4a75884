// A worksheet part → its rows, streamed: each row's cells as text (shared strings looked up, numbers
// and dates written by cell-value.ts) with a type letter per cell. Rows without a value are not
// rows here; a formula without a stored value is a problem of its row, naming the cell.
import type { Readable } from 'node:stream';
import { columnIndex, columnLetter, dateText, numberText } from './cell-value.js';
import type { SharedStrings } from './shared-strings.js';
import { NumberKind } from './workbook-parts.js';
import { parseXml } from './xml-stream.js';

/**
 * The widest sheet read: Excel allows 16,384 columns (A–XFD), but an export with more than this
 * many is almost always a stray value far to the right, and each row would cost that many cells.
 */
export const MAX_COLUMNS = 2048;

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
}

export interface SheetContext {
  strings: SharedStrings;
  styles: Uint8Array;
  date1904: boolean;
  maxTextChars: number;
}

/** Streams the rows that hold at least one value; `break` in the caller's loop ends the read. */
export async function* sheetRows(stream: Readable, ctx: SheetContext): AsyncGenerator<SheetRow> {
  const ready: SheetRow[] = [];
  let row: SheetRow | undefined;
  let lastLine = 0;
  let hasValue = false;
  // the cell being read
  let col = -1;
  let ref = '';
  let type = '';
  let style = 0;
  let value = '';
  let formula = false;
  /** A `<v>` element was there, even empty (a formula whose result is the empty text). */
  let stored = false;
  let capture = false;
  let inline = 0;

  const finishCell = () => {
    if (!row) return;
    const cell = cellValue(type, value, formula && !stored, style, ctx);
    if (cell === undefined) return;
    const at = ref || `${columnLetter(col)}${row.line}`;
    if ('problem' in cell) {
      row.problem ??= `cell ${at}: ${cell.problem}`;
      return;
    }
    if (cell.text === '') return;
    hasValue = true;
    if (col >= MAX_COLUMNS) {
      row.beyond ??= at;
      return;
    }
    while (row.cells.length < col) {
      row.cells.push('');
      row.types.push(' ');
    }
    row.cells[col] = cell.text;
    row.types[col] = cell.type;
  };

  const handlers = {
    open(name: string, a: Record<string, string>) {
      if (name === 'c') {
        ref = a.r ?? '';
        const at = ref ? columnIndex(ref) : -1;
        col = at >= 0 ? at : col + 1;
        type = a.t ?? 'n';
        style = a.s === undefined ? 0 : Number(a.s);
        value = '';
        formula = false;
        stored = false;
      } else if (name === 'v') {
        capture = true;
        stored = true;
      } else if (name === 'is') inline++;
      else if (name === 't') capture = inline > 0;
      else if (name === 'rPh')
        inline -= 1000; // phonetic guides are not the cell's text
      else if (name === 'f') formula = true;
      else if (name === 'row') {
        const r = Number(a.r);
        lastLine = Number.isInteger(r) && r > 0 ? r : lastLine + 1;
        row = { line: lastLine, cells: [], types: [] };
        hasValue = false;
        col = -1;
      }
    },
    close(name: string) {
      if (name === 'v' || name === 't') capture = false;
      else if (name === 'is') inline--;
      else if (name === 'rPh') inline += 1000;
      else if (name === 'c') finishCell();
      else if (name === 'row') {
        if (row && (hasValue || row.problem)) ready.push(row);
        row = undefined;
      }
    },
    text(t: string) {
      if (capture) value += t;
    },
  };

  for await (const _ of parseXml(stream, handlers, ctx.maxTextChars)) {
    for (let i = 0; i < ready.length; i++) yield ready[i]!;
    ready.length = 0;
  }
  for (let i = 0; i < ready.length; i++) yield ready[i]!;
}

type Cell = { text: string; type: CellType } | { problem: string } | undefined;

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
      return { text: value, type: 's' };
    case 'b':
      if (value === '') return unstored ? UNSTORED : undefined;
      return { text: value === '1' || value === 'true' ? 'true' : 'false', type: 'b' };
    case 'e':
      return { text: value, type: 's' }; // #N/A, #REF!: the mapper's Excel-error check names them
    case 'd':
      return value === '' ? undefined : { text: value.replace(/Z$/, ''), type: 'd' };
    default: {
      if (value === '') return unstored ? UNSTORED : undefined;
      const kind = (ctx.styles[style] ?? NumberKind.plain) as NumberKind;
      if (kind !== NumberKind.plain) {
        const date = dateText(Number(value), kind, ctx.date1904);
        if (date !== undefined) return { text: date, type: 'd' };
      }
      const text = numberText(value);
      return text === undefined ? { problem: `"${value}" is not a number` } : { text, type: 'n' };
    }
  }
}
