import { chmodSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse } from 'csv-parse/sync';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { createCollector } from '../../src/report/collector.js';
import { createErrorsCsv, ERRORS_CSV_COLUMNS, writeError } from '../../src/report/errors-csv.js';
import { isFormulaLike, neutraliseCell, restoreCell } from '../../src/report/formula-guard.js';
import { accepted, invalid, rejected } from './fixtures.js';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'errors-csv-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const read = (path: string) => readFileSync(path, 'utf8');
const parseBack = (path: string, delimiter = ',') => parse(read(path), { bom: true, delimiter, columns: true }) as Record<string, string>[];

describe('formula guard', () => {
  test.each([
    ['=SUM(A1:A2)', "'=SUM(A1:A2)"],
    ['+cmd', "'+cmd"],
    ['-2+3', "'-2+3"],
    ['@import', "'@import"],
    ['\tx', "'\tx"],
    ['\rx', "'\rx"],
    ['\nx', "'\nx"],
    ['＝1+1', "'＝1+1"],
    ['＋1', "'＋1"],
    ['－1', "'－1"],
    ['＠x', "'＠x"],
    ["'=x", "''=x"],
  ])('%j is neutralised', (cell, out) => {
    expect(neutraliseCell(cell)).toBe(out);
    expect(restoreCell(out)).toBe(cell);
  });
  test.each(['-12.5', '+3', '-1,5', '1e-3', '-7E+2', 'Ana', "'quoted", '', 'a=b', ' =x'])('%j is kept as it is', (cell) => {
    expect(neutraliseCell(cell)).toBe(cell);
    expect(restoreCell(cell)).toBe(cell);
  });
  test('a lone minus is not a number', () => expect(isFormulaLike('-')).toBe(true));
});

describe('errors CSV', () => {
  const inputs = () => [join(dir, 'deals.csv')];

  test('original columns in input order, then the added ones; BOM; every row comes back through the sink', () => {
    const w = createErrorsCsv({ dir, inputs: inputs() });
    w.declareSource('deals.csv', { header: ['id', 'title', 'amount', 'currency'] });
    const c = createCollector({ maxKept: 1, sink: w.write });
    c.record(accepted('deal', 2));
    c.record(rejected(3, 1, 'D-3', 'USX'));
    c.record(invalid(4, 'abc'));
    const { files } = w.finish();
    expect(files).toEqual([{ source: 'deals.csv', path: join(dir, 'deals.errors.csv'), rows: 2 }]);
    const text = read(files[0]!.path);
    expect(text.startsWith('\uFEFFid,title,amount,currency,_line,_outcome,_field,_message,_detail,_resource\n')).toBe(true);
    const rows = parseBack(files[0]!.path);
    expect(rows).toEqual([
      {
        id: 'D-3',
        title: 'Deal D-3',
        amount: '-12.5',
        currency: 'USX',
        _line: '3',
        _outcome: 'rejected',
        _field: 'amount.currency',
        _message: 'VALIDATION_ERROR',
        _detail: 'items[1] externalId=D-3: amount.currency: "USX" is not an ISO-4217 currency code',
        _resource: 'deal',
      },
      {
        id: 'D-4',
        title: `'=HYPERLINK("http://x")`,
        amount: 'abc',
        currency: 'EUR',
        _line: '4',
        _outcome: 'invalid',
        _field: 'amount.value',
        _message: 'INVALID',
        _detail: '"abc" is not a decimal number',
        _resource: 'deal',
      },
    ]);
    expect(Object.keys(rows[0]!).slice(-ERRORS_CSV_COLUMNS.length)).toEqual([...ERRORS_CSV_COLUMNS]);
    // read back and restored, the original cells are exactly what came in
    expect(restoreCell(rows[1]!.title!)).toBe('=HYPERLINK("http://x")');
  });

  test('server messages are neutralised too, and accents and delimiters survive', () => {
    const w = createErrorsCsv({ dir, inputs: inputs(), delimiter: ';' });
    const o = rejected(3, 1, 'D-3', 'USX');
    w.write({ ...o, message: '@SUM(1)', detail: '-1+1 cmd|calc', row: { id: 'D-3', title: 'Café; "Ärger"', amount: '1', currency: 'X' } });
    const [file] = w.finish().files;
    const text = read(file!.path);
    expect(text).toContain('id;title;amount;currency;_line');
    const [row] = parseBack(file!.path, ';');
    expect(row).toMatchObject({ title: 'Café; "Ärger"', _message: "'@SUM(1)", _detail: "'-1+1 cmd|calc" });
  });

  test('no header declared: the first row gives it; unknown later cells are counted as dropped', () => {
    const w = createErrorsCsv({ dir, inputs: inputs() });
    w.write({ ...invalid(2, 'x'), row: { a: '1', b: '2' } });
    w.write({ ...invalid(3, 'x'), row: { a: '3', c: '4' } });
    const { files, droppedCells } = w.finish();
    expect(parseBack(files[0]!.path).map((r) => [r.a, r.b])).toEqual([
      ['1', '2'],
      ['3', ''],
    ]);
    expect(droppedCells).toBe(1);
  });

  test('an errors file fed back replaces its old _ columns instead of duplicating them', () => {
    const w = createErrorsCsv({ dir, inputs: [join(dir, 'deals.errors.csv')], fileName: () => 'deals.errors-2.csv' });
    w.declareSource('deals.errors.csv', { header: ['id', '_line', '_outcome', '_field', '_message', '_detail'] });
    w.write({ ...invalid(2, 'x'), file: 'deals.errors.csv', row: { id: 'D-1', _line: '9', _outcome: 'invalid', _field: '', _message: 'OLD', _detail: 'old' } });
    const [file] = w.finish().files;
    // an errors CSV from before _resource came gets it too
    expect(read(file!.path).split('\n')[0]).toBe('\uFEFFid,_line,_outcome,_field,_message,_detail,_resource');
    expect(parseBack(file!.path)[0]).toMatchObject({ id: 'D-1', _line: '2', _message: 'INVALID' });
  });

  test('rows of several files go to one errors file each, never to the same name', () => {
    const w = createErrorsCsv({ dir, inputs: [join(dir, 'a', 'deals.csv'), join(dir, 'b', 'deals.csv')] });
    w.write({ ...invalid(2, 'x'), file: 'a/deals.csv' });
    w.write({ ...invalid(2, 'x'), file: 'b/deals.csv' });
    w.write({ ...invalid(3, 'x'), file: 'users.csv', resource: 'sales-profile' });
    expect(w.finish().files.map((f) => f.path)).toEqual([join(dir, 'deals.errors.csv'), join(dir, 'deals-2.errors.csv'), join(dir, 'users.errors.csv')]);
  });

  test('refuses to write over an input, also through another spelling or a symlink', () => {
    writeFileSync(join(dir, 'deals.errors.csv'), 'precious');
    expect(() => createErrorsCsv({ dir, inputs: [join(dir, 'deals.errors.csv')], fileName: () => 'deals.errors.csv' })).toThrow(
      /refusing to write the errors CSV over an input file/,
    );
    expect(() =>
      createErrorsCsv({ dir: join(dir, '.'), inputs: [`${dir}/../${dir.split('/').pop()}/deals.errors.csv`], fileName: () => 'deals.errors.csv' }),
    ).toThrow(/refusing/);
    symlinkSync(join(dir, 'deals.errors.csv'), join(dir, 'link.csv'));
    expect(() => createErrorsCsv({ dir, inputs: [join(dir, 'deals.errors.csv')], fileName: () => 'link.csv' })).toThrow(/refusing/);
    expect(read(join(dir, 'deals.errors.csv'))).toBe('precious');
  });

  test('atomic: nothing appears at the target until finish, and an abort leaves the old file and no temp', () => {
    writeFileSync(join(dir, 'deals.errors.csv'), 'previous run');
    const w = createErrorsCsv({ dir, inputs: inputs() });
    for (let i = 0; i < 5000; i++) w.write(rejected(i + 2, i, `D-${i}`, 'USX'));
    expect(read(join(dir, 'deals.errors.csv'))).toBe('previous run');
    w.abort();
    expect(readdirSync(dir)).toEqual(['deals.errors.csv']);
    expect(read(join(dir, 'deals.errors.csv'))).toBe('previous run');
  });

  test('a write failure becomes one clear error, not a stack, and leaves no partial file', () => {
    const w = createErrorsCsv({ dir, inputs: inputs() });
    w.write(rejected(2, 0, 'D-2', 'USX'));
    // the directory disappears under the run: the rename at the end fails
    rmSync(dir, { recursive: true, force: true });
    w.write(rejected(3, 1, 'D-3', 'USX'));
    expect(() => w.finish()).toThrow(/cannot write the errors CSV .*deals\.errors\.csv: the directory does not exist \(ENOENT\)/);
    expect(existsSync(join(dir, 'deals.errors.csv'))).toBe(false);
  });

  test('system error codes read as reasons', () => {
    const full = Object.assign(new Error('ENOSPC: no space left on device, write'), { code: 'ENOSPC' });
    expect(writeError(full, 'x.csv').message).toBe('cannot write the errors CSV x.csv: the disk is full (ENOSPC)');
    expect(writeError(Object.assign(new Error('x'), { code: 'EACCES' }), 'x.csv').message).toBe(
      'cannot write the errors CSV x.csv: permission denied (EACCES)',
    );
  });

  test('an unwritable directory is refused before the run starts', () => {
    if (process.getuid?.() === 0) return; // root writes anywhere
    chmodSync(dir, 0o500);
    try {
      expect(() => createErrorsCsv({ dir, inputs: inputs() })).toThrow('permission denied (EACCES)');
    } finally {
      chmodSync(dir, 0o700);
    }
    expect(() => createErrorsCsv({ dir: join(dir, 'missing'), inputs: inputs() })).toThrow('the directory does not exist (ENOENT)');
  });
});
