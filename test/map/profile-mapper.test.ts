import { describe, expect, test } from 'vitest';
import { ConfigError } from '../../src/errors.js';
import { createMapper, parseProfile } from '../../src/map/index.js';
import type { MapResult } from '../../src/map/types.js';
import { contractProblems, row } from './helpers.js';

const HEADER = ['ID', 'Oportunidad', 'Vendedor', 'Monto', 'Moneda', 'Fecha de cierre', 'Etapa', 'Sector', 'Empleados', 'Activo'];

const base = {
  resource: 'deal',
  timeZone: 'America/Sao_Paulo',
  decimal: ',',
  dateFormat: 'DD/MM/YYYY',
  fields: {
    externalId: 'ID',
    title: { template: '{ID} – {Oportunidad}' },
    ownerExternalId: { column: 'Vendedor', transform: 'slug' },
    agentExternalId: { column: 'Vendedor', transform: 'slug' },
    isWon: { column: 'Etapa', map: { Ganado: true, 'Cerrado ganado': true }, otherwise: false },
    'amount.value': { column: 'Monto', default: '0' },
    'amount.currency': { column: 'Moneda', default: 'BRL', transform: 'upper' },
    'currentStage.pipelineName': { const: 'Ventas' },
    'currentStage.value': 'Etapa',
    'currentStage.occurredAt': { column: 'Fecha de cierre' },
    closeDate: { column: 'Fecha de cierre' },
  },
  customFields: [
    { key: 'sector', type: 'string', column: 'Sector' },
    { key: 'employees', name: 'Empleados', type: 'number', column: 'Empleados', transform: 'integer' },
    { key: 'active', type: 'boolean', column: 'Activo' },
  ],
  skipIf: { column: 'Etapa', in: ['Prospecto'] },
};

const cells = {
  ID: '00123',
  Oportunidad: 'Licencias',
  Vendedor: 'José Peña',
  Monto: 'R$ 1.234,56',
  Moneda: 'brl',
  'Fecha de cierre': '15/03/2024',
  Etapa: 'ganado',
  Sector: 'Retail',
  Empleados: '1.200',
  Activo: 'Sí',
};

function mapOne(cellsOverride: Record<string, string> = {}, profileOverride: Record<string, unknown> = {}): MapResult {
  const profile = parseProfile({ ...base, ...profileOverride }, 'deals.profile.json');
  return createMapper({ resource: 'deal', header: HEADER, profile, file: 'deals.csv' }).map(row({ ...cells, ...cellsOverride }, 7, 'deals.csv'));
}
const item = (r: MapResult) => {
  if (r.kind !== 'item') throw new Error(JSON.stringify(r));
  return r.item;
};
const reasons = (r: MapResult) => (r.kind === 'invalid' ? r.problems.map((p) => `${p.column} → ${p.field}: ${p.reason}`) : []);

describe('a profile maps a row', () => {
  test('all the transforms together give a valid deal', () => {
    const deal = item(mapOne());
    expect(deal).toEqual({
      externalId: '00123',
      title: '00123 – Licencias',
      ownerExternalId: 'jose-pena',
      agentExternalId: 'jose-pena',
      isWon: true,
      amount: { value: '1234.56', currency: 'BRL' },
      currentStage: { pipelineName: 'Ventas', value: 'ganado', occurredAt: '2024-03-15T00:00:00-03:00' },
      closeDate: '2024-03-15',
      customFields: [
        { key: 'sector', type: 'string', value: 'Retail', name: 'Sector' },
        { key: 'employees', type: 'number', value: 1200, name: 'Empleados' },
        { key: 'active', type: 'boolean', value: true, name: 'Activo' },
      ],
    });
    expect(contractProblems('deal', 'post', deal)).toEqual([]);
  });
  test('value map with otherwise; defaults for empty cells; empty custom fields omitted', () => {
    const deal = item(mapOne({ Etapa: 'Perdido', Monto: '', Moneda: ' ', Sector: '', Activo: 'no', 'Fecha de cierre': '' }));
    expect(deal.isWon).toBe(false);
    expect(deal.amount).toEqual({ value: '0', currency: 'BRL' });
    expect(deal.closeDate).toBeUndefined();
    expect((deal.currentStage as Record<string, unknown>).occurredAt).toBeUndefined();
    expect((deal.customFields as { key: string }[]).map((f) => f.key)).toEqual(['employees', 'active']);
  });
  test('a value map without otherwise rejects unknown values', () => {
    const r = mapOne({ Etapa: 'Raro' }, { fields: { ...base.fields, isWon: { column: 'Etapa', map: { Ganado: true, Perdido: false } } } });
    expect(reasons(r)).toEqual(['Etapa → isWon: "Raro" is not in the value map ("Ganado", "Perdido")']);
  });
  test('negative amounts in accounting forms', () => {
    expect(item(mapOne({ Monto: '(1.234,56)' })).amount).toMatchObject({ value: '-1234.56' });
    expect(item(mapOne({ Monto: '133,55-' })).amount).toMatchObject({ value: '-133.55' });
  });
  // issue 15 item 1: `V-001` in a number custom field became -1 with no warning
  test('a code in a number custom field is an error naming the cell, never a number', () => {
    const profile = { customFields: [{ key: 'employees', type: 'number', column: 'Empleados' }] };
    for (const code of ['V-001', 'AB-12', 'SKU-0042', 'Lote 7']) {
      const r = mapOne({ Empleados: code }, profile);
      expect(r.kind).toBe('invalid');
      expect(reasons(r)).toEqual([expect.stringContaining(`Empleados → customFields.employees: "${code}" is not a number`)]);
    }
    expect(item(mapOne({ Empleados: 'USD 1.200' }, profile)).customFields).toEqual([{ key: 'employees', name: 'Empleados', type: 'number', value: 1200 }]);
  });
  test('skipIf skips with a reason', () => {
    expect(mapOne({ Etapa: ' prospecto ' })).toEqual({ kind: 'skip', reason: 'skipIf: "Etapa" is "prospecto"' });
    const empty = mapOne({ ID: '' }, { skipIf: [{ column: 'ID', empty: true }] });
    expect(empty).toEqual({ kind: 'skip', reason: 'skipIf: "ID" is empty' });
    expect(mapOne({}, { skipIf: { column: 'Sector', equals: 'retail' } }).kind).toBe('skip');
    expect(mapOne({}, { skipIf: { column: 'Sector', notEmpty: true } }).kind).toBe('skip');
  });
  test('first non-empty of several columns', () => {
    const fields = { ...base.fields, title: { column: ['Oportunidad', 'Sector'] } };
    expect(item(mapOne({ Oportunidad: '' }, { fields })).title).toBe('Retail');
  });
  test('every problem of the row is a diagnostic with file, line, column, field', () => {
    const r = mapOne({ Monto: '#N/A', 'Fecha de cierre': '31/04/2024', ID: '1.23E+11', Empleados: 'muchos' });
    expect(r.kind).toBe('invalid');
    if (r.kind !== 'invalid') return;
    expect(r.problems.every((p) => p.file === 'deals.csv' && p.line === 7 && p.severity === 'error')).toBe(true);
    expect(reasons(r)).toEqual([
      'ID → externalId: "1.23E+11" looks like Excel turned an id into a number; export the column as text',
      'Monto → amount.value: "#N/A" is an Excel error value, not data; fix the formula in the spreadsheet and export again',
      'Fecha de cierre → currentStage.occurredAt: "31/04/2024" is not a date that exists',
      'Fecha de cierre → closeDate: "31/04/2024" is not a date that exists',
      'Empleados → customFields.employees: "muchos" is not a number',
    ]);
  });
  test('Excel errors inside template columns are caught too', () => {
    expect(reasons(mapOne({ Oportunidad: '#REF!' }))).toEqual([expect.stringMatching(/^Oportunidad → title: "#REF!" is an Excel error/)]);
  });
  test('leading zeros of ids are kept', () => {
    expect(item(mapOne({ ID: '000045' })).externalId).toBe('000045');
  });
});

const profileError = (p: Record<string, unknown>) => {
  try {
    parseProfile(p, 'deals.profile.json');
  } catch (e) {
    expect(e).toBeInstanceOf(ConfigError);
    return (e as Error).message;
  }
  throw new Error('no error');
};

describe('profile validation points at the profile field', () => {
  test('unknown date format', () => {
    expect(profileError({ ...base, fields: { ...base.fields, closeDate: { column: 'X', format: 'DD/MM/YY' } } })).toMatch(
      /^profile deals\.profile\.json: fields\.closeDate\.format: expected one of auto, YYYY-MM-DD, DD\/MM\/YYYY/,
    );
  });
  test('unknown transform', () => {
    expect(profileError({ ...base, fields: { ...base.fields, title: { column: 'X', transform: 'titlecase' } } })).toMatch(
      /fields\.title\.transform\[0\]: expected one of slug/,
    );
    expect(profileError({ ...base, fields: { ...base.fields, title: { template: '{X|titlecase}' } } })).toMatch(
      /fields\.title\.template: unknown transform "titlecase"/,
    );
  });
  test('a conversion in the middle of a transform list', () => {
    expect(profileError({ ...base, fields: { ...base.fields, title: { column: 'X', transform: ['number', 'upper'] } } })).toMatch(
      /fields\.title\.transform: "number" converts the value and must come last/,
    );
  });
  test('unknown target field, with a suggestion', () => {
    expect(profileError({ ...base, fields: { ...base.fields, 'amount.valor': 'X' } })).toMatch(
      /fields\.amount\.valor: not a field of a deal item \(POST\); did you mean "amount\.value"/,
    );
  });
  test('required field not mapped', () => {
    const { title: _t, ...fields } = base.fields;
    expect(profileError({ ...base, fields })).toMatch(/fields\.title: required for a deal item \(POST\) but not mapped/);
  });
  test('two sources, no source, bad time zone, unknown key, bad resource', () => {
    expect(profileError({ ...base, fields: { ...base.fields, title: { column: 'A', const: 'B' } } })).toMatch(
      /fields\.title: give only one of "column", "const"/,
    );
    expect(profileError({ ...base, fields: { ...base.fields, title: { trim: true } } })).toMatch(
      /fields\.title: give one of "column", "const", "template", "rowHash" or "latestOf"/,
    );
    expect(profileError({ ...base, timeZone: 'America/Sao Paulo' })).toMatch(/timeZone: "America\/Sao Paulo" is not an IANA time zone/);
    expect(profileError({ ...base, colour: 1 })).toMatch(/colour/);
    expect(profileError({ ...base, resource: 'invoices' })).toMatch(/resource: unknown resource "invoices"/);
    expect(profileError({ ...base, customFields: [{ key: 'a', type: 'date', column: 'A' }] })).toMatch(
      /customFields\[0\]\.type: expected one of string, number, boolean/,
    );
  });
  test('placeholders left by init', () => {
    expect(profileError({ ...base, fields: { ...base.fields, title: { const: '<FILL IN: title>' } } })).toMatch(
      /fields\.title\.const: <FILL IN: title> — left by init/,
    );
  });
  test('a column missing from the file names the profile field and close matches', () => {
    const profile = parseProfile({ ...base, fields: { ...base.fields, 'amount.value': { column: 'Montos' } } }, 'deals.profile.json');
    expect(() => createMapper({ resource: 'deal', header: HEADER, profile, file: 'deals.csv' })).toThrow(
      /profile deals\.profile\.json: fields\.amount\.value\.column: column "Montos" is not in deals\.csv; close matches: "Monto"/,
    );
  });
  test('columns are found ignoring case and spaces', () => {
    const profile = parseProfile({ ...base, fields: { ...base.fields, 'amount.value': { column: ' monto ' } } }, 'p.json');
    expect(() => createMapper({ resource: 'deal', header: HEADER, profile, file: 'deals.csv' })).not.toThrow();
  });
  test('a profile for another resource', () => {
    const profile = parseProfile(base, 'deals.profile.json');
    expect(() => createMapper({ resource: 'account', header: HEADER, profile, file: 'a.csv' })).toThrow(/maps deal items but a\.csv is read as account/);
  });
});

describe('loadProfile', () => {
  test('bad JSON names the line and column', async () => {
    const { mkdtempSync, writeFileSync } = await import('node:fs');
    const { join } = await import('node:path');
    const { tmpdir } = await import('node:os');
    const { loadProfile } = await import('../../src/map/index.js');
    const dir = mkdtempSync(join(tmpdir(), 'profile-'));
    writeFileSync(join(dir, 'bad.profile.json'), '{\n  "resource": "deal",\n  "fields": { "title": "A" }\n  "x": 1\n}');
    await expect(loadProfile(join(dir, 'bad.profile.json'))).rejects.toThrow(/profile bad\.profile\.json: not valid JSON at line 4, column 3/);
    await expect(loadProfile(join(dir, 'missing.json'))).rejects.toThrow(/cannot read profile .*ENOENT/);
  });
});
