// processRow without a thread or a file: one record in, exactly one result out to the sink, the
// same whichever way the mapper takes (its JSON written from the cells, or an item built and validated).
import { describe, expect, test } from 'vitest';
import { createMapper } from '../../src/map/index.js';
import { REF_PATHS } from '../../src/map/types.js';
import { CsvRow } from '../../src/read/csv/row-builder.js';
import { processRow, type RowContext, type RowSink } from '../../src/rows/process-row.js';
import type { ItemHash } from '../../src/util/item-hash.js';
import { createItemValidator } from '../../src/validate/validate-item.js';

const header = ['externalId', 'email', 'profile.firstName', 'profile.lastName'];

/** The sink's calls, as plain data; a valid row's JSON whichever way it came. */
function recorder(): RowSink & { calls: unknown[] } {
  const calls: unknown[] = [];
  return {
    calls,
    warn: (d) => calls.push(['warn', d.reason]),
    skip: (reason) => calls.push(['skip', reason]),
    invalid: (id, field, _column, detail) => calls.push(['invalid', id, field, detail]),
    same: (fp, ids, item) => calls.push(['same', fp, (ids ?? [item?.externalId])[0]]),
    valid: (fp, _ids, item, json) => calls.push(['valid', fp, json ?? JSON.stringify(item)]),
  };
}

function context(known: { mayKnow?: boolean; knows?: boolean } = {}, fingerprint?: string): RowContext {
  const file = 'sales-profiles.csv';
  return {
    mapper: createMapper({ resource: 'sales-profile', method: 'post', header, file }),
    validate: createItemValidator('sales-profile', 'post'),
    header,
    fingerprint,
    known: { mayKnow: () => known.mayKnow ?? false, knows: () => known.knows ?? false },
    ids: new Array<unknown>(REF_PATHS.length),
  };
}

const JSON_SP1 = '{"externalId":"SP1","profile":{"firstName":"Ana","lastName":"Souza"},"email":"ana@example.com"}';
const row = (cells: string[], line = 2) => new CsvRow('sales-profiles.csv', line, cells, header, cells.join(','));

describe('processRow', () => {
  test('a valid row: one valid result with its JSON', () => {
    const sink = recorder();
    processRow(row(['SP1', 'ana@example.com', 'Ana', 'Souza']), context(), sink);
    expect(sink.calls).toEqual([['valid', undefined, JSON_SP1]]);
  });

  test('an invalid row: one invalid result naming the row, its field and why', () => {
    const sink = recorder();
    processRow(row(['SP1', 'not an email', 'Ana', 'Souza']), context(), sink);
    expect(sink.calls).toHaveLength(1);
    expect(sink.calls[0]).toEqual(['invalid', 'SP1', 'email', 'email: "not an email" is not a valid e-mail address']);
  });

  test('incremental: a row the state knows by its fingerprint is same, not serialised; one it may know but does not is valid with its fingerprint', () => {
    const same = recorder();
    processRow(row(['SP1', 'ana@example.com', 'Ana', 'Souza']), context({ mayKnow: true, knows: true }, '0123456789abcdef'), same);
    expect(same.calls).toEqual([['same', expect.objectContaining({ hi: expect.any(Number) }), 'SP1']]);
    const changed = recorder();
    processRow(row(['SP1', 'ana@example.com', 'Ana', 'Souza']), context({ mayKnow: true, knows: false }, '0123456789abcdef'), changed);
    const [kind, fp, json] = changed.calls[0] as [string, ItemHash, string];
    expect([kind, json]).toEqual(['valid', JSON_SP1]);
    expect(fp).toEqual((same.calls[0] as [string, ItemHash])[1]);
  });
});
