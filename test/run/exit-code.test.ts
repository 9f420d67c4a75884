import { expect, test } from 'vitest';
import { createCollector } from '../../src/report/collector.js';
import type { RowOutcome } from '../../src/plan/outcome.js';
import { buildRunReport } from '../../src/report/run-report.js';
import { exitCodeOf } from '../../src/run/sync.js';

const row = (line: number, outcome: RowOutcome['outcome'], message: string, detail = ''): RowOutcome => ({
  outcome,
  resource: 'deal',
  file: 'deals.csv',
  line,
  message,
  detail,
});
const report = (rows: RowOutcome[], maxGroups?: number) => {
  const c = createCollector({ maxGroups });
  for (const r of rows) c.record(r);
  const at = new Date(0);
  return buildRunReport({ runId: 'r', mode: 'push', startedAt: at, endedAt: at }, c);
};

test('rows skipped on purpose never fail a run, even when too many reasons fold into "other reasons"', () => {
  const rows = [
    row(2, 'accepted', ''),
    // every skip with its own reason: past maxGroups they share one "(other reasons …)" group
    ...Array.from({ length: 20 }, (_, i) => row(3 + i, 'skipped', i % 2 ? 'SKIPPED' : 'UNCHANGED', `condition ${i} met`)),
  ];
  expect(exitCodeOf(report(rows), false)).toBe(0);
  expect(exitCodeOf(report(rows, 2), false)).toBe(0);
  expect(report(rows, 2).deliberateSkips).toBe(20);
});

test('any other skip, and any invalid or rejected row, makes it exit 1; an abort exits 3', () => {
  expect(exitCodeOf(report([row(2, 'skipped', 'HELD_BACK', 'owner failed')]), false)).toBe(1);
  expect(exitCodeOf(report([row(2, 'skipped', 'UNVERIFIED', 'x')]), false)).toBe(1);
  expect(exitCodeOf(report([row(2, 'invalid', 'INVALID', 'x')]), false)).toBe(1);
  expect(exitCodeOf(report([row(2, 'accepted', '')]), true)).toBe(3);
});
