// Property: an incremental rerun that knows rows by their fingerprint (row-fingerprint.ts) ends
// exactly as one that builds every item and compares its hash. Whatever changed between the two
// runs (cells, quoting, owners, validity, rows dropped, duplicated or moved, a sales profile that
// became invalid), the second run's report and errors CSV are the same with fingerprints off, and
// with them on read on one thread, in the read worker and with every chunk left RAW. 15 cases in
// the suite (~10 s); FC_RUNS=80 for a longer search (passed, 49 s).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { expect, test } from 'vitest';
import type { SandboxHandle } from '../../src/sandbox/index.js';
import { runCli, tempFiles } from '../helpers/cli.js';
import { sandboxPerFile } from '../helpers/sandbox.js';
import { withoutTrafficTimings } from '../helpers/report-timing.js';

const KEY = 'fingerprint-key-0123';
let sandbox: SandboxHandle;
let env: Record<string, string>;
sandboxPerFile(KEY, (s, e) => {
  sandbox = s;
  env = e;
});

interface Row {
  id: number;
  title: string;
  owner: string;
  amount: string;
  currency: string;
}
const title = fc.constantFrom('Deal', 'Formação – lote', '"with, comma"', '"say ""hi"""', '"two\nlines"', '');
const rowArb = fc.record({
  id: fc.integer({ min: 1, max: 30 }),
  title,
  owner: fc.constantFrom('ana', 'ana', 'bruno', 'nobody'),
  amount: fc.constantFrom('12.50', '12.50', '7', '1,5', ''),
  currency: fc.constantFrom('USD', 'USD', 'BRL', 'XXQ'),
});
/** What becomes of a row in the second file. */
const edit = fc.constantFrom('same', 'same', 'same', 'same', 'title', 'amount', 'owner', 'invalid', 'drop', 'twice');
const input = fc.record({
  rows: fc.array(fc.tuple(rowArb, edit), { minLength: 1, maxLength: 60 }),
  brunoInvalid: fc.boolean(),
  reverse: fc.boolean(),
  chunkRows: fc.integer({ min: 1, max: 25 }),
});

function csv(rows: Row[]): string {
  const lines = ['externalId,title,ownerExternalId,agentExternalId,isWon,amount.value,amount.currency'];
  for (const r of rows)
    lines.push([`D-${r.id}`, r.title, r.owner, r.owner, 'false', r.amount.includes(',') ? `"${r.amount}"` : r.amount, r.currency].join(','));
  return `${lines.join('\n')}\n`;
}
const profiles = (brunoInvalid: boolean) =>
  `externalId,email,profile.firstName,profile.lastName\nana,ana@example.com,Ana,Souza\nbruno,${brunoInvalid ? 'not-an-email' : 'bruno@example.com'},Bruno,Díaz\n`;

function second(i: { rows: [Row, string][]; reverse: boolean }): Row[] {
  const out: Row[] = [];
  for (const [r, e] of i.rows) {
    if (e === 'drop') continue;
    if (e === 'title') out.push({ ...r, title: `${r.title.replaceAll('"', '')} v2` });
    else if (e === 'amount') out.push({ ...r, amount: '99' });
    else if (e === 'owner') out.push({ ...r, owner: r.owner === 'ana' ? 'bruno' : 'ana' });
    else if (e === 'invalid') out.push({ ...r, currency: 'XXQ' });
    else out.push(r);
    if (e === 'twice') out.push(r);
  }
  return i.reverse ? out.reverse() : out;
}

test('fingerprints on or off, one thread or the worker: the same rerun', async () => {
  await fc.assert(
    fc.asyncProperty(input, async (i) => {
      const versions: Record<string, string> = {
        v1: tempFiles({ 'sales-profiles.csv': profiles(false), 'deals.csv': csv(i.rows.map(([r]) => r)) }),
        v2: tempFiles({ 'sales-profiles.csv': profiles(i.brunoInvalid), 'deals.csv': csv(second(i)) }),
      };
      const dir = versions.v1!;
      const files = (v: string) => [join(versions[v]!, 'sales-profiles.csv'), join(versions[v]!, 'deals.csv')];
      const flows = {
        // the simple engine: no fingerprints, every row built and checked against its item hash
        off: { BATCH_SYNC_ENGINE: 'simple' },
        // auto keeps inputs this small on one thread
        alone: { BATCH_SYNC_ENGINE: 'auto' },
        worker: { BATCH_SYNC_ENGINE: 'fast', BATCH_SYNC_READ_SPLIT: 'none' },
        raw: { BATCH_SYNC_ENGINE: 'fast', BATCH_SYNC_READ_SPLIT: 'all' },
      };
      const results: Record<string, unknown> = {};
      for (const [name, flow] of Object.entries(flows)) {
        sandbox.reset();
        const state = join(dir, `state-${name}`);
        const run = async (v: string) => {
          const errors = join(dir, `errors-${name}-${v}`);
          // one batch at a time, so the order of rows in the errors CSV does not depend on timing
          // the delimiter is given: a tiny file whose quoted titles hold commas is not for sniffing
          const r = await runCli(
            [
              'push',
              '--format',
              'json',
              '--batch-size',
              '7',
              '--concurrency',
              '1',
              '--delimiter',
              ',',
              '--incremental',
              '--state-dir',
              state,
              '--errors',
              errors,
              ...files(v),
            ],
            { ...env, ...flow, BATCH_SYNC_READ_CHUNK_ROWS: String(i.chunkRows) },
          );
          expect(r.stdout, r.stderr).not.toBe('');
          const report = JSON.parse(r.stdout) as Record<string, unknown>;
          for (const k of ['runId', 'startedAt', 'endedAt', 'durationMs', 'errorFiles', 'state']) delete report[k];
          withoutTrafficTimings(report);
          let errorsCsv = '(none)';
          try {
            errorsCsv = readFileSync(join(errors, 'deals.errors.csv'), 'utf8');
          } catch {
            // every row accepted or unchanged
          }
          const clean = (t: string) => t.replaceAll(/\d{8}T\d{6}Z-[0-9a-f]{4}/g, 'RUN');
          return { code: r.code, report: clean(JSON.stringify(report)), errors: clean(errorsCsv) };
        };
        await run('v1');
        results[name] = await run('v2');
      }
      expect(results.alone).toEqual(results.off);
      expect(results.worker).toEqual(results.off);
      expect(results.raw).toEqual(results.off);
    }),
    { numRuns: Number(process.env.FC_RUNS) || 15 },
  );
}, 180_000);
