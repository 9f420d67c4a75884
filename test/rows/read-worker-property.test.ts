// Property: whatever the CSV (quotes, delimiters inside quotes, line breaks inside quotes, CRLF,
// blank lines, ragged rows, non-ASCII, duplicates, invalid values), and wherever chunk boundaries
// fall, validate gives the same report, errors CSV and emitted bodies read on one thread, in the
// read worker, and with every chunk left RAW for the main thread.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { expect, test } from 'vitest';
import { SALES_PROFILES_CSV, runCli, tempFiles } from '../helpers/cli.js';
import { withoutTrafficTimings } from '../helpers/report-timing.js';

const title = fc.oneof(
  fc.constantFrom('Deal', 'Formação – lote', 'Año 2024', 'ümlaut', '', 'x', '  spaced  '),
  fc.constantFrom('"with, comma"', '"say ""hi"""', '"two\nlines"', '"crlf\r\ninside"', '"a;b"'),
);
const amount = fc.constantFrom('12.50', '7', '-3.25', '1,5', 'abc', '', '#N/A', ' 8 ');
const currency = fc.constantFrom('USD', 'BRL', 'CLP', 'XXQ', '');
const row = fc.record({
  id: fc.integer({ min: 1, max: 40 }),
  title,
  owner: fc.constantFrom('ana', 'bruno', 'nobody'),
  amount,
  currency,
  extra: fc.constantFrom(0, 0, 0, 1, -1),
});
const input = fc.record({
  rows: fc.array(row, { minLength: 1, maxLength: 120 }),
  delimiter: fc.constantFrom(',', ';'),
  eol: fc.constantFrom('\n', '\r\n'),
  blankEvery: fc.integer({ min: 0, max: 30 }),
  chunkRows: fc.integer({ min: 1, max: 40 }),
});

function csvOf(i: {
  rows: { id: number; title: string; owner: string; amount: string; currency: string; extra: number }[];
  delimiter: string;
  eol: string;
  blankEvery: number;
}): string {
  const d = i.delimiter;
  const lines = [['externalId', 'title', 'ownerExternalId', 'agentExternalId', 'isWon', 'amount.value', 'amount.currency'].join(d)];
  i.rows.forEach((r, n) => {
    // a title meant for the other delimiter is quoted anyway; an unquoted one must not hold ours
    const t = r.title.startsWith('"') ? r.title : r.title.replaceAll(d, ' ');
    const cells = [
      `D-${r.id}`,
      t,
      r.owner,
      r.owner,
      n % 5 === 0 ? 'maybe' : String(n % 2 === 0),
      r.amount.includes(d) ? `"${r.amount}"` : r.amount,
      r.currency,
    ];
    if (r.extra === 1) cells.push('');
    if (r.extra === -1) cells.pop();
    lines.push(cells.join(d));
    if (i.blankEvery > 0 && n % i.blankEvery === 0) lines.push('');
  });
  return lines.join(i.eol) + i.eol;
}

test('one thread, the read worker and RAW chunks give identical results on any CSV', async () => {
  await fc.assert(
    fc.asyncProperty(input, async (i) => {
      // the delimiter is given: sniffing a two-row file whose quoted titles hold commas may well pick
      // the comma over the semicolon (the same on every thread); what is compared here is the threads
      const dir = tempFiles({ 'sales-profiles.csv': SALES_PROFILES_CSV.replaceAll(',', i.delimiter), 'deals.csv': csvOf(i) });
      const runs = [];
      // the simple engine, auto (one thread at this size), and the fast engine's worker with no RAW chunk or only RAW chunks
      for (const env of [
        { BATCH_SYNC_ENGINE: 'simple' },
        { BATCH_SYNC_ENGINE: 'auto' },
        { BATCH_SYNC_ENGINE: 'fast', BATCH_SYNC_READ_SPLIT: 'none' },
        { BATCH_SYNC_ENGINE: 'fast', BATCH_SYNC_READ_SPLIT: 'all' },
      ]) {
        const tag = Object.values(env).join('-');
        const errors = join(dir, `errors-${tag}.csv`);
        const emit = join(dir, `emit-${tag}.ndjson`);
        const r = await runCli(
          [
            'validate',
            '--format',
            'json',
            '--batch-size',
            '7',
            '--delimiter',
            i.delimiter,
            '--errors',
            errors,
            '--emit',
            emit,
            join(dir, 'sales-profiles.csv'),
            join(dir, 'deals.csv'),
          ],
          { ...env, BATCH_SYNC_READ_CHUNK_ROWS: String(i.chunkRows) },
        );
        expect(r.stdout, r.stderr).not.toBe('');
        const report = JSON.parse(r.stdout) as Record<string, unknown>;
        for (const k of ['runId', 'startedAt', 'endedAt', 'durationMs', 'errorFiles']) delete report[k];
        withoutTrafficTimings(report);
        const read = (f: string) => {
          try {
            return readFileSync(f, 'utf8');
          } catch {
            return '(none)';
          }
        };
        const clean = (t: string) => t.replaceAll(/\d{8}T\d{6}Z-[0-9a-f]{4}/g, 'RUN');
        runs.push({ code: r.code, report: clean(JSON.stringify(report)), errors: clean(read(errors)), emitted: clean(read(emit)) });
      }
      expect(runs[1]).toEqual(runs[0]);
      expect(runs[2]).toEqual(runs[0]);
    }),
    { numRuns: 25 },
  );
}, 120_000);
