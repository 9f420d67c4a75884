// CSV: detect the layout on a bounded prefix, then stream the file once (fast path, csv-parse behind
// it; csv-parse alone for the simple engine).

import { InputError, UsageError } from '../../errors.js';
import { mixedEncodingWarning, utf8Chunks } from '../encoding.js';
import { MIXED_ENCODING, perLineStats } from '../mixed-lines.js';
import { at } from '../file-errors.js';
import { PREFIX_BYTES, type Sniffed, sniff } from '../sniff.js';
import { DEFAULT_MAX_RECORD_BYTES, type HeaderChoiceInfo, type OpenedSource, type ReaderOptions, type SourceRecord, type SourceWarning } from '../types.js';
import { CsvChunkParser, type CsvDialect, CsvSyntaxError } from './csv-chunk-parser.js';
import { csvSyntaxError } from './csv-errors.js';
import { chooseHeaderRow, headerChoiceInfo, headerWarnings } from '../header-row.js';
import { chooseDelimiter, type DetectedLayout, lineOffset, prefixRecords, sepLine } from './detect-dialect.js';
import { FastCsvParser } from './fast-csv-parser.js';
import { buildHeader } from './header.js';
import { emptyMarked, nulRemover, rowBuilder } from './row-builder.js';

/** `fast`: the fast path in front of csv-parse; without it, csv-parse alone (the simple engine). */
export async function openCsv(file: string, options: ReaderOptions, warnings: SourceWarning[], fast = true): Promise<OpenedSource> {
  const quote = options.quote ?? '"';
  if (quote.length !== 1) throw new UsageError(`the quote must be one character, got ${JSON.stringify(quote)}`);
  if (options.delimiter !== undefined && (options.delimiter === '' || options.delimiter === quote)) {
    throw new UsageError(`the delimiter must be a non-empty string other than the quote, got ${JSON.stringify(options.delimiter)}`);
  }
  const base = {
    quote,
    escape: options.escape ?? quote,
    maxRecordBytes: options.maxRecordBytes ?? DEFAULT_MAX_RECORD_BYTES,
  };

  let sniffed = await sniff(file, options.encoding, warnings, PREFIX_BYTES, true);
  let layout = detectLayout(file, sniffed, base, options, warnings, fast);
  if (!layout) {
    // the header did not end inside the first 64 KiB: look once more, as far as one record may go
    sniffed = await sniff(file, options.encoding, [], base.maxRecordBytes + PREFIX_BYTES, true);
    layout = detectLayout(file, sniffed, base, options, warnings, fast);
  }
  if (!layout) {
    throw new InputError(`${file}: no complete header line in the first ${base.maxRecordBytes + PREFIX_BYTES} bytes`);
  }

  const header = buildHeader(file, layout.headerLine, layout.header, warnings);
  const dialect: CsvDialect = { ...base, delimiter: layout.delimiter };
  const { encoding, bomLength } = sniffed;
  const { headerLine, skipBytes } = layout;

  async function* records(): AsyncGenerator<SourceRecord> {
    const parser = fast ? new FastCsvParser(dialect, headerLine) : new CsvChunkParser(dialect, headerLine);
    const build = rowBuilder(file, header, quote, warnings);
    const nuls = nulRemover(file, header.names, warnings);
    const marker = options.null;
    // set once a chunk holds a NUL (a memchr per chunk): only then are cells searched for one
    let nul = false;
    const ready: SourceRecord[] = [];
    let seenHeader = false;
    let count = 0;
    const perLine = sniffed.perLine ? perLineStats() : undefined;
    const onRecord = (cells: string[], line: number, textAfterQuote: boolean, plain?: string) => {
      if (!seenHeader) {
        seenHeader = true; // already read from the prefix
        return;
      }
      // a cleaned line, or one whose NULL markers were emptied, no longer splits into these cells: `plain` goes
      let kept = nul && nuls.clean(cells, line) ? undefined : plain;
      if (marker !== undefined && emptyMarked(cells, marker)) kept = undefined;
      const record = build(cells, line, textAfterQuote, kept);
      if (record) ready.push(record);
    };
    try {
      for await (const chunk of utf8Chunks({ file, encoding, start: bomLength, skip: skipBytes, perLine })) {
        nul ||= chunk.includes(0);
        parser.feed(chunk, false, onRecord);
        for (let i = 0; i < ready.length; i++) yield ready[i]!;
        count += ready.length;
        ready.length = 0;
      }
      parser.feed(undefined, true, onRecord);
      for (let i = 0; i < ready.length; i++) yield ready[i]!;
      count += ready.length;
      nuls.end();
    } catch (err) {
      if (err instanceof CsvSyntaxError) throw csvSyntaxError(file, err.syntax, dialect.maxRecordBytes, quote);
      throw err;
    } finally {
      // also when a sample (init, inspect) stops early: said of the lines read so far
      const mixed = perLine && (await mixedEncodingWarning(file, encoding, perLine));
      if (mixed) warnings.push(mixed);
    }
    if (count === 0) warnings.push({ file, line: headerLine, message: 'has a header but no rows' });
  }

  return {
    file,
    format: 'csv',
    header: header.names,
    unnamedAtEnd: header.names.slice(header.names.length - header.unnamedAtEnd),
    detected: { encoding: sniffed.mixed ? MIXED_ENCODING : encoding, delimiter: layout.delimiter, headerRow: headerLine },
    headerChoice: layout.choice,
    warnings,
    records: records(),
  };
}

function detectLayout(
  file: string,
  sniffed: Sniffed,
  base: Omit<CsvDialect, 'delimiter'>,
  options: ReaderOptions,
  warnings: SourceWarning[],
  fast: boolean,
): (DetectedLayout & { choice: HeaderChoiceInfo }) | undefined {
  const { text, whole } = sniffed;
  const sep = sepLine(text);
  const firstLine = sep === undefined ? 1 : 2;
  const body = sep === undefined ? text : text.subarray(lineOffset(text, 2));
  const delimiter = options.delimiter ?? sep ?? chooseDelimiter(body, base, whole, fast);
  const { records, error } = prefixRecords(body, { ...base, delimiter }, whole, firstLine, fast);
  const choice = chooseHeaderRow(records, options.headerRow);
  const header = choice?.record;
  if (!header) {
    if (error && (whole || records.length > 0 || error.syntax.kind === 'too-large')) throw csvSyntaxError(file, error.syntax, base.maxRecordBytes, base.quote);
    if (!whole) return undefined;
    if (options.headerRow !== undefined) throw new InputError(`${at(file, options.headerRow)}: the header row is past the end of the file`);
    throw new InputError(`${file}: file is empty`);
  }
  if (header.textAfterQuote) {
    // as in a data row: `"name" ` is not the name `"name"` with its quotes
    throw new InputError(`${at(file, header.line)}: the header has text after a closing quote (like ${base.quote}name${base.quote}x or a space after it)`, {
      suggestion: `Quote the whole header name, or remove what follows its closing quote${base.escape === base.quote ? '' : '; or check the escape option'}.`,
    });
  }
  warnings.push(...headerWarnings(file, choice));
  return { delimiter, headerLine: header.line, header: header.cells, skipBytes: lineOffset(text, header.line), choice: headerChoiceInfo(choice) };
}
