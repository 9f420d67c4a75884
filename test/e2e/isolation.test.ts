// Speaking to the API as its documentation shows it (issue 21): against `sandbox --answers
// documented` (details name no item, success a fixed 100), a push with one refused row among many
// pins exactly that row with --isolate-unattributed, or counts none of its batch accepted and says
// why without it. And a server refusing everything with 400 is not bisected to the last item (16.10).
import { join } from 'node:path';
import { afterEach, describe, expect, test } from 'vitest';
import type { SandboxHandle } from '../../src/sandbox/index.js';
import { SALES_PROFILES_CSV, dealsCsv, runCli, tempFiles } from '../helpers/cli.js';
import { startServer, type MisbehavingServer } from '../helpers/misbehaving-server.js';
import { sandboxPerFile } from '../helpers/sandbox.js';
import { KEY, accountsFile, pushJson, type JsonReport } from './faults-helpers.js';

let sandbox: SandboxHandle;
let env: Record<string, string>;
sandboxPerFile(
  KEY,
  (s, e) => {
    sandbox = s;
    env = e;
  },
  { answers: 'documented', reset: true },
);
let server: MisbehavingServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

/** 20 deals, batches of 10; D-7's owner and agent do not exist, so the sandbox refuses it (two errors naming no item). */
function oneRefused() {
  const dir = tempFiles({ 'sales-profiles.csv': SALES_PROFILES_CSV, 'deals.csv': dealsCsv(20, { owner: (i) => (i === 7 ? 'ghost' : 'ana') }) });
  return { dir, files: [join(dir, 'sales-profiles.csv'), join(dir, 'deals.csv')], stateDir: join(dir, 'state') };
}

type Report = JsonReport & {
  isolation: { requests: number; budget: number; overBudget: number } | null;
  counts: Record<string, { accepted: number; rejected: number; skipped: number }>;
};
const run = async (args: string[]) => {
  const r = await runCli(['push', '--format', 'json', '--batch-size', '10', '--concurrency', '1', ...args], env);
  return { ...r, report: JSON.parse(r.stdout) as Report };
};

describe('sandbox --answers documented', () => {
  test('the sandbox answers as the documentation shows: code 201, success 100, a detail naming no item', async () => {
    const { files } = oneRefused();
    await run(files);
    const deals = sandbox.batches().filter((b) => b.resource === 'deal');
    expect(deals[0]).toMatchObject({ items: 10, accepted: 9, errors: 2, code: 201 });
    const res = await fetch(`${sandbox.url}/v2/integration/account`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-api-key': KEY },
      body: JSON.stringify({
        batchId: 'b',
        source: 's',
        items: [
          { externalId: 'X', name: 'X', type: 'COMPANY' },
          { externalId: 'Y', type: 7 },
        ],
      }),
    });
    const body = (await res.json()) as { data: { code: number; success: number; error: { message: string; detail: string }[] }; status: string };
    expect(body.status).toBe('SUCCESS');
    expect(body.data.code).toBe(201);
    expect(body.data.success).toBe(100);
    expect(body.data.error.length).toBeGreaterThan(0);
    for (const e of body.data.error) expect(e.detail).not.toMatch(/items\[|externalId=/);
  });

  test("with --isolate-unattributed: exactly the refused row is pinned with the server's detail, the others accepted, the extra requests counted", async () => {
    const { files } = oneRefused();
    const r = await run(['--isolate-unattributed', ...files]);
    expect(r.code).toBe(1);
    expect(r.report.counts.deal).toMatchObject({ accepted: 19, rejected: 1, skipped: 0 });
    expect(r.report.notAccepted).toEqual([
      expect.objectContaining({
        externalId: 'D-7',
        outcome: 'rejected',
        message: 'VALIDATION_ERROR',
        detail: 'ownerExternalId: "ghost" does not exist as a sales profile; agentExternalId: "ghost" does not exist as a sales profile',
      }),
    ]);
    // 10 items: halves, quarters… at most 2·ceil(log2 10) = 8 extra requests for the one refused row
    expect(r.report.isolation).toEqual({ requests: 8, budget: 5000, overBudget: 0 });
    expect(sandbox.records('deal')).toHaveLength(19);
    // the human report and the summary line count them too
    const human = await runCli(['push', '--batch-size', '10', '--isolate-unattributed', ...files], env);
    expect(human.stdout).toContain(
      'Isolation (--isolate-unattributed): 8 extra requests of a budget of 5000, resending batches split to pin errors that named no row.',
    );
    expect(human.stderr.trim().split('\n').at(-1)).toMatch(/ isolation-requests=8/);
  });

  test('without it: none of that batch counted accepted, one line says why and suggests the flag; a rerun sends them again', async () => {
    const { files, stateDir } = oneRefused();
    const r = await run(['--incremental', '--state-dir', stateDir, ...files]);
    expect(r.code).toBe(1);
    expect(r.report.counts.deal).toMatchObject({ accepted: 10, rejected: 0, skipped: 10 });
    const unverified = r.report.notAccepted.filter((o) => o.outcome === 'skipped');
    expect(unverified.map((o) => o.externalId)).toEqual(['D-1', 'D-2', 'D-3', 'D-4', 'D-5', 'D-6', 'D-7', 'D-8', 'D-9', 'D-10']);
    expect(unverified[0]!.message).toBe('UNVERIFIED');
    expect(unverified[0]!.detail).toMatch(
      /does not say which rows it refused \(2 errors name no item of the 10: VALIDATION_ERROR ownerExternalId: "ghost" does not exist as a sales profile; VALIDATION_ERROR agentExternalId: "ghost" does not exist as a sales profile\); none counted accepted, a rerun sends them again; --isolate-unattributed resends it split/,
    );
    expect(r.report.isolation).toBeNull();
    const human = await runCli(['push', '--batch-size', '10', ...files], env);
    expect(human.stdout).toMatch(/10 rows: UNVERIFIED the server's answer to batch … does not say which rows it refused/);

    const before = sandbox.stats().itemsReceived;
    await run(['--incremental', '--state-dir', stateDir, ...files]);
    expect(sandbox.stats().itemsReceived - before).toBe(10);
  });

  test('past the isolation budget the rest is UNVERIFIED, and the report says the budget ran out', async () => {
    const { files } = oneRefused();
    const r = await run(['--isolate-unattributed', '--isolation-budget', '3', ...files]);
    expect(r.report.counts.deal!.accepted).toBeLessThan(19);
    expect(r.report.isolation).toMatchObject({ budget: 3, overBudget: 1 });
    expect(r.report.isolation!.requests).toBeLessThanOrEqual(3);
    expect(r.report.notAccepted.some((o) => o.message === 'UNVERIFIED' && /isolation budget of 3 extra requests is used up/.test(o.detail))).toBe(true);
    expect(r.report.notAccepted.find((o) => o.externalId === 'D-7')?.outcome).not.toBe('accepted');
  });
});

describe('a server that answers 400 to everything (16.10)', () => {
  test('bisection stops when both halves fail alike: 3 requests per batch, not 2n−1, and one group', async () => {
    server = await startServer([], {
      status: 400,
      body: { data: { code: 400, success: 0, error: [{ message: 'INVALID_ENVELOPE', detail: 'source "x" is not registered' }] }, status: 'ERROR' },
    });
    const { file, stateDir } = accountsFile(1000);
    const r = await pushJson(file, server.url, stateDir);
    expect(r.code).toBe(1);
    expect(server.requests).toHaveLength(30);
    expect(r.report.totals).toMatchObject({ read: 1000, rejected: 1000 });
    const report = JSON.parse(r.stdout) as { groups: { reason: string; count: number }[] };
    expect(report.groups).toEqual([
      expect.objectContaining({ count: 1000, reason: expect.stringContaining('INVALID_ENVELOPE: source "…" is not registered') }),
    ]);
    expect(report.groups[0]!.reason).not.toContain('{');
  });

  test('a 400 that one item causes is still bisected down to that item', async () => {
    server = await startServer([], {
      respond: (req) => {
        const items = JSON.parse(req.body.toString()).items as { externalId: string }[];
        return items.some((i) => i.externalId === 'A-3')
          ? {
              status: 400,
              body: { data: { code: 400, success: 0, error: [{ message: 'BAD_ITEM', detail: `batch of ${items.length} has a bad item` }] }, status: 'ERROR' },
            }
          : { status: 200, body: { data: { code: 200, success: items.length, error: [] }, status: 'SUCCESS' } };
      },
    });
    const { file, stateDir } = accountsFile(8);
    const r = await pushJson(file, server.url, stateDir);
    expect(r.report.totals).toMatchObject({ read: 8, accepted: 7, rejected: 1 });
    expect(r.report.notAccepted.map((o) => o.externalId)).toEqual(['A-3']);
  });
});

describe('a 400 that names its item is never taken for a whole-batch refusal', () => {
  test('two bad items in different halves, refused with the same words but each named: both pinned, the rest accepted', async () => {
    server = await startServer([], {
      respond: (req) => {
        const items = JSON.parse(req.body.toString()).items as { externalId: string }[];
        const bad = items.findIndex((i) => i.externalId === 'A-2' || i.externalId === 'A-7');
        return bad >= 0
          ? {
              status: 400,
              body: {
                data: {
                  code: 400,
                  success: 0,
                  error: [{ message: 'VALIDATION_ERROR', detail: `items[${bad}] externalId=${items[bad]!.externalId}: name: is required` }],
                },
                status: 'ERROR',
              },
            }
          : { status: 200, body: { data: { code: 200, success: items.length, error: [] }, status: 'SUCCESS' } };
      },
    });
    const { file, stateDir } = accountsFile(8);
    const r = await pushJson(file, server.url, stateDir);
    expect(r.report.totals).toMatchObject({ read: 8, accepted: 6, rejected: 2 });
    expect(r.report.notAccepted.map((o) => o.externalId)).toEqual(['A-2', 'A-7']);
  });
});

describe('an answer that contradicts itself about a one-item batch', () => {
  test('named and counted accepted at once: UNVERIFIED, not split into nothing', async () => {
    server = await startServer([], {
      respond: (req) => {
        const items = JSON.parse(req.body.toString()).items as { externalId: string }[];
        const error = items.map((i, n) => ({ message: 'VALIDATION_ERROR', detail: `items[${n}] externalId=${i.externalId}: name: too long` }));
        return { status: 200, body: { data: { code: 200, success: items.length, error }, status: 'SUCCESS' } };
      },
    });
    const { file, stateDir } = accountsFile(2);
    const r = await pushJson(file, server.url, stateDir, ['--answers', 'named', '--isolate-unattributed']);
    expect(r.report.totals).toMatchObject({ read: 2, accepted: 0, skipped: 2 });
    expect(r.report.notAccepted.every((o) => o.message === 'UNVERIFIED')).toBe(true);
    // the batch of 2, its two halves, and nothing more
    expect(server.requests).toHaveLength(3);
  });
});

describe('push --sandbox answers in the style the run reads', () => {
  test('by default as documented: one refused deal leaves its batch UNVERIFIED; --answers named pins it', async () => {
    const { files } = oneRefused();
    // D-7's owner is in none of the run's profiles: only sent (to be refused) with --no-hold-dependents
    const documented = await runCli(['push', '--sandbox', '--no-hold-dependents', '--format', 'json', '--batch-size', '10', ...files]);
    expect((JSON.parse(documented.stdout) as Report).counts.deal).toMatchObject({ accepted: 10, rejected: 0, skipped: 10 });
    const named = await runCli(['push', '--sandbox', '--no-hold-dependents', '--format', 'json', '--batch-size', '10', '--answers', 'named', ...files]);
    const report = JSON.parse(named.stdout) as Report;
    expect(report.counts.deal).toMatchObject({ accepted: 19, rejected: 1, skipped: 0 });
    expect(report.notAccepted[0]!.detail).toMatch(/^items\[6\] externalId=D-7: ownerExternalId/);
  });
});

test('a dry run sends nothing, so it reports no isolation (human, json, summary line), even with --isolate-unattributed', async () => {
  const { files } = oneRefused();
  const human = await runCli(['push', '--dry-run', '--isolate-unattributed', ...files]);
  expect(human.code, human.stderr).toBe(0);
  expect(human.stdout).not.toContain('Isolation');
  expect(human.stderr).not.toContain('isolation-requests');
  const json = await runCli(['push', '--dry-run', '--isolate-unattributed', '--format', 'json', ...files]);
  expect((JSON.parse(json.stdout) as Report).isolation).toBeNull();
});
