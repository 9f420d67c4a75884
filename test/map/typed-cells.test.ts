// A workbook's typed cells (RowRecord.types) through a profile written for a locale CSV: numbers and
// dates are taken as they are, never through the profile's decimal comma or DD/MM/YYYY.
import { describe, expect, test } from 'vitest';
import { createMapper, parseProfile } from '../../src/map/index.js';
import type { MapResult } from '../../src/map/types.js';
import type { RowRecord } from '../../src/read/types.js';

const HEADER = ['ID', 'Vendedor', 'Monto', 'Fecha', 'Etapa', 'Ganado', 'Empleados'];
const profile = parseProfile(
  {
    resource: 'deal',
    timeZone: 'America/Santiago',
    decimal: ',',
    dateFormat: 'DD/MM/YYYY',
    fields: {
      externalId: 'ID',
      title: { template: 'Deal {ID}' },
      ownerExternalId: { column: 'Vendedor', transform: 'slug' },
      agentExternalId: { column: 'Vendedor', transform: 'slug' },
      isWon: { column: 'Ganado' },
      'amount.value': 'Monto',
      'amount.currency': { const: 'CLP' },
      'currentStage.pipelineName': { const: 'Ventas' },
      'currentStage.value': { column: 'Etapa', map: { '1': 'Propuesta', '2': 'Ganado' } },
      'currentStage.occurredAt': 'Fecha',
      closeDate: 'Fecha',
    },
    customFields: [{ key: 'employees', type: 'number', column: 'Empleados', transform: 'integer' }],
  },
  'deals.profile.json',
);

/** A workbook row: cells in header order with their type letters. */
function mapRow(cells: string[], types: string): MapResult {
  const record: RowRecord = {
    kind: 'row',
    file: 'deals.xlsx',
    line: 5,
    cells,
    names: HEADER,
    types,
    row: Object.fromEntries(HEADER.map((h, i) => [h, cells[i]!])),
  };
  return createMapper({ resource: 'deal', header: HEADER, profile, file: 'deals.xlsx', columnLetters: ['A', 'B', 'C', 'D', 'E', 'F', 'G'] }).map(record);
}
const item = (r: MapResult) => {
  if (r.kind !== 'item') throw new Error(JSON.stringify(r));
  return r.item;
};
const problems = (r: MapResult) => (r.kind === 'invalid' ? r.problems.map((p) => `${p.column} → ${p.field}: ${p.reason}`) : []);

describe('typed cells through a locale profile', () => {
  test('a number cell is the number, a date cell the date: the decimal comma and DD/MM/YYYY are for text cells', () => {
    const it = item(mapRow(['00123', 'José Peña', '1.234', '2024-03-05T17:45:00', '2', 'true', '1200'], 'ssnddbn'));
    expect(it.amount).toEqual({ value: '1.234', currency: 'CLP' });
    expect(it.closeDate).toBe('2024-03-05T17:45:00-03:00');
    expect(it.externalId).toBe('00123');
    expect(it.isWon).toBe(true);
    expect(it.customFields).toEqual([{ key: 'employees', type: 'number', value: 1200, name: 'Empleados' }]);
    // a number cell's text meets the value map as text
    expect(it.currentStage).toMatchObject({ value: 'Ganado' });
  });

  test('the same texts as text cells go through the locale formats', () => {
    const it = item(mapRow(['00123', 'José Peña', '1.234', '05/03/2024', '1', 'sí', '1.200'], 'sssssss'));
    expect(it.amount).toEqual({ value: '1234', currency: 'CLP' });
    expect(it.closeDate).toBe('2024-03-05');
    expect(it.customFields).toEqual([{ key: 'employees', type: 'number', value: 1200, name: 'Empleados' }]);
  });

  test('a number cell in a date field is not taken as a serial; a long number id has lost digits; both name the cell', () => {
    const r = mapRow(['12345678901234567000', 'Ana', '5', '45366', '1', 'false', '1'], 'nsnnsbn');
    expect(problems(r)).toEqual([
      'ID (A) → externalId: the number 12345678901234567000 is longer than the 15 digits Excel keeps (its last digits are lost); format the id column as text',
      'Fecha (D) → currentStage.occurredAt: "45366" is not a date in the format YYYY-MM-DD',
      'Fecha (D) → closeDate: "45366" is not a date in the format YYYY-MM-DD',
    ]);
  });
});
