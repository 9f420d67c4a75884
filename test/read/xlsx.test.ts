// The .xlsx reader on workbooks written by fixtures/xlsx/make.mjs (its own writer, from the spec) and
// by LibreOffice: typed cells, sheets, header rows, positions, and every bad workbook as one line.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { InputError, UsageError } from '../../src/errors.js';
import { openSource } from '../../src/read/open.js';
import type { ReaderOptions, SourceRecord } from '../../src/read/types.js';
import { dateText, numberText } from '../../src/read/xlsx/cell-value.js';
import { formatKind, NumberKind } from '../../src/read/xlsx/styles.js';
// @ts-expect-error: a plain .mjs module without types
import { generateXlsx } from '../bench/generate-xlsx.mjs';
import { liveGrowth, mb } from '../helpers/memory.js';
import { holdingRows } from './helpers.js';

const DIR = join(__dirname, '../../fixtures/xlsx');
const at = (name: string) => join(DIR, name);

async function readAll(file: string, options: ReaderOptions = {}) {
  const source = await openSource(file, options);
  const records: SourceRecord[] = [];
  for await (const r of source.records) records.push(r);
  return { source, records };
}

const cellsOf = (records: SourceRecord[]) =>
  records.map((r) => (r.kind === 'row' ? [r.line, ...r.cells!, r.types] : [r.line, r.kind, r.kind === 'unreadable' ? r.reason : '']));

describe('typed cells', () => {
  // [kind, text, type letter] — the same in both date systems
  const expected = [
    ['text', 'hola', 's'],
    ['leading zeros', '000123', 's'],
    ['inline text', '  spaced  ', 's'],
    ['integer', '42', 'n'],
    ['decimal', '1234.5', 'n'],
    ['float noise', '0.3', 'n'],
    ['tiny', '0.0000001', 'n'],
    ['huge', '1234500000000000000000', 'n'],
    ['negative', '-0.5', 'n'],
    ['percent', '0.18', 'n'],
    ['date', '2024-02-29', 'd'],
    ['date custom format', '1999-12-31', 'd'],
    ['date-time', '2024-03-10T02:30:00', 'd'],
    ['date with time, date format', '2024-03-10T12:00:00', 'd'],
    ['time', '13:45:30', 'd'],
    ['early date', 'EARLY', 'd'],
    ['boolean true', 'true', 'b'],
    ['boolean false', 'false', 'b'],
    ['formula', '2', 'n'],
    ['error', '#N/A', 's'],
    ['number as text format', '7', 'n'],
    ['empty text formula', '', ' '],
  ];

  it.each([
    ['typed.xlsx', '1900-01-01'],
    ['typed-1904.xlsx', '1904-01-02'],
  ])('%s: numbers, dates, percent, booleans, text and formulas as their stored values', async (name, early) => {
    const { source, records } = await readAll(at(name));
    expect(source.format).toBe('xlsx');
    expect(source.header).toEqual(['kind', 'value']);
    expect(source.detected).toEqual({ encoding: 'xlsx', headerRow: 1, sheet: 'Typed' });
    expect(source.warnings).toEqual([]);
    expect(cellsOf(records)).toEqual(expected.map(([k, v, t], i) => [i + 2, k, v === 'EARLY' ? early : v, `s${t}`]));
  });

  it('numbers: at most 15 significant digits, never an exponent, and the same value as Excel shows', () => {
    fc.assert(
      fc.property(fc.double({ noNaN: true, noDefaultInfinity: true }), (x) => {
        const text = numberText(String(x))!;
        expect(text).toMatch(/^-?\d+(\.\d+)?$/);
        const excel = Number(x.toPrecision(15));
        expect(Number(text)).toBe(Number.isFinite(excel) ? excel || 0 : x);
      }),
    );
    expect(numberText('0.30000000000000004')).toBe('0.3');
    expect(numberText('-0')).toBe('0');
    expect(numberText('abc')).toBeUndefined();
  });

  it('dates: a serial and its ISO text agree in both systems, with no time-zone shift', () => {
    const day = (iso: string, epoch: number) => (Date.parse(`${iso}T00:00:00Z`) - epoch) / 86_400_000;
    fc.assert(
      fc.property(fc.date({ min: new Date('1900-03-01T00:00:00Z'), max: new Date('9999-12-30T00:00:00Z'), noInvalidDate: true }), (d) => {
        const iso = d.toISOString().slice(0, 10);
        expect(dateText(day(iso, Date.UTC(1899, 11, 30)), NumberKind.date, false)).toBe(iso);
        if (iso >= '1904-01-01') expect(dateText(day(iso, Date.UTC(1904, 0, 1)), NumberKind.date, true)).toBe(iso);
      }),
    );
    // Excel's 1900 leap-year bug: serial 59 is 1900-02-28, 60 the day that never was, 61 March 1st
    expect([59, 60, 61].map((s) => dateText(s, NumberKind.date, false))).toEqual(['1900-02-28', '1900-02-29', '1900-03-01']);
    expect(dateText(45_361.999_999_9, NumberKind.date, false)).toBe('2024-03-11');
    expect(dateText(-1, NumberKind.date, false)).toBeUndefined();
  });

  it('format codes: dates and times told from numbers, percent and elapsed time', () => {
    expect(
      ['dd/mm/yyyy;@', 'mmm-yy', 'yyyy-mm-dd hh:mm', 'h:mm AM/PM', '[$-409]d-mmm', '0.00%', '"d"0', '[h]:mm', '#,##0.00 [Red]', 'General'].map(formatKind),
    ).toEqual([
      NumberKind.date,
      NumberKind.date,
      NumberKind.dateTime,
      NumberKind.time,
      NumberKind.date,
      NumberKind.plain,
      NumberKind.plain,
      NumberKind.plain,
      NumberKind.plain,
      NumberKind.plain,
    ]);
  });
});

describe('sheets, header and rows', () => {
  it('the first sheet holding data, named; title rows above the header; blank rows skipped and counted; sheet row numbers', async () => {
    const file = at('oportunidades.xlsx');
    const { source, records } = await readAll(file);
    expect(source.detected).toEqual({ encoding: 'xlsx', headerRow: 3, sheet: 'Oportunidades' });
    expect(source.columnLetters).toEqual(['A', 'B', 'C', 'D', 'E', 'F', 'G', 'H', 'I']);
    expect(records.map((r) => r.line)).toEqual([4, 5, 7, 8, 9]);
    expect(source.warnings.map((w) => [w.line, w.message])).toEqual([
      [undefined, 'read sheet "Oportunidades", the first that holds data (the workbook has "Notas", "Listas", "Oportunidades"; --sheet chooses another)'],
      [
        3,
        'the header is row 3, the first row whose names cover the 9 columns of the rows below it; passed over rows 1–2 above it (set the header row, --header-row or reader.headerRow, to choose another)',
      ],
      [6, 'skipped 1 blank row in sheet "Oportunidades" (the first is row 6)'],
    ]);
    const first = records[0]!;
    expect(first.kind === 'row' && first.row).toEqual({
      Código: '00123',
      Oportunidad: 'Renovación licencias',
      Cliente: 'Comercial Andina',
      Vendedor: 'Bruno Díaz',
      Monto: '1234.56',
      Moneda: 'CLP',
      'Fecha de cierre': '2024-03-15',
      Etapa: 'Ganado',
      Observación: 'Cliente pidió factura',
    });
  });

  it('--sheet by name, by number from 1 and in another case; an unknown sheet lists the sheets', async () => {
    for (const sheet of ['Other', '2', 'other']) {
      const { source, records } = await readAll(at('deals.xlsx'), { sheet });
      expect(source.detected.sheet).toBe('Other');
      expect(cellsOf(records)).toEqual([[2, 'X-1', 's']]);
      expect(source.warnings).toEqual([]);
    }
    const unknown = await openSource(at('deals.xlsx'), { sheet: 'Deal' }).catch((e: unknown) => e);
    expect(unknown).toBeInstanceOf(UsageError);
    expect((unknown as Error).message).toBe(`${at('deals.xlsx')}: no sheet "Deal"; the workbook's sheets are "Deals", "Other"`);
    await expect(openSource(at('deals.xlsx'), { sheet: '3' })).rejects.toThrow(UsageError);
  });

  it('a hidden sheet holding data is passed over, and read when --sheet names it', async () => {
    const { source } = await readAll(at('oportunidades.xlsx'));
    expect(source.detected.sheet).toBe('Oportunidades');
    const hidden = await readAll(at('oportunidades.xlsx'), { sheet: 'Listas' });
    expect(hidden.source.header).toEqual(['Etapas']);
    expect(cellsOf(hidden.records)).toEqual([
      [2, 'Prospección', 's'],
      [3, 'Ganado', 's'],
    ]);
  });

  // issue 29.8, as LibreOffice Calc saved it (fixtures/es-reporte/make.mjs): a title in A1, "Generado
  // el" and a date-time cell in row 2, row 3 blank, the 11-column header in row 4, 12 deals
  const REPORT = join(__dirname, '../../fixtures/es-reporte/oportunidades.xlsx');

  it('a report workbook with a title and a "Generado el | date" row: the header is the row as wide as the rows below it', async () => {
    const { source, records } = await readAll(REPORT);
    expect(source.detected).toEqual({ encoding: 'xlsx', headerRow: 4, sheet: 'oportunidades' });
    expect(source.header).toEqual([
      'Código',
      'Oportunidad',
      'Cliente',
      'Vendedor',
      'Embudo',
      'Etapa',
      'Monto',
      'Moneda',
      'Fecha de cierre',
      'Probabilidad',
      'Observación',
    ]);
    expect(records.map((r) => [r.kind, r.line])).toEqual(Array.from({ length: 12 }, (_, i) => ['row', i + 5]));
    expect(cellsOf(records)[0]).toEqual([
      5,
      '00123',
      'Renovación licencias',
      'Comercial Andina',
      'Bruno Díaz',
      'Ventas',
      'Ganado',
      '1234560',
      'CLP',
      '2026-03-15',
      '100',
      'Cliente pidió factura',
      'ssssssnsdns',
    ]);
    expect(source.warnings.map((w) => [w.line, w.message])).toEqual([
      [
        4,
        'the header is row 4, the first row whose names cover the 11 columns of the rows below it; passed over rows 1–3 above it (set the header row, --header-row or reader.headerRow, to choose another)',
      ],
    ]);
  });

  it('a header row asked for that leaves no row fitting it: the rows are unreadable, and a warning names the row that looks like the header', async () => {
    const { source, records } = await readAll(REPORT, { headerRow: 2 });
    expect(source.header).toEqual(['Generado el', '2026-11-20T18:30:00']);
    expect(records.every((r) => r.kind === 'unreadable')).toBe(true);
    expect(source.warnings.map((w) => [w.line, w.message])).toEqual([
      [
        2,
        'no row below the header on row 2 fits its 2 columns (the rows below it use up to 11); row 4 looks like the header: set --header-row 4 (reader.headerRow: 4)',
      ],
      [3, 'skipped 1 blank row in sheet "oportunidades" (the first is row 3)'],
    ]);
  });

  it('--header-row is the sheet row of the header', async () => {
    const { source, records } = await readAll(at('oportunidades.xlsx'), { headerRow: 4 });
    expect(source.header?.[0]).toBe('00123');
    expect(records[0]?.line).toBe(5);
  });

  it('a formula without its stored value and a value outside the header make their row unreadable, naming the cell', async () => {
    const { records } = await readAll(at('deals.xlsx'));
    const unreadable = records.flatMap((r) => (r.kind === 'unreadable' ? [[r.line, r.reason]] : []));
    expect(unreadable).toEqual([
      [3, 'cell F3: a formula without a stored value (save the workbook in Excel so its values are stored)'],
      [5, "cell J5 holds a value outside the header's columns (A–H)"],
    ]);
    expect(records.map((r) => r.line)).toEqual([2, 3, 4, 5, 8, 9]);
  });

  it('a workbook LibreOffice saved reads as LibreOffice typed it', async () => {
    const { source, records } = await readAll(at('libreoffice/deals.xlsx'));
    expect(source.detected.sheet).toBe('deals');
    const row = records[0]!;
    expect(row.kind === 'row' && [row.row.isWon, row.row['amount.value'], row.row.closeDate, row.row['currentStage.occurredAt']]).toEqual([
      'true',
      '125000',
      '2024-03-15',
      '2024-03-15T14:30:00-03:00',
    ]);
    expect(row.kind === 'row' && row.types).toMatch(/^ssssbn/);
  });
});

describe('bad workbooks: one line each, exit 2 (InputError)', () => {
  it.each([
    ['bad/not-a-workbook.xlsx', 'not an .xlsx workbook: a zip archive without xl/workbook.xml'],
    ['bad/csv-named.xlsx', 'not an .xlsx workbook: it is not a zip archive (an .xlsx is one)'],
    ['bad/old.xls', 'an Excel 97–2003 workbook (.xls); only .xlsx is read'],
    ['bad/encrypted.xlsx', 'the workbook is encrypted (password-protected)'],
    ['bad/sheet.ods', 'not an .xlsx workbook: an OpenDocument file (.ods)'],
    ['libreoffice/deals.ods', 'not an .xlsx workbook: an OpenDocument file (.ods)'],
    ['bad/empty.xlsx', 'no sheet holds any data (sheets: "Sheet1")'],
    ['bad/wide.xlsx', 'sheet "Wide": cell BZU1 is past column 2048; batch-sync reads sheets up to 2048 columns wide'],
  ])('%s', async (name, message) => {
    const error = await openSource(at(name)).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(InputError);
    expect((error as Error).message).toBe(`${at(name)}: ${message}`);
  });

  it('a zip bomb is refused from its sizes, before anything is inflated', async () => {
    const before = process.memoryUsage().rss;
    const error = await openSource(at('bad/bomb.xlsx')).then(
      () => undefined,
      (e: unknown) => e as Error,
    );
    expect(error?.message).toMatch(
      /bomb\.xlsx: its part xl\/worksheets\/sheet1\.xml would inflate to 268435\d{3} bytes from \d+ \(\d+ times\): refused as a possible zip bomb$/,
    );
    // against what inflating it would take, read from the refusal: none of it was inflated
    const inflated = Number(/would inflate to (\d+) bytes/.exec(error!.message)![1]);
    expect(process.memoryUsage().rss - before).toBeLessThan(inflated / 4);
  });
});

describe('streaming', () => {
  const N = 200_000;
  it(`a ${N.toLocaleString('en')}-row sheet with a unique id and title per row: the heap stays flat, the shared strings stay off it`, async () => {
    const { deals } = await generateXlsx(mkdtempSync(join(tmpdir(), 'batch-sync-xlsx-')), N);
    // the control: what a reader that kept its rows would hold after a tenth of them
    const control = await holdingRows(deals, N / 10);
    let rows = 0;
    const streaming = await liveGrowth(async (checkpoint) => {
      for await (const record of (await openSource(deals)).records) {
        if (record.kind === 'row' && ++rows % (N / 10) === 0) await checkpoint();
      }
    });
    expect(rows).toBe(N);
    console.log(`xlsx ${N} rows: live heap +${mb(streaming)} at most; holding ${N / 10} rows +${mb(control)}`);
    // a reader holding the rows (2.6 million cells) would hold ten times the control by the end; this
    // one holds 0.3-0.4 MB at a checkpoint, a thirtieth of the control, on Node 20, 22 and 24 alike
    // (the 400,000 unique shared strings are in a table off the heap)
    expect(streaming).toBeLessThan(control / 4);
  }, 90_000);
});
