// Delimiter, `sep=` line and header row, decided from the decoded prefix only.

import { UsageError } from '../../errors.js';
import type { SourceWarning } from '../types.js';
import { type CsvDialect, CsvSyntaxError } from './csv-chunk-parser.js';
import { FastCsvParser } from './fast-csv-parser.js';

export const CANDIDATES = [',', ';', '\t', '|'] as const;
const SAMPLE_RECORDS = 30;

export interface PrefixRecord {
  cells: string[];
  line: number;
}

export interface DetectedLayout {
  delimiter: string;
  /** 1-based line of the header. */
  headerLine: number;
  header: string[];
  /** Bytes of the decoded text before the header line (sep= line, title rows, blank lines). */
  skipBytes: number;
}

/** Records of the prefix; a syntax error just ends the sample (the full read reports it). */
export function prefixRecords(text: Buffer, dialect: CsvDialect, whole: boolean, firstLine = 1): {
  records: PrefixRecord[];
  error?: CsvSyntaxError;
} {
  const records: PrefixRecord[] = [];
  // the fast path here too: four candidate delimiters over 64 KiB cost ~110 ms in csv-parse alone
  const parser = new FastCsvParser(dialect, firstLine);
  const onRecord = (cells: string[], line: number) => void records.push({ cells, line });
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
  const first = text.subarray(0, 16).toString('utf8').split(/\r\n|\n|\r/)[0] ?? '';
  const match = /^"?sep=(.)"?\s*$/i.exec(first);
  return match?.[1];
}

/** The delimiter count (cells - 1) most sample records agree on, and how many do; title rows and notes are the minority. */
function agreement(records: PrefixRecord[]): { freq: number; mode: number } {
  const counts = new Map<number, number>();
  for (const r of records.slice(0, SAMPLE_RECORDS)) {
    const count = r.cells.length - 1;
    if (count > 0) counts.set(count, (counts.get(count) ?? 0) + 1);
  }
  let best = { freq: 0, mode: 0 };
  for (const [mode, n] of counts) if (n > best.freq || (n === best.freq && mode > best.mode)) best = { freq: n, mode };
  return best;
}

/**
 * How many quote characters sit where this delimiter would put a quoted field's quotes: after the
 * delimiter or a line start, or before the delimiter or a line end. Under a wrong delimiter they sit
 * inside a field. On a short export with ragged rows this is the evidence left when no delimiter
 * count has a majority: a 3-line semicolon file with quoted commas was read as comma-separated.
 */
function alignedQuotes(text: Buffer, delimiter: string, quote: string): number {
  if (quote.length !== 1 || quote.charCodeAt(0) > 0x7f) return 0;
  const q = quote.charCodeAt(0);
  const d = delimiter.charCodeAt(0);
  const edge = (b: number | undefined) => b === undefined || b === d || b === 0x0a || b === 0x0d;
  let n = 0;
  for (let i = text.indexOf(q); i >= 0; i = text.indexOf(q, i + 1)) {
    if (edge(i === 0 ? undefined : text[i - 1]) || edge(text[i + 1])) n++;
  }
  return n;
}

export function chooseDelimiter(text: Buffer, dialect: Omit<CsvDialect, 'delimiter'>, whole: boolean): string {
  const splitting = CANDIDATES.map((delimiter) => ({ delimiter, ...agreement(prefixRecords(text, { ...dialect, delimiter }, whole).records) })).filter((c) => c.freq > 0);
  // quotes decide first when they disagree; without quoted fields every candidate scores alike
  const aligned = splitting.map((c) => alignedQuotes(text, c.delimiter, dialect.quote));
  const most = Math.max(0, ...aligned);
  let best: (typeof splitting)[number] | undefined;
  splitting.forEach((c, i) => {
    if (aligned[i]! < most) return;
    if (!best || c.freq > best.freq || (c.freq === best.freq && c.mode > best.mode)) best = c;
  });
  return best?.delimiter ?? ',';
}

export function nonEmptyCells(cells: string[]): number {
  let n = 0;
  for (const c of cells) if (c.trim() !== '') n++;
  return n;
}

/** Which record is the header: the option, else the first after title rows (one non-empty cell each). */
export function chooseHeader(
  file: string,
  records: PrefixRecord[],
  headerRow: number | undefined,
  warnings: SourceWarning[],
): PrefixRecord | undefined {
  if (headerRow !== undefined) {
    if (!Number.isInteger(headerRow) || headerRow < 1) throw new UsageError(`header row must be a line number from 1, got ${headerRow}`);
    return records.find((r) => r.line >= headerRow);
  }
  const first = records[0];
  if (!first || nonEmptyCells(first.cells) > 1) return first;
  const wide = records.findIndex((r) => nonEmptyCells(r.cells) > 1);
  if (wide <= 0) return first;
  const header = records[wide]!;
  warnings.push({
    file,
    line: header.line,
    message: `skipped ${wide} title line(s) above the header on line ${header.line}; set the header row to choose another`,
  });
  return header;
}

/** Byte offset where 1-based `line` starts in `text` (\r\n, \n and \r all end a line). */
export function lineOffset(text: Buffer, line: number): number {
  let current = 1;
  for (let i = 0; i < text.length && current < line; i++) {
    const b = text[i];
    if (b === 0x0a) current++;
    else if (b === 0x0d) {
      if (text[i + 1] === 0x0a) i++;
      current++;
    }
    if (current === line) return i + 1;
  }
  return current >= line ? 0 : text.length;
}
