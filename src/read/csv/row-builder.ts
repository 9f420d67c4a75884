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
          ? `a quote is escaped with a backslash (\\${quote}); this file needs the escape option set to \\`
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
