import { describe, expect, test } from 'vitest';
import type { RowOutcome } from '../../src/plan/outcome.js';
import { createRejectionGuard } from '../../src/run/rejection-guard.js';

const row = (outcome: RowOutcome['outcome'], message = ''): RowOutcome => ({ outcome, resource: 'deal', file: 'f.csv', line: 2, message, detail: '' });

describe('rejection guard', () => {
  test('off without limits', () => {
    expect(createRejectionGuard({})).toBeUndefined();
  });

  test('--max-rejections n allows n and trips on the next', () => {
    const g = createRejectionGuard({ maxRejections: 2 })!;
    expect(g.record(row('invalid'))).toBeUndefined();
    expect(g.record(row('rejected'))).toBeUndefined();
    expect(g.record(row('accepted'))).toBeUndefined();
    expect(g.record(row('invalid'))).toBe('stopped: 3 of 4 rows were not accepted (75% invalid or rejected), above --max-rejections 2');
    expect(g.record(row('invalid'))).toBeUndefined();
  });

  test('--max-rejections 0 trips on the first row, in the singular', () => {
    const g = createRejectionGuard({ maxRejections: 0 })!;
    expect(g.record(row('invalid'))).toBe('stopped: 1 of 1 row was not accepted (100% invalid or rejected), above --max-rejections 0');
  });

  test('the rate is judged from 100 rows on, and deliberate skips do not count', () => {
    const g = createRejectionGuard({ maxRejectionRate: 0.5 })!;
    for (let i = 0; i < 99; i++) expect(g.record(row('invalid'))).toBeUndefined();
    for (let i = 0; i < 50; i++) g.record(row('skipped', 'UNCHANGED'));
    expect(g.record(row('accepted'))).toBe('stopped: 99 of 100 rows were not accepted (99% invalid or rejected), above --max-rejection-rate 0.5');
  });

  test('a rate at the limit passes', () => {
    const g = createRejectionGuard({ maxRejectionRate: 0.5 })!;
    for (let i = 0; i < 100; i++) expect(g.record(row(i % 2 ? 'invalid' : 'accepted'))).toBeUndefined();
  });
});
