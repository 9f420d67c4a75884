// Answers that cannot be trusted, through push: a 200 whose body is HTML, invalid JSON, empty or
// lacks `data` is never resent within the run (the server processed it) and never counted accepted; `data.error` elements of
// an unexpected shape or pointing past the batch make the batch unverifiable. The report says so,
// and a rerun sends those rows again (at least once) while applied rows are never sent twice.
import { afterEach, describe, expect, test } from 'vitest';
import type { SandboxHandle } from '../../src/sandbox/index.js';
import { sandboxPerFile } from '../helpers/sandbox.js';
import { startServer, type MisbehavingServer, type Step } from '../helpers/misbehaving-server.js';
import { KEY, accountsFile, applyingServerLedger, okBody, pushJson } from './faults-helpers.js';
import { healthyApiAt } from './faults-helpers.js';

let server: MisbehavingServer | undefined;
let sandbox: SandboxHandle;
sandboxPerFile(KEY, (s) => {
  sandbox = s;
});
afterEach(() => server?.close());

const UNREADABLE_200: [string, Step][] = [
  ['HTML', { status: 200, body: '<html><body>Gateway says hi</body></html>', headers: { 'content-type': 'text/html' } }],
  ['invalid JSON', { status: 200, body: '{"data": {"code": 200,', headers: { 'content-type': 'application/json' } }],
  ['empty', { status: 200, body: '' }],
  ['JSON without data', { status: 200, body: { status: 'SUCCESS' } }],
];

describe('a 200 whose outcome is unknown', () => {
  test.each(UNREADABLE_200)('%s: sent once, never again in the run; UNVERIFIED, never accepted; a rerun sends those rows again', async (_name, bad) => {
    server = await startServer([], bad);
    const { file, stateDir } = accountsFile(3);
    const first = await pushJson(file, server.url, stateDir, ['--retries', '2']);
    // a batch that may have been applied and whose answer cannot be read: the run stops (exit 3)
    expect(first.code).toBe(3);
    expect(server.requests).toHaveLength(1);
    expect(first.report.totals).toMatchObject({ read: 3, accepted: 0, skipped: 3 });
    expect(first.report.notAccepted.every((r) => r.message === 'UNVERIFIED')).toBe(true);

    sandbox = await healthyApiAt(server, sandbox);
    const rerun = await pushJson(file, sandbox.url, stateDir);
    expect(rerun.code).toBe(0);
    expect(rerun.report.totals).toMatchObject({ read: 3, accepted: 3, skipped: 0 });
    expect(sandbox.records('account')).toHaveLength(3);
  });
});

describe('data.error that cannot be attributed', () => {
  test.each([
    ['a number', [42]],
    ['a string', ['VALIDATION_ERROR']],
    ['an object without message', [{ foo: 'bar' }]],
    ['an index past the batch', [{ message: 'VALIDATION_ERROR', detail: 'items[7] externalId=A-8: name: is required' }]],
  ])('%s: the batch is unverifiable, never counted accepted, and the rerun completes it', async (_name, error) => {
    const { applied, ok } = applyingServerLedger();
    // batch 1 is applied; batch 2's answer names errors we cannot place
    server = await startServer([ok, { respond: (req) => ({ status: 200, body: okBody(req, error as unknown[]) }) }], ok);
    const { file, stateDir } = accountsFile(6);
    const first = await pushJson(file, server.url, stateDir, ['--batch-size', '3', '--concurrency', '1']);
    expect(first.code).toBe(1);
    expect(first.report.totals).toMatchObject({ read: 6, accepted: 3, skipped: 3 });
    const unverified = first.report.notAccepted;
    expect(unverified.map((r) => r.externalId)).toEqual(['A-4', 'A-5', 'A-6']);
    expect(unverified.every((r) => r.message === 'UNVERIFIED' && /unverifiable|cannot|unexpected|past/i.test(r.detail))).toBe(true);

    sandbox = await healthyApiAt(server, sandbox);
    const rerun = await pushJson(file, sandbox.url, stateDir);
    expect(rerun.code).toBe(0);
    expect(rerun.report.totals).toMatchObject({ read: 6, accepted: 3, skipped: 3 });
    // the applied batch is not sent again; the unverifiable one is, once
    expect(
      sandbox
        .records('account')
        .map((r) => r.externalId)
        .sort(),
    ).toEqual(['A-4', 'A-5', 'A-6']);
    expect(sandbox.stats().itemsReceived).toBe(3);
    expect([...applied.keys()].sort()).toEqual(['A-1', 'A-2', 'A-3']);
  });
});
