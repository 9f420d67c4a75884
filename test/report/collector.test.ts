import { describe, expect, test } from 'vitest';
import { createCollector } from '../../src/report/collector.js';
import { normaliseReason } from '../../src/report/group-key.js';
import type { RowOutcome } from '../../src/plan/outcome.js';
import { liveGrowth, mb } from '../helpers/memory.js';
import { accepted, invalid, rejected } from './fixtures.js';

describe('normaliseReason', () => {
  test('strips the per-item prefix and quoted values', () => {
    expect(normaliseReason('items[3] externalId=DEAL-9: amount.currency: "USX" is not an ISO-4217 currency code')).toBe(
      'amount.currency: "…" is not an ISO-4217 currency code',
    );
    expect(normaliseReason('items[7] externalId=D-2: amount.currency: "ABC" is not an ISO-4217 currency code')).toBe(
      'amount.currency: "…" is not an ISO-4217 currency code',
    );
  });
  test('leaves batch ids out: one refusal of every batch is one group (16.10)', () => {
    expect(normaliseReason('the server refused every part of batch crm-deal-20261121T054456Z-3f9a-00012.1 with the same error')).toBe(
      'the server refused every part of batch … with the same error',
    );
    expect(normaliseReason('in a batch of 3 rows')).toBe('in a batch of 3 rows');
  });
  test('leaves reasons without varying parts alone', () => {
    expect(normaliseReason('not attributable to an item: whole batch refused')).toBe('not attributable to an item: whole batch refused');
  });
});

describe('collector', () => {
  test('counts per resource, read is the sum of outcomes', () => {
    const c = createCollector();
    for (let i = 2; i < 12; i++) c.record(accepted('deal', i));
    c.record(accepted('sales-profile', 2));
    c.record(rejected(12, 0, 'D-12', 'USX'));
    c.record(invalid(13, 'abc'));
    c.record({ ...accepted('deal', 14), outcome: 'skipped', message: 'SKIPPED', detail: 'status is archived' });
    c.warn({ severity: 'warning', file: 'deals.csv', line: 3, field: 'closeDate', reason: 'no time zone, read as UTC' });
    expect(c.counts()).toEqual({
      'sales-profile': { read: 1, accepted: 1, rejected: 0, invalid: 0, skipped: 0, warnings: 0 },
      deal: { read: 13, accepted: 10, rejected: 1, invalid: 1, skipped: 1, warnings: 1 },
    });
    expect(c.totals()).toEqual({ read: 14, accepted: 11, rejected: 1, invalid: 1, skipped: 1, warnings: 1 });
    expect(c.total('deal')).toBe(13);
    expect(c.total()).toBe(14);
    expect(c.unaccounted({ deal: 13, 'sales-profile': 1 })).toEqual([]);
    expect(c.unaccounted({ deal: 14, 'sales-profile': 1 })).toEqual([{ resource: 'deal', read: 14, recorded: 13 }]);
    expect(c.notAccepted().map((o) => o.line)).toEqual([12, 13, 14]);
  });

  test('groups identical reasons across items and values, keeping the first full texts', () => {
    const c = createCollector({ maxExamples: 2 });
    c.record(rejected(14, 3, 'DEAL-9', 'USX'));
    c.record(rejected(15, 7, 'D-2', 'ABC'));
    c.record(rejected(16, 8, 'D-3', 'XYZ'));
    c.record(invalid(20, 'abc'));
    c.record({ ...rejected(21, 0, 'D-21', 'EUR'), resource: 'account' });
    const groups = c.groups();
    expect(groups.map((g) => [g.resource, g.outcome, g.label, g.count])).toEqual([
      ['account', 'rejected', 'VALIDATION_ERROR amount.currency: "…" is not an ISO-4217 currency code', 1],
      ['deal', 'rejected', 'VALIDATION_ERROR amount.currency: "…" is not an ISO-4217 currency code', 3],
      ['deal', 'invalid', 'INVALID amount → amount.value: "…" is not a decimal number', 1],
    ]);
    expect(groups[1]!.examples.map((e) => e.detail)).toEqual([
      'items[3] externalId=DEAL-9: amount.currency: "USX" is not an ISO-4217 currency code',
      'items[7] externalId=D-2: amount.currency: "ABC" is not an ISO-4217 currency code',
    ]);
  });

  test('warnings are grouped apart and do not count as outcomes', () => {
    const c = createCollector();
    for (const line of [3, 4, 5])
      c.warn({ severity: 'warning', file: 'deals.csv', line, column: 'close', field: 'closeDate', reason: `"2024-0${line}-01" has no time zone` });
    c.warn({ severity: 'warning', file: 'mystery.csv', reason: 'encoding guessed as windows-1252' });
    expect(c.total()).toBe(0);
    expect(c.totals().warnings).toBe(4);
    expect(c.warningGroups().map((g) => [g.resource, g.label, g.count])).toEqual([
      ['deal', 'closeDate: "…" has no time zone', 3],
      [undefined, 'encoding guessed as windows-1252', 1],
    ]);
  });

  test('warnings keep a count and the first examples per reason, whatever their number (flat in memory)', () => {
    const c = createCollector();
    c.warn({ severity: 'warning', file: 'accounts.csv', reason: 'encoding guessed as windows-1252' });
    for (let line = 2; line < 50_002; line++)
      c.warn({ severity: 'warning', file: 'accounts.csv', line, field: 'type', reason: `"PARTNER" is not a value seen` });
    c.warn({ severity: 'warning', file: 'accounts.csv', line: 50_002, field: 'name', reason: 'has a tab' });
    expect(c.totals().warnings).toBe(50_002);
    expect(c.warningGroups().map((g) => [g.label, g.count, g.examples.length])).toEqual([
      ['type: "…" is not a value seen', 50_000, 3],
      ['encoding guessed as windows-1252', 1, 1],
      ['name: has a tab', 1, 1],
    ]);
    // the flat list is those examples, in the order they were found; the rest are counted
    expect(c.warnings().map((d) => d.line)).toEqual([undefined, 2, 3, 4, 50_002]);
    expect(c.warningsNotListed()).toBe(49_997);
  });

  test('over the cap rows are counted and grouped, not kept, and the sink still gets all of them', () => {
    const sunk: RowOutcome[] = [];
    const c = createCollector({ maxKept: 5, sink: (o) => sunk.push(o) });
    for (let i = 0; i < 12; i++) c.record(rejected(i + 2, i, `D-${i}`, 'USX'));
    expect(c.notAccepted()).toHaveLength(5);
    expect(c.notListed()).toBe(7);
    expect(c.groups()[0]!.count).toBe(12);
    expect(sunk).toHaveLength(12);
  });

  test('too many distinct reasons fall into one "other reasons" group instead of growing without bound', () => {
    const c = createCollector({ maxGroups: 2 });
    for (let i = 0; i < 5; i++) c.record({ ...invalid(i + 2, 'x'), detail: `reason number ${i}` });
    expect(c.groups().map((g) => [g.label, g.count])).toEqual([
      ['INVALID amount → amount.value: reason number 0', 1],
      ['INVALID amount → amount.value: reason number 1', 1],
      ['(other reasons: too many distinct messages to group)', 3],
    ]);
    expect(c.total()).toBe(5);
  });

  test('a million accepted rows keep nothing but counts', async () => {
    const N = 1_000_000;
    // the control: what keeping a tenth of the rows' outcomes holds
    const control = await liveGrowth(async (checkpoint) => {
      const kept: RowOutcome[] = [];
      for (let i = 0; i < N / 10; i++) kept.push(accepted('deal', i + 2));
      await checkpoint();
      expect(kept).toHaveLength(N / 10); // alive until after the checkpoint
    });
    const c = createCollector();
    const counting = await liveGrowth(async (checkpoint) => {
      for (let i = 0; i < N; i++) {
        c.record(accepted('deal', i + 2));
        if ((i + 1) % (N / 10) === 0) await checkpoint();
      }
    });
    expect(c.counts().deal?.accepted).toBe(N);
    expect(c.notAccepted()).toHaveLength(0);
    expect(c.groups()).toHaveLength(0);
    console.log(`collector, ${N} accepted rows: live heap +${mb(counting)} at most; keeping ${N / 10} outcomes +${mb(control)}`);
    // a collector keeping every outcome would hold ten times the control
    expect(counting).toBeLessThan(control / 10);
  });

  test('an unknown outcome is a bug, not a silent miscount', () => {
    expect(() => createCollector().record({ ...accepted('deal', 2), outcome: 'done' as never })).toThrow(/unknown outcome/);
  });
});

test('unchanged rows of an incremental run are counted and grouped, never listed nor sent to the sink', () => {
  const sunk: string[] = [];
  const c = createCollector({ sink: (o) => sunk.push(o.message) });
  for (let line = 2; line < 12; line++) {
    c.record({
      outcome: 'skipped',
      resource: 'deal',
      file: 'deals.csv',
      line,
      externalId: `D${line}`,
      message: 'UNCHANGED',
      detail: 'unchanged since the server last accepted it (incremental mode)',
    });
  }
  c.record({ outcome: 'rejected', resource: 'deal', file: 'deals.csv', line: 12, message: 'VALIDATION_ERROR', detail: 'x' });
  expect(c.counts().deal).toMatchObject({ read: 11, skipped: 10, rejected: 1 });
  expect(c.groups().find((g) => g.label.startsWith('UNCHANGED'))?.count).toBe(10);
  expect(c.notAccepted().map((o) => o.message)).toEqual(['VALIDATION_ERROR']);
  expect(sunk).toEqual(['VALIDATION_ERROR']);
});
