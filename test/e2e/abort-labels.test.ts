// What a row is called when the run stops around it (issue 28.4). Rows of a batch the server
// answered without saying which it refused were sent, and may be applied: if the run stops while
// that batch is being isolated (a 500, the rejection guard, SIGTERM), they are UNVERIFIED, never
// "not sent". And a batch that never left is NOT_SENT, not "interrupted before the server answered".
import { join } from 'node:path';
import { afterEach, describe, expect, test } from 'vitest';
import { startCli, runCli, tempFiles } from '../helpers/cli.js';
import { startServer, type MisbehavingServer, type RecordedRequest, type Step } from '../helpers/misbehaving-server.js';
import { KEY, accountsCsv, itemsOf, okBody, type JsonReport } from './faults-helpers.js';

let server: MisbehavingServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

/** A 200 whose one error names no item (the documented answer style): which rows it refused is unresolved. */
const unattributed = (): Omit<Step, 'respond'> => ({
  status: 200,
  body: { data: { code: 201, success: 100, error: [{ message: 'VALIDATION_ERROR', detail: 'name is too long' }] }, status: 'SUCCESS' },
});
const ids = (req: RecordedRequest) => itemsOf(req).map((i) => i.externalId);
const labels = (report: JsonReport) => Object.fromEntries(report.notAccepted.map((r) => [r.externalId, r.message]));

/** 4 accounts in one batch, isolated when its answer names no item. */
async function push(respond: (req: RecordedRequest, n: number) => Omit<Step, 'respond'>, args: string[] = []) {
  let n = 0;
  server = await startServer([], { respond: (req) => respond(req, n++) });
  const dir = tempFiles({ 'accounts.csv': accountsCsv(4) });
  const r = await runCli(
    [
      'push',
      '--format',
      'json',
      '--batch-size',
      '4',
      '--concurrency',
      '1',
      '--retry-delay',
      '10',
      '--isolate-unattributed',
      ...args,
      join(dir, 'accounts.csv'),
    ],
    { BATCH_SYNC_API_KEY: KEY, BATCH_SYNC_BASE_URL: server.url },
  );
  return { ...r, report: JSON.parse(r.stdout) as JsonReport };
}

describe('a run stopped while a batch is isolated: its rows were sent, so they are UNVERIFIED', () => {
  test('a 500 on the first half: all four rows UNVERIFIED, each saying what happened', async () => {
    const r = await push((req, n) => (n === 0 ? unattributed() : n === 1 ? { status: 500, body: 'boom' } : { status: 200, body: okBody(req) }));
    expect(r.code).toBe(3);
    expect(server!.requests.map(ids)).toEqual([
      ['A-1', 'A-2', 'A-3', 'A-4'],
      ['A-1', 'A-2'],
    ]);
    expect(labels(r.report)).toEqual({ 'A-1': 'UNVERIFIED', 'A-2': 'UNVERIFIED', 'A-3': 'UNVERIFIED', 'A-4': 'UNVERIFIED' });
    const detail = (id: string) => r.report.notAccepted.find((row) => row.externalId === id)!.detail;
    const parent = JSON.parse(server!.requests[0]!.body.toString()).batchId as string;
    for (const id of ['A-1', 'A-2', 'A-3', 'A-4']) expect(detail(id)).toContain(`sent in batch ${parent}, whose answer does not say which rows it refused`);
    expect(detail('A-1')).toMatch(/500/);
    expect(detail('A-3')).toMatch(/not resent split: run aborted/);
  });

  test('the rejection guard tripping on a row singled out: the rows not yet singled out are UNVERIFIED, not NOT_SENT', async () => {
    const r = await push((req) => (ids(req).includes('A-1') ? unattributed() : { status: 200, body: okBody(req) }), ['--max-rejections', '0']);
    expect(r.code).toBe(3);
    expect(labels(r.report)).toEqual({ 'A-1': 'VALIDATION_ERROR', 'A-2': 'UNVERIFIED', 'A-3': 'UNVERIFIED', 'A-4': 'UNVERIFIED' });
    expect(r.report.notAccepted.find((row) => row.externalId === 'A-3')!.detail).toMatch(/not resent split: run stopped \(stopped: 1 of 1 row/);
  });

  test('SIGTERM while a half is out: that half is answered and counted, the other half UNVERIFIED', async () => {
    let n = 0;
    server = await startServer([], {
      respond: (req) => (n++ === 0 ? unattributed() : { status: 200, delayMs: 1500, body: okBody(req) }),
    });
    const dir = tempFiles({ 'accounts.csv': accountsCsv(4) });
    const { child, result } = startCli(
      ['push', '--format', 'json', '--batch-size', '4', '--concurrency', '1', '--isolate-unattributed', join(dir, 'accounts.csv')],
      { env: { BATCH_SYNC_API_KEY: KEY, BATCH_SYNC_BASE_URL: server.url } },
    );
    while (server.requests.length < 2) await new Promise((r) => setTimeout(r, 20));
    child.kill('SIGTERM');
    const { code, stdout } = await result;
    expect(code).toBe(3);
    const report = JSON.parse(stdout) as JsonReport & { totals: { accepted: number } };
    expect(server.requests).toHaveLength(2);
    expect(report.totals.accepted).toBe(2);
    expect(labels(report)).toEqual({ 'A-3': 'UNVERIFIED', 'A-4': 'UNVERIFIED' });
    expect(report.notAccepted[0]!.detail).toMatch(/not resent split: run interrupted/);
  });
});

describe('a batch that never left', () => {
  test('SIGTERM while batches wait for --max-rate: nothing leaves after it, and their rows are NOT_SENT', async () => {
    server = await startServer([], { respond: (req) => ({ status: 200, delayMs: 300, body: okBody(req) }) });
    const dir = tempFiles({ 'accounts.csv': accountsCsv(8) });
    const { child, result } = startCli(['push', '--format', 'json', '--batch-size', '1', '--max-rate', '0.5', join(dir, 'accounts.csv')], {
      env: { BATCH_SYNC_API_KEY: KEY, BATCH_SYNC_BASE_URL: server.url },
    });
    let handledAt = Number.POSITIVE_INFINITY;
    child.stderr!.on('data', (c) => {
      if (String(c).includes('taking no new batches')) handledAt = Math.min(handledAt, Date.now());
    });
    while (server.requests.length < 1) await new Promise((r) => setTimeout(r, 20));
    await new Promise((r) => setTimeout(r, 400));
    child.kill('SIGTERM');
    const { code, stdout } = await result;
    expect(code).toBe(3);
    expect(handledAt).toBeLessThan(Number.POSITIVE_INFINITY);
    // the next batch was due 2 s after the first: it waited for the rate, and never left (counted:
    // one request in all, whatever the time the machine took to handle the signal)
    expect(server.requests).toHaveLength(1);
    const report = JSON.parse(stdout) as JsonReport & { totals: { accepted: number } };
    expect(report.totals.accepted).toBe(1);
    const messages = new Set(report.notAccepted.map((row) => row.message));
    expect([...messages]).toEqual(['NOT_SENT']);
    expect(report.notAccepted.some((row) => /interrupted before the server answered/.test(row.detail))).toBe(false);
  });
});
