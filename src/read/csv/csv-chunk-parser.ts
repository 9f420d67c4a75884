// csv-parse driven chunk by chunk, synchronously, so each record gets the line it STARTS on.
//
// Why not the Transform stream: its records arrive after the parser has moved on, so its live line
// counters no longer describe them, and `info: true` (a snapshot per record) costs a third more
// time on 1M rows. Why our own line arithmetic: csv-parse counts the record's END line, and counts a
// CRLF inside a quoted field as two lines. We take "previous record's end + blank lines skipped + 1"
// as the start, and recount line breaks ourselves only for records csv-parse saw span several lines.

// These are csv-parse's internals (`api.parse`, `api.info`, `state.field`): package.json pins the
// exact version, and test/read and test/perf/fast-csv-equivalence pin the behaviour, so an upgrade
// is a deliberate step that those tests check.
import { type CsvError, Parser } from 'csv-parse';

interface CsvParseApi {
  parse(buf: Buffer | undefined, end: boolean, push: (record: string[]) => void, close: () => void): Error | undefined;
  info: { lines: number; empty_lines: number };
  state: { field: { prepend(value: unknown): unknown } };
  __isEscape(buf: Buffer, pos: number, chr: number): boolean;
  __isQuote(buf: Buffer, pos: number): boolean;
}

export interface CsvDialect {
  delimiter: string;
  quote: string;
  /** Escape inside quoted fields; the quote itself by default (`""`). */
  escape: string;
  maxRecordBytes: number;
}

export type CsvSyntax = { kind: 'too-large'; line: number } | { kind: 'unclosed-quote'; line: number } | { kind: 'other'; line: number; message: string };

export class CsvSyntaxError extends Error {
  constructor(readonly syntax: CsvSyntax) {
    super(syntax.kind === 'other' ? syntax.message : syntax.kind);
  }
}

/** Receives each record: its cells, the line it starts on, and whether a field had text after its closing quote. */
/** `plain`: the record's text when its cells are that text split on the delimiter (no quotes in it). */
export type OnRecord = (cells: string[], line: number, textAfterQuote: boolean, plain?: string) => void;

export class CsvChunkParser {
  private readonly api: CsvParseApi;
  private prevEnd: number; // our line where the previous record ended
  private csvPrevEnd = 0; // csv-parse's line count at the previous record's end
  private prevEmpty = 0;
  private textAfterQuote = false;
  private onRecord: OnRecord = () => {};
  private readonly push = (cells: string[]) => this.record(cells);
  private readonly noop = () => {};

  /** `firstLine`: the file line the first fed byte is on. */
  constructor(dialect: CsvDialect, firstLine = 1) {
    const parser = new Parser({
      delimiter: dialect.delimiter,
      quote: dialect.quote,
      escape: dialect.escape,
      // all three, so files that mix line ends (pasted rows) split everywhere, not on the first kind only
      record_delimiter: ['\r\n', '\n', '\r'],
      // a bare quote inside an unquoted field (`5" screen`) is a literal inch mark, not an error
      relax_quotes: true,
      // ragged rows are reported per row by the caller, not fatal
      relax_column_count: true,
      skip_empty_lines: true,
      max_record_size: dialect.maxRecordBytes,
      bom: false,
    });
    this.api = (parser as unknown as { api: CsvParseApi }).api;
    this.prevEnd = firstLine - 1;
    // With relax_quotes csv-parse keeps `"abc"def` as a literal and says nothing; its only trace is
    // this prepend of the quote. We mark the record so it becomes unreadable instead of silently
    // sending `"abc"def`. (Pinned by the "text after a closing quote" tests.)
    // An escape other than the quote (`\`) escapes only the quote or itself; before any other
    // character it is that character's literal backslash, as written. csv-parse drops it (`"c\d"`
    // became `cd`, PapaParse's case "Custom escape character not used for escaping").
    if (dialect.escape !== dialect.quote) {
      const api = this.api;
      const isEscape = api.__isEscape.bind(api);
      const width = Buffer.byteLength(dialect.escape);
      api.__isEscape = (buf, pos, chr) => {
        if (!isEscape(buf, pos, chr)) return false;
        const next = pos + width;
        // csv-parse keeps enough bytes ahead for this look; at the very end there is nothing to escape
        return next >= buf.length || api.__isQuote(buf, next) || isEscape(buf, next, buf[next]!);
      };
    }
    const field = this.api.state.field;
    const prepend = field.prepend.bind(field);
    field.prepend = (value: unknown) => {
      this.textAfterQuote = true;
      return prepend(value);
    };
  }

  /** Feeds one chunk (or the end, with `undefined`); records are delivered before it returns. */
  feed(buf: Buffer | undefined, end: boolean, onRecord: OnRecord): void {
    this.onRecord = onRecord;
    const err = this.api.parse(buf, end, this.push, this.noop);
    if (err !== undefined) throw new CsvSyntaxError(this.describe(err));
  }

  private record(cells: string[]): void {
    const info = this.api.info;
    const empty = info.empty_lines - this.prevEmpty;
    const start = this.prevEnd + 1 + empty;
    const span = info.lines - this.csvPrevEnd - 1 - empty;
    this.prevEnd = span === 0 ? start : start + countLineBreaks(cells);
    this.csvPrevEnd = info.lines;
    this.prevEmpty = info.empty_lines;
    const flagged = this.textAfterQuote;
    this.textAfterQuote = false;
    this.onRecord(cells, start, flagged);
  }

  /** Line where the record being parsed started (for errors raised in the middle of it). */
  private currentStart(): number {
    return this.prevEnd + 1 + (this.api.info.empty_lines - this.prevEmpty);
  }

  private describe(err: Error): CsvSyntax {
    const code = (err as CsvError).code;
    if (code === 'CSV_MAX_RECORD_SIZE') return { kind: 'too-large', line: this.currentStart() };
    if (code === 'CSV_QUOTE_NOT_CLOSED') return { kind: 'unclosed-quote', line: this.currentStart() };
    return { kind: 'other', line: this.currentStart(), message: err.message };
  }
}

/** Line breaks inside a record's cells; \r\n counts once. */
function countLineBreaks(cells: string[]): number {
  let n = 0;
  for (const cell of cells) {
    for (let i = 0; i < cell.length; i++) {
      const c = cell.charCodeAt(i);
      if (c === 10) n++;
      else if (c === 13) {
        n++;
        if (cell.charCodeAt(i + 1) === 10) i++;
      }
    }
  }
  return n;
}
