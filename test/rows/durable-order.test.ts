// The state journal is fsync'ed on the thread pool (state-store.ts), so the pipeline itself must
// keep the promise that no request leaves while acknowledgements already recorded are not yet on
// disk: before each batch, and before each half of a batch split after a 400 (the first half's
// acknowledgements are recorded before the second half goes). What is under test is the pipeline's
// order of events, so the sender here is a stand-in that notes when each request would leave; the
// HTTP client is tested over sockets elsewhere.
import { join } from 'node:path';
import { expect, test } from 'vitest';
import { prepareJobs } from '../../src/rows/prepare.js';
import { engineSettings } from '../helpers/engine.js';
import { runPipeline } from '../../src/run/run.js';
import type { BatchSender } from '../../src/send/dispatch.js';
import type { SendRequest, SendResult } from '../../src/send/types.js';
import { dealsCsv, tempFiles } from '../helpers/cli.js';

test('no request, split halves included, leaves while recorded acceptances are not yet durable', async () => {
  const dir = tempFiles({ 'deals.csv': dealsCsv(6) });
  const jobs = await prepareJobs([{ file: join(dir, 'deals.csv') }], 'post', engineSettings().engine);
  let unsynced = 0; // acceptances recorded whose fsync has not finished
  const sentWhileUnsynced: string[] = [];
  const sent: string[] = [];
  const sender: BatchSender = {
    async send(req: SendRequest): Promise<SendResult> {
      if (unsynced > 0) sentWhileUnsynced.push(req.batchId);
      sent.push(req.batchId);
      // the first batch is refused whole (split in two), the rest accepted
      if (sent.length === 1) return { kind: 'bad-request', status: 400, body: 'one bad item', attempts: 1 };
      return { kind: 'ok', status: 200, attempts: 1, response: { data: { code: 200, success: req.itemCount, error: [] }, status: 'SUCCESS' } as never };
    },
  };
  let syncing: Promise<void> | undefined;
  await runPipeline(
    jobs,
    {
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
      ...engineSettings(),
    },
    {
      record: () => undefined,
      warn: () => undefined,
      accepted: () => {
        unsynced++;
        // as in state-store.ts: the fsync starts on the thread pool and finishes later
        syncing ??= new Promise<void>((resolve) =>
          setTimeout(() => {
            unsynced = 0;
            syncing = undefined;
            resolve();
          }, 20),
        );
      },
      durable: () => syncing,
    },
    sender,
  );
  expect(sent.map((id) => id.replace(/^.*-(\d{5}(?:\.\d)*)$/, '$1'))).toEqual(['00001', '00001.1', '00001.2', '00002', '00003']);
  expect(sentWhileUnsynced).toEqual([]);
});
