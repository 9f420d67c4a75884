// Outcomes of a realistic mixed run, shared by the report tests.
import type { RowOutcome } from '../../src/plan/outcome.js';

export function rejected(line: number, item: number, id: string, currency: string): RowOutcome {
  return {
    outcome: 'rejected',
    resource: 'deal',
    file: 'deals.csv',
    line,
    externalId: id,
    field: 'amount.currency',
    message: 'VALIDATION_ERROR',
    detail: `items[${item}] externalId=${id}: amount.currency: "${currency}" is not an ISO-4217 currency code`,
    row: { id, title: `Deal ${id}`, amount: '-12.5', currency },
    batchId: 'b-1',
  };
}

export function invalid(line: number, value: string): RowOutcome {
  return {
    outcome: 'invalid',
    resource: 'deal',
    file: 'deals.csv',
    line,
    externalId: `D-${line}`,
    field: 'amount.value',
    column: 'amount',
    message: 'INVALID',
    detail: `"${value}" is not a decimal number`,
    row: { id: `D-${line}`, title: '=HYPERLINK("http://x")', amount: value, currency: 'EUR' },
  };
}

export const accepted = (resource: RowOutcome['resource'], line: number): RowOutcome => ({
  outcome: 'accepted',
  resource,
  file: resource === 'deal' ? 'deals.csv' : 'users.csv',
  line,
  message: 'ACCEPTED',
  detail: '',
});
