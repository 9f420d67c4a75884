// `batch-sync inspect FILE` (issue 29): how batch-sync reads a file — format, encoding, delimiter,
// sheet and the other sheets, the header row and why, the columns with their inferred types and
// examples, the first rows as read, the warnings — in words and as JSON, through the built CLI.
import { writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { expect, test } from 'vitest';
import { spawnCli, tempFiles } from '../helpers/cli.js';
import { expectCleanStderr, expectOneLineError } from './bad-input-checks.js';

const ROOT = resolve(__dirname, '../..');
const inspect = (args: string[], cwd = ROOT) => spawnCli(['inspect', ...args], { cwd });

test('--format json: the report workbook LibreOffice saved, its shape as a snapshot', async () => {
  const r = await inspect(['fixtures/es-reporte/oportunidades.xlsx', '--format', 'json', '--rows', '2']);
  expect(r.code, r.stderr).toBe(0);
  expect(r.stderr).toBe('');
  const doc = JSON.parse(r.stdout);
  // the snapshot sorts keys; the document's own order is fixed
  expect(Object.keys(doc)).toEqual(['file', 'format', 'encoding', 'delimiter', 'sheet', 'sheets', 'root', 'header', 'columns', 'sample', 'rows', 'warnings']);
  expect({ ...doc, columns: doc.columns.slice(0, 3).concat(doc.columns.slice(6, 10)) }).toMatchInlineSnapshot(`
    {
      "columns": [
        {
          "examples": [
            "00123",
            "00124",
            "00125",
          ],
          "filled": 12,
          "format": null,
          "letter": "A",
          "name": "Código",
          "type": "text",
        },
        {
          "examples": [
            "Renovación licencias",
            "Implementación ERP",
            "Capacitación",
          ],
          "filled": 12,
          "format": null,
          "letter": "B",
          "name": "Oportunidad",
          "type": "text",
        },
        {
          "examples": [
            "Comercial Andina",
            "Grupo Ñandú",
            "Minera del Norte",
          ],
          "filled": 12,
          "format": null,
          "letter": "C",
          "name": "Cliente",
          "type": "text",
        },
        {
          "examples": [
            "1234560",
            "25000",
            "500",
          ],
          "filled": 12,
          "format": "number cells",
          "letter": "G",
          "name": "Monto",
          "type": "number",
        },
        {
          "examples": [
            "CLP",
            "MXN",
            "USD",
          ],
          "filled": 12,
          "format": null,
          "letter": "H",
          "name": "Moneda",
          "type": "text",
        },
        {
          "examples": [
            "2026-03-15",
            "2026-04-02",
            "2026-04-30",
          ],
          "filled": 12,
          "format": "date cells",
          "letter": "I",
          "name": "Fecha de cierre",
          "type": "date",
        },
        {
          "examples": [
            "100",
            "60",
            "0",
          ],
          "filled": 12,
          "format": "number cells",
          "letter": "J",
          "name": "Probabilidad",
          "type": "number",
        },
      ],
      "delimiter": null,
      "encoding": "xlsx",
      "file": "fixtures/es-reporte/oportunidades.xlsx",
      "format": "xlsx",
      "header": {
        "how": "detected",
        "line": 4,
        "lookalike": null,
        "noRowFits": null,
        "passedOver": {
          "from": 1,
          "to": 3,
        },
        "unit": "row",
        "why": "the first row whose names cover the 11 columns of the rows below it",
      },
      "root": null,
      "rows": [
        {
          "cells": {
            "Cliente": "Comercial Andina",
            "Código": "00123",
            "Embudo": "Ventas",
            "Etapa": "Ganado",
            "Fecha de cierre": "2026-03-15",
            "Moneda": "CLP",
            "Monto": "1234560",
            "Observación": "Cliente pidió factura",
            "Oportunidad": "Renovación licencias",
            "Probabilidad": "100",
            "Vendedor": "Bruno Díaz",
          },
          "kind": "row",
          "line": 5,
        },
        {
          "cells": {
            "Cliente": "Grupo Ñandú",
            "Código": "00124",
            "Embudo": "Ventas",
            "Etapa": "Negociación",
            "Fecha de cierre": "2026-04-02",
            "Moneda": "MXN",
            "Monto": "25000",
            "Observación": "",
            "Oportunidad": "Implementación ERP",
            "Probabilidad": "60",
            "Vendedor": "Camila Rojas",
          },
          "kind": "row",
          "line": 6,
        },
      ],
      "sample": {
        "complete": true,
        "items": 0,
        "records": 12,
        "rows": 12,
        "unreadable": 0,
      },
      "sheet": "oportunidades",
      "sheets": [
        {
          "chart": false,
          "hidden": false,
          "name": "oportunidades",
          "read": true,
        },
      ],
      "warnings": [
        {
          "line": 4,
          "message": "the header is row 4, the first row whose names cover the 11 columns of the rows below it; passed over rows 1–3 above it (set the header row, --header-row or reader.headerRow, to choose another)",
        },
      ],
    }
  `);
});

test('human: a CSV report with rows above its header says where the header is and why, its columns, first rows and warnings', async () => {
  const r = await inspect(['fixtures/es-reporte/oportunidades-excel.csv']);
  expect(r.code, r.stderr).toBe(0);
  expect(r.stdout).toMatchInlineSnapshot(`
    "fixtures/es-reporte/oportunidades-excel.csv
    format      csv
    encoding    utf-8
    delimiter   ;
    header      line 4: the first row whose names cover the 11 columns of the rows below it; lines 1–3 above it passed over
    sample      12 rows, the whole file

    columns (11):
      Código           text                    00123, 00124, 00125
      Oportunidad      text                    Renovación licencias, Implementación ERP, Capacitación
      Cliente          text                    Comercial Andina, Grupo Ñandú, Minera del Norte
      Vendedor         text                    Bruno Díaz, Camila Rojas, Ana Souza
      Embudo           text                    Ventas, Renovaciones
      Etapa            text                    Ganado, Negociación, Perdido
      Monto            number (decimal comma)  1.234.560, 25.000,00, 500,00
      Moneda           text                    CLP, MXN, USD
      Fecha de cierre  date (DD/MM/YYYY)       15/03/2026, 02/04/2026, 30/04/2026
      Probabilidad     number (decimal comma)  100, 60, 0
      Observación      text                    5 of 12 filled: Cliente pidió factura, Eligió a la competencia, Pago en 2 cuotas; 50% anticipo

    first rows (5 of 12):
      line 5  Código=00123 | Oportunidad=Renovación licencias | Cliente=Comercial Andina | Vendedor=Bruno Díaz | Embudo=Ventas | Etapa=Ganado | Monto=1.234.560 | Moneda=CLP | Fecha de cierre=15/03/2026 | Probabilidad=100 | Observación=Cliente pidió factura
      line 6  Código=00124 | Oportunidad=Implementación ERP | Cliente=Grupo Ñandú | Vendedor=Camila Rojas | Embudo=Ventas | Etapa=Negociación | Monto=25.000,00 | Moneda=MXN | Fecha de cierre=02/04/2026 | Probabilidad=60 | Observación=
      line 7  Código=00125 | Oportunidad=Capacitación | Cliente=Minera del Norte | Vendedor=Ana Souza | Embudo=Ventas | Etapa=Perdido | Monto=500,00 | Moneda=USD | Fecha de cierre=30/04/2026 | Probabilidad=0 | Observación=Eligió a la competencia
      line 8  Código=00126 | Oportunidad=Soporte anual | Cliente=Comercial Andina | Vendedor=Camila Rojas | Embudo=Renovaciones | Etapa=Propuesta | Monto=3.450.000 | Moneda=CLP | Fecha de cierre=13/05/2026 | Probabilidad=40 | Observación=
      line 9  Código=00127 | Oportunidad=Migración a la nube | Cliente=Grupo Ñandú | Vendedor=Diego López | Embudo=Ventas | Etapa=Ganado | Monto=98.700,50 | Moneda=MXN | Fecha de cierre=21/05/2026 | Probabilidad=100 | Observación=Pago en 2 cuotas; 50% anticipo

    warnings (1):
      fixtures/es-reporte/oportunidades-excel.csv:4  the header is line 4, the first row whose names cover the 11 columns of the rows below it; passed over lines 1–3 above it (set the header row, --header-row or reader.headerRow, to choose another)
    "
  `);
});

test('a workbook of several sheets names the sheet read and the others (a hidden one marked); --sheet reads another', async () => {
  const r = await inspect(['fixtures/xlsx/oportunidades.xlsx']);
  expect(r.code, r.stderr).toBe(0);
  expect(r.stdout).toContain('sheet       "Oportunidades", the first that holds data; the others: "Notas", "Listas" (hidden)');
  expect(r.stdout).toContain('header      row 3: the first row whose names cover the 9 columns of the rows below it; rows 1–2 above it passed over');
  const other = await inspect(['fixtures/xlsx/oportunidades.xlsx', '--sheet', 'Listas', '--format', 'json']);
  expect(other.code, other.stderr).toBe(0);
  const doc = JSON.parse(other.stdout);
  expect(doc.sheet).toBe('Listas');
  expect(doc.columns).toEqual([{ name: 'Etapas', letter: 'A', type: 'text', format: null, filled: 2, examples: ['Prospección', 'Ganado'] }]);
});

test('JSON and NDJSON: the items, their keys as columns with JSON types, no header', async () => {
  const dir = tempFiles({
    'deals.json': JSON.stringify({
      items: [
        { externalId: 'D-1', amount: { value: 10, currency: 'CLP' }, isWon: true },
        { externalId: 'D-2', isWon: false },
      ],
    }),
    'deals.ndjson': '{"externalId":"D-1","title":"Uno"}\n{broken\n{"externalId":"D-3","title":"Tres","closeDate":"2026-03-15"}\n',
  });
  const json = await inspect(['deals.json', '--format', 'json'], dir);
  expect(json.code, json.stderr).toBe(0);
  const doc = JSON.parse(json.stdout);
  expect(doc).toMatchObject({ format: 'json', encoding: 'utf-8', delimiter: null, header: null, sample: { records: 2, items: 2, complete: true } });
  expect(doc.columns.map((c: { name: string; type: string }) => [c.name, c.type])).toEqual([
    ['externalId', 'text'],
    ['amount', 'object'],
    ['isWon', 'boolean'],
  ]);
  const nd = await inspect(['deals.ndjson'], dir);
  expect(nd.code, nd.stderr).toBe(0);
  expect(nd.stdout).toContain('format      ndjson');
  expect(nd.stdout).toMatch(/line 2 {2}unreadable: not valid JSON/);
  expect(nd.stdout).toMatch(/closeDate +date \(YYYY-MM-DD\) +1 of 2 filled: 2026-03-15/);
});

test('a header row asked for that leaves no data rows: inspect shows it, says which row looks like the header, and exits 0', async () => {
  const r = await inspect(['fixtures/es-reporte/oportunidades.csv', '--header-row', '2', '--rows', '1']);
  expect(r.code, r.stderr).toBe(0);
  expect(r.stdout).toContain('header      line 2: as the header row option (--header-row, reader.headerRow) says');
  expect(r.stdout).toContain('line 4 looks like the header: set --header-row 4 (reader.headerRow: 4)');
  expect(r.stdout).toMatch(/line 4 {2}unreadable: has 11 cells, the header has 2/);
});

test('an unreadable file is one error line, exit 2; a missing file too', async () => {
  const dir = tempFiles({ 'empty.csv': '' });
  const empty = await inspect(['empty.csv'], dir);
  expect(empty.code).toBe(2);
  expectCleanStderr(empty.stderr);
  expectOneLineError(empty.stderr, 'empty.csv: file is empty');
  const missing = await inspect(['nope.csv'], dir);
  expect(missing.code).toBe(2);
  expectOneLineError(missing.stderr, 'nope.csv: no such file');
});

test('control characters in cells are shown escaped, never acted on', async () => {
  const dir = tempFiles({});
  writeFileSync(join(dir, 'accounts.csv'), 'externalId,name\nacme,"Acme\u001b[2J\rOK"\n');
  const r = await inspect(['accounts.csv'], dir);
  expect(r.code).toBe(0);
  expect(r.stdout).not.toContain('\u001b[2J');
  expect(r.stdout).toContain('\\u001b[2J');
});

test('--help lists the reader options and ends with examples that run', async () => {
  const help = await inspect(['--help']);
  expect(help.code).toBe(0);
  for (const flag of [
    '--format <format>',
    '--rows <n>',
    '--sample <rows>',
    '--delimiter <char>',
    '--encoding <name>',
    '--header-row <n>',
    '--sheet <name|number>',
  ])
    expect(help.stdout).toContain(flag);
  const examples = help.stdout.split('Examples:\n')[1]?.trim().split('\n') ?? [];
  expect(examples.length).toBeGreaterThanOrEqual(2);
  expect(help.stdout.trimEnd().endsWith(examples.at(-1)!)).toBe(true);
  for (const line of examples) {
    // written as the README runs batch-sync (test/e2e/invoked-as.test.ts)
    const args = line.trim().split(/\s+/);
    expect(args[0]).toBe('./bin/batch-sync.js');
    const run = await spawnCli(args.slice(1), { cwd: ROOT });
    expect(run.code, `${line}\n${run.stderr}`).toBe(0);
  }
});
