// Which of a sheet's rows below its header were read, whatever order the sheet stores them in.
// Excel writes rows in ascending order, but other writers (and hand-made or damaged files) may
// not: a row stored after a later one is still read, with its own number; a row number stored
// twice is a problem of the second; and a row is counted blank only when no row of that number
// held a value. One bit per row of Excel's 1,048,576: 128 KiB, whatever the sheet's size.
// Also the cells read as empty though they store a value (a zero date, a value under a merged
// range): one warning each, naming the first of them.
import { listFirst } from '../repeated-names.js';
import type { SourceWarning } from '../types.js';

/** Cells named in a warning: a line's worth; the rest counted. */
const NAMED = 50;

const EMPTIED = {
  zero: (n: number) =>
    `${n === 1 ? '1 cell holds' : `${n} cells hold`} the date serial 0 (Excel shows it as 1900-01-00, usually a formula pointing at an empty cell): read as empty, not as a date in 1899`,
  covered: (n: number) =>
    `${n === 1 ? '1 cell' : `${n} cells`} under a merged range hold${n === 1 ? 's' : ''} a value Excel does not show (only a range's top-left cell is shown): read as empty`,
  eastAsian: (n: number) =>
    `${n === 1 ? '1 cell is' : `${n} cells are`} in a built-in East Asian date format (numFmtId 50–58) the workbook does not declare: read as dates, as Excel in an East Asian locale shows them`,
};

/** Cells of one kind read as empty: how many, the first few by reference, the first's row. */
class Emptied {
  count = 0;
  readonly names: string[] = [];
  line: number | undefined;

  add(refs: readonly string[], line: number): void {
    this.line ??= line;
    this.count += refs.length;
    for (const ref of refs) if (this.names.length < NAMED) this.names.push(ref);
  }
}

const MAX_ROWS = 1_048_576;

export class RowsRead {
  private readonly seen = new Uint8Array((MAX_ROWS >> 3) + 1);
  private headerPassed = false;
  private last: number;
  private highest: number;
  private firstBackwards: [after: number, row: number] | undefined;
  private readonly emptied = { zero: new Emptied(), covered: new Emptied(), eastAsian: new Emptied() };

  constructor(private readonly header: number) {
    this.last = header;
    this.highest = header;
  }

  /** Where the row stands: above the header (a title row, or the header itself), stored twice, or to read. */
  take(line: number): 'above' | 'twice' | 'read' {
    if (line < this.header) return 'above';
    if (line === this.header && !this.headerPassed) {
      this.headerPassed = true;
      return 'above';
    }
    if (line === this.header || this.has(line)) return 'twice';
    if (line < this.last) this.firstBackwards ??= [this.last, line];
    this.last = line;
    return 'read';
  }

  /** Cells of the row (the header's included) read otherwise than stored: as empty, or as an undeclared format's dates. */
  empty(kind: keyof typeof EMPTIED, refs: readonly string[] | undefined, line: number): void {
    if (refs) this.emptied[kind].add(refs, line);
  }

  /** The row held a value. */
  holds(line: number): void {
    this.seen[line >> 3]! |= 1 << (line & 7);
    if (line > this.highest) this.highest = line;
  }

  private has(line: number): boolean {
    return (this.seen[line >> 3]! & (1 << (line & 7))) !== 0;
  }

  /** The blank rows between the header and the last row read, the rows out of order, none held. */
  warnings(file: string, sheet: string): SourceWarning[] {
    const out: SourceWarning[] = [];
    for (const kind of ['zero', 'covered', 'eastAsian'] as const) {
      const { count, names, line } = this.emptied[kind];
      if (count === 0) continue;
      const listed = listFirst(count, (k) => names[k] ?? '');
      out.push({ file, line, message: `sheet "${sheet}": ${EMPTIED[kind](count)} (${listed})` });
    }
    if (this.firstBackwards) {
      const [after, row] = this.firstBackwards;
      out.push({
        file,
        line: row,
        message: `sheet "${sheet}" stores its rows out of order (row ${row} after row ${after}): each was read with its own row number`,
      });
    }
    let blank = 0;
    let first: number | undefined;
    for (let line = this.header + 1; line < this.highest; line++) {
      if (this.has(line)) continue;
      blank++;
      first ??= line;
    }
    if (blank > 0)
      out.push({ file, line: first, message: `skipped ${blank} blank row${blank === 1 ? '' : 's'} in sheet "${sheet}" (the first is row ${first})` });
    if (this.highest === this.header) out.push({ file, line: this.header, message: `sheet "${sheet}" has a header but no rows` });
    return out;
  }
}
