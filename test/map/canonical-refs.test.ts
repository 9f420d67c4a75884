// The canonical mapper's `refs` reads the ids a run checks across rows straight from the cells, for
// an incremental rerun's unchanged rows. Property: for every row that maps to an item, they are the
// ids of that item, read by name or by index (as the CSV reader hands rows over), whatever the cells.
import fc from 'fast-check';
import { expect, test } from 'vitest';
import { createMapper } from '../../src/map/index.js';
import { refsOf } from '../../src/map/types.js';
import { CsvRow } from '../../src/read/csv/row-builder.js';
import { row } from './helpers.js';

const HEADERS = {
  deal: ['externalId', 'title', 'ownerExternalId', 'agentExternalId', 'isWon', 'amount.value', 'amount.currency'],
  activity: ['externalId', 'type', 'ownerExternalId', 'source.name', 'associated.accountExternalId', 'associated.dealExternalId'],
} as const;

const cell = fc.oneof(
  fc.constantFrom('', ' ', 'null', 'NULL', ' D-1 ', 'D-1', 'ana', '1E+5', '1.5e3', '#N/A', 'true', '12.50', 'USD', 'CALL', 'OUTBOUND', '\u00a0x\u00a0'),
  fc.string({ maxLength: 6 }),
);

test.each(Object.entries(HEADERS))('refs of a %s row are the ids of the item it maps to', (resource, header) => {
  const mapper = createMapper({ resource: resource as 'deal' | 'activity', header: [...header], file: 't.csv' });
  let items = 0;
  fc.assert(
    fc.property(fc.array(cell, { minLength: header.length, maxLength: header.length }), (cells) => {
      const byName = row(Object.fromEntries(header.map((h, i) => [h, cells[i]!])));
      const byIndex = new CsvRow('t.csv', 2, cells, header, undefined);
      for (const record of [byName, byIndex]) {
        const mapped = mapper.map(record);
        if (mapped.kind !== 'item') continue;
        items++;
        expect(mapper.refs!(record)).toEqual(refsOf(mapped.item));
      }
    }),
    { numRuns: 2000 },
  );
  // the property said something: many rows did map
  expect(items).toBeGreaterThan(200);
});
