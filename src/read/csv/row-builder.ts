// Cells → RowRecord or UnreadableRecord. Runs once per row, so it is kept to a loop and a few compares.

import type { RowRecord, SourceRecord, SourceWarning } from '../types.js';
import type { Header } from './header.js';

export type RowBuilder = (cells: string[], line: number, textAfterQuote: boolean, plain?: string) => SourceRecord | undefined;

/**
 * A readable row. `row` (header → cell) is built on first use: a mapper that reads `cells` by index
 * and a valid row that is never reported skip it, and most rows are such rows.
 */
export class CsvRow implements RowRecord {
  readonly kind = 'row' as const;
  private built: Record<string, string> | undefined;
  constructor(
    readonly file: string,
    readonly line: number,
    readonly cells: readonly string[],
    readonly names: readonly string[],
    readonly plain: string | undefined,
  ) {}

  get row(): Record<string, string> {
    if (this.built) return this.built;
    // null prototype: a `__proto__` or `constructor` header is a plain column, not a prototype
    const row: Record<string, string> = Object.create(null);
    const { names, cells } = this;
    for (let i = 0; i < names.length; i++) row[names[i]!] = cells[i]!;
    return (this.built = row);
  }
}

/** How the reason of a row whose quotes are escaped with a backslash starts: init reads the file again with escape set. */
export const BACKSLASH_ESCAPED = 'a quote is escaped with a backslash';

export function rowBuilder(file: string, header: Header, quote: string, warnings: SourceWarning[]): RowBuilder {
  const names = header.names;
  const width = names.length;
  // a row may end before the header's unnamed last columns (no trailing delimiter on that line)
  const minWidth = width - header.unnamedAtEnd;
  // the unnamed last columns no row has held data in yet: the first that does is worth a warning
  let unseen = header.unnamedAtEnd;
  const seen = new Array<boolean>(width).fill(false);
  const dataUnderUnnamed = (cells: string[], line: number) => {
    for (let i = minWidth; i < cells.length; i++) {
      if (seen[i] || cells[i]!.trim() === '') continue;
      seen[i] = true;
      unseen--;
      warnings.push({ file, line, message: `column ${i + 1} has no name in the header but holds data (first on line ${line}); read as "${names[i]}"` });
    }
  };
  const rawRow = (cells: string[]): Record<string, string> => {
    const row: Record<string, string> = Object.create(null);
    for (let i = 0; i < cells.length; i++) row[i < width ? names[i]! : `column_${i + 1}`] = cells[i]!;
    return row;
  };

  return (cells, line, textAfterQuote, plain) => {
    if (textAfterQuote) {
      const backslash = cells.some((c) => c.includes(`\\${quote}`));
      return {
        kind: 'unreadable',
        file,
        line,
        reason: backslash
          ? `${BACKSLASH_ESCAPED} (\\${quote}); this file needs the escape option set to \\ (--escape '\\', or "escape": "\\\\" in the profile's or the plan job's reader)`
          : `text after a closing quote (like ${quote}abc${quote}def); quote the whole field and double the quotes inside it`,
        row: rawRow(cells),
      };
    }
    const n = cells.length;
    if (n === width) {
      if (cells[0]!.trim() === '' && isBlank(cells)) return undefined;
      if (unseen > 0) dataUnderUnnamed(cells, line);
      return new CsvRow(file, line, cells, names, plain);
    }
    if (isBlank(cells)) return undefined; // `;;;;` rows Excel leaves below the data
    if (n < width && n >= minWidth) {
      if (unseen > 0) dataUnderUnnamed(cells, line);
      // the missing cells are empty; the line no longer splits into exactly these cells
      for (let i = n; i < width; i++) cells.push('');
      return new CsvRow(file, line, cells, names, undefined);
    }
    return { kind: 'unreadable', file, line, reason: `has ${n} ${n === 1 ? 'cell' : 'cells'}, the header has ${width}`, row: rawRow(cells) };
  };
}

function isBlank(cells: string[], from = 0): boolean {
  for (let i = from; i < cells.length; i++) if (cells[i]!.trim() !== '') return false;
  return true;
}

/**
 * The cells whose whole text is the file's NULL marker (`reader.null`, MySQL's `\N`) emptied in place;
 * whether there were any. Quoted or not: the parsers do not say, and MySQL writes a text `\N` as `\\N`.
 */
export function emptyMarked(cells: string[], marker: string): boolean {
  let found = false;
  for (let i = 0; i < cells.length; i++) {
    if (cells[i] !== marker) continue;
    cells[i] = '';
    found = true;
  }
  return found;
}

/** How many cells a file's warnings name one by one for their NULs; past it, one line counts the rest. */
const NAMED_NUL_CELLS = 20;

/**
 * NUL bytes inside a text file's cells (a rich-text field's stray bytes: no text holds one): removed,
 * each cell named once in a warning, the first NAMED_NUL_CELLS of them; `end` counts the rest.
 */
export function nulRemover(file: string, names: readonly string[], warnings: SourceWarning[]) {
  let cellsSeen = 0;
  let lastLine = 0;
  return {
    /** Removes the NULs of a row's cells in place; whether there were any. */
    clean(cells: string[], line: number): boolean {
      let found = false;
      for (let i = 0; i < cells.length; i++) {
        const cell = cells[i]!;
        if (!cell.includes('\0')) continue;
        const kept = cell.replaceAll('\0', '');
        cells[i] = kept;
        found = true;
        lastLine = line;
        if (++cellsSeen > NAMED_NUL_CELLS) continue;
        const n = cell.length - kept.length;
        const column = names[i] ?? `column_${i + 1}`;
        warnings.push({ file, line, message: `column "${column}" held ${n} NUL ${n === 1 ? 'byte' : 'bytes'}, a control character no text holds: removed` });
      }
      return found;
    },
    end(): void {
      const more = cellsSeen - NAMED_NUL_CELLS;
      if (more > 0) warnings.push({ file, line: lastLine, message: `${more} more cells held NUL bytes (the last on line ${lastLine}): removed` });
    },
  };
}
