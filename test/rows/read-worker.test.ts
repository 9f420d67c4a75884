// Push reads big inputs in a worker thread (src/rows/read-worker.ts). Forced on and off over the
// same messy input, every observable must be the same: the report (outcomes, messages, order of
// kinds, warnings), the exit code and the errors CSV byte for byte, in plain and incremental mode.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test } from 'vitest';
import { readsInWorker } from '../../src/rows/read-in-worker.js';
import type { SandboxHandle } from '../../src/sandbox/index.js';
import { sandboxPerFile } from '../helpers/sandbox.js';
import { SALES_PROFILES_CSV, dealsCsv, runCli, tempFiles } from '../helpers/cli.js';
import { startServer, type RecordedRequest } from '../helpers/misbehaving-server.js';
import { withoutTrafficTimings } from '../helpers/report-timing.js';

const KEY = 'worker-key-0123456789';
let sandbox: SandboxHandle;
sandboxPerFile(KEY, (s) => {
  sandbox = s;
});

/** ~3,000 deals: quoted titles, non-ASCII, duplicates, unknown owners, bad currencies, ragged and unreadable rows. */
function messyDeals(): string {
  const lines = ['externalId,title,ownerExternalId,agentExternalId,isWon,amount.value,amount.currency'];
  for (let i = 1; i <= 3000; i++) {
    const id = i % 97 === 0 ? `D-${i - 1}` : `D-${i}`; // a duplicate now and then
    const owner = i % 211 === 0 ? 'nobody' : i % 2 ? 'ana' : 'bruno';
    const title = i % 7 === 0 ? `"Deal ${i}, ""quoted"" – ção"` : `Deal ${i} ü`;
    const currency = i % 131 === 0 ? 'XXQ' : 'USD';
    if (i % 401 === 0)
      lines.push(`D-${i},Deal ${i},ana,ana,false,12,5,USD`); // ragged
    else if (i % 503 === 0)
      lines.push(`D-${i},"Deal"x,ana,ana,false,12.5,USD`); // text after a quote
    else lines.push(`${id},${title},${owner},${owner},${i % 3 === 0},${i}.50,${currency}`);
  }
  return lines.join('\n');
}

/**
 * Accounts, semicolon-separated: a type the API has not been seen to use (a warning from the worker,
 * the row still sent), and duplicates, whose cells the main thread splits again from their line.
 */
function accounts(): string {
  const lines = ['externalId;name;type'];
  for (let i = 1; i <= 300; i++) lines.push(`A-${i % 37 === 0 ? i - 1 : i};Acme ${i}, Ltda. – ção;${i % 5 === 0 ? 'GUILD' : 'COMPANY'}`);
  return lines.join('\n');
}

/** Worker off, or on with its rows left RAW for the main thread in every chunk, in none, or as it sees fit. */
type Threads = '0' | '1' | 'all' | 'none';
// '0': the auto engine, which keeps inputs this small on one thread; '1': the fast engine, which always reads in the worker
const threadEnv = (t: Threads) =>
  t === '0' ? { BATCH_SYNC_ENGINE: 'auto' } : t === '1' ? { BATCH_SYNC_ENGINE: 'fast' } : { BATCH_SYNC_ENGINE: 'fast', BATCH_SYNC_READ_SPLIT: t };

async function push(worker: Threads, dir: string, extra: string[]) {
  const errors = join(dir, `errors-${worker}-${extra.length}`);
  // one batch at a time: with several in flight, the server's answers (and so the order of rejected
  // rows in the errors CSV) depend on timing, whichever thread reads
  const r = await runCli(
    [
      'push',
      '--format',
      'json',
      '--batch-size',
      '100',
      '--concurrency',
      '1',
      '--errors',
      errors,
      ...extra,
      join(dir, 'sales-profiles.csv'),
      join(dir, 'accounts.csv'),
      join(dir, 'deals.csv'),
    ],
    {
      ...threadEnv(worker),
      BATCH_SYNC_API_KEY: KEY,
      BATCH_SYNC_BASE_URL: sandbox.url,
    },
  );
  const report = JSON.parse(r.stdout) as Record<string, unknown>;
  for (const k of ['runId', 'startedAt', 'endedAt', 'durationMs', 'errorFiles']) delete report[k];
  withoutTrafficTimings(report);
  const csv = Object.fromEntries(readdirSync(errors).map((f) => [f, readFileSync(join(errors, f), 'utf8')]));
  return { code: r.code, report: JSON.stringify(report).replaceAll(/\d{8}T\d{6}Z-[0-9a-f]{4}/g, 'RUN'), csv };
}

test('the read worker changes nothing observable: report, exit code, errors CSV', async () => {
  // from the sources the worker runs built (dist/): without a build this test would compare one thread with itself
  expect(readsInWorker([], true, 'fast'), 'build first: npx tsc -p tsconfig.build.json').toBe(true);
  const dir = tempFiles({ 'sales-profiles.csv': SALES_PROFILES_CSV, 'deals.csv': messyDeals(), 'accounts.csv': accounts() });
  const alone = await push('0', dir, []);
  const split = await push('1', dir, []);
  // rows the main thread maps itself (RAW) and rows the worker maps must be indistinguishable
  expect(await push('all', dir, [])).toEqual(alone);
  expect(await push('none', dir, [])).toEqual(alone);
  expect(alone.code).toBe(1);
  expect(Object.keys(alone.csv).sort()).toEqual(['accounts.errors.csv', 'deals.errors.csv']);
  expect(alone.csv['deals.errors.csv']).toMatch(/DUPLICATE/);
  expect(alone.csv['accounts.errors.csv']).toContain('A-36;Acme 37, Ltda. – ção;COMPANY;38;invalid;externalId;DUPLICATE');
  expect(alone.report).toMatch(/GUILD/);
  expect(split).toEqual(alone);
});

test('incremental mode: the same outcomes with and without the worker', async () => {
  const dir = tempFiles({ 'sales-profiles.csv': SALES_PROFILES_CSV, 'deals.csv': messyDeals(), 'accounts.csv': accounts() });
  const runs = [];
  for (const worker of ['0', '1', 'all'] as const) {
    const state = join(dir, `state-${worker}`);
    const first = await push(worker, dir, ['--incremental', '--state-dir', state]);
    const again = await push(worker, dir, ['--incremental', '--state-dir', state, '--quiet']);
    runs.push({ first, again });
  }
  expect(runs[0]!.again.report).toMatch(/UNCHANGED/);
  expect(runs[1]).toEqual(runs[0]);
  expect(runs[2]).toEqual(runs[0]);
});

test('validate and --dry-run read in the worker too, with the same report and emitted bodies', async () => {
  const dir = tempFiles({ 'sales-profiles.csv': SALES_PROFILES_CSV, 'deals.csv': messyDeals(), 'accounts.csv': accounts() });
  const files = [join(dir, 'sales-profiles.csv'), join(dir, 'accounts.csv'), join(dir, 'deals.csv')];
  const outputs = [];
  for (const worker of ['0', '1', 'all'] as const) {
    const emit = join(dir, `emit-${worker}.ndjson`);
    const validate = await runCli(['validate', '--format', 'json', '--batch-size', '100', '--emit', emit, ...files], threadEnv(worker));
    const dry = await runCli(['push', '--dry-run', '--format', 'json', ...files], threadEnv(worker));
    const clean = (stdout: string) => {
      const report = JSON.parse(stdout) as Record<string, unknown>;
      for (const k of ['runId', 'startedAt', 'endedAt', 'durationMs']) delete report[k];
      return JSON.stringify(report).replaceAll(/\d{8}T\d{6}Z-[0-9a-f]{4}/g, 'RUN');
    };
    outputs.push({
      codes: [validate.code, dry.code],
      validate: clean(validate.stdout),
      dry: clean(dry.stdout),
      emitted: readFileSync(emit, 'utf8').replaceAll(/\d{8}T\d{6}Z-[0-9a-f]{4}/g, 'RUN'),
    });
  }
  expect(outputs[0]!.codes).toEqual([1, 1]);
  expect(outputs[0]!.validate).toMatch(/DUPLICATE/);
  expect(outputs[0]!.emitted.split('\n').length).toBeGreaterThan(30);
  expect(outputs[1]).toEqual(outputs[0]);
  expect(outputs[2]).toEqual(outputs[0]);
});

test('a chunk is given back only once its rows have their outcomes: a 400 bisected long after the chunk was read', async () => {
  // the batch holding D-777 is refused whole, then halved until D-777 stands alone: each half is
  // built again from the items' bytes, which live in the worker's chunk
  const itemsOf = (req: RecordedRequest) => (JSON.parse(req.body.toString()) as { items: { externalId: string }[] }).items;
  const server = await startServer([], {
    respond: (req) => {
      const items = itemsOf(req);
      if (items.some((i) => i.externalId === 'D-777')) return { status: 400, body: { message: 'D-777 is refused' } };
      return { status: 200, delayMs: 5, body: { data: { code: 200, success: items.length, error: [] }, status: 'SUCCESS' } };
    },
  });
  try {
    const dir = tempFiles({ 'deals.csv': dealsCsv(3000) });
    const results = [];
    for (const t of ['0', 'all', 'none'] as const) {
      const errors = join(dir, `errors-${t}`);
      const r = await runCli(['push', '--format', 'json', '--batch-size', '200', '--errors', errors, join(dir, 'deals.csv')], {
        ...threadEnv(t),
        BATCH_SYNC_API_KEY: KEY,
        BATCH_SYNC_BASE_URL: server.url,
      });
      const report = JSON.parse(r.stdout) as { counts: { deal: Record<string, number> } };
      results.push({
        code: r.code,
        counts: report.counts.deal,
        csv: readFileSync(join(errors, 'deals.errors.csv'), 'utf8').replaceAll(/\d{8}T\d{6}Z-[0-9a-f]{4}/g, 'RUN'),
      });
    }
    expect(results[0]!.code).toBe(1);
    expect(results[0]!.counts).toMatchObject({ read: 3000, accepted: 2999, rejected: 1 });
    expect(results[0]!.csv).toMatch(/^D-777,.*HTTP_400/m);
    expect(results[1]).toEqual(results[0]);
    expect(results[2]).toEqual(results[0]);
  } finally {
    await server.close();
  }
});

test('auto keeps a workbook on the main thread however large (its XML parsing stays on one thread either way); fast still uses the worker', () => {
  const big = join(__dirname, '../../fixtures/xlsx/bad/bomb.xlsx');
  const dir = tempFiles({ 'big.csv': 'x'.repeat(11 * 1024 * 1024) });
  expect(readsInWorker([join(dir, 'big.csv')], true, 'auto')).toBe(true);
  expect(readsInWorker([join(dir, 'big.csv'), big], true, 'auto')).toBe(false);
  expect(readsInWorker([big], true, 'fast')).toBe(true);
});
