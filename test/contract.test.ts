import { describe, expect, test } from 'vitest';
import { itemSchema } from '../src/contract/items.js';
import { toFieldProblems } from '../src/contract/issues.js';

const deal = {
  externalId: 'D1',
  title: 'Big deal',
  ownerExternalId: 'ana',
  agentExternalId: 'bruno',
  isWon: true,
  amount: { value: '1234.56', currency: 'BRL' },
};

function problems(resource: Parameters<typeof itemSchema>[0], method: 'post' | 'patch', item: unknown) {
  const r = itemSchema(resource, method).safeParse(item);
  return r.success ? [] : toFieldProblems(r.error.issues).map((p) => `${p.field}: ${p.reason}`);
}

describe('deal', () => {
  test('a minimal deal is valid', () => {
    expect(problems('deal', 'post', deal)).toEqual([]);
  });
  test('an unknown currency names ISO-4217', () => {
    expect(problems('deal', 'post', { ...deal, amount: { value: '1', currency: 'USX' } })).toEqual([
      'amount.currency: "USX" is not an ISO-4217 currency code',
    ]);
  });
});
