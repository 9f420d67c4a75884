// Repeated header names and repeated JSON keys are read, never refused (issue 33 item 2, issue 34
// item 7, issue 36 row 8): the second and later copies of a name are read as `Name (2)`, `Name (3)`
// (a name the header already holds is passed over), and one warning per file lists them. The same
// rule for CSV on both parsers, workbooks and the keys of one JSON record.
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { openSource } from '../../src/read/open.js';
import type { ReaderOptions, SourceRecord } from '../../src/read/types.js';
// @ts-expect-error: a plain .mjs module without types
import { writeWorkbook } from '../../fixtures/xlsx/xlsx-writer.mjs';
import { tempDir } from './helpers.js';

const file = tempDir();

async function read(path: string, options: ReaderOptions = {}, fastCsv = true) {
  const source = await openSource(path, options, fastCsv);
  const records: SourceRecord[] = [];
  for await (const r of source.records) records.push(r);
  return { header: source.header, records, warnings: source.warnings.map((w) => `${w.line ?? '-'}: ${w.message}`) };
}

const rows = (records: SourceRecord[]) => records.map((r) => (r.kind === 'row' ? { ...r.row } : r.kind === 'item' ? r.item : r.reason));

describe.each([
  ['fast', true],
  ['simple', false],
])('CSV (%s parser)', (_engine, fast) => {
  it('reads the later copies of a name as "Name (2)", "Name (3)", with one warning listing them', async () => {
    const path = file(`pipedrive-${_engine}.csv`, 'ID,Valor,Nome,Valor,Nome,Valor\n1,10,Ana,20,Bia,30\n');
    const { header, records, warnings } = await read(path, {}, fast);
    expect(header).toEqual(['ID', 'Valor', 'Nome', 'Valor (2)', 'Nome (2)', 'Valor (3)']);
    expect(rows(records)).toEqual([{ ID: '1', Valor: '10', Nome: 'Ana', 'Valor (2)': '20', 'Nome (2)': 'Bia', 'Valor (3)': '30' }]);
    expect(warnings).toEqual([
      '1: 2 column names repeat; the later copies are read as "Valor (2)" (column 4), "Nome (2)" (column 5), "Valor (3)" (column 6): a profile names them so',
    ]);
  });

  it('passes over a name the header already holds, wherever it stands: deterministic, nothing overwritten', async () => {
    const path = file(`taken-${_engine}.csv`, 'a,a,a (2),a,a (2),b\n1,2,3,4,5,6\n');
    const { header, records } = await read(path, {}, fast);
    expect(header).toEqual(['a', 'a (3)', 'a (2)', 'a (4)', 'a (2) (2)', 'b']);
    expect(rows(records)).toEqual([{ a: '1', 'a (3)': '2', 'a (2)': '3', 'a (4)': '4', 'a (2) (2)': '5', b: '6' }]);
  });

  it('names equal once trimmed and NBSP made a space repeat too; a real "column_2" keeps its name before an unnamed column', async () => {
    const nbsp = await read(file(`nbsp-${_engine}.csv`, 'id,e-mail\u00a0,e-mail \n1,a,b\n'), {}, fast);
    expect(nbsp.header).toEqual(['id', 'e-mail', 'e-mail (2)']);
    const unnamed = await read(file(`unnamed-${_engine}.csv`, 'id,,column_2\n1,x,y\n'), {}, fast);
    expect(unnamed.header).toEqual(['id', 'column_2 (2)', 'column_2']);
    expect(unnamed.warnings).toContain('1: column 2 has no name in the header; called it "column_2 (2)"');
  });

  it('a header of 2,000 copies of one name: every copy read, one warning of bounded length', async () => {
    const path = file(`many-${_engine}.csv`, `${Array(2000).fill('x').join(',')}\n${Array.from({ length: 2000 }, (_, i) => i).join(',')}\n`);
    const { header, records, warnings } = await read(path, {}, fast);
    expect(header![1999]).toBe('x (2000)');
    expect((records[0] as { row: Record<string, string> }).row['x (2000)']).toBe('1999');
    expect(warnings).toHaveLength(1);
    expect(warnings[0]!.length).toBeLessThan(400);
    expect(warnings[0]).toMatch(
      /^1: 1 column name repeats; the later copies are read as "x \(2\)" \(column 2\), .* \(and 19\d\d more\): a profile names them so$/,
    );
  });
});

describe('a header of many empty columns', () => {
  it('100,000 trailing delimiters: one warning of bounded length (was one line naming every column)', async () => {
    const path = file('trailing.csv', `id,name${','.repeat(100_000)}\n1,a\n`);
    const { header, warnings } = await read(path);
    expect(header).toHaveLength(100_002);
    expect(warnings).toHaveLength(1);
    expect(warnings[0]!.length).toBeLessThan(400);
    expect(warnings[0]).toMatch(
      /^1: the header ends with 100000 empty columns \(a trailing delimiter\); read as "column_3", "column_4", .* \(and 99\d\d\d more\), ignored while empty$/,
    );
  });
});

describe('workbooks', () => {
  it('a sheet whose header repeats names: "Name (2)" by its column letter, one warning (266 workbooks were refused whole)', async () => {
    const path = file('repeated.xlsx', '');
    await writeWorkbook(path, [
      {
        name: 'Deals',
        rows: [
          ['Título do negócio', 'Data', 'Data', 'Responsável', 'Data'],
          ['Venda A', { date: '2024-05-01' }, { date: '2024-05-02' }, 'Ana', { date: '2024-05-03' }],
        ],
      },
    ]);
    const { header, records, warnings } = await read(path);
    expect(header).toEqual(['Título do negócio', 'Data', 'Data (2)', 'Responsável', 'Data (3)']);
    expect(rows(records)).toEqual([
      { 'Título do negócio': 'Venda A', Data: '2024-05-01', 'Data (2)': '2024-05-02', Responsável: 'Ana', 'Data (3)': '2024-05-03' },
    ]);
    expect(warnings).toEqual(['1: 1 column name repeats; the later copies are read as "Data (2)" (column C), "Data (3)" (column E): a profile names them so']);
  });

  it('a header starting right of column A names its columns by their own letters', async () => {
    const path = file('offset.xlsx', '');
    await writeWorkbook(path, [
      {
        name: 'S',
        rows: [
          [null, 'id', 'x', 'x'],
          [null, '1', '2', '3'],
        ],
      },
    ]);
    const { header, warnings } = await read(path);
    expect(header).toEqual(['id', 'x', 'x (2)']);
    expect(warnings).toEqual(['1: 1 column name repeats; the later copies are read as "x (2)" (column D): a profile names them so']);
  });
});

describe("other projects' workbooks whose header repeats names (fixtures/outside/xlsx, refused whole before)", () => {
  const outside = (name: string) => join(import.meta.dirname, '../../fixtures/outside/xlsx', name);
  const REPEATING = [
    'calamine/column_row_ranges.xlsx',
    'calamine/issue446.xlsx',
    'calamine/issue_565_multi_axis_shared.xlsx',
    'calamine/issue_567_absolute_shared.xlsx',
    'calamine/minimal_package.xlsx',
    'calamine/richtext-after-plain.xlsx',
    'calamine/shared_formula_reversed.xlsx',
    'calamine/table_with_insertrow_attribute.xlsx',
    'exceljs/fibonacci.xlsx',
    'exceljs/many-columns.xlsx',
    'exceljs/test-row-styles.xlsx',
    'sheetjs/NumberFormatCondition.xlsm',
    'sheetjs/comments_stress_test.xlsx',
    'sheetjs/formula_stress_test.xlsx',
    'sheetjs/formulae_test_simple.xlsx',
    'sheetjs/outline.xlsx',
    'sheetjs/sheet_visibility.xlsx',
    'sheetjs/sheet_visibility_strict.xlsx',
  ];
  it.each(REPEATING)('%s: read, with one warning naming the later copies', async (name) => {
    const { header, records, warnings } = await read(outside(name));
    expect(new Set(header).size).toBe(header!.length);
    expect(records.length).toBeGreaterThan(0);
    expect(warnings.filter((w) => /column names? repeats?; the later copies are read as "/.test(w))).toHaveLength(1);
  });

  it('a booking export repeating CHARGE, CHG_LVL and BAIL three times (calamine minimal_package.xlsx): every row, each copy its own column', async () => {
    const { header, records } = await read(outside('calamine/minimal_package.xlsx'));
    expect(header!.slice(19, 29)).toEqual([
      'CHARGE',
      'CHG_LVL',
      'BAIL',
      'CHG_DESC',
      'CHARGE (2)',
      'CHG_LVL (2)',
      'BAIL (2)',
      'CHARGE (3)',
      'CHG_LVL (3)',
      'BAIL (3)',
    ]);
    expect(records.filter((r) => r.kind === 'row')).toHaveLength(193);
    expect(records.filter((r) => r.kind === 'unreadable')).toHaveLength(0);
  });
});

describe('JSON records with a repeated key', () => {
  it('keeps both copies, the later as "key (2)", and says so once per file naming the first record', async () => {
    const path = file(
      'repeated.json',
      '[\n{"externalId":"A0","name":"ok"},\n{"externalId":"A1","name":"x","externalId":"A2"},\n{"name":"y","name":"z","name (2)":"w","name":"v"}\n]\n',
    );
    const { records, warnings } = await read(path);
    expect(rows(records)).toEqual([
      { externalId: 'A0', name: 'ok' },
      { externalId: 'A1', name: 'x', 'externalId (2)': 'A2' },
      { name: 'y', 'name (3)': 'z', 'name (2)': 'w', 'name (4)': 'v' },
    ]);
    expect(Object.keys((records[2] as { item: object }).item)).toEqual(['name', 'name (3)', 'name (2)', 'name (4)']);
    expect(warnings).toEqual([
      '3: the record on line 3 repeats the key "externalId": its later copy is read as "externalId (2)" (a JSON parser keeps only the last); 2 records repeat keys: "externalId", "name"',
    ]);
  });

  it('nested objects too, named by their path; escaped keys are compared as decoded', async () => {
    const path = file('nested.json', '[{"id":1,"amount":{"value":1,"val\\u0075e":2},"lines":[{"sku":"a","sku":"b"}]}]');
    const { records, warnings } = await read(path);
    expect(rows(records)).toEqual([{ id: 1, amount: { value: 1, 'value (2)': 2 }, lines: [{ sku: 'a', 'sku (2)': 'b' }] }]);
    expect(warnings).toEqual([
      '1: the record on line 1 repeats the key "amount.value": its later copy is read as "value (2)" (a JSON parser keeps only the last); 1 record repeats keys: "amount.value", "lines[].sku"',
    ]);
  });

  it('no warning where only strings hold what looks like keys', async () => {
    const path = file('strings.json', '[{"id":"1","note":"\\"id\\":2, \\"id\\": 3"}, {"id":"2","a":{"id":"x"}}]');
    const { records, warnings } = await read(path);
    expect(rows(records)).toEqual([
      { id: '1', note: '"id":2, "id": 3' },
      { id: '2', a: { id: 'x' } },
    ]);
    expect(warnings).toEqual([]);
  });

  it('NDJSON: each line its own record, one warning for the file', async () => {
    const path = file('repeated.ndjson', '{"id":"1"}\n{"id":"2","id":"3"}\n{"id":"4","id":"5"}\n');
    const { records, warnings } = await read(path);
    expect(rows(records)).toEqual([{ id: '1' }, { id: '2', 'id (2)': '3' }, { id: '4', 'id (2)': '5' }]);
    expect(warnings).toEqual([
      '2: the record on line 2 repeats the key "id": its later copy is read as "id (2)" (a JSON parser keeps only the last); 2 records repeat keys: "id"',
    ]);
  });
});
