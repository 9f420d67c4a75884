// Workbooks as the third round of other projects' files has them (issue 34), built part by part in
// the same shape: a zero date under a date format, Strict OOXML's ISO dates and durations against
// the Transitional save of the same cells, cell references as other writers write them, values
// under merged ranges. Each through openSource, as a run reads it.
import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { readMergedRanges } from '../../src/read/xlsx/merged-ranges.js';
import { header, NS, parts, read, row, STYLES, sheet, str, write } from './xlsx-parts.js';

const STRICT_NS = 'xmlns="http://purl.oclc.org/ooxml/spreadsheetml/main" xmlns:r="http://purl.oclc.org/ooxml/officeDocument/relationships"';
const STRICT_REL = 'http://purl.oclc.org/ooxml/officeDocument/relationships';

/** The same package with Excel's Strict namespaces (what "Strict Open XML Spreadsheet" saves). */
function strict(transitional: Record<string, string>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, text] of Object.entries(transitional))
    out[name] = text.replaceAll(NS, STRICT_NS).replaceAll('http://schemas.openxmlformats.org/officeDocument/2006/relationships', STRICT_REL);
  return out;
}

const c = (ref: string, s: number, v: string, t = '') => `<c r="${ref}" s="${s}"${t ? ` t="${t}"` : ''}><v>${v}</v></c>`;
const f = (ref: string, s: number, v: string, t = '') => `<c r="${ref}" s="${s}"${t ? ` t="${t}"` : ''}><f>Model!A5</f><v>${v}</v></c>`;
// xf 0 General, 1 built-in 15 (d-mmm-yy), 2 built-in 22 (m/d/yy h:mm), 3 built-in 21 (h:mm:ss), 4 [hh]:mm
const STYLED = STYLES(
  '<numFmts count="1"><numFmt numFmtId="164" formatCode="[hh]:mm"/></numFmts>',
  '<xf numFmtId="0"/><xf numFmtId="15"/><xf numFmtId="22"/><xf numFmtId="21"/><xf numFmtId="164"/>',
);

/** Rows of two workbooks side by side, numbers compared to a millionth of a second (Excel's sums leave noise below that). */
function sameReading(a: (string | number)[][], b: (string | number)[][]): void {
  expect(b.length).toBe(a.length);
  for (const [i, cells] of a.entries()) {
    for (const [j, cell] of cells.entries()) {
      const other = b[i]![j];
      if (typeof cell === 'string' && /^\d+\.\d{9,}$/.test(cell)) expect(Math.abs(Number(cell) - Number(other))).toBeLessThan(1e-11);
      else expect(other, `row ${i}, cell ${j}`).toBe(cell);
    }
  }
}

describe('a zero date (item 1): serial 0 under a date format is an empty cell in both saves, with one warning naming the cells', () => {
  const dates = header.replace('value', 'closed');
  const transitional = parts({
    styles: STYLED,
    sheets: [
      sheet(
        dates +
          row(2, str('A2', 'D-1') + f('B2', 1, '0')) +
          row(3, str('A3', 'D-2') + c('B3', 1, '45000')) +
          row(4, str('A4', 'D-3') + f('B4', 2, '0')) +
          row(5, str('A5', 'D-4') + c('B5', 3, '0')) +
          row(6, str('A6', 'D-5') + c('B6', 2, '0.5')),
      ),
    ],
  });
  // Excel's Strict save stores every date-formatted number as ISO text: serial 0 as 1899-12-30
  const strictSave = strict(
    parts({
      styles: STYLED,
      sheets: [
        sheet(
          dates +
            row(2, str('A2', 'D-1') + f('B2', 1, '1899-12-30T00:00:00', 'd')) +
            row(3, str('A3', 'D-2') + c('B3', 1, '2023-03-15T00:00:00', 'd')) +
            row(4, str('A4', 'D-3') + f('B4', 2, '1899-12-30', 'd')) +
            row(5, str('A5', 'D-4') + c('B5', 3, '1899-12-30T00:00:00', 'd')) +
            row(6, str('A6', 'D-5') + c('B6', 2, '1899-12-30T12:00:00', 'd')),
        ),
      ],
    }),
  );
  const expected = [
    [2, 'D-1', ''],
    [3, 'D-2', '2023-03-15'],
    [4, 'D-3', ''],
    [5, 'D-4', '00:00:00'],
    [6, 'D-5', '1899-12-30T12:00:00'],
  ];
  const warning =
    'sheet "S1": 2 cells hold the date serial 0 (Excel shows it as 1900-01-00, usually a formula pointing at an empty cell): read as empty, not as a date in 1899 (B2, B4)';

  it('the Transitional save', async () => {
    const { rows, warnings } = await read(await write(transitional));
    expect(rows).toEqual(expected);
    expect(warnings).toEqual([warning]);
  });

  it('the Strict save of the same cells reads the same', async () => {
    const { rows, warnings } = await read(await write(strictSave));
    expect(rows).toEqual(expected);
    expect(warnings).toEqual([warning]);
  });

  it('in the 1904 date system serial 0 is 1904-01-01, a day Excel shows: kept', async () => {
    const p = parts({ workbookPr: '<workbookPr date1904="1"/>', styles: STYLED, sheets: [sheet(dates + row(2, str('A2', 'D-1') + c('B2', 1, '0')))] });
    const { rows, warnings } = await read(await write(p));
    expect(rows).toEqual([[2, 'D-1', '1904-01-01']]);
    expect(warnings).toEqual([]);
  });
});

describe('Strict durations (item 2): an ISO 8601 duration in a t="d" cell reads as the Transitional save, a number of days', () => {
  const took = header.replace('value', 'took');
  const cells = (t: string, v: (serial: string, iso: string) => string) =>
    row(2, str('A2', 'call') + c('B2', 4, v('0.00763888888888897', 'PT0H11M0.000S'), t)) +
    row(3, str('A3', 'shift') + c('B3', 4, v('1.5', 'PT36H'), t)) +
    row(4, str('A4', 'trip') + c('B4', 4, v('1.25', 'P1DT6H0M0S'), t));

  it('both saves read the same numbers, typed as numbers', async () => {
    const a = await read(await write(parts({ styles: STYLED, sheets: [sheet(took + cells('', (serial) => serial))] })));
    const b = await read(await write(strict(parts({ styles: STYLED, sheets: [sheet(took + cells('d', (_, iso) => iso))] }))));
    expect(a.rows).toEqual([
      [2, 'call', '0.00763888888888897'],
      [3, 'shift', '1.5'],
      [4, 'trip', '1.25'],
    ]);
    sameReading(a.rows, b.rows);
    expect(b.warnings).toEqual([]);
    for await (const r of b.source.records) expect((r as { types?: string }).types).toBe('sn');
  });
});

describe('cell references as other writers write them (item 5)', () => {
  it('column indexes (r="0", a trading platform): read by position, the rows in their order', async () => {
    const cell = (i: number, v: string) => (/^[\d.]+$/.test(v) ? `<c r="${i}"><v>${v}</v></c>` : `<c r="${i}" t="inlineStr"><is><t>${v}</t></is></c>`);
    const line = (r: number, vs: string[]) => row(r, vs.map((v, i) => cell(i, v)).join(''));
    const xml = line(1, ['Symbol', 'Side', 'Price']) + line(2, ['EURUSD', 'Buy', '1.0842']) + line(3, ['GBPUSD', 'Sell', '1.2655']);
    const { source, rows, warnings } = await read(await write(parts({ sheets: [sheet(xml)] })));
    expect(source.header).toEqual(['Symbol', 'Side', 'Price']);
    expect(rows).toEqual([
      [2, 'EURUSD', 'Buy', '1.0842'],
      [3, 'GBPUSD', 'Sell', '1.2655'],
    ]);
    expect(warnings).toEqual([]);
  });

  it('lower-case references (r="a1") name the same cells', async () => {
    const xml = row(1, str('a1', 'id') + str('b1', 'value')) + row(2, str('a2', 'D-1') + str('c2', 'x').replace('c2', 'b2'));
    const { source, rows } = await read(await write(parts({ sheets: [sheet(xml)] })));
    expect(source.header).toEqual(['id', 'value']);
    expect(rows).toEqual([[2, 'D-1', 'x']]);
  });

  it('each cell of a row in its own repeated <row r="19"> element: one row of 13 columns (20 rows × 13 columns)', async () => {
    const letters = 'ABCDEFGHIJKLM'.split('');
    const whole = (r: number, text: (l: string) => string) => row(r, letters.map((l) => str(`${l}${r}`, text(l))).join(''));
    const split = (r: number) => letters.map((l) => row(r, str(`${l}${r}`, `${l}-${r}`))).join('');
    let xml = whole(1, (l) => `col ${l}`);
    for (let r = 2; r <= 18; r++) xml += whole(r, (l) => `${l}-${r}`);
    xml += split(19) + split(20);
    const { source, rows, warnings } = await read(await write(parts({ sheets: [sheet(xml)] })));
    expect(source.header).toHaveLength(13);
    expect(rows).toHaveLength(19);
    expect(rows.at(-2)).toEqual([19, ...letters.map((l) => `${l}-19`)]);
    expect(rows.at(-1)).toEqual([20, ...letters.map((l) => `${l}-20`)]);
    expect(warnings).toEqual([]);
  });
});

describe('merged ranges (item 6): a value under a merged range other than its top-left cell is empty, as Excel shows it', () => {
  const merged = (rows: string, refs: string[]) =>
    `<?xml version="1.0"?><worksheet ${NS}><sheetData>${rows}</sheetData><mergeCells count="${refs.length}">${refs.map((r) => `<mergeCell ref="${r}"/>`).join('')}</mergeCells><pageMargins left="0.7" right="0.7" top="0.75" bottom="0.75" header="0.3" footer="0.3"/></worksheet>`;

  it('in a data row and in the header: the covered cells are empty, and one warning names them', async () => {
    const xml =
      row(1, str('A1', 'id') + str('B1', 'contact') + str('C1', 'stale') + str('D1', 'amount')) +
      row(2, str('A2', 'D-1') + str('B2', 'Ana') + str('C2', 'Ana (old)') + str('D2', '10')) +
      row(3, str('A3', 'D-2') + str('B3', 'Luis') + str('D3', '20'));
    const { source, rows, warnings } = await read(await write(parts({ sheets: [merged(xml, ['B1:C1', 'B2:C2'])] })));
    expect(source.header).toEqual(['id', 'contact', 'column_3', 'amount']);
    expect(rows).toEqual([
      [2, 'D-1', 'Ana', '', '10'],
      [3, 'D-2', 'Luis', '', '20'],
    ]);
    expect(warnings).toContain(
      'sheet "S1": 2 cells under a merged range hold a value Excel does not show (only a range\'s top-left cell is shown): read as empty (C1, C2)',
    );
  });
});

describe('the merged ranges found before the rows are read (merged-ranges.ts)', () => {
  const xml = `<worksheet><sheetData/><x:mergeCells count="2"><x:mergeCell ref="B2:C3"/><x:mergeCell ref="a10:A12"/></x:mergeCells></worksheet>`;
  const ranges = async (bytes: Buffer, size: number) => {
    const chunks = [];
    for (let i = 0; i < bytes.length; i += size) chunks.push(bytes.subarray(i, i + size));
    const found = await readMergedRanges(Readable.from(chunks));
    return [
      [2, 1],
      [2, 2],
      [3, 1],
      [10, 0],
      [11, 0],
      [4, 2],
    ].map(([line, col]) => found?.covers(line!, col!));
  };

  it.each([1, 7, 64, 4096])('in chunks of %i bytes, UTF-8 and UTF-16 (with its byte-order mark or without)', async (size) => {
    const expected = [false, true, true, false, true, false];
    expect(await ranges(Buffer.from(xml), size)).toEqual(expected);
    expect(await ranges(Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(xml, 'utf16le')]), size)).toEqual(expected);
    expect(await ranges(Buffer.from(xml, 'utf16le').swap16(), size)).toEqual(expected);
  });

  it('a sheet without merges has none', async () => {
    expect(await readMergedRanges(Readable.from([Buffer.from('<worksheet><sheetData><row r="1"/></sheetData></worksheet>')]))).toBeUndefined();
  });
});

describe('built-in format 58 undeclared (item 6): read as a date, and said once naming the cells', () => {
  it('a date, as MiniExcel and excel-streaming-reader read it; declared, its own code decides', async () => {
    const styles = (numFmts: string) => STYLES(numFmts, '<xf numFmtId="0"/><xf numFmtId="58"/>');
    const xml = sheet(header + row(2, str('A2', 'D-1') + c('B2', 1, '45000')) + row(3, str('A3', 'D-2') + c('B3', 1, '45001')));
    const undeclared = await read(await write(parts({ styles: styles(''), sheets: [xml] })));
    expect(undeclared.rows).toEqual([
      [2, 'D-1', '2023-03-15'],
      [3, 'D-2', '2023-03-16'],
    ]);
    expect(undeclared.warnings).toEqual([
      'sheet "S1": 2 cells are in a built-in East Asian date format (numFmtId 50–58) the workbook does not declare: read as dates, as Excel in an East Asian locale shows them (B2, B3)',
    ]);
    const declared = await read(
      await write(parts({ styles: styles('<numFmts count="1"><numFmt numFmtId="58" formatCode="0.00"/></numFmts>'), sheets: [xml] })),
    );
    expect(declared.rows).toEqual([
      [2, 'D-1', '45000'],
      [3, 'D-2', '45001'],
    ]);
    expect(declared.warnings).toEqual([]);
  });
});
