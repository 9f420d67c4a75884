// A workbook row's item depends on its cells' types as well as their text: `1.5` as a number cell
// is 1.5 through a decimal-comma profile, as a text cell 15. An incremental rerun must not take a
// row whose cell changed type as unchanged, so the types are part of the row's fingerprint.
import { expect, test } from 'vitest';
import type { RowRecord } from '../../src/read/types.js';
import { rowFingerprint } from '../../src/state/row-fingerprint.js';

const header = ['ID', 'Monto'];
const row = (types?: string): RowRecord => ({
  kind: 'row',
  file: 'deals.xlsx',
  line: 2,
  cells: ['D-1', '1.5'],
  names: header,
  types,
  row: { ID: 'D-1', Monto: '1.5' },
});
const context = '0123456789abcdef';

test('the same cells typed otherwise have another fingerprint; the same types the same one', () => {
  expect(rowFingerprint(context, row('sn'), header)).not.toEqual(rowFingerprint(context, row('ss'), header));
  expect(rowFingerprint(context, row('sn'), header)).toEqual(rowFingerprint(context, row('sn'), header));
});
