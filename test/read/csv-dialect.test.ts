// Delimiter, quotes, escapes, header row and header names.

import { describe, expect, it } from 'vitest';
import { InputError } from '../../src/errors.js';
import { errorOf, readAll, tempDir } from './helpers.js';

const file = tempDir();
const rows = (records: Awaited<ReturnType<typeof readAll>>['records']) => records.map((r) => (r.kind === 'row' ? { ...r.row } : r));

describe('delimiter', () => {
  it.each([
    [',', 'id,name,amount\n1,Ana,10\n2,Bia,20\n'],
    [';', 'id;nome;valor\n1;Ana;2,5\n2;Bia;3,75\n'],
    ['\t', 'id\tname\n1\tAna, Bia\n'],
    ['|', 'id|name\n1|Ana; Bia\n'],
  ])('detects %j', async (delimiter, content) => {
    const { detected, header } = await readAll(file(`d${content.length}.csv`, content));
    expect(detected.delimiter).toBe(delimiter);
    expect(header?.[0]).toBe('id');
  });

  // found by test/property/workflow-commands-cli.test.ts (seed -1523764803): cut at the bare CRs inside
  // the quotes, the pieces between them voted for the semicolon
  it('is not fooled by quoted cells holding bare CRs and semicolons in a comma file', async () => {
    const cell = '"\r##[error file=evil.yml;line=1]pwned\r;"';
    const { detected, records } = await readAll(file('cr.csv', `externalId,name,type\n${cell},${cell},COMPANY\nbad-2,${cell},${cell}\n`));
    expect(detected.delimiter).toBe(',');
    expect(rows(records).map((r) => (r as Record<string, string>).type)).toEqual(['COMPANY', '\r##[error file=evil.yml;line=1]pwned\r;']);
  });

  it('is not fooled by decimal commas in a semicolon file', async () => {
    const { detected, records } = await readAll(file('dec.csv', 'id;a;b\n1;2,5;3,5\n2;1,25;0,5\n'));
    expect(detected.delimiter).toBe(';');
    expect(rows(records)[0]).toEqual({ id: '1', a: '2,5', b: '3,5' });
  });

  // too few rows for any delimiter count to have a majority: where the quotes sit decides
  it.each([
    ['a row longer and a row shorter than the header', 'id;name;city\n2;"Diaz, Bia";Lima;x\n3;"Souza, Ana"\n'],
    ['two rows shorter than the header', 'id;name;city;amount\n2;"Diaz, Bia"\n3;"Souza, Ana";Lima\n'],
    ['quoted fields at the line ends', 'id;name;city\n2;"Diaz, Bia";"Lima, PE";x\n3;"Souza, Ana"\n'],
  ])('reads a short semicolon file with quoted commas and ragged rows: %s', async (_, content) => {
    const { detected, header, records } = await readAll(file(`ragged${content.length}.csv`, content));
    expect(detected.delimiter).toBe(';');
    expect(header?.[0]).toBe('id');
    // a row of another width than the header's is unreadable (the readers issue), its cells still read right
    expect(records[0]).toMatchObject({ line: 2, row: { id: '2', name: 'Diaz, Bia' } });
  });

  // a literal quote (an inch mark, quoted speech, JSON in a cell) must not outvote the majority
  const rowsOf = (n: number, row: (i: number) => string) => Array.from({ length: n }, (_, i) => row(i)).join('\n');
  it.each([
    [';', 'JSON in one cell', `id;name;meta\n${rowsOf(28, (i) => `${i};n${i};-`)}\n29;z;{"a":1,"b":2}\n`],
    ['\t', 'an inch mark before a comma', `sku\tdesc\tqty\n${rowsOf(20, (i) => `${i}\tWidget ${i}\t${i}`)}\n21\tPipe 3/4", brass\t2\n`],
    [';', 'a quoted word in a title row', `Sales "EU", 2024\nid;name;amount\n${rowsOf(5, (i) => `${i};n${i};5,5`)}\n`],
    [';', 'quoted speech in every row', `id;text;amount\n${rowsOf(5, (i) => `${i};Er sagte "ja", dann;5,5`)}\n`],
    ['|', 'a pipe file', `id|text|n\n${rowsOf(5, (i) => `${i}|the "best", really|2`)}\n`],
    [',', 'quoted JSON holding semicolons', `id,json\n${rowsOf(5, (i) => `${i},"{""a"":"";x"";""b"":"";y""}"`)}\n`],
  ])('takes %j when %s', async (delimiter, _, content) => {
    const { detected } = await readAll(file(`lit${content.length}.csv`, content));
    expect(detected.delimiter).toBe(delimiter);
  });

  // agreeing lines weigh (cells - 1) / cells each: a semicolon export whose amounts have a decimal
  // comma splits in two on commas (half a line) and in many on semicolons, even when a balance line
  // gives the comma one more agreeing line; a two-column comma file keeps the comma unless three in
  // four of its lines split alike on another delimiter
  it.each([
    [
      ';',
      'balance lines above semicolon rows with one decimal comma each',
      `Saldo;66.331,90;EUR\nVorher;65.000,00;EUR\nBuchung;Text;Betrag;W\n${rowsOf(20, (i) => `0${i % 9}.01.2020;t${i};-${i},50;EUR`)}\n`,
    ],
    [
      ',',
      'a two-column comma file, half its notes holding two unquoted semicolons',
      `id,note\n${rowsOf(20, (i) => (i % 2 ? `${i},a; b; c` : `${i},plain`))}\n`,
    ],
  ])('takes %j for %s', async (delimiter, _, content) => {
    const { detected } = await readAll(file(`weigh${content.length}.csv`, content));
    expect(detected.delimiter).toBe(delimiter);
  });

  it('still takes the comma when quoted fields hold semicolons', async () => {
    const { detected, records } = await readAll(file('qsemi.csv', 'id,note\n1,"a;"\n2,"b; c";x\n'));
    expect(detected.delimiter).toBe(',');
    expect(rows(records)[0]).toEqual({ id: '1', note: 'a;' });
  });

  it('takes the option over detection', async () => {
    const { records, header } = await readAll(file('opt.csv', 'a;b,c\n1;2,3\n'), { delimiter: ',' });
    expect(header).toEqual(['a;b', 'c']);
    expect(rows(records)).toEqual([{ 'a;b': '1;2', c: '3' }]);
  });

  it('honours a quoted "sep=;" line too', async () => {
    const { detected, records } = await readAll(file('sep.csv', '"sep=;"\na;b\n1;2\n'));
    expect(detected).toMatchObject({ delimiter: ';', headerRow: 2 });
    expect(records[0]!.line).toBe(3);
  });
});

describe('quotes', () => {
  it('reads delimiters, doubled quotes and newlines inside quoted fields', async () => {
    const { records } = await readAll(file('q.csv', 'a,b\n"x, y","say ""hi""\nbye"\n'));
    expect(rows(records)).toEqual([{ a: 'x, y', b: 'say "hi"\nbye' }]);
  });

  it('reads backslash-escaped quotes when escape is \\', async () => {
    const { records } = await readAll(file('bs.csv', 'id,name\n1,"say \\"hi\\""\n'), { escape: '\\' });
    expect(rows(records)).toEqual([{ id: '1', name: 'say "hi"' }]);
  });

  it('keeps a backslash that escapes neither a quote nor a backslash, as written (escape \\)', async () => {
    const { records } = await readAll(file('bs2.csv', 'id,name\n1,"C:\\temp\\d"\n2,"a\\\\b"\n3,"x\\"y"\n'), { escape: '\\' });
    expect(rows(records)).toEqual([
      { id: '1', name: 'C:\\temp\\d' },
      { id: '2', name: 'a\\b' },
      { id: '3', name: 'x"y' },
    ]);
  });

  it('fails an unbalanced quote at the bounded record size, naming the line it started on', async () => {
    const body = 'id,name\n1,ok\n2,"never closed\n' + '3,more\n'.repeat(50_000);
    const path = file('unbalanced.csv', body);
    const err = await errorOf(readAll(path, { maxRecordBytes: 64 * 1024 }));
    expect(err).toBeInstanceOf(InputError);
    expect(err.message).toMatch(new RegExp(`^${path}:3: .*over 64 KiB.*unbalanced quote`));
    expect(err.suggestion).toContain('--max-record-bytes');
  });

  it('a 10 MB field stops with the line and how to raise the limit; raising it reads the field', async () => {
    const big = 'x'.repeat(10 * 1024 * 1024);
    const path = file('huge.csv', `id,blob\n1,small\n2,"${big}"\n3,after\n`);
    const err = await errorOf(readAll(path));
    expect(err.message.startsWith(`${path}:3: the record starting on this line is over 1 MiB`)).toBe(true);
    expect(err.suggestion).toMatch(/raise the limit/);
    const { records } = await readAll(path, { maxRecordBytes: 16 * 1024 * 1024 });
    expect(records.map((r) => r.line)).toEqual([2, 3, 4]);
  });
});

describe('header row', () => {
  it('uses options.headerRow without a warning', async () => {
    const { records, header, warnings } = await readAll(file('hr.csv', 'Report\nid,name\n1,Ana\n'), { headerRow: 2 });
    expect(header).toEqual(['id', 'name']);
    expect(records[0]!.line).toBe(3);
    expect(warnings).toEqual([]);
  });

  it('detects title rows and says so', async () => {
    const { detected, warnings } = await readAll(file('title.csv', 'Vendas 2024\n\nid,name\n1,Ana\n'));
    expect(detected.headerRow).toBe(3);
    expect(warnings[0]).toMatch(/^the header is line 3, .*; passed over lines 1–2 above it/);
  });

  // issue 29.8: a report export's title, a "generated on" row of two cells and a blank row above the
  // real 11-column header; the two-cell row was taken as the header and every row below was ragged
  const REPORT = [
    'Reporte de oportunidades – Ventas Chile',
    'Generado el;2026-11-20 18:30',
    '',
    'Código;Oportunidad;Cliente;Vendedor;Embudo;Etapa;Monto;Moneda;Fecha de cierre;Probabilidad;Observación',
    '00123;Renovación;Comercial Andina;Bruno Díaz;Ventas;Ganado;1.234.560;CLP;15/03/2026;100;Pidió factura',
    '00124;Implementación;Grupo Ñandú;Camila Rojas;Ventas;Negociación;25.000,00;MXN;02/04/2026;60;',
    '00125;Capacitación;Minera del Norte;Ana Souza;Ventas;Perdido;500,00;USD;30/04/2026;0;',
  ];
  const excelPadded = (lines: string[]) => lines.map((l) => l + ';'.repeat(10 - (l.match(/;/g)?.length ?? 0))).join('\r\n');

  it.each([
    ['as typed', REPORT.join('\n')],
    ['as Excel saves it, every row padded to 11 cells', excelPadded(REPORT)],
  ])('past a title, a two-cell metadata row and a blank row, the header is the row as wide as the rows below it (%s)', async (_, text) => {
    const { detected, header, records, warnings, headerChoice } = await readAll(file(`report-${text.length}.csv`, text));
    expect(detected).toMatchObject({ delimiter: ';', headerRow: 4 });
    expect(header).toHaveLength(11);
    expect(header?.slice(0, 2)).toEqual(['Código', 'Oportunidad']);
    expect(records.map((r) => [r.kind, r.line])).toEqual([
      ['row', 5],
      ['row', 6],
      ['row', 7],
    ]);
    expect(warnings).toEqual([
      'the header is line 4, the first row whose names cover the 11 columns of the rows below it; passed over lines 1–3 above it (set the header row, --header-row or reader.headerRow, to choose another)',
    ]);
    expect(headerChoice).toMatchObject({ line: 4, how: 'detected', above: { from: 1, to: 3 } });
  });

  it('a filters block (names over fewer than half the columns, or dates) is passed over too', async () => {
    const text = [
      'Filtros:;Etapa = Ganado',
      'Período;01/01/2026;31/03/2026',
      'id;name;type;sector;owner;city',
      'a1;Acme;COMPANY;Retail;ana;Lima',
      'a2;Beta;CLIENT;;bia;',
    ].join('\n');
    const { detected, header } = await readAll(file('filters.csv', text));
    expect(detected.headerRow).toBe(3);
    expect(header).toEqual(['id', 'name', 'type', 'sector', 'owner', 'city']);
  });

  it('the first row stays the header, without a warning, when the rows below are sparse or all numbers', async () => {
    for (const [name, text] of [
      ['sparse.csv', 'id;name;city;note;owner\n1;;;;\n2;Ana;;;\n3;;Lima;;\n'],
      ['numbers.csv', 'id,amount,probability\n1,10,0.5\n2,20,0.25\n'],
      ['optional-last.csv', 'id;name;note\n1;Ana;\n2;Bia;\n3;Caio;x\n'],
      ['header-only.csv', 'id,name\n'],
    ]) {
      const { detected, warnings, headerChoice } = await readAll(file(name!, text!));
      expect(detected.headerRow, name).toBe(1);
      expect(
        warnings.filter((w) => w !== 'has a header but no rows'),
        name,
      ).toEqual([]);
      expect(headerChoice?.how, name).toBe('first');
    }
  });

  it('a header with rows above it and no rows below is still found', async () => {
    const { detected, header } = await readAll(file('no-rows.csv', 'Reporte\nGenerado el;2026-11-20\n\nid;name;type\n'));
    expect(detected.headerRow).toBe(4);
    expect(header).toEqual(['id', 'name', 'type']);
  });

  it('a header row given that leaves no row fitting it: read as asked, and a warning names the row that looks like the header', async () => {
    const { header, records, warnings, headerChoice } = await readAll(file('asked.csv', REPORT.join('\n')), { headerRow: 2 });
    expect(header).toEqual(['Generado el', '2026-11-20 18:30']);
    expect(records.every((r) => r.kind === 'unreadable')).toBe(true);
    expect(warnings).toEqual([
      'no row below the header on line 2 fits its 2 columns (the rows below it use up to 11); line 4 looks like the header: set --header-row 4 (reader.headerRow: 4)',
    ]);
    expect(headerChoice).toMatchObject({ line: 2, how: 'option', lookalike: 4, noRowFits: warnings[0] });
  });

  // a MySQL `SELECT … INTO OUTFILE` export (vTiger CRM) has no header row: its first data row was
  // taken for the header without a word, and that row was lost
  const HEADERLESS = [
    '100,"Proyecto X",179500.00000000,2019-03-04 10:22:11,Closed Lost,rcorrales,rcorrales@ebdpanama.com,10.000,66788214',
    '101,"Proyecto Y",25000.00000000,2019-04-11 09:00:00,Closed Won,jperez,jperez@ebdpanama.com,90.000,66788215',
    '102,"Proyecto Z",1200.50000000,2019-05-20 16:45:30,Prospecting,rcorrales,rcorrales@ebdpanama.com,20.000,66788216',
  ].join('\n');

  it('a file whose first line holds values and no line qualifies as the header: a warning says it has no header row', async () => {
    const { detected, warnings, headerChoice } = await readAll(file('headerless.csv', HEADERLESS));
    expect(detected.headerRow).toBe(1);
    expect(headerChoice).toMatchObject({ line: 1, how: 'fallback', headerless: 'line 1 holds values: "100", "179500.00000000", "2019-03-04 10:22:11"' });
    expect(warnings).toEqual([
      'the file has no header row: line 1 holds values: "100", "179500.00000000", "2019-03-04 10:22:11"; it is read as the header, so its row is not read as data: add a line of column names as line 1 (if line 1 is the header, set --header-row 1 or reader.headerRow: 1)',
    ]);
  });

  it('a header holding a few numeric-looking names (years, Q1), or one asked for, is not taken for a data row', async () => {
    for (const [name, text, headerRow] of [
      ['years.csv', 'Region;2019;2020;2021\nNorte;1.500,00;2.000,00;2.500,00\nSur;900,00;1.100,00;1.300,00\n', undefined],
      ['one-year.csv', 'id,name,2019,Q1\n1,Ana,10.5,3\n2,Bia,20.5,4\n', undefined],
      ['asked.csv', HEADERLESS, 1],
    ] as const) {
      const { warnings, headerChoice } = await readAll(file(name, text), headerRow === undefined ? undefined : { headerRow });
      expect(headerChoice?.line, name).toBe(1);
      expect(headerChoice?.headerless, name).toBeUndefined();
      expect(
        warnings.filter((w) => w.includes('no header row')),
        name,
      ).toEqual([]);
    }
  });

  it('a single-column file is not mistaken for title rows', async () => {
    const { header, records } = await readAll(file('one.csv', 'email\na@x.com\nb@x.com\n'));
    expect(header).toEqual(['email']);
    expect(records).toHaveLength(2);
  });
});

describe('header names', () => {
  it('trims and turns NBSP into spaces', async () => {
    const { header } = await readAll(file('nbsp.csv', ' Nome\u00a0Completo , valor\n1,2\n'));
    expect(header).toEqual(['Nome Completo', 'valor']);
  });

  it('rows are null-prototype objects, so __proto__ is a plain column', async () => {
    const { records } = await readAll(file('proto.csv', '__proto__,constructor\n{"polluted":1},x\n'));
    const row = records[0]!.kind === 'row' ? records[0]!.row : {};
    expect(Object.getPrototypeOf(row)).toBe(null);
    expect(Object.keys(row)).toEqual(['__proto__', 'constructor']);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('keeps rows without the trailing delimiter when the header has one; reads a value under the unnamed last column as column_N', async () => {
    const { records, header, warnings } = await readAll(file('trail.csv', 'a;b;\n1;2;\n3;4\n5;6;7\n8;9;10;11\n'));
    expect(header).toEqual(['a', 'b', 'column_3']);
    expect(records.map((r) => r.kind)).toEqual(['row', 'row', 'row', 'unreadable']);
    expect(records.slice(0, 3).map((r) => (r.kind === 'row' ? { ...r.row } : r))).toEqual([
      { a: '1', b: '2', column_3: '' },
      { a: '3', b: '4', column_3: '' },
      { a: '5', b: '6', column_3: '7' },
    ]);
    expect(warnings).toContain('column 3 has no name in the header but holds data (first on line 4); read as "column_3"');
  });
});
