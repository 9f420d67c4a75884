// A sheet's merged ranges (`<mergeCell ref="B2:C3"/>`): Excel shows only a range's top-left cell,
// so a value a writer left under the rest of the range is no value of the sheet. The list comes
// after `<sheetData>` in the part, so it is found first by a scan of the part's text, without
// parsing the XML: inflating and searching cost a tenth of parsing (200,000 rows: 0.5 s of CPU
// more, on 6), and the rows can then be read once, in order, with each covered cell known as it
// arrives (the header row included).
import type { Readable } from 'node:stream';
import { refColumn } from './cell-value.js';

/** Rows a range may span and still be indexed row by row; taller ranges are checked on every row. */
const INDEXED_HEIGHT = 64;
/** What is kept of a chunk's end when a `<mergeCell …>` may straddle two chunks. */
const CARRY = 512;
const NEEDLE = 'mergeCell';
const ELEMENT = /<(?:[\w.-]+:)?mergeCell\s[^>]*?\bref\s*=\s*["']\s*([A-Za-z]{1,3}\d+)(?::([A-Za-z]{1,3}\d+))?\s*["']/g;

export class MergedRanges {
  /** Each range as four numbers: first row, first column, last row, last column (rows 1-based, columns 0-based). */
  private readonly ranges: number[] = [];
  private readonly byRow = new Map<number, number[]>();
  private readonly tall: number[] = [];

  get size(): number {
    return this.ranges.length / 4;
  }

  add(from: string, to: string): void {
    const [r1, c1] = cell(from);
    const [r2, c2] = cell(to);
    const [top, bottom, left, right] = [Math.min(r1, r2), Math.max(r1, r2), Math.min(c1, c2), Math.max(c1, c2)];
    if (top < 1 || left < 0 || (top === bottom && left === right)) return;
    const at = this.ranges.length;
    this.ranges.push(top, left, bottom, right);
    if (bottom - top >= INDEXED_HEIGHT) {
      this.tall.push(at);
      return;
    }
    for (let r = top; r <= bottom; r++) {
      const list = this.byRow.get(r);
      if (list) list.push(at);
      else this.byRow.set(r, [at]);
    }
  }

  /** The cell is under a range and is not its top-left cell. */
  covers(line: number, col: number): boolean {
    return this.coveredBy(this.byRow.get(line), line, col) || this.coveredBy(this.tall, line, col);
  }

  private coveredBy(list: number[] | undefined, line: number, col: number): boolean {
    if (!list) return false;
    const r = this.ranges;
    for (const at of list) {
      if (line < r[at]! || line > r[at + 2]! || col < r[at + 1]! || col > r[at + 3]!) continue;
      if (line !== r[at] || col !== r[at + 1]) return true;
    }
    return false;
  }
}

/** `B12` → [12, 1]; [0, -1] when it is no reference. */
function cell(ref: string): [number, number] {
  const letters = /^[A-Za-z]+/.exec(ref)?.[0] ?? '';
  const line = Number(ref.slice(letters.length));
  const col = refColumn(ref, line);
  return col >= 0 ? [line, col] : [0, -1];
}

/**
 * The merged ranges of a sheet part, streamed: its text is searched for `mergeCell`, and only from
 * there on read for the ranges. Read as Latin-1, which every byte is (the references are ASCII;
 * strings, as the sheet's own read has them: a first scan of Buffers made that read three times
 * slower, 16.7 s of CPU against 5.5 for 200,000 rows). A UTF-16 part (Excel on Windows Phone) has a
 * NUL beside each ASCII character: searched so, and read with the NULs dropped. Undefined when the
 * sheet has none (most sheets).
 */
export async function readMergedRanges(stream: Readable): Promise<MergedRanges | undefined> {
  const found = new MergedRanges();
  let needle: string | undefined;
  let wide = false;
  let seen = false;
  let carry = '';
  stream.setEncoding('latin1');
  try {
    for await (const piece of stream as AsyncIterable<string>) {
      let chunk = piece;
      if (needle === undefined) {
        // the part's first two bytes tell UTF-16 (a byte-order mark, or a NUL beside the `<`)
        carry += chunk;
        if (carry.length < 2) continue;
        [chunk, carry] = [carry, ''];
        wide = chunk.charCodeAt(0) === 0 || chunk.charCodeAt(1) === 0 || /^(\xff\xfe|\xfe\xff)/.test(chunk);
        needle = wide ? NEEDLE.split('').join('\0') : NEEDLE;
      }
      if (!seen) {
        let joined = chunk;
        let at = chunk.indexOf(needle);
        // the name may straddle the previous chunk and this one
        if (at < 0 && (carry + chunk.slice(0, needle.length)).includes(needle)) {
          joined = carry + chunk;
          at = joined.indexOf(needle);
        }
        if (at < 0) {
          carry = (chunk.length >= needle.length ? chunk : carry + chunk).slice(-needle.length);
          continue;
        }
        seen = true;
        // from a little before the name, for its `<` and any prefix
        carry = joined.slice(Math.max(0, at - 64));
      } else carry += chunk;
      carry = take(wide ? carry.replaceAll('\0', '') : carry, found);
    }
  } finally {
    stream.destroy();
  }
  return found.size > 0 ? found : undefined;
}

/** Adds the ranges of the complete elements in `text`; what may be the start of one is returned. */
function take(text: string, found: MergedRanges): string {
  ELEMENT.lastIndex = 0;
  let end = 0;
  for (let m = ELEMENT.exec(text); m; m = ELEMENT.exec(text)) {
    found.add(m[1]!, m[2] ?? m[1]!);
    end = ELEMENT.lastIndex;
  }
  return text.slice(Math.max(end, text.length - CARRY));
}
