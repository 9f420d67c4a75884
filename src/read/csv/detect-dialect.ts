// Delimiter and `sep=` line, decided from the decoded prefix only (the header row: ../header-row.ts).

import type { PrefixRecord } from '../header-row.js';
import { CsvChunkParser, type CsvDialect, CsvSyntaxError } from './csv-chunk-parser.js';
import { FastCsvParser } from './fast-csv-parser.js';

const CANDIDATES = [',', ';', '\t', '|'] as const;
const SAMPLE_RECORDS = 30;

export interface DetectedLayout {
  delimiter: string;
  /** 1-based line of the header. */
  headerLine: number;
  header: string[];
  /** Bytes of the decoded text before the header line (sep= line, title rows, blank lines). */
  skipBytes: number;
}

/** Records of the prefix; a syntax error just ends the sample (the full read reports it). */
export function prefixRecords(
  text: Buffer,
  dialect: CsvDialect,
  whole: boolean,
  firstLine = 1,
  fast = true,
): {
  records: PrefixRecord[];
  error?: CsvSyntaxError;
} {
  const records: PrefixRecord[] = [];
  // the fast path here too (unless the simple engine reads): four candidate delimiters over 64 KiB through csv-parse delay every start
  const parser = fast ? new FastCsvParser(dialect, firstLine) : new CsvChunkParser(dialect, firstLine);
  const onRecord = (cells: string[], line: number, textAfterQuote: boolean) =>
    void records.push(textAfterQuote ? { cells, line, textAfterQuote } : { cells, line });
  try {
    parser.feed(text, false, onRecord);
    if (whole) parser.feed(undefined, true, onRecord);
  } catch (err) {
    if (err instanceof CsvSyntaxError) return { records, error: err };
    throw err;
  }
  return { records };
}

/** Excel's `sep=;` first line: the delimiter it names, and the line is not data. */
export function sepLine(text: Buffer): string | undefined {
  const first =
    text
      .subarray(0, 16)
      .toString('utf8')
      .split(/\r\n|\n|\r/)[0] ?? '';
  const match = /^"?sep=(.)"?\s*$/i.exec(first);
  return match?.[1];
}

/**
 * The delimiter count (cells - 1) most records agree on, how many do, and their weight: that count
 * of records times (cells - 1) / cells, so that records split in two weigh half a record and records
 * split in seven six sevenths (CleverCSV's pattern score, for the one pattern that wins). Title rows
 * and notes are the minority. The weight is what tells a semicolon export whose every amount has a
 * decimal comma: split on commas, each line is two cells, one more line agreeing (a balance line)
 * than on semicolons, which give seven.
 */
function agreement(records: readonly PrefixRecord[]): { freq: number; mode: number; weight: number } {
  const counts = new Map<number, number>();
  for (const r of records) {
    const count = r.cells.length - 1;
    if (count > 0) counts.set(count, (counts.get(count) ?? 0) + 1);
  }
  let best = { freq: 0, mode: 0 };
  for (const [mode, n] of counts) if (n > best.freq || (n === best.freq && mode > best.mode)) best = { freq: n, mode };
  return { ...best, weight: (best.freq * best.mode) / (best.mode + 1) };
}

/**
 * Whether the record's text, split on this delimiter, has a quote where CSV puts none: inside a
 * field that does not start with one, or text after a field's closing quote. Under a wrong delimiter
 * a quoted field's quotes land inside fields; under the right one only a literal quote does (an inch
 * mark, quoted speech in a note).
 */
function strayQuote(text: Buffer, start: number, end: number, d: number, q: number): boolean {
  let i = start;
  while (i < end) {
    // at the start of a field
    if (text[i] === q) {
      i++;
      for (;;) {
        if (i >= end) return false; // still open: the sample ends inside it
        if (text[i] === q) {
          if (text[i + 1] === q) i += 2;
          else break;
        } else i++;
      }
      i++; // past the closing quote
      const c = text[i];
      if (i < end && c !== d && c !== 0x0a && c !== 0x0d) return true;
    } else {
      while (i < end && text[i] !== d && text[i] !== 0x0a && text[i] !== 0x0d) {
        if (text[i] === q) return true;
        i++;
      }
    }
    i++; // past the delimiter or line end
  }
  return false;
}

/**
 * The delimiter most sample records agree on. Records with a stray quote under a candidate (see
 * strayQuote) do not vote for it: a 3-line semicolon export with quoted commas and rows of uneven
 * width was read as comma-separated, the comma splitting both data rows alike. Without quotes every
 * record votes, as before.
 */
export function chooseDelimiter(text: Buffer, dialect: Omit<CsvDialect, 'delimiter'>, whole: boolean, fast = true): string {
  const q = dialect.quote.length === 1 && dialect.quote.charCodeAt(0) < 0x80 ? dialect.quote.charCodeAt(0) : -1;
  const starts = lineStarts(text, SAMPLE_RECORDS * 4);
  const startOf = (line: number) => starts[line - 1] ?? text.length;
  let best: { delimiter: string; rank: number[] } | undefined;
  for (const delimiter of CANDIDATES) {
    const parsed = prefixRecords(text, { ...dialect, delimiter }, whole, 1, fast).records.slice(0, SAMPLE_RECORDS);
    // text after a closing quote: the quotes do not fit this delimiter, and the records after it are
    // cut where the parser, out of step with them, thinks lines end (a quoted cell holding a bare CR
    // and a `;` made a comma export read as semicolon-separated from those pieces)
    const broken = parsed.findIndex((r) => r.textAfterQuote);
    const records = broken < 0 ? parsed : parsed.slice(0, broken + 1);
    const d = delimiter.charCodeAt(0);
    const clean = q < 0 ? records : records.filter((r, i) => !strayQuote(text, startOf(r.line), startOf(records[i + 1]?.line ?? r.line + 1), d, q));
    const all = agreement(records);
    if (all.freq === 0) continue;
    const { freq, mode, weight } = agreement(clean);
    // the clean records' weighted vote first, then their count, then every record's; a tie keeps the earlier candidate
    const rank = [weight, freq, mode, all.weight, all.freq, all.mode];
    if (!best || ahead(rank, best.rank)) best = { delimiter, rank };
  }
  return best?.delimiter ?? ',';
}

/** Whether `a` comes after `b` in lexicographic order. */
function ahead(a: readonly number[], b: readonly number[]): boolean {
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return a[i]! > b[i]!;
  return false;
}

/** Byte offsets where the first `max` lines start (\r\n, \n and \r all end a line). */
function lineStarts(text: Buffer, max: number): number[] {
  const starts = [0];
  for (let i = 0; i < text.length && starts.length < max; i++) {
    const b = text[i];
    if (b === 0x0d && text[i + 1] === 0x0a) i++;
    if (b === 0x0a || b === 0x0d) starts.push(i + 1);
  }
  return starts;
}

/** Byte offset where 1-based `line` starts in `text` (\r\n, \n and \r all end a line); the end when it has fewer lines. */
export function lineOffset(text: Buffer, line: number): number {
  return lineStarts(text, line)[line - 1] ?? text.length;
}
