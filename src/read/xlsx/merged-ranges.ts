// A sheet's merged ranges (`<mergeCell ref="B2:C3"/>`): Excel shows only a range's top-left cell,
// so a value a writer left under the rest of the range is no value of the sheet. The list comes
// after `<sheetData>` in the part, so it is found first by a scan of the part's bytes, without
// parsing the XML: inflating costs a fraction of parsing, and the rows can then be read once, in
// order, with each covered cell known as it arrives (the header row included).
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
 * The merged ranges of a sheet part, streamed: its bytes are searched for `mergeCell`, and only
 * from there on is the text read for the ranges (a UTF-16 part, told by its byte-order mark or its
 * first `<`, is read as text throughout). Undefined when the sheet has none (most sheets).
 */
export async function readMergedRanges(stream: Readable): Promise<MergedRanges | undefined> {
  const found = new MergedRanges();
  let decoder: InstanceType<typeof TextDecoder> | undefined;
  let seen = false;
  let carry = '';
  let tail: Buffer = Buffer.alloc(0);
  try {
    for await (const chunk of stream as AsyncIterable<Buffer>) {
      if (!decoder) {
        // a UTF-16 part (rare: Excel on Windows Phone) is decoded whole; UTF-8 is searched as bytes
        const encoding = utf16(chunk);
        decoder = new TextDecoder(encoding ?? 'utf-8');
        seen = encoding !== undefined;
      }
      if (!seen) {
        // the name may straddle the previous chunk and this one
        const joined = tail.length > 0 ? Buffer.concat([tail, chunk]) : chunk;
        const at = joined.indexOf(NEEDLE);
        tail = joined.subarray(Math.max(0, joined.length - NEEDLE.length));
        if (at < 0) continue;
        seen = true;
        // from a little before the name, for its `<` and any prefix: the rest is read as text
        carry = decoder.decode(joined.subarray(Math.max(0, at - 32)), { stream: true });
      } else carry += decoder.decode(chunk, { stream: true });
      carry = take(carry, found);
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

function utf16(head: Buffer): 'utf-16le' | 'utf-16be' | undefined {
  if ((head[0] === 0xff && head[1] === 0xfe) || (head[0] === 0x3c && head[1] === 0)) return 'utf-16le';
  if ((head[0] === 0xfe && head[1] === 0xff) || (head[0] === 0 && head[1] === 0x3c)) return 'utf-16be';
  return undefined;
}
