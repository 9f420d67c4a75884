// Which of a sheet's rows below its header were read, whatever order the sheet stores them in.
// Excel writes rows in ascending order, but other writers (and hand-made or damaged files) may
// not: a row stored after a later one is still read, with its own number; a row number stored
// twice is a problem of the second; and a row is counted blank only when no row of that number
// held a value. One bit per row of Excel's 1,048,576: 128 KiB, whatever the sheet's size.
import type { SourceWarning } from '../types.js';

const MAX_ROWS = 1_048_576;

export class RowsRead {
  private readonly seen = new Uint8Array((MAX_ROWS >> 3) + 1);
  private headerPassed = false;
  private last: number;
  private highest: number;
  private firstBackwards: [after: number, row: number] | undefined;

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
