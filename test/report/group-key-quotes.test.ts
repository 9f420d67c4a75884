// An apostrophe inside a word is not a quote: `the API's JSON` must not read `API'…'s JSON`.
import { describe, expect, test } from 'vitest';
import { normaliseReason } from '../../src/report/group-key.js';

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
