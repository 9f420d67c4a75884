// Shared by the fault tests: an accounts export (no dependencies, so any row can go in any run), a
// misbehaving server whose "OK" answers are written down as applied, and the rerun against a
// healthy sandbox with the same state directory, so the tests can say what was applied where.
import { join } from 'node:path';
import { expect } from 'vitest';
import { startSandbox, type SandboxHandle } from '../../src/sandbox/index.js';
import { runCli, tempFiles, type CliResult } from '../helpers/cli.js';
import type { MisbehavingServer, RecordedRequest, Step } from '../helpers/misbehaving-server.js';

export const KEY = 'faults-canary-key-6d1f0a9c';

interface Totals {
  read: number;
  accepted: number;
  rejected: number;
  invalid: number;
  skipped: number;
  warnings?: number;
}
interface JsonRow {
  line: number;
  externalId: string | null;
  outcome: string;
  message: string;
  detail: string;
  batchId: string | null;
}
export interface JsonReport {
  aborted: { code: string; message: string } | null;
  totals: Totals;
  notAccepted: JsonRow[];
}

export function accountsCsv(count: number): string {
  const lines = ['externalId,name,type'];
  for (let i = 1; i <= count; i++) lines.push(`A-${i},Account ${i},COMPANY`);
  return lines.join('\n');
}
export const allIds = (count: number) => Array.from({ length: count }, (_, i) => `A-${i + 1}`);

export const itemsOf = (req: RecordedRequest) => JSON.parse(req.body.toString()).items as { externalId: string }[];
export const batchIdOf = (req: RecordedRequest) => JSON.parse(req.body.toString()).batchId as string;
export const okBody = (req: RecordedRequest, error: unknown[] = [], failed = error.length) => ({
  data: { code: 200, success: itemsOf(req).length - failed, error },
  status: 'SUCCESS',
});

/** What a fake API applied: each OK answer it gave, per externalId. */
export function applyingServerLedger() {
  const applied = new Map<string, number>();
  const ok: Step = {
    respond: (req) => {
      for (const { externalId } of itemsOf(req)) applied.set(externalId, (applied.get(externalId) ?? 0) + 1);
      return { status: 200, body: okBody(req) };
    },
  };
  return { applied, ok };
}

export interface PushRun extends CliResult {
  report: JsonReport;
}

/** push --format json of `file` to `baseUrl`, incremental in `stateDir`. */
export async function pushJson(file: string, baseUrl: string, stateDir: string, args: string[] = []): Promise<PushRun> {
  const r = await runCli(['push', '--format', 'json', '--retry-delay', '10', '--incremental', '--state-dir', stateDir, ...args, file], {
    BATCH_SYNC_API_KEY: KEY,
    BATCH_SYNC_BASE_URL: baseUrl,
  });
  let report: JsonReport;
  try {
    report = JSON.parse(r.stdout) as JsonReport;
  } catch {
    throw new Error(`push printed no JSON report (exit ${r.code}):\n${r.stdout}\n${r.stderr}`);
  }
  return { ...r, report };
}

export function accountsFile(count: number): { dir: string; file: string; stateDir: string } {
  const dir = tempFiles({ 'accounts.csv': accountsCsv(count) });
  return { dir, file: join(dir, 'accounts.csv'), stateDir: join(dir, 'state') };
}

/**
 * The rerun's claim, checked on both servers: every id was applied exactly once in total. Ids the
 * fault server applied are not sent again (incremental state), the sandbox (reset before the rerun)
 * holds exactly the others and received no item twice (POST is create-or-replace, so a double
 * would hide in the records but not in itemsReceived).
 */
export function expectExactlyOnce(ids: string[], appliedFirst: Map<string, number>, sandbox: SandboxHandle): void {
  const first = [...appliedFirst.keys()];
  const second = sandbox.records('account').map((r) => r.externalId);
  expect(
    [...appliedFirst.values()].every((n) => n === 1),
    'an id applied twice by the first server',
  ).toBe(true);
  expect(
    second.filter((id) => appliedFirst.has(id)),
    'ids sent again after they were applied',
  ).toEqual([]);
  expect([...first, ...second].sort()).toEqual([...ids].sort());
  expect(sandbox.stats().itemsReceived).toBe(second.length);
}

/**
 * The API recovered: the same address now answered by a healthy sandbox. Incremental state is kept
 * per base URL, so a rerun must go to the same address as the failed run to build on its state.
 */
export async function healthyApiAt(server: MisbehavingServer, previous: SandboxHandle): Promise<SandboxHandle> {
  await server.close();
  await previous.close();
  return startSandbox({ port: server.port, apiKey: KEY });
}
