// .xlsx: the workbook's small parts and its shared strings read at open, the sheet chosen (--sheet,
// else the first that holds data) and its header found as in a CSV (title rows above it,
// --header-row); then the sheet is streamed once, row by row. Records are rows like a CSV's, their
// line the sheet's row number, with a type letter per cell (RowRecord.types).
import { BatchSyncError, InputError, UsageError } from '../../errors.js';
import { buildHeader } from '../csv/header.js';
import { chooseHeaderRow, headerChoiceInfo, headerWarnings, nonEmptyCells, type PrefixRecord } from '../header-row.js';
import { CsvRow } from '../csv/row-builder.js';
import { DEFAULT_MAX_RECORD_BYTES, type OpenedSource, type ReaderOptions, type SourceRecord, type SourceWarning } from '../types.js';
import { sheetLabel } from '../../util/sheet-label.js';
import { columnLetter } from './cell-value.js';
import { type MergedRanges, readMergedRanges } from './merged-ranges.js';
import { RowsRead } from './row-order.js';
import { readSharedStrings } from './shared-strings.js';
import { MAX_COLUMNS, type SheetContext, type SheetRow, sheetRows } from './sheet-rows.js';
import { readStyles } from './styles.js';
import { readPackage, type SheetEntry } from './workbook-package.js';
import { openWorkbookZip, type WorkbookZip } from './workbook-zip.js';
import { XmlBroken, XmlTooLong } from './xml-stream.js';

/** Rows looked at for title rows above the header, as the CSV reader does. */
const PREFIX_ROWS = 30;

/** A sheet row with the type letter of each cell (n number, d date, b boolean, else text). */
class XlsxRow extends CsvRow {
  constructor(
    file: string,
    line: number,
    cells: readonly string[],
    names: readonly string[],
    readonly types: string,
  ) {
    super(file, line, cells, names, undefined);
  }
}

export async function openXlsx(file: string, options: ReaderOptions, warnings: SourceWarning[]): Promise<OpenedSource> {
  const maxTextChars = options.maxRecordBytes ?? DEFAULT_MAX_RECORD_BYTES;
  const zip = await openWorkbookZip(file);
  if (zip.trailingBytes) {
    warnings.push({
      file,
      message: `${zip.trailingBytes.toLocaleString('en-US')} bytes follow the zip archive's end (a download with something appended?): not read`,
    });
  }
  let ctx: SheetContext;
  let sheet: SheetEntry;
  let prefix: SheetRow[];
  let sheets: SheetEntry[];
  let merges: MergedRanges | undefined;
  try {
    const workbook = await readWorkbook(file, zip, maxTextChars);
    ctx = workbook.ctx;
    sheets = workbook.sheets;
    ({ sheet, prefix, merges } = await chooseSheet(file, zip, workbook.sheets, options, ctx, warnings));
  } catch (err) {
    throw readError(file, err);
  } finally {
    zip.close();
  }
  const where = `${file}: sheet "${sheet.name}"`;
  // rows stored out of order are still the sheet's rows: the header is chosen among them in row order
  const records = [...prefix].sort((a, b) => a.line - b.line).map((r): PrefixRecord => ({ cells: r.cells, line: r.line }));
  const chosen = chooseHeaderRow(records, options.headerRow, 'row');
  const headerRow = chosen && prefix.find((r) => r.line === chosen.record.line);
  if (!headerRow) {
    if (options.headerRow !== undefined) throw new InputError(`${where}: the header row ${options.headerRow} is past the sheet's last row`);
    throw new InputError(`${where}: the sheet is empty`);
  }
  if (headerRow.problem) throw new InputError(`${where}, header row ${headerRow.line}: ${headerRow.problem}`);
  if (headerRow.beyond) throw tooWide(where, headerRow.beyond);
  warnings.push(...headerWarnings(file, chosen));
  const first = headerRow.cells.findIndex((c) => c.trim() !== '');
  const header = buildHeader(`${file}`, headerRow.line, headerRow.cells.slice(first), warnings, (i) => columnLetter(first + i));
  const width = header.names.length;
  // a workbook of several worksheets: its rows' positions name the sheet (`cartera.xlsx[Ventas 2026]:45`)
  const rowsFile = sheets.filter((s) => s.part).length > 1 ? sheetLabel(file, sheet.name) : file;
  for (const w of warnings) if (w.line !== undefined && w.file === file) w.file = rowsFile;
  const span = `${columnLetter(first)}–${columnLetter(first + width - 1)}`;

  async function* read(): AsyncGenerator<SourceRecord> {
    const zip = await openWorkbookZip(file);
    const rows = new RowsRead(headerRow!.line);
    rows.empty('zero', headerRow!.zeroDates, headerRow!.line);
    rows.empty('covered', headerRow!.covered, headerRow!.line);
    rows.empty('eastAsian', headerRow!.eastAsian, headerRow!.line);
    try {
      for await (const row of sheetRows(await zip.stream(sheet.part!), ctx, merges)) {
        const order = rows.take(row.line);
        if (order === 'above') continue;
        rows.empty('zero', row.zeroDates, row.line);
        rows.empty('covered', row.covered, row.line);
        rows.empty('eastAsian', row.eastAsian, row.line);
        if (order === 'twice') {
          yield { kind: 'unreadable', file: rowsFile, line: row.line, reason: `row ${row.line} is stored twice in the sheet (a damaged or hand-made file)` };
          continue;
        }
        const record = rowRecord(rowsFile, row, first, width, header.names, span);
        if (record === undefined) continue;
        rows.holds(row.line);
        yield record;
      }
    } catch (err) {
      throw readError(file, err, sheet.name);
    } finally {
      zip.close();
    }
    warnings.push(...rows.warnings(rowsFile, sheet.name));
  }

  return {
    file,
    rowsFile,
    format: 'xlsx',
    header: header.names,
    unnamedAtEnd: [],
    detected: { encoding: 'xlsx', headerRow: headerRow.line, sheet: sheet.name },
    headerChoice: headerChoiceInfo(chosen),
    sheets: sheets.map((s) => ({ name: s.name, hidden: s.hidden, chart: !s.part })),
    columnLetters: header.names.map((_, i) => columnLetter(first + i)),
    warnings,
    records: read(),
  };
}

function rowRecord(file: string, row: SheetRow, first: number, width: number, names: string[], span: string): SourceRecord | undefined {
  const raw = () => {
    const cells: Record<string, string> = Object.create(null);
    row.cells.forEach((c, i) => {
      if (c !== '') cells[i >= first && i < first + width ? names[i - first]! : columnLetter(i)] = c;
    });
    return cells;
  };
  if (row.problem) return { kind: 'unreadable', file, line: row.line, reason: row.problem, row: raw() };
  if (row.beyond)
    return { kind: 'unreadable', file, line: row.line, reason: `cell ${row.beyond} is past column ${MAX_COLUMNS}, the widest sheet read`, row: raw() };
  for (let i = 0; i < row.cells.length; i++) {
    if ((i < first || i >= first + width) && row.cells[i]!.trim() !== '') {
      return {
        kind: 'unreadable',
        file,
        line: row.line,
        reason: `cell ${columnLetter(i)}${row.line} holds a value outside the header's columns (${span})`,
        row: raw(),
      };
    }
  }
  if (nonEmptyCells(row.cells) === 0) return undefined;
  const cells = row.cells.slice(first, first + width);
  const types = row.types.slice(first, first + width);
  while (cells.length < width) {
    cells.push('');
    types.push(' ');
  }
  return new XlsxRow(file, row.line, cells, names, types.join(''));
}

/** The workbook's sheets and what reading a sheet needs: styles, shared strings, date system. */
export async function readWorkbook(file: string, zip: WorkbookZip, maxTextChars: number): Promise<{ sheets: SheetEntry[]; ctx: SheetContext }> {
  const pkg = await readPackage(file, zip);
  const styles = await readStyles(zip, pkg.styles);
  const strings = await readSharedStrings(zip, pkg.sharedStrings, maxTextChars);
  return { sheets: pkg.sheets, ctx: { strings, styles, date1904: pkg.date1904, maxTextChars } };
}

/** The sheet `--sheet` names (a name, or a number counted from 1), else the first that holds a value; with its first rows. */
async function chooseSheet(file: string, zip: WorkbookZip, sheets: SheetEntry[], options: ReaderOptions, ctx: SheetContext, warnings: SourceWarning[]) {
  const names = sheetNames(sheets);
  if (options.sheet !== undefined) {
    const wanted = options.sheet;
    // a name first (a sheet may be called "2"), then a number, then the name in another case
    const byNumber = /^\d+$/.test(wanted) ? sheets[Number(wanted) - 1] : undefined;
    const sheet = sheets.find((s) => s.name === wanted) ?? byNumber ?? sheets.find((s) => s.name.toLowerCase() === wanted.trim().toLowerCase());
    if (!sheet)
      throw new UsageError(`${file}: no sheet "${wanted}"; the workbook's sheets are ${names}`, {
        suggestion: 'Name a sheet with --sheet NAME or by its number from 1.',
      });
    if (!sheet.part) throw new UsageError(`${file}: sheet "${sheet.name}" is a chart, not a worksheet`);
    return withMerges(zip, sheet, ctx, options.headerRow, await firstRows(zip, sheet, ctx, options.headerRow));
  }
  // a hidden sheet (lookup tables, a macro's scratch) is not what the user sees as the data
  for (const sheet of sheets) {
    if (!sheet.part || sheet.hidden) continue;
    const prefix = await firstRows(zip, sheet, ctx, options.headerRow);
    if (prefix.length === 0) continue;
    if (sheets.length > 1)
      warnings.push({ file, message: `read sheet "${sheet.name}", the first that holds data (the workbook has ${names}; --sheet chooses another)` });
    return withMerges(zip, sheet, ctx, options.headerRow, prefix);
  }
  const hidden = sheets.some((s) => s.hidden) ? '; hidden sheets are read only when --sheet names them' : '';
  throw new InputError(`${file}: no sheet holds any data (sheets: ${names || 'none'}${hidden})`);
}

/**
 * The sheet's merged ranges, and its first rows read again with them when it has any: only the
 * chosen sheet pays for the scan (merged-ranges.ts), and a sheet without merges is read once.
 */
async function withMerges(zip: WorkbookZip, sheet: SheetEntry, ctx: SheetContext, headerRow: number | undefined, prefix: SheetRow[]) {
  const merges = prefix.length === 0 ? undefined : await readMergedRanges(await zip.stream(sheet.part!));
  return { sheet, merges, prefix: merges ? await firstRows(zip, sheet, ctx, headerRow, merges) : prefix };
}

async function firstRows(zip: WorkbookZip, sheet: SheetEntry, ctx: SheetContext, headerRow: number | undefined, merges?: MergedRanges): Promise<SheetRow[]> {
  const rows: SheetRow[] = [];
  for await (const row of sheetRows(await zip.stream(sheet.part!), ctx, merges)) {
    rows.push(row);
    if (rows.length >= PREFIX_ROWS && (headerRow === undefined || row.line >= headerRow)) break;
  }
  return rows;
}

/** The sheets' names for a message: the first ten, then how many more (a workbook may have 1,024). */
function sheetNames(sheets: SheetEntry[]): string {
  const shown = sheets.slice(0, 10).map((s) => `"${s.name}"`);
  if (sheets.length > 10) shown.push(`… and ${sheets.length - 10} more`);
  return shown.join(', ');
}

function tooWide(where: string, cell: string): InputError {
  return new InputError(`${where}: cell ${cell} is past column ${MAX_COLUMNS}; batch-sync reads sheets up to ${MAX_COLUMNS} columns wide`, {
    suggestion: 'Delete the stray columns to the right of the data (or copy the data to a new sheet) and save.',
  });
}

/** A reading error as the one line a user sees: broken XML, text too long, a damaged archive. */
export function readError(file: string, err: unknown, sheet?: string): unknown {
  const where = sheet === undefined ? file : `${file}: sheet "${sheet}"`;
  if (err instanceof XmlTooLong) return new InputError(`${where}: ${err.message} (a cell longer than the largest record read; --max-record-bytes raises it)`);
  if (err instanceof XmlBroken) return new InputError(`${where}: broken XML (${err.message.split('\n')[0]})`);
  // what yauzl and zlib throw on a damaged archive (a bug's TypeError and the like go on as bugs)
  if (err instanceof BatchSyncError || err instanceof TypeError || err instanceof RangeError || err instanceof ReferenceError || !(err instanceof Error))
    return err;
  return new InputError(`${where}: a damaged zip archive (${err.message})`, { suggestion: 'Open it in Excel or LibreOffice and save it again.' });
}
