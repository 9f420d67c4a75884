// `batch-sync inspect`: how a file is read, as lines for a person or one JSON document. What a user
// runs when a column "is not there"; it shows the first rows' values, which is what it is for (on
// stdout only, nothing is written or sent).
import type { ColumnInfo } from '../map/propose/describe-columns.js';
import type { HeaderChoiceInfo, SourceFormat, SourceRecord, SourceWarning } from '../read/types.js';
import { shorten } from '../shorten.js';
import { plural } from './plural.js';
import { visible } from './terminal-text.js';

export interface Inspection {
  file: string;
  format: SourceFormat;
  encoding: string;
  delimiter?: string;
  sheet?: string;
  /** Workbooks: every sheet; `sheetAsked` when --sheet (or reader.sheet) chose the one read. */
  sheets?: { name: string; hidden: boolean; chart: boolean }[];
  sheetAsked: boolean;
  /** JSON: where the items were found, when the reader says. */
  root?: string;
  header?: HeaderChoiceInfo;
  columns: ColumnInfo[];
  sample: { records: number; rows: number; unreadable: number; items: number; complete: boolean };
  /** The first records, as read. */
  first: SourceRecord[];
  /** The header's names, to show a row's cells by column (rows of a CSV or a sheet). */
  names?: readonly string[];
  warnings: SourceWarning[];
}

const CELL = 40;
const at = (w: SourceWarning) => (w.line === undefined ? w.file : `${w.file}:${w.line}`);
const range = (unit: string, a: { from: number; to: number }) => (a.from === a.to ? `${unit} ${a.from}` : `${unit}s ${a.from}–${a.to}`);

function sheetLine(i: Inspection): string {
  const others = (i.sheets ?? []).filter((s) => s.name !== i.sheet).map((s) => `"${s.name}"${s.chart ? ' (a chart)' : s.hidden ? ' (hidden)' : ''}`);
  const why = i.sheetAsked ? 'as --sheet (reader.sheet) says' : others.length ? 'the first that holds data' : 'the only sheet';
  return `"${i.sheet}", ${why}${others.length ? `; the others: ${others.join(', ')}` : ''}`;
}

function headerLine(h: HeaderChoiceInfo): string {
  const above = h.above ? `; ${range(h.unit, h.above)} above it passed over` : '';
  return `${h.unit} ${h.line}: ${h.why}${above}`;
}

/** The longest of `values`: a loop, as a file may have 150,000 columns (too many to spread into Math.max). */
const widest = (values: readonly string[]) => values.reduce((max, v) => Math.max(max, v.length), 0);

function columnLines(columns: readonly ColumnInfo[], rows: number): string[] {
  const nameWidth = Math.min(24, widest(columns.map((c) => (c.letter ? `${c.letter}  ${c.name}` : c.name))));
  const typeOf = (c: ColumnInfo) => (c.format ? `${c.type} (${c.format})` : c.type);
  const typeWidth = widest(columns.map(typeOf));
  return columns.map((c) => {
    const name = visible(c.letter ? `${c.letter}  ${c.name}` : c.name).padEnd(nameWidth);
    const filled = c.filled < rows && c.type !== 'empty' ? `${c.filled} of ${rows} filled: ` : '';
    const examples = c.examples.map((e) => shorten(visible(e), CELL)).join(', ');
    return `  ${name}  ${typeOf(c).padEnd(typeWidth)}  ${filled}${examples}`.trimEnd();
  });
}

/** A row's line: its cells while they fit in ROW_LINE characters, then how many columns are left out. */
const ROW_LINE = 1000;

function recordLine(r: SourceRecord, names: readonly string[] | undefined): string {
  if (r.kind === 'unreadable') return `line ${r.line}  unreadable: ${visible(r.reason)}`;
  if (r.kind === 'item') return `line ${r.line}  ${shorten(visible(JSON.stringify(r.item)), 200)}`;
  const columns = names ?? Object.keys(r.row);
  let text = `line ${r.line}  `;
  for (let i = 0; i < columns.length; i++) {
    const n = columns[i]!;
    const cell = `${i === 0 ? '' : ' | '}${visible(n)}=${shorten(visible(r.row[n] ?? ''), CELL)}`;
    if (i > 0 && text.length + cell.length > ROW_LINE) return `${text} (and ${columns.length - i} more columns)`;
    text += cell;
  }
  return text;
}

/** The inspection as lines for a terminal or a log. */
export function inspectionLines(i: Inspection): string[] {
  const lines = [visible(i.file), `format      ${i.format}`];
  if (i.format !== 'xlsx') lines.push(`encoding    ${i.encoding}`);
  if (i.delimiter !== undefined) lines.push(`delimiter   ${i.delimiter === '\t' ? 'tab' : i.delimiter}`);
  if (i.sheet !== undefined) lines.push(`sheet       ${visible(sheetLine(i))}`);
  if (i.root !== undefined) lines.push(`root        ${i.root}`);
  if (i.header) lines.push(`header      ${headerLine(i.header)}`);
  const s = i.sample;
  const what = i.format === 'json' || i.format === 'ndjson' ? 'item' : 'row';
  const counted = `${plural(s.rows + s.items, what)}${s.unreadable ? ` and ${s.unreadable} unreadable` : ''}`;
  lines.push(`sample      ${counted}, ${s.complete ? 'the whole file' : 'the first of the file (--sample reads more)'}`);
  // concat, not push(...): a list of 150,000 columns is more arguments than a call takes
  const columns = ['', `columns (${i.columns.length}):`].concat(columnLines(i.columns, s.rows + s.items));
  const first = ['', `first ${what}s (${i.first.length} of ${s.records}${s.complete ? '' : '+'}):`].concat(i.first.map((r) => `  ${recordLine(r, i.names)}`));
  const warnings = i.warnings.length
    ? ['', `warnings (${i.warnings.length}):`].concat(i.warnings.map((w) => `  ${visible(at(w))}  ${visible(w.message)}`))
    : [];
  return lines.concat(columns, first, warnings);
}

const recordJson = (r: SourceRecord) =>
  r.kind === 'item'
    ? { line: r.line, kind: r.kind, item: r.item }
    : r.kind === 'row'
      ? { line: r.line, kind: r.kind, cells: { ...r.row } }
      : { line: r.line, kind: r.kind, reason: r.reason, cells: r.row ? { ...r.row } : null };

/** The inspection as one JSON document; keys in a fixed order, absent values null. */
export function inspectionJson(i: Inspection) {
  const h = i.header;
  return {
    file: i.file,
    format: i.format,
    encoding: i.encoding,
    delimiter: i.delimiter ?? null,
    sheet: i.sheet ?? null,
    sheets: i.sheets ? i.sheets.map((s) => ({ name: s.name, hidden: s.hidden, chart: s.chart, read: s.name === i.sheet })) : null,
    root: i.root ?? null,
    header: h
      ? { line: h.line, unit: h.unit, how: h.how, why: h.why, passedOver: h.above ?? null, noRowFits: h.noRowFits ?? null, lookalike: h.lookalike ?? null }
      : null,
    columns: i.columns.map((c) => ({ name: c.name, letter: c.letter ?? null, type: c.type, format: c.format ?? null, filled: c.filled, examples: c.examples })),
    sample: i.sample,
    rows: i.first.map(recordJson),
    warnings: i.warnings.map((w) => ({ line: w.line ?? null, message: w.message })),
  };
}
