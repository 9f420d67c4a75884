// Issue 36 row 6: a batch whose request may have reached the server, and that the server may have
// applied, is UNVERIFIED, never NOT_DELIVERED ("retries exhausted", which invites a plain resend):
// a 500 (not retried by default), a reset after the request was written, an answer that never
// came. Only a batch that certainly never reached the API, or that the API said it did not take
// (refused connection, connect timeout, 408/429/503), is NOT_DELIVERED. The label carries how to
// check before sending the rows again, in every format and in the errors CSV.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, expect, test } from 'vitest';
import { OK_BODY, closedPort, startServer, type MisbehavingServer } from '../helpers/misbehaving-server.js';
import { dealsCsv, runCli, tempFiles } from '../helpers/cli.js';

const KEY = 'may-be-applied-key-0123456789';
let server: MisbehavingServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

interface Report {
  notAccepted: { message: string; detail: string }[];
}

async function push(baseUrl: string, extra: string[] = []) {
  const dir = tempFiles({ 'deals.csv': dealsCsv(1) });
  const errors = join(dir, 'failed.csv');
  const r = await runCli(
    ['push', '--retries', '2', '--retry-delay', '10', '--timeout', '1500', '--format', 'json', '--errors', errors, ...extra, join(dir, 'deals.csv')],
    { BATCH_SYNC_API_KEY: KEY, BATCH_SYNC_BASE_URL: baseUrl },
  );
  const report = JSON.parse(r.stdout) as Report;
  return { ...r, report, errorsCsv: existsSync(errors) ? readFileSync(errors, 'utf8') : '' };
}

test.each([
  ['a 500 (the server may have applied it before failing)', [{ status: 500, body: 'boom' }]],
  ['a 500 that --retry-on-500 retried into 503s', [{ status: 500, body: 'boom' }, { status: 503 }, { status: 503 }]],
  ['a reset after the request was written', [{ drop: true }, { drop: true }, { drop: true }]],
  ['no answer before the timeout', [{ delayMs: 4000 }, { delayMs: 4000 }, { delayMs: 4000 }]],
])('%s: the row is UNVERIFIED with how to check, in the report and the errors CSV', async (_, steps) => {
  server = await startServer(steps, { status: 503 });
  const r = await push(server.url, steps.length === 3 && 'status' in steps[0]! ? ['--retry-on-500'] : []);
  expect(r.code, r.stderr).toBe(3);
  expect(r.report.notAccepted.map((n) => n.message)).toEqual(['UNVERIFIED']);
  expect(r.report.notAccepted[0]!.detail).toMatch(/may have applied it: check whether D-1 exists on the server before sending it again/);
  expect(r.errorsCsv).toMatch(/UNVERIFIED/);
  expect(r.errorsCsv).not.toMatch(/NOT_DELIVERED/);
  expect(server.requests.length).toBeGreaterThanOrEqual(1);
});

test('503s until the retries run out: the server said it took nothing, NOT_DELIVERED', async () => {
  server = await startServer([], { status: 503 });
  const r = await push(server.url);
  expect(r.code).toBe(3);
  expect(r.report.notAccepted.map((n) => n.message)).toEqual(['NOT_DELIVERED']);
});

test('a refused connection: the batch never reached a server, NOT_DELIVERED', async () => {
  const port = await closedPort();
  const r = await push(`http://127.0.0.1:${port}`);
  expect(r.code).toBe(3);
  expect(r.report.notAccepted.map((n) => n.message)).toEqual(['NOT_DELIVERED']);
});

test('a 503, then a 200 for the same batch: accepted', async () => {
  server = await startServer([{ status: 503 }], { status: 200, body: OK_BODY });
  const r = await push(server.url);
  expect(r.code).toBe(0);
});
