// Which row is the header, for CSV files and workbook sheets alike (and so for init's sample): the
// header-row option when given, else the first row whose names cover the columns the rows below it
// use. Report exports put a title, a "generated on | date" row, filters and blank rows above the
// header; each of those is narrower than the data, or holds values rather than names.
import { UsageError } from '../errors.js';
import type { HeaderChoiceInfo, HeaderHow, SourceWarning } from './types.js';

/** A record of the sample read before the header is known. */
export interface PrefixRecord {
  cells: string[];
  line: number;
  /** Text after a closing quote (`"abc"def`, `"name" `): a data row with it is unreadable, a header line an error. */
  textAfterQuote?: boolean;
}

/** The choice and the record chosen (which stays with the reader; OpenedSource gets the rest). */
export interface HeaderChoice extends Omit<HeaderChoiceInfo, 'line'> {
  record: PrefixRecord;
}

/** Rows looked at as the header, and rows below each that it must match. */
const CANDIDATES = 30;
const ROWS_BELOW = 20;

interface Span {
  /** Index of the first and past the last non-empty cell. */
  first: number;
  end: number;
  values: number;
}

function spanOf(cells: readonly string[]): Span | undefined {
  let first = -1;
  let end = 0;
  let values = 0;
  for (let i = 0; i < cells.length; i++) {
    if (cells[i]!.trim() === '') continue;
    if (first < 0) first = i;
    end = i + 1;
    values++;
  }
  return first < 0 ? undefined : { first, end, values };
}

export function nonEmptyCells(cells: readonly string[]): number {
  return spanOf(cells)?.values ?? 0;
}

/** A value rather than a name: digits and no letter (`2026-11-20 18:30`, `1.234,56`, `2024`). */
const isValue = (cell: string) => /\d/.test(cell) && !/\p{L}/u.test(cell);

/**
 * A cell no header holds, for telling a data row from a header with a few numeric names: a value
 * other than a year (`2019` names a column of a report by year), or an e-mail address.
 */
const isDataCell = (cell: string) => (isValue(cell) && !/^(19|20)\d\d$/.test(cell)) || /^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(cell);

/** When most of a row's cells are values, not names (a data row taken as the header): the first few, quoted. */
function headerless(record: PrefixRecord, unit: string): string | undefined {
  const cells = record.cells.map((c) => c.trim()).filter((c) => c !== '');
  const values = cells.filter(isDataCell);
  if (values.length * 2 <= cells.length) return undefined;
  const shown = values.slice(0, 3).map((v) => JSON.stringify(v.length > 40 ? `${v.slice(0, 39)}…` : v));
  return `${unit} ${record.line} holds values: ${shown.join(', ')}`;
}

/**
 * The columns the rows use: from the first value of the leftmost quarter of the rows to the last
 * of the rightmost quarter. Optional last columns are often empty, so not every row reaches the
 * data's edge; one stray row past it does not move the edge either.
 */
function dataColumns(below: readonly Span[]): { first: number; end: number } | undefined {
  if (below.length === 0) return undefined;
  const quarter = Math.floor(below.length / 4);
  const first = below.map((s) => s.first).sort((a, b) => a - b)[quarter]!;
  const end = below.map((s) => s.end).sort((a, b) => b - a)[quarter]!;
  return { first, end: Math.max(first + 1, end) };
}

/**
 * A header's names: two or more (one when the rows are one column wide), none of them a value,
 * covering at least half the columns the rows below use.
 */
function looksLikeHeader(record: PrefixRecord, own: Span, below: readonly Span[]): boolean {
  const data = dataColumns(below);
  const width = data ? data.end - data.first : own.end - own.first;
  if (own.values < 2 && width > 1) return false;
  if (record.cells.some((c) => c.trim() !== '' && isValue(c.trim()))) return false;
  if (!data) return true;
  let named = 0;
  for (let i = data.first; i < data.end; i++) if ((record.cells[i] ?? '').trim() !== '') named++;
  return named * 2 >= width;
}

/** The non-blank records after index `i`, as spans, up to ROWS_BELOW. */
function spansBelow(records: readonly PrefixRecord[], i: number): Span[] {
  const out: Span[] = [];
  for (let j = i + 1; j < records.length && out.length < ROWS_BELOW; j++) {
    const s = spanOf(records[j]!.cells);
    if (s) out.push(s);
  }
  return out;
}

function detect(records: readonly PrefixRecord[]): { index: number; how: HeaderHow; width?: number } | undefined {
  const limit = Math.min(records.length, CANDIDATES);
  for (let i = 0; i < limit; i++) {
    const own = spanOf(records[i]!.cells);
    if (!own) continue;
    const below = spansBelow(records, i);
    if (!looksLikeHeader(records[i]!, own, below)) continue;
    const data = dataColumns(below);
    return { index: i, how: i === 0 ? 'first' : 'detected', width: data && data.end - data.first };
  }
  // nothing matched: the old rule, the first row with more than one value
  if (records.length === 0) return undefined;
  const wide = records.findIndex((r) => nonEmptyCells(r.cells) > 1);
  return { index: Math.max(0, wide), how: 'fallback' };
}

/** Whether a row's values all lie under the header's names (from the first name to the last). */
function fits(header: Span, row: Span): boolean {
  return row.first >= header.first && row.end <= header.end;
}

/** Whether some rows were sampled below record `i` and none of them fits it as a header. */
function fitsNoRow(records: readonly PrefixRecord[], i: number): boolean {
  const own = spanOf(records[i]!.cells);
  const below = spansBelow(records, i);
  return own !== undefined && below.length > 0 && !below.some((s) => fits(own, s));
}

function range(from: number, to: number, unit: string): string {
  return from === to ? `${unit} ${from}` : `${unit}s ${from}–${to}`;
}

/**
 * The header among the first records of a file or sheet. `headerRow` (the option) wins: the first
 * record on or after that line. `unit`: what the file's lines are called (`line`; a sheet's `row`).
 */
export function chooseHeaderRow(records: readonly PrefixRecord[], headerRow: number | undefined, unit: 'line' | 'row' = 'line'): HeaderChoice | undefined {
  if (headerRow !== undefined) {
    if (!Number.isInteger(headerRow) || headerRow < 1) throw new UsageError(`header row must be a line number from 1, got ${headerRow}`);
    const index = records.findIndex((r) => r.line >= headerRow);
    if (index < 0) return undefined;
    return withFit(records, index, { record: records[index]!, unit, how: 'option', why: 'as the header row option (--header-row, reader.headerRow) says' });
  }
  const found = detect(records);
  if (!found) return undefined;
  const record = records[found.index]!;
  const first = records[0]!.line;
  const above = record.line > first ? { from: first, to: record.line - 1 } : undefined;
  const why =
    found.how === 'fallback'
      ? "the first row with more than one value: no row's names matched the rows below it"
      : found.width === undefined
        ? 'the first row of names (no rows below it to compare with)'
        : `the first row whose names cover the ${found.width} columns of the rows below it`;
  const noHeader = found.how === 'fallback' ? headerless(record, unit) : undefined;
  return withFit(records, found.index, { record, unit, how: found.how, why, ...(above ? { above } : {}), ...(noHeader ? { headerless: noHeader } : {}) });
}

/** Where a file with no header row needs a line of column names. */
export function namesGoAt(choice: Pick<HeaderChoiceInfo, 'line' | 'unit'>): string {
  return choice.line === 1 ? `as ${choice.unit} 1` : `above ${choice.unit} ${choice.line}`;
}

/** What to say of a file with no header row (`headerless`) that is read anyway: a warning, or the advice under an error. */
export function noHeaderRow(choice: Pick<HeaderChoiceInfo, 'line' | 'unit' | 'headerless'>): string | undefined {
  const { unit, line, headerless: held } = choice;
  if (held === undefined) return undefined;
  return `the file has no header row: ${held}; it is read as the header, so its row is not read as data: add a ${unit} of column names ${namesGoAt(choice)} (if ${unit} ${line} is the header, set --header-row ${line} or reader.headerRow: ${line})`;
}

/** The choice, with what to say when no sampled row below it fits it, and the row that looks like the header then. */
function withFit(records: readonly PrefixRecord[], index: number, choice: HeaderChoice): HeaderChoice {
  if (!fitsNoRow(records, index)) return choice;
  const own = spanOf(records[index]!.cells)!;
  const below = spansBelow(records, index);
  const other = detect(records);
  const lookalike = other && other.index !== index && !fitsNoRow(records, other.index) ? records[other.index]!.line : undefined;
  const { unit } = choice;
  const widest = Math.max(...below.map((s) => s.end));
  const fix =
    lookalike !== undefined
      ? `${unit} ${lookalike} looks like the header: set --header-row ${lookalike} (reader.headerRow: ${lookalike})`
      : `set the header row (--header-row N, reader.headerRow) to the ${unit} of the real header`;
  const noRowFits = `no row below the header on ${unit} ${choice.record.line} fits its ${own.values} ${own.values === 1 ? 'column' : 'columns'} (the rows below it use up to ${widest}); ${fix}`;
  return { ...choice, noRowFits, ...(lookalike !== undefined ? { lookalike } : {}) };
}

/** The file-level warnings a choice deserves: rows passed over above it, or no row below fitting it. */
export function headerWarnings(file: string, choice: HeaderChoice): SourceWarning[] {
  const { unit } = choice;
  const line = choice.record.line;
  const warnings: SourceWarning[] = [];
  if (choice.above) {
    warnings.push({
      file,
      line,
      message: `the header is ${unit} ${line}, ${choice.why}; passed over ${range(choice.above.from, choice.above.to, unit)} above it (set the header row, --header-row or reader.headerRow, to choose another)`,
    });
  }
  if (choice.noRowFits) warnings.push({ file, line, message: choice.noRowFits });
  const noHeader = noHeaderRow({ ...choice, line });
  if (noHeader) warnings.push({ file, line, message: noHeader });
  return warnings;
}

/** The choice without its record, for OpenedSource. */
export function headerChoiceInfo(choice: HeaderChoice): HeaderChoiceInfo {
  const { record, ...rest } = choice;
  return { line: record.line, ...rest };
}
