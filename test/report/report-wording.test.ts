// What the report says about one row: its externalId, the field a server error names, one reason
// for two errors of the same kind, and counts in the singular when there is one.
import { describe, expect, test } from 'vitest';
import { createCollector } from '../../src/report/collector.js';
import { historyLines } from '../../src/report/history.js';
import { notifyBody } from '../../src/report/notify-body.js';
import { buildRunReport, ownersNotInRunLine } from '../../src/report/run-report.js';
import { sandboxLines } from '../../src/report/sandbox-lines.js';
import { groupLabel } from '../../src/report/group-key.js';
import { progressText } from '../../src/report/progress.js';
import { exampleLine } from '../../src/report/render-human.js';
import { serverField } from '../../src/report/server-field.js';
import { invalid } from './fixtures.js';

describe('a row in the terminal report names its externalId', () => {
  test('an invalid row: file:line, externalId, then column → field: reason', () => {
    expect(
      exampleLine({
        ...invalid(43, 'x'),
        externalId: 'DEAL-0042',
        column: undefined,
        field: 'amount.currency',
        detail: '"USX" is not an ISO-4217 currency code',
      }),
    ).toBe('deals.csv:43  DEAL-0042  amount.currency: "USX" is not an ISO-4217 currency code');
    expect(exampleLine(invalid(22, '12,5,0'))).toBe('deals.csv:22  D-22  amount → amount.value: "12,5,0" is not a decimal number');
  });

  test('a long server detail is cut after a whole word, not mid-word', () => {
    const detail = `the server's answer does not say which rows it refused: ${'ownerExternalId: "camila-rojas" does not exist as a sales profile; '.repeat(6)}`;
    const line = exampleLine({ ...invalid(2, 'x'), outcome: 'skipped', message: 'UNVERIFIED', field: undefined, column: undefined, detail });
    expect(line).toMatch(/ (profile;|as|a|sales|"camila-rojas"|does|not|exist|ownerExternalId:)…$/);
  });

  test('a row without an externalId keeps file:line alone', () => {
    expect(exampleLine({ ...invalid(22, 'abc'), externalId: undefined })).toBe('deals.csv:22  amount → amount.value: "abc" is not a decimal number');
  });
});

describe('the field of a server rejection', () => {
  test.each([
    ['items[0] externalId=D-1: ownerExternalId: "ana" does not exist as a sales profile', 'deal', 'ownerExternalId'],
    ['items[3] externalId=D-9: amount.currency: "USX" is not an ISO-4217 currency code', 'deal', 'amount.currency'],
    ['stages[1].occurredAt: not a date-time', 'deal', 'stages[1].occurredAt'],
    ['customFields[0].value: expected a number', 'deal', 'customFields[0].value'],
    ['amount: required', 'deal', 'amount'],
    ['profile.firstName: must not be empty', 'sales-profile', 'profile.firstName'],
  ] as const)('%s → %s', (detail, resource, field) => {
    expect(serverField(detail, resource)).toBe(field);
  });

  test.each([
    ['title is too long', 'deal'],
    ['foo: not a field', 'deal'],
    ['Title: capitalised, not a path', 'deal'],
    ['VALIDATION_ERROR: bad', 'deal'],
    ['not attributable to an item: whole batch b-1: amount.currency: bad', 'deal'],
    ['email: not a deal field', 'deal'],
    ['items[0] externalId=a: the amount.currency is wrong', 'deal'],
  ] as const)('no guess from %s', (detail, resource) => {
    expect(serverField(detail, resource)).toBeUndefined();
  });

  test('the collector fills it on rejected rows that come without one', () => {
    const c = createCollector();
    c.record({
      outcome: 'rejected',
      resource: 'deal',
      file: 'deals.csv',
      line: 2,
      externalId: 'D-1',
      message: 'VALIDATION_ERROR',
      detail: 'items[0] externalId=D-1: ownerExternalId: "ana" does not exist as a sales profile',
    });
    expect(c.notAccepted()[0]!.field).toBe('ownerExternalId');
  });
});

test('two server errors for one item: neither keeps its per-item prefix in the grouped reason', () => {
  const detail =
    'items[0] externalId=D-1: ownerExternalId: "ana" does not exist as a sales profile; items[0] externalId=D-1: agentExternalId: "ana" does not exist as a sales profile';
  expect(groupLabel({ message: 'VALIDATION_ERROR', detail, field: 'ownerExternalId' })).toBe(
    'VALIDATION_ERROR ownerExternalId: "…" does not exist as a sales profile; agentExternalId: "…" does not exist as a sales profile',
  );
});

describe('progress', () => {
  test("the counts under a resource's name are that resource's; the run's total is said as such", () => {
    const counts = { rowsRead: 8920, batchesAcked: 90, itemsAcked: 8920, retries: 0, resource: 'deal', since: { rowsRead: 120, batchesAcked: 2 } };
    expect(progressText(counts, { rowsPerSecond: 8920 })).toBe('deal: 8800 rows read, 88 batches acknowledged, 8920 rows/s (run: 8920 rows read)');
  });

  test('singular counts', () => {
    expect(progressText({ rowsRead: 1, batchesAcked: 1, itemsAcked: 1, retries: 1, resource: 'deal' }, { rowsPerSecond: 1 })).toBe(
      'deal: 1 row read, 1 batch acknowledged, 1 rows/s, 1 retry',
    );
  });
});

describe('counts agree with their noun everywhere (issue 27 item 13)', () => {
  const at = new Date('2026-11-24T02:15:00Z');
  const oneRow = () => {
    const c = createCollector();
    c.record({ ...invalid(2, 'x'), resource: 'deal', outcome: 'rejected', message: 'VALIDATION_ERROR' });
    return buildRunReport({ runId: 'r', mode: 'push', startedAt: at, endedAt: at, ownersNotInRun: 1 }, c);
  };

  test('owners not in this run: 1 distinct id, it must already exist', () => {
    expect(ownersNotInRunLine({ ownersNotInRun: 1 })).toBe('owners not in this run: 1 distinct id, it must already exist on the server');
    expect(ownersNotInRunLine({ ownersNotInRun: 2 })).toBe('owners not in this run: 2 distinct ids, they must already exist on the server');
  });

  test("the sandbox's hint: 1 owner/agent id … is in none of its sales profiles", () => {
    const held = { records: { 'sales-profile': 0, account: 0, deal: 0, activity: 0 }, batches: 1, ownersMissing: { count: 1, ids: ['ana'], heldBack: true } };
    const lines = sandboxLines(held, ['deals.csv'], ['deals.csv']);
    expect(lines.join(' ')).toContain("1 owner/agent id of this run's deals and activities is in none of its sales profiles");
    expect(lines.at(-1)).toContain('(1 batch received)');
  });

  test('history: not accepted 0 … 1 row', () => {
    const run = {
      runId: 'r',
      mode: 'push',
      startedAt: at.toISOString(),
      durationSeconds: 1,
      read: 1,
      accepted: 0,
      rejected: 1,
      invalid: 0,
      skipped: 0,
      exitCode: 1,
      aborted: null,
    };
    const lines = historyLines(
      [
        { ...run, notAccepted: 0 },
        { ...run, notAccepted: 1 },
      ],
      'reports',
      0,
    );
    expect(lines.find((l) => l.startsWith('not accepted'))).toMatch(/ 0 … 1 row$/);
  });

  test('a notification: 1 of 1 row accepted', () => {
    const payload = JSON.parse(notifyBody('json', { report: oneRow(), exitCode: 1 }, 'db-1'));
    expect(payload.text).toMatch(/^batch-sync push on db-1: FAILED \(exit 1\), 0 of 1 row accepted, 1 not; /);
  });
});
