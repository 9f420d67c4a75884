// What inspect says of a sample's columns: init's own guesses (dates, the file's decimal mark,
// yes/no words, ids with leading zeros stay text), a workbook's typed cells, JSON items' keys.
import { describe, expect, it } from 'vitest';
import { describeColumns, describeItems } from '../../src/map/propose/describe-columns.js';
import type { RowRecord } from '../../src/read/types.js';

const row = (cells: string[], types?: string): RowRecord => ({ kind: 'row', file: 'f.csv', line: 2, row: {}, cells, ...(types ? { types } : {}) });

describe('describeColumns', () => {
  it('reads text cells as init would, with the file decimal mark and date formats', () => {
    const header = ['id', 'monto', 'cierre', 'ambigua', 'activo', 'nota', 'vacía'];
    const rows = [
      row(['00123', '1.234,50', '15/03/2026', '01/02/2026', 'sí', 'a', '']),
      row(['00124', '20,00', '02/04/2026', '03/04/2026', 'no', '', '']),
      row(['00125', '7', '30/04/2026 10:30', '05/06/2026', 'sí', 'a', ' ']),
    ];
    expect(describeColumns(header, rows).map((c) => [c.name, c.type, c.format, c.filled, c.examples])).toEqual([
      ['id', 'text', undefined, 3, ['00123', '00124', '00125']],
      ['monto', 'number', 'decimal comma', 3, ['1.234,50', '20,00', '7']],
      ['cierre', 'date', 'DD/MM/YYYY with a time', 3, ['15/03/2026', '02/04/2026', '30/04/2026 10:30']],
      ['ambigua', 'date', 'DD/MM/YYYY or MM/DD/YYYY', 3, ['01/02/2026', '03/04/2026', '05/06/2026']],
      ['activo', 'boolean', undefined, 3, ['sí', 'no']],
      ['nota', 'text', undefined, 2, ['a']],
      ['vacía', 'empty', undefined, 0, []],
    ]);
  });

  it("takes a workbook's cell types when a column's cells agree, and reads a mix as text", () => {
    const rows = [row(['10', '2026-03-15', 'x', 'true'], 'ndsb'), row(['12.5', '2026-03-16', '7', 'false'], 'ndnb')];
    const columns = describeColumns(['n', 'd', 'mix', 'b'], rows, ['A', 'B', 'C', 'D']);
    expect(columns.map((c) => [c.letter, c.type, c.format])).toEqual([
      ['A', 'number', 'number cells'],
      ['B', 'date', 'date cells'],
      ['C', 'text', undefined],
      ['D', 'boolean', 'boolean cells'],
    ]);
  });
});

describe('describeItems', () => {
  it('lists top-level keys in the order first seen, with their JSON types', () => {
    const items = [
      { externalId: 'D-1', amount: { value: 1 }, tags: ['a'], closeDate: '2026-03-15', n: 1 },
      { externalId: 'D-2', note: null, closeDate: '2026-03-16', n: 'two' },
    ];
    expect(describeItems(items).map((c) => [c.name, c.type, c.format, c.filled])).toEqual([
      ['externalId', 'text', undefined, 2],
      ['amount', 'object', undefined, 1],
      ['tags', 'array', undefined, 1],
      ['closeDate', 'date', 'YYYY-MM-DD', 2],
      ['n', 'mixed', undefined, 2],
      ['note', 'empty', undefined, 0],
    ]);
  });
});
