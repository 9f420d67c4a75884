// The network failing under push: a socket closed mid-body, a body dripped slower than --timeout, an
// API down for longer than the retry budget (bounded requests, exit 3, every row accounted for and
// none lost on the rerun, whether the rerun uses the state or the errors CSV), redirects never
// followed with the key, and the sandbox's own injected 500s with and without --retry-on-500.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, test } from 'vitest';
import { startSandbox, type SandboxHandle } from '../../src/sandbox/index.js';
import { ANSWER_STYLES_UNDER_TEST, sandboxPerFile } from '../helpers/sandbox.js';
import { runCli } from '../helpers/cli.js';
import { OK_BODY, startServer, type MisbehavingServer } from '../helpers/misbehaving-server.js';
import { KEY, accountsFile, allIds, applyingServerLedger, batchIdOf, expectExactlyOnce, okBody, pushJson } from './faults-helpers.js';
import { healthyApiAt } from './faults-helpers.js';

const servers: MisbehavingServer[] = [];
let sandbox: SandboxHandle;
sandboxPerFile(KEY, (s) => {
  sandbox = s;
});
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
  sandbox.setFaults({ failRate: 0 });
});
const serve = async (...args: Parameters<typeof startServer>) => {
  const s = await startServer(...args);
  servers.push(s);
  return s;
};

describe('the connection fails', () => {
  test('a socket closed in the middle of a 200 answer: never resent (it was processed), rows UNVERIFIED, the rerun sends them once', async () => {
    const { applied, ok } = applyingServerLedger();
    const server = await serve([{ respond: (req) => ({ status: 200, body: okBody(req), cutAfterBytes: 12 }) }], ok);
    const { file, stateDir } = accountsFile(3);
    const r = await pushJson(file, server.url, stateDir);
    expect(r.code).toBe(3);
    expect(server.requests).toHaveLength(1);
    expect(r.report.totals).toMatchObject({ read: 3, accepted: 0, skipped: 3 });
    expect(r.report.notAccepted.every((o) => o.message === 'UNVERIFIED' && /broke off/.test(o.detail))).toBe(true);
    const rerun = await pushJson(file, server.url, stateDir);
    expect(rerun.code).toBe(0);
    expect(server.requests).toHaveLength(2);
    expect([...applied.values()]).toEqual([1, 1, 1]);
  });

  test('a 200 body dripped slower than --timeout is cut, not resent, its rows UNVERIFIED', async () => {
    const server = await serve([{ status: 200, body: OK_BODY, drip: { bytes: 4, everyMs: 1600 } }], applyingServerLedger().ok);
    const { file, stateDir } = accountsFile(2);
    // the whole body would take 24 s to arrive and its rows would then be accepted (exit 0): exit 3
    // and the rows UNVERIFIED say it was cut, without timing the run
    const r = await pushJson(file, server.url, stateDir, ['--timeout', '1000']);
    expect(r.code).toBe(3);
    expect(server.requests).toHaveLength(1);
    expect(r.report.totals).toMatchObject({ read: 2, accepted: 0, skipped: 2 });
  });
});

describe('an API down for longer than the retry budget', () => {
  test('--max-retry-time: exit 3 after a bounded number of requests; every row reported; a state rerun applies each row once', async () => {
    const { applied, ok } = applyingServerLedger();
    const server = await serve([ok], { status: 503 });
    const { dir, file, stateDir } = accountsFile(250);
    const errors = join(dir, 'failed.csv');
    const first = await pushJson(file, server.url, stateDir, [
      '--batch-size',
      '50',
      '--concurrency',
      '1',
      '--retries',
      '20',
      '--retry-delay',
      '20',
      '--max-retry-time',
      '300',
      '--errors',
      errors,
    ]);
    expect(first.code).toBe(3);
    expect(first.report.aborted?.message).toMatch(/retry budget/);
    // one good batch, then the failing one until the budget ran out, then nothing
    expect(server.requests.length).toBeGreaterThan(2);
    expect(server.requests.length).toBeLessThan(1 + 21);
    expect(new Set(server.requests.slice(1).map(batchIdOf)).size).toBe(1);
    // every row of the file has an outcome, and every row not applied is in the errors CSV
    expect(first.report.totals).toMatchObject({ read: 250, accepted: 50, skipped: 200 });
    const csvIds = readFileSync(errors, 'utf8')
      .split('\n')
      .slice(1)
      .filter(Boolean)
      .map((l) => l.split(',')[0]);
    expect(csvIds).toEqual(allIds(250).slice(50));

    sandbox = await healthyApiAt(server, sandbox);
    const rerun = await pushJson(file, sandbox.url, stateDir);
    expect(rerun.code).toBe(0);
    expect(rerun.report.totals).toMatchObject({ read: 250, accepted: 200, skipped: 50 });
    expectExactlyOnce(allIds(250), applied, sandbox);
  });

  test('the errors CSV of an aborted run, pushed again, completes the file', async () => {
    const { applied, ok } = applyingServerLedger();
    const server = await serve([ok], { status: 503 });
    const { dir, file, stateDir } = accountsFile(120);
    const errors = join(dir, 'failed.csv');
    const first = await pushJson(file, server.url, stateDir, ['--batch-size', '40', '--concurrency', '1', '--retries', '2', '--errors', errors]);
    expect(first.code).toBe(3);
    expect(server.requests).toHaveLength(1 + 3);

    sandbox.reset();
    const rerun = await runCli(['push', '--resource', 'account', errors], { BATCH_SYNC_API_KEY: KEY, BATCH_SYNC_BASE_URL: sandbox.url });
    expect(rerun.code).toBe(0);
    expectExactlyOnce(allIds(120), applied, sandbox);
  });
});

describe('redirects', () => {
  test.each([301, 302, 303, 307, 308])('%i is never followed: the target gets nothing, the run stops naming the location', async (status) => {
    const target = await serve([], { status: 200, body: OK_BODY });
    const server = await serve([], { status, headers: { location: `${target.url}/v2/integration/accounts` } });
    const { file, stateDir } = accountsFile(3);
    const r = await pushJson(file, server.url, stateDir);
    expect(r.code).toBe(3);
    expect(target.requests).toHaveLength(0);
    expect(server.requests).toHaveLength(1);
    expect(r.report.aborted?.message).toContain(`redirect to ${target.url}/v2/integration/accounts`);
    expect(r.report.totals).toMatchObject({ read: 3, accepted: 0, skipped: 3 });
  });
});

describe.each(ANSWER_STYLES_UNDER_TEST)('the sandbox ($style answers) answers 500', ({ style, args: answerArgs }) => {
  let sb: SandboxHandle;
  beforeAll(async () => {
    sb = await startSandbox({ port: 0, apiKey: KEY, answers: style });
  });
  afterAll(() => sb.close());

  test('failNext 500: not retried by default (the batch may be half-applied), exit 3; a rerun completes it', async () => {
    sb.reset();
    const { file, stateDir } = accountsFile(4);
    sb.failNext(1, 500);
    const first = await pushJson(file, sb.url, stateDir, [...answerArgs, '--batch-size', '2', '--concurrency', '1']);
    expect(first.code).toBe(3);
    expect(sb.stats().byStatus['500']).toBe(1);
    expect(first.report.aborted?.message).toMatch(/500/);
    expect(first.report.totals).toMatchObject({ read: 4, accepted: 0, skipped: 4 });

    const rerun = await pushJson(file, sb.url, stateDir, answerArgs);
    expect(rerun.code).toBe(0);
    expect(rerun.report.totals).toMatchObject({ read: 4, accepted: 4 });
  });

  test('with --retry-on-500 the same 500 is retried and the run completes', async () => {
    sb.reset();
    const { file, stateDir } = accountsFile(4);
    sb.failNext(2, 500);
    const r = await pushJson(file, sb.url, stateDir, [...answerArgs, '--retry-on-500', '--batch-size', '2', '--concurrency', '1']);
    expect(r.code).toBe(0);
    expect(sb.stats().byStatus['500']).toBe(2);
    expect(r.report.totals).toMatchObject({ read: 4, accepted: 4 });
    expect(sb.records('account')).toHaveLength(4);
  });

  test('a 30% fail rate with --retry-on-500: every row accepted, and only accepted rows are held', async () => {
    const flaky = await startSandbox({ port: 0, apiKey: KEY, failRate: 0.3, seed: 7, answers: style });
    try {
      const { file, stateDir } = accountsFile(200);
      const r = await pushJson(file, flaky.url, stateDir, [...answerArgs, '--retry-on-500', '--retries', '10', '--batch-size', '10']);
      expect(r.code).toBe(0);
      expect(flaky.stats().byStatus['500']).toBeGreaterThan(0);
      expect(r.report.totals).toMatchObject({ read: 200, accepted: 200 });
      expect(flaky.records('account')).toHaveLength(200);
    } finally {
      await flaky.close();
    }
  });
});
