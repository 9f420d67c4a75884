// A fast path in front of csv-parse for what exports almost always are: lines split on the
// delimiter, quoted fields RFC 4180 style (`""` inside quotes): csv-parse's generality costs several
// times the CPU of this narrow path on such files. At the first record it is not sure
// about (a bare CR, a quote inside an unquoted field, text after a closing quote, an unclosed quote,
// a record near the size limit) it hands the rest of the input, from that record's first byte and
// line, to CsvChunkParser, which stays the reference for every unusual case, its errors and their
// line numbers.
//
// Each line is decoded on its own (not the whole chunk): cells then share memory with their line
// only, so a cell kept for the report never pins a 256 KiB chunk (ids kept all run are copied:
// src/rows/own-string.ts).

import { CsvChunkParser, type CsvDialect, type OnRecord } from './csv-chunk-parser.js';

const LF = 0x0a;
const CR = 0x0d;
const OPEN = 0; // a quoted field is still open at the end of the text: the record goes on
const BAIL = -1; // something csv-parse should judge

export class FastCsvParser {
  private fallback: CsvChunkParser | undefined;
  private carry: Buffer | undefined;
  private line: number; // file line the next record (or empty line) starts on
  private bailed = false;
  private readonly quoteCode: number;
  private readonly delimCode: number;

  constructor(
    private readonly dialect: CsvDialect,
    firstLine = 1,
  ) {
    this.line = firstLine;
    this.quoteCode = dialect.quote.charCodeAt(0);
    this.delimCode = dialect.delimiter.charCodeAt(0);
    const ascii = (s: string) => s.length === 1 && s.charCodeAt(0) < 0x80 && s !== '\n' && s !== '\r';
    // byte searches need one-byte ASCII marks; a backslash escape is csv-parse's job
    if (!ascii(dialect.delimiter) || !ascii(dialect.quote) || dialect.escape !== dialect.quote || dialect.delimiter === dialect.quote) {
      this.fallback = new CsvChunkParser(dialect, firstLine);
    }
  }

  /** Same contract as CsvChunkParser.feed: records are delivered before it returns. */
  feed(chunk: Buffer | undefined, end: boolean, onRecord: OnRecord): void {
    if (this.fallback) return this.fallback.feed(chunk, end, onRecord);
    const carry = this.carry;
    const buf = carry && chunk ? Buffer.concat([carry, chunk]) : (carry ?? chunk ?? Buffer.alloc(0));
    const pos = this.parse(buf, end, onRecord);
    this.carry = pos < buf.length ? buf.subarray(pos) : undefined;
    if (!this.bailed) return;
    this.fallback = new CsvChunkParser(this.dialect, this.line);
    const rest = this.carry;
    this.carry = undefined;
    if (rest) this.fallback.feed(rest, false, onRecord);
    if (end) this.fallback.feed(undefined, true, onRecord);
  }

  /** Parses whole records from `buf`; returns where the unparsed rest starts. */
  private parse(buf: Buffer, end: boolean, onRecord: OnRecord): number {
    const len = buf.length;
    const max = this.dialect.maxRecordBytes;
    const delimiter = this.dialect.delimiter;
    let pos = 0;
    let nextQuote = -2; // cached searches: Buffer#indexOf has no end bound
    let nextCr = -2;
    while (pos < len) {
      let nl = buf.indexOf(LF, pos);
      if (nl === -1) {
        if (!end) return this.stopAt(pos, len - pos >= max);
        nl = len;
      }
      let stop = nl;
      if (stop > pos && buf[stop - 1] === CR) stop--;
      if (stop === pos) {
        // an empty line: csv-parse skips it too (skip_empty_lines)
        pos = nl + 1;
        this.line++;
        continue;
      }
      if (stop - pos >= max) return this.stopAt(pos, true);
      if (nextQuote !== -1 && nextQuote < pos) nextQuote = buf.indexOf(this.quoteCode, pos);
      if (nextCr !== -1 && nextCr < pos) nextCr = buf.indexOf(CR, pos);
      if (nextQuote === -1 || nextQuote >= stop) {
        if (nextCr !== -1 && nextCr < stop) return this.stopAt(pos, true); // a bare CR ends a record for csv-parse
        const text = buf.toString('utf8', pos, stop);
        onRecord(text.split(delimiter), this.line, false, text);
        pos = nl + 1;
        this.line++;
        continue;
      }
      // a quote on this line: read the record as text, a line more while a quoted field is open
      for (;;) {
        const last = nl >= len;
        const text = buf.toString('utf8', pos, last ? len : nl + 1);
        const cells = this.record(text, last);
        if (cells === BAIL || (cells === OPEN && last)) return this.stopAt(pos, true);
        if (cells !== OPEN) {
          onRecord(cells, this.line, false);
          this.line += countLf(buf, pos, nl);
          pos = nl + 1;
          break;
        }
        nl = buf.indexOf(LF, nl + 1);
        if (nl === -1) {
          if (!end) return this.stopAt(pos, len - pos >= max);
          nl = len;
        }
        if (nl - pos >= max) return this.stopAt(pos, true);
      }
    }
    return len;
  }

  private stopAt(pos: number, bail: boolean): number {
    this.bailed = bail;
    return pos;
  }

  /** One record from its text (ending with its LF, or at the end of the input): cells, OPEN or BAIL. */
  private record(text: string, last: boolean): string[] | typeof OPEN | typeof BAIL {
    const q = this.quoteCode;
    const d = this.delimCode;
    const quote = this.dialect.quote;
    const n = text.length;
    const cells: string[] = [];
    let i = 0;
    for (;;) {
      if (text.charCodeAt(i) === q) {
        let value = '';
        let j = i + 1;
        for (;;) {
          const k = text.indexOf(quote, j);
          if (k === -1) return OPEN;
          value += text.slice(j, k);
          if (text.charCodeAt(k + 1) === q) {
            value += quote;
            j = k + 2;
            continue;
          }
          i = k + 1;
          break;
        }
        // csv-parse counts a bare CR inside quotes as a line: leave that arithmetic to it
        if (value.includes('\r') && /\r(?!\n)/.test(value)) return BAIL;
        cells.push(value);
        if (i >= n) return last ? cells : BAIL;
        const c = text.charCodeAt(i);
        if (c === d) i++;
        else if (c === LF || (c === CR && text.charCodeAt(i + 1) === LF)) return cells;
        else return BAIL; // text after a closing quote
        continue;
      }
      let j = i;
      let c = 0;
      for (; j < n; j++) {
        c = text.charCodeAt(j);
        if (c === d || c === LF || c === CR || c === q) break;
      }
      if (j < n && c === q) return BAIL; // a literal quote inside an unquoted field (relax_quotes)
      cells.push(text.slice(i, j));
      if (j >= n) return last ? cells : BAIL;
      if (c === d) i = j + 1;
      else if (c === LF || text.charCodeAt(j + 1) === LF) return cells;
      else return BAIL;
    }
  }
}

function countLf(buf: Buffer, from: number, to: number): number {
  let n = 0;
  for (let at = buf.indexOf(LF, from); at !== -1 && at <= to; at = buf.indexOf(LF, at + 1)) n++;
  return Math.max(n, 1);
}
