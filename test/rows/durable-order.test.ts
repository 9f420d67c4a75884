// The state journal is fsync'ed on the thread pool (state-store.ts), so the pipeline itself must
// keep the promise that no request leaves while acknowledgements already recorded are not yet on
// disk: before each batch, and before each half of a batch split after a 400 (the first half's
// acknowledgements are recorded before the second half goes). What is under test is the pipeline's
// order of events, so the sender here is a stand-in that notes when each request would leave; the
// HTTP client is tested over sockets elsewhere. The same holds for a batch's in-flight record
// (in-flight.ts): written while the batch waits for the journal, and the batch leaves only once both
// are on disk; a record whose batch is not sent after all is withdrawn, not left to be resent.
import { join } from 'node:path';
import { expect, test } from 'vitest';
import { prepareJobs } from '../../src/rows/prepare.js';
import { engineSettings } from '../helpers/engine.js';
import { runPipeline } from '../../src/run/run.js';
import type { BatchSender } from '../../src/send/dispatch.js';
import type { SendRequest, SendResult } from '../../src/send/types.js';
import { dealsCsv, tempFiles } from '../helpers/cli.js';

const SETTINGS = {
  mode: 'push',
  method: 'post',
  source: 'order',
  batchSize: 2,
  maxBodyBytes: 1 << 20,
  concurrency: 1,
  maxConcurrency: 1,
  holdDependents: false,
  checkSuccessCount: true,
  namesItems: true,
  successCodes: [200, 201],
  isolateUnattributed: false,
  isolationBudget: 0,
  runId: 'r',
} as const;

const accept = (req: SendRequest): SendResult =>
  ({ kind: 'ok', status: 200, attempts: 1, response: { data: { code: 200, success: req.itemCount, error: [] }, status: 'SUCCESS' } }) as never;

/** A journal whose fsync, started by the first acceptance recorded, finishes 20 ms later (as state-store.ts's on the thread pool). */
function slowJournal() {
  const journal = {
    unsynced: 0,
    syncing: undefined as Promise<void> | undefined,
    accepted() {
      journal.unsynced++;
      journal.syncing ??= new Promise<void>((resolve) =>
        setTimeout(() => {
          journal.unsynced = 0;
          journal.syncing = undefined;
          resolve();
        }, 20),
      );
    },
    durable: () => journal.syncing,
  };
  return journal;
}

test('no request, split halves included, leaves while recorded acceptances are not yet durable', async () => {
  const dir = tempFiles({ 'deals.csv': dealsCsv(6) });
  const jobs = await prepareJobs([{ file: join(dir, 'deals.csv') }], 'post', engineSettings().engine);
  const journal = slowJournal();
  const sentWhileUnsynced: string[] = [];
  const sent: string[] = [];
  const sender: BatchSender = {
    async send(req: SendRequest): Promise<SendResult> {
      if (journal.unsynced > 0) sentWhileUnsynced.push(req.batchId);
      sent.push(req.batchId);
      // the first batch is refused whole (split in two), the rest accepted
      if (sent.length === 1) return { kind: 'bad-request', status: 400, body: 'one bad item', attempts: 1 };
      return accept(req);
    },
  };
  await runPipeline(
    jobs,
    { ...SETTINGS, ...engineSettings() },
    { record: () => undefined, warn: () => undefined, accepted: journal.accepted, durable: journal.durable },
    sender,
  );
  expect(sent.map((id) => id.replace(/^.*-(\d{5}(?:\.\d)*)$/, '$1'))).toEqual(['00001', '00001.1', '00001.2', '00002', '00003']);
  expect(sentWhileUnsynced).toEqual([]);
});

test("a batch's in-flight record is written while the batch waits for the journal's fsync, and no request leaves before both are on disk", async () => {
  const dir = tempFiles({ 'deals.csv': dealsCsv(8) });
  const jobs = await prepareJobs([{ file: join(dir, 'deals.csv') }], 'post', engineSettings().engine);
  const journal = slowJournal();
  const durableRecords = new Set<string>();
  const writtenDuringJournalSync: string[] = [];
  const sentEarly: string[] = [];
  const sent: string[] = [];
  const sender: BatchSender = {
    async send(req) {
      if (journal.unsynced > 0 || !durableRecords.has(req.batchId)) sentEarly.push(req.batchId);
      sent.push(req.batchId);
      return accept(req);
    },
  };
  await runPipeline(
    jobs,
    { ...SETTINGS, ...engineSettings() },
    {
      record: () => undefined,
      warn: () => undefined,
      accepted: journal.accepted,
      durable: journal.durable,
      // as in-flight.ts: written at once, on disk once its fsync (20 ms) has finished
      sending: (_resource, batch) => {
        if (journal.unsynced > 0) writtenDuringJournalSync.push(batch.batchId);
        return new Promise((resolve) =>
          setTimeout(() => {
            durableRecords.add(batch.batchId);
            resolve(batch.batchId);
          }, 20),
        );
      },
      landed: () => undefined,
    },
    sender,
  );
  expect(sent).toHaveLength(4);
  expect(sentEarly).toEqual([]);
  // the first batch finds nothing to wait for; each after it is recorded while the answers before it are fsync'ed
  expect(writtenDuringJournalSync).toEqual(sent.slice(1));
});

test('a batch recorded as in flight and then not sent (the run stopped meanwhile) has its record withdrawn at once; its rows are NOT_SENT', async () => {
  const dir = tempFiles({ 'deals.csv': dealsCsv(4) });
  const jobs = await prepareJobs([{ file: join(dir, 'deals.csv') }], 'post', engineSettings().engine);
  const journal = slowJournal();
  const stop = new AbortController();
  const events: string[] = [];
  const outcomes: string[] = [];
  const sender: BatchSender = {
    async send(req) {
      events.push(`sent ${req.batchId}`);
      return accept(req);
    },
  };
  await runPipeline(
    jobs,
    { ...SETTINGS, ...engineSettings() },
    {
      record: (o) => outcomes.push(`${o.externalId} ${o.outcome}${o.outcome === 'accepted' ? '' : ` ${o.message}`}`),
      warn: () => undefined,
      accepted: journal.accepted,
      durable: journal.durable,
      sending: async (_resource, batch) => {
        events.push(`recorded ${batch.batchId}`);
        // the second batch: the run is interrupted while its record is written
        if (events.length > 2) stop.abort();
        return `record of ${batch.batchId}`;
      },
      landed: (handle) => events.push(`landed: ${handle}`),
      withdrawn: (handle) => events.push(`withdrawn: ${handle}`),
    },
    sender,
    stop.signal,
  );
  const [first, second] = events.filter((e) => e.startsWith('recorded ')).map((e) => e.slice('recorded '.length));
  expect(events).toEqual([`recorded ${first}`, `sent ${first}`, `landed: record of ${first}`, `recorded ${second}`, `withdrawn: record of ${second}`]);
  expect(outcomes).toEqual(['D-1 accepted', 'D-2 accepted', 'D-3 skipped NOT_SENT', 'D-4 skipped NOT_SENT']);
});
