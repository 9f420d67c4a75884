// Workbooks built part by part (issue 29): what current Excel and other programs write that the
// reader misread (1904 dates after an x15 workbookPr, a dxf's numFmt, format 46, _xHHHH_ escapes,
// an inline string with a stray <v>, packages laid out otherwise), and hostile files (rows out of
// order, cell references naming another row, a corrupted part, one part twice). Each through
// openSource, as a run reads it: the records, their lines and the warnings a user sees.
import { readFileSync, writeFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { openSource } from '../../src/read/open.js';
import { dateText } from '../../src/read/xlsx/cell-value.js';
import { NumberKind } from '../../src/read/xlsx/styles.js';
import { header, num, parts, read, refusal, rels, row, STYLES, sheet, str, write } from './xlsx-parts.js';

describe('dates and numbers as current Excel writes them', () => {
  it('1904 dates: an <x15:workbookPr> in the extension list does not reset the date system (item 1)', async () => {
    const file = await write(
      parts({
        workbookPr: '<workbookPr date1904="1" defaultThemeVersion="166925"/>',
        extLst:
          '<extLst><ext uri="{140A7094-0E35-4892-8432-C4D2E57EDEB5}" xmlns:x15="http://schemas.microsoft.com/office/spreadsheetml/2010/11/main"><x15:workbookPr chartTrackingRefBase="1"/></ext></extLst>',
        styles: STYLES('', '<xf numFmtId="0"/><xf numFmtId="14"/>'),
        sheets: [sheet(header + row(2, str('A2', 'D-1') + num('B2', 42735, 1)))],
      }),
    );
    expect((await read(file)).rows).toEqual([[2, 'D-1', '2021-01-01']]);
  });

  it('a <dxf> carrying numFmt 14 leaves the cells of built-in format 14 dates (item 2)', async () => {
    const dxfs = '<dxfs count="1"><dxf><numFmt numFmtId="14" formatCode="0.00"/></dxf></dxfs>';
    const file = await write(
      parts({ styles: STYLES('', '<xf numFmtId="0"/><xf numFmtId="14"/>', dxfs), sheets: [sheet(header + row(2, str('A2', 'D-1') + num('B2', 42062, 1)))] }),
    );
    expect((await read(file)).rows).toEqual([[2, 'D-1', '2015-02-27']]);
  });

  it('built-in format 46, [h]:mm:ss, is elapsed time: 30 hours is the number 1.25 (item 3)', async () => {
    const file = await write(
      parts({ styles: STYLES('', '<xf numFmtId="0"/><xf numFmtId="46"/>'), sheets: [sheet(header + row(2, str('A2', 'D-1') + num('B2', 1.25, 1)))] }),
    );
    const { source, rows } = await read(file);
    expect(rows).toEqual([[2, 'D-1', '1.25']]);
    const record = (await (async () => {
      for await (const r of (await openSource(file)).records) return r;
    })()) as { types: string };
    expect(record.types).toBe('sn');
    expect(source.header).toEqual(['id', 'value']);
  });

  it('a time-only format on a value of a day or more keeps the day and the time; ISO cells are rounded to the second (item 7)', async () => {
    const file = await write(
      parts({
        styles: STYLES('', '<xf numFmtId="0"/><xf numFmtId="21"/>'),
        sheets: [
          sheet(
            header +
              row(2, str('A2', 'whole day') + num('B2', 1, 1)) +
              row(3, str('A3', 'a day and a half') + num('B3', 1.5, 1)) +
              row(4, str('A4', 'iso') + '<c r="B4" t="d"><v>2014-02-14T08:27:48.765Z</v></c>') +
              row(5, str('A5', 'iso carried') + '<c r="B5" t="d"><v>2014-12-31T23:59:59.5</v></c>') +
              row(6, str('A6', 'iso time') + '<c r="B6" t="d"><v>10:10:10.2</v></c>'),
          ),
        ],
      }),
    );
    expect((await read(file)).rows).toEqual([
      [2, 'whole day', '1900-01-01T00:00:00'],
      [3, 'a day and a half', '1900-01-01T12:00:00'],
      [4, 'iso', '2014-02-14T08:27:49'],
      [5, 'iso carried', '2015-01-01T00:00:00'],
      [6, 'iso time', '10:10:10'],
    ]);
    expect(dateText(0.5, NumberKind.time, false)).toBe('12:00:00');
  });
});

describe('text as Excel escapes it', () => {
  it('_xHHHH_ escapes are decoded in shared and inline strings; _x005F_ is an underscore (item 4)', async () => {
    const file = await write(
      parts({
        strings: ['ABC_x000D_\nDEF', '_x005F_x000D_', 'a_x0009_b'],
        sheets: [
          sheet(
            header +
              row(2, str('A2', 'D-1') + '<c r="B2" t="s"><v>0</v></c>') +
              row(3, str('A3', 'D-2') + '<c r="B3" t="s"><v>1</v></c>') +
              row(4, str('A4', 'D-3') + '<c r="B4" t="s"><v>2</v></c>') +
              row(5, str('A5', 'D-4') + str('B5', 'x_x000D_y')) +
              row(6, str('A6', 'D-5') + '<c r="B6" t="str"><f>A1</f><v>f_x000A_g</v></c>'),
          ),
        ],
      }),
    );
    expect((await read(file)).rows).toEqual([
      [2, 'D-1', 'ABC\r\nDEF'],
      [3, 'D-2', '_x000D_'],
      [4, 'D-3', 'a\tb'],
      [5, 'D-4', 'x\ry'],
      [6, 'D-5', 'f\ng'],
    ]);
  });

  it('an inline string with a stray <v> is its <is> text alone; a formula whose result is an inline string is stored (item 5)', async () => {
    const file = await write(
      parts({
        sheets: [
          sheet(
            header +
              row(2, str('A2', 'D-1') + '<c r="B2" t="inlineStr"><v>1.0</v><is><t>1.</t></is></c>') +
              row(3, str('A3', 'D-2') + '<c r="B3" t="inlineStr"><f>CONCATENATE("a","b")</f><is><t>ab</t></is></c>'),
          ),
        ],
      }),
    );
    expect((await read(file)).rows).toEqual([
      [2, 'D-1', '1.'],
      [3, 'D-2', 'ab'],
    ]);
  });
});

describe('packages laid out otherwise (item 6)', () => {
  const body = sheet(header + row(2, '<c r="A2" t="s"><v>0</v></c>' + num('B2', 7)));

  it('part names in another case (xl/SharedStrings.xml) are the same parts', async () => {
    const p = parts({ strings: ['D-1'], sheets: [body] });
    const renamed = Object.entries(p).map(([name, text]): [string, string] => [
      name === 'xl/sharedStrings.xml' ? 'xl/SharedStrings.xml' : name.replace('worksheets/', 'Worksheets/'),
      text,
    ]);
    expect((await read(await write(renamed))).rows).toEqual([[2, 'D-1', '7']]);
  });

  it('the workbook found through _rels/.rels: at the archive root, or in a folder of another name', async () => {
    for (const folder of ['', 'wtf/']) {
      const p = parts({ strings: ['D-1'], sheets: [body] });
      const moved = Object.entries(p).map(([name, text]): [string, string] => [
        name.startsWith('xl/') ? folder + name.slice(3) : name,
        name === '_rels/.rels' ? rels([['rId1', 'officeDocument', `${folder}workbook.xml`]]) : text,
      ]);
      expect((await read(await write(moved))).rows, folder || 'root').toEqual([[2, 'D-1', '7']]);
    }
  });

  it('a workbook without its relationships part is refused as such, not as "no sheet holds any data"', async () => {
    const p = parts({ sheets: [sheet(header + row(2, str('A2', 'D-1')))] });
    delete p['xl/_rels/workbook.xml.rels'];
    expect(await refusal(await write(p))).toBe(
      'not an .xlsx workbook: a workbook without its relationships part xl/_rels/workbook.xml.rels, which says where its sheets are',
    );
  });

  it('a workbook of 1,024 sheets: the error lists ten of them and how many more, on one short line (item 7)', async () => {
    const p = parts({ sheets: Array.from({ length: 1024 }, () => sheet('')) });
    const message = await refusal(await write(p));
    expect(message).toBe('no sheet holds any data (sheets: "S1", "S2", "S3", "S4", "S5", "S6", "S7", "S8", "S9", "S10", … and 1014 more)');
  });
});

describe('hostile workbooks', () => {
  it('rows stored out of order are all read with their own numbers, and none is called blank (item 10)', async () => {
    const rows = [5, 6, 2, 3].map((r) => row(r, str(`A${r}`, `Co ${r}`) + num(`B${r}`, r))).join('');
    const { rows: read_, warnings } = await read(await write(parts({ sheets: [sheet(header + rows)] })));
    expect(read_).toEqual([
      [5, 'Co 5', '5'],
      [6, 'Co 6', '6'],
      [2, 'Co 2', '2'],
      [3, 'Co 3', '3'],
    ]);
    expect(warnings).toEqual([
      'sheet "S1" stores its rows out of order (row 2 after row 6): each was read with its own row number',
      'skipped 1 blank row in sheet "S1" (the first is row 4)',
    ]);
  });

  it('a row number stored twice: the second is unreadable, naming the row', async () => {
    const rows = [2, 3, 2].map((r, i) => row(r, str(`A${r}`, `Co ${i}`))).join('');
    expect((await read(await write(parts({ sheets: [sheet(header + rows)] })))).rows).toEqual([
      [2, 'Co 0', ''],
      [3, 'Co 1', ''],
      [2, 'row 2 is stored twice in the sheet (a damaged or hand-made file)'],
    ]);
  });

  it('a cell reference naming another row, or malformed, makes its row unreadable naming the cell; the row keeps its own id (item 11)', async () => {
    const bad: [number, string][] = [
      [2, 'A0'],
      [3, 'A4'],
      [4, 'a4'],
      [5, 'XFE5'],
      [6, 'A06'],
      [7, '7'],
    ];
    const rows = bad.map(([r, ref]) => row(r, str(`A${r}`, `id-${r}`) + str(ref, 'intruder'))).join('');
    const { rows: got } = await read(await write(parts({ sheets: [sheet(header + rows)] })));
    expect(got).toEqual([
      [2, 'cell reference "A0" in row 2 is malformed'],
      [3, 'cell A4 is stored in row 3: a cell reference that names another row'],
      // (issue 34) a lower-case reference names the same cell, A4, here stored twice; digits alone
      // are a column index other writers put in r, so the cell is read where it stands
      [4, 'cell a4 is stored twice in row 4'],
      [5, 'cell reference "XFE5" in row 5 is malformed'],
      [6, 'cell reference "A06" in row 6 is malformed'],
      [7, 'id-7', 'intruder'],
    ]);
  });

  it('the same cell stored twice in a row makes the row unreadable, naming the cell', async () => {
    const { rows } = await read(await write(parts({ sheets: [sheet(header + row(2, str('A2', 'id-2') + str('A2', 'other')))] })));
    expect(rows).toEqual([[2, 'cell A2 is stored twice in row 2']]);
  });

  it('a part whose bytes differ from its CRC-32 is refused, naming the part (item 12)', async () => {
    const file = await write(parts({ sheets: [sheet(header + row(2, str('A2', 'Co 3') + num('B2', 1)))] }), true);
    const bytes = readFileSync(file);
    const at = bytes.indexOf('Co 3');
    bytes[at + 3] = '9'.charCodeAt(0);
    writeFileSync(file, bytes);
    expect(await refusal(file)).toMatch(
      /^its part xl\/worksheets\/sheet1\.xml is damaged \(its CRC-32 is [0-9a-f]{8} where the archive says [0-9a-f]{8}\): the archive is corrupt$/,
    );
  });

  it('two entries of the same name (or names equal but for case) are refused, not "the last one wins"', async () => {
    const p = Object.entries(parts({ sheets: [sheet(header + row(2, str('A2', 'Co 3')))] }));
    const evil = sheet(header + row(2, str('A2', 'Co 9')));
    for (const name of ['xl/worksheets/sheet1.xml', 'XL/Worksheets/Sheet1.xml']) {
      const message = await refusal(await write([...p, [name, evil]]));
      expect(message).toMatch(
        /^not an \.xlsx workbook: two entries named (xl\/worksheets\/sheet1\.xml|xl\/worksheets\/sheet1\.xml and XL\/Worksheets\/Sheet1\.xml) \(one part twice\)$/,
      );
    }
  });
});
