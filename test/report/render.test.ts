import { describe, expect, test } from 'vitest';
import { createCollector } from '../../src/report/collector.js';
import { memoryOutput } from '../../src/report/output.js';
import { renderHuman } from '../../src/report/render-human.js';
import { renderJson } from '../../src/report/render-json.js';
import { buildRunReport, type RunMeta } from '../../src/report/run-report.js';
import { summaryLine } from '../../src/report/summary-line.js';
import { accepted, invalid, rejected } from './fixtures.js';

const meta: RunMeta = {
  runId: '20261121-0544-ab12',
  mode: 'push',
  startedAt: new Date('2026-11-21T05:44:00.000Z'),
  endedAt: new Date('2026-11-21T05:44:12.300Z'),
};

function mixedRun() {
  const c = createCollector();
  for (let i = 2; i < 122; i++) c.record(accepted('sales-profile', i));
  for (let i = 2; i < 8822; i++) c.record(accepted('deal', i));
  for (let i = 0; i < 412; i++) c.record(rejected(14 + i, i + 3, `D-${9 + i}`, i % 2 ? 'ABC' : 'USX'));
  c.record({
    ...rejected(900, 0, 'D-900', 'EUR'),
    externalId: undefined,
    field: undefined,
    detail: 'not attributable to an item: whole batch b-7 refused (INTERNAL_ERROR: boom)',
    message: 'INTERNAL_ERROR',
    batchId: 'b-7',
  });
  c.record(invalid(22, '12,5,0'));
  c.record(invalid(40, 'abc'));
  c.record({ ...accepted('deal', 50), outcome: 'skipped', externalId: 'D-50', message: 'SKIPPED', detail: 'status is "archived"' });
  c.warn({ severity: 'warning', file: 'deals.csv', line: 7, column: 'close', field: 'closeDate', reason: '"2026-01-02" has no time zone, read as UTC' });
  c.warn({ severity: 'warning', file: 'deals.csv', line: 8, column: 'close', field: 'closeDate', reason: '"2026-01-03" has no time zone, read as UTC' });
  return c;
}

describe('human report', () => {
  test('a realistic mixed run, colour off', () => {
    const out = memoryOutput();
    renderHuman({ ...buildRunReport(meta, mixedRun()), errorFiles: ['errors/deals.errors.csv'] }, out);
    expect(out.stdout.join('\n')).toMatchInlineSnapshot(`
      "batch-sync push: run 20261121-0544-ab12, 12.3s

      resource       read  accepted  rejected  invalid  skipped  warnings
      sales-profile   120       120         0        0        0         0
      deal           9236      8820       413        2        1         2
      total          9356      8940       413        2        1         2

      deal: 413 rows rejected by the server
      412 rows: VALIDATION_ERROR amount.currency: "…" is not an ISO-4217 currency code
        deals.csv:14  D-9  amount.currency: "USX" is not an ISO-4217 currency code
        deals.csv:15  D-10  amount.currency: "ABC" is not an ISO-4217 currency code
        deals.csv:16  D-11  amount.currency: "USX" is not an ISO-4217 currency code
        … and 409 more

      1 row: INTERNAL_ERROR not attributable to an item: whole batch … refused (INTERNAL_ERROR: boom)
        deals.csv:900  not attributable to an item: whole batch b-7 refused (INTERNAL_ERROR: boom)

      deal: 2 rows invalid
      2 rows: INVALID amount → amount.value: "…" is not a decimal number
        deals.csv:22  D-22  amount → amount.value: "12,5,0" is not a decimal number
        deals.csv:40  D-40  amount → amount.value: "abc" is not a decimal number

      deal: 1 row skipped
      1 row: SKIPPED status is "…"
        deals.csv:50  D-50  status is "archived"

      Warnings (2)
      2 warnings: deal: closeDate: "…" has no time zone, read as UTC
        deals.csv:7  close → closeDate: "2026-01-02" has no time zone, read as UTC
        deals.csv:8  close → closeDate: "2026-01-03" has no time zone, read as UTC

      Rows not accepted, with their original columns: errors/deals.errors.csv

      FAILED: 415 of 9356 rows not accepted (413 rejected, 2 invalid, 1 skipped)."
    `);
  });

  test('an aborted run says so first and last', () => {
    const c = createCollector();
    for (let i = 2; i < 12; i++) c.record(accepted('sales-profile', i));
    const out = memoryOutput();
    renderHuman(buildRunReport({ ...meta, aborted: { code: 'AUTH', message: 'the API refused the key (401)' } }, c), out);
    expect(out.stdout[2]).toBe('RUN ABORTED (AUTH): the API refused the key (401)');
    expect(out.stdout.at(-1)).toBe('ABORTED: the API refused the key (401) (10 of 10 rows accepted before it stopped).');
  });

  test('validate mode talks about valid rows; a clean run is one OK line', () => {
    const c = createCollector();
    c.record(accepted('deal', 2));
    const out = memoryOutput();
    renderHuman(buildRunReport({ ...meta, mode: 'validate' }, c), out);
    expect(out.stdout[2]).toBe('resource  read  valid  rejected  invalid  skipped  warnings');
    expect(out.stdout.at(-1)).toBe('OK: 1 row valid.');
  });

  test('rows over the cap are said to be unlisted', () => {
    const c = createCollector({ maxKept: 1 });
    c.record(invalid(2, 'a'));
    c.record(invalid(3, 'b'));
    const out = memoryOutput();
    renderHuman(buildRunReport(meta, c), out);
    expect(out.stdout).toContain('1 row not accepted is counted and grouped above but not listed one by one (the errors CSV has every row).');
  });
});

describe('json report', () => {
  test('stable shape, no row cells', () => {
    const out = memoryOutput();
    renderJson(buildRunReport(meta, mixedRun()), out);
    const text = out.stdout.join('');
    expect(text).not.toContain('Deal D-9'); // a title cell
    expect(text).not.toContain('HYPERLINK');
    const doc = JSON.parse(text);
    expect(Object.keys(doc)).toEqual([
      'version',
      'runId',
      'mode',
      'startedAt',
      'endedAt',
      'aborted',
      'counts',
      'totals',
      'groups',
      'notAccepted',
      'notListed',
      'notRead',
      'warningGroups',
      'warnings',
      'warningsNotListed',
      'ownersNotInRun',
      'errorFiles',
      'isolation',
      'traffic',
      'batches',
      'preview',
    ]);
    expect(Object.keys(doc.counts)).toEqual(['sales-profile', 'deal']);
    expect(doc.totals).toEqual({ read: 9356, accepted: 8940, rejected: 413, invalid: 2, skipped: 1, warnings: 2 });
    expect(doc.groups[0]).toMatchObject({
      resource: 'deal',
      outcome: 'rejected',
      reason: 'VALIDATION_ERROR amount.currency: "…" is not an ISO-4217 currency code',
      count: 412,
    });
    expect(doc.notAccepted).toHaveLength(416);
    expect(doc.notAccepted[412]).toEqual({
      file: 'deals.csv',
      line: 900,
      resource: 'deal',
      externalId: null,
      outcome: 'rejected',
      field: null,
      column: null,
      message: 'INTERNAL_ERROR',
      detail: 'not attributable to an item: whole batch b-7 refused (INTERNAL_ERROR: boom)',
      batchId: 'b-7',
    });
    expect(doc.warnings[0]).toEqual({
      file: 'deals.csv',
      line: 7,
      column: 'close',
      field: 'closeDate',
      reason: '"2026-01-02" has no time zone, read as UTC',
      suggestion: null,
    });
    expect(doc.aborted).toBeNull();
  });
});

describe('summary line', () => {
  test('key=value for cron mail and scrapers', () => {
    const c = createCollector();
    for (let i = 0; i < 8940; i++) c.record(accepted('deal', i));
    for (let i = 0; i < 7; i++) c.record(rejected(i, i, `D-${i}`, 'USX'));
    for (let i = 0; i < 3; i++) c.record(invalid(i, 'x'));
    const report = buildRunReport(meta, c);
    expect(summaryLine(report, 1)).toBe(
      'batch-sync push: run 20261121-0544-ab12 FAILED exit=1 read=8950 accepted=8940 rejected=7 invalid=3 skipped=0 warnings=0 duration=12.3s',
    );
    expect(summaryLine({ ...report, mode: 'dry-run', aborted: { code: 'UNREACHABLE', message: 'x' } }, 3)).toMatch(
      /^batch-sync push --dry-run: run \S+ ABORTED exit=3 .* aborted=UNREACHABLE$/,
    );
    // validate and dry runs accept nothing: their rows are valid, and the line says so
    expect(summaryLine({ ...report, mode: 'validate' }, 1)).toMatch(/^batch-sync validate: run \S+ FAILED exit=1 read=8950 valid=8940 rejected=7 /);
    expect(summaryLine({ ...report, mode: 'dry-run' }, 1)).toMatch(/^batch-sync push --dry-run: run \S+ FAILED exit=1 read=8950 valid=8940 /);
    expect(summaryLine(buildRunReport(meta, createCollector()))).toBe(
      'batch-sync push: run 20261121-0544-ab12 OK read=0 accepted=0 rejected=0 invalid=0 skipped=0 warnings=0 duration=12.3s',
    );
  });
});
