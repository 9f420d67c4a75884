// The disk fills while the state journal is written (provoked for real with a file-size limit:
// writes past it fail with EFBIG, as they would with ENOSPC): the run stops sending what it could not
// record, exits 3 and says why; a rerun with room sends what the journal does not hold, the batch it
// could not record first and under its own batchId.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test } from 'vitest';
import type { SandboxHandle } from '../../src/sandbox/index.js';
import { sandboxPerFile } from '../helpers/sandbox.js';
import { runCli, spawnCli, tempFiles } from '../helpers/cli.js';
import { accountsCsv } from './faults-helpers.js';

const KEY = 'disk-full-key-0123456789';
let sandbox: SandboxHandle;
sandboxPerFile(KEY, (s) => {
  sandbox = s;
});

/** push in a shell whose files may not grow past `kb` KiB; SIGXFSZ ignored so the write just fails. */
const pushWithFileLimit = (kb: number, args: string[]) =>
  spawnCli(args, { shellPrefix: `ulimit -f ${kb * 2}; trap "" XFSZ`, env: { BATCH_SYNC_API_KEY: KEY, BATCH_SYNC_BASE_URL: sandbox.url } });

test('a state journal that cannot be written stops the run; the rerun completes it, sending only what was not recorded', async () => {
  const dir = tempFiles({ 'accounts.csv': accountsCsv(3000) });
  const state = join(dir, 'state');
  const args = ['push', '--incremental', '--state-dir', state, '--concurrency', '1', '--format', 'json', join(dir, 'accounts.csv')];

  const first = await pushWithFileLimit(64, args);
  expect(first.code).toBe(3);
  expect(first.stderr).toMatch(/cannot write the state journal .*EFBIG/);
  const report = JSON.parse(first.stdout);
  expect(report.aborted.code).toBe('STATE_NOT_SAVED');
  // it stopped long before the end, and every row not sent says so
  const sentFirst = sandbox.records('account').length;
  expect(report.counts.account.accepted).toBe(sentFirst);
  expect(sentFirst).toBeLessThan(3000);
  // every row read has its outcome; the rest of the file, not read once the run stopped, is one range
  const unread = report.notRead as { file: string; fromLine?: number; rowsRead?: number }[];
  const rowsRead = unread.length ? unread[0]!.rowsRead! : 3000;
  expect(report.counts.account.accepted + report.counts.account.skipped).toBe(rowsRead);
  if (unread.length) expect(unread[0]!.fromLine).toBe(rowsRead + 2);
  // complete lines only: the last one, cut by the failed write, has no newline and is not counted
  const journaled = readFileSync(join(state, 'state.journal'), 'utf8').split('\n').slice(0, -1).length;
  // at most the batch whose acknowledgement could not be written is unrecorded
  expect(sentFirst - journaled).toBeLessThanOrEqual(100);

  const batchesBefore = sandbox.batches().length;
  const rerun = await runCli(args.slice(0, -1).concat(join(dir, 'accounts.csv')), { BATCH_SYNC_API_KEY: KEY, BATCH_SYNC_BASE_URL: sandbox.url });
  expect(rerun.code).toBe(0);
  const counts = JSON.parse(rerun.stdout).counts.account;
  // the batch whose acknowledgement could not be journaled is resent first, under the first run's
  // batchId (its in-flight record stays when the journal fails); its rows take that answer, and those
  // of its rows the journal did hold count as accepted too, not unchanged
  const firstIds = new Set(
    sandbox
      .batches()
      .slice(0, batchesBefore)
      .map((b) => b.batchId),
  );
  expect(firstIds.has(sandbox.batches()[batchesBefore]!.batchId)).toBe(true);
  expect(counts.accepted).toBeGreaterThanOrEqual(3000 - journaled);
  expect(counts.accepted - (3000 - journaled)).toBeLessThan(100);
  expect(counts.accepted + counts.skipped).toBe(3000);
  expect(sandbox.records('account')).toHaveLength(3000);
  expect(sandbox.batches().length - batchesBefore).toBe(Math.ceil((3000 - journaled) / 100));
});
