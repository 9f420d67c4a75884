// An apostrophe inside a word is not a quote: `the API's JSON` must not read `API'…'s JSON`.
import { describe, expect, test } from 'vitest';
import { groupLabel, normaliseReason } from '../../src/report/group-key.js';
import { serverField } from '../../src/report/server-field.js';

describe('quoted values vs apostrophes', () => {
  test.each([
    ["the API's JSON could not be read", "the API's JSON could not be read"],
    ["the API's JSON isn't valid: 'abc' expected", "the API's JSON isn't valid: '…' expected"],
    ["can't parse 'x' or 'y'", "can't parse '…' or '…'"],
    ["value 'O'Brien' is not allowed", "value '…' is not allowed"],
    ["'ABC' is not a currency", "'…' is not a currency"],
  ])('%s', (text, expected) => {
    expect(normaliseReason(text)).toBe(expected);
  });
});

describe("the server's per-item prefix, whatever the id holds", () => {
  test('rows refused alike are one group even when their ids hold spaces, colons or quotes', () => {
    const refusal = (i: number, id: string) => ({
      resource: 'deal' as const,
      outcome: 'rejected' as const,
      message: 'VALIDATION_ERROR',
      field: undefined,
      externalId: id,
      detail: `items[${i}] externalId=${id}: ownerExternalId: "ana" does not exist as a sales profile`,
    });
    const labels = [refusal(0, 'D-1'), refusal(3, '1 234,5'), refusal(4, 'A: B'), refusal(7, '"')].map(groupLabel);
    expect(new Set(labels)).toEqual(new Set(['VALIDATION_ERROR ownerExternalId: "…" does not exist as a sales profile']));
    expect(serverField(refusal(3, '1 234,5').detail, 'deal', '1 234,5')).toBe('ownerExternalId');
  });
});

describe('where an earlier row stands varies per row', () => {
  test('duplicates of different earlier rows are one group', () => {
    const duplicate = (line: number, id: string) => ({
      message: 'DUPLICATE',
      field: 'externalId',
      externalId: id,
      detail: `duplicate externalId "${id}": first seen at accounts.csv:${line}, which wins; this row is not sent`,
    });
    const labels = [duplicate(2, 'A'), duplicate(4, 'B'), duplicate(1200, 'C')].map(groupLabel);
    expect(new Set(labels)).toEqual(
      new Set(['DUPLICATE externalId: duplicate externalId "…": first seen at accounts.csv:…, which wins; this row is not sent']),
    );
  });
});
