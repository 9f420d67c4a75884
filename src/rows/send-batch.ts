// A planned batch's last steps: in validate and --dry-run it is shown and its rows are valid; in a
// push it waits for a place (--concurrency), then for the journal to be on disk and for its in-flight
// record (both at once), then goes out (dispatch.ts) and its rows get the server's verdicts. Once the run has
// stopped, a batch is not sent and its rows are NOT_SENT.
import type { Resource } from '../contract/resources.js';
import { envelopeBytes, type PlannedBatch, type PlannedItem } from '../plan/batcher.js';
import { batchedOutcome, type RowOutcome } from '../plan/outcome.js';
import type { Diagnostic } from '../util/diagnostic.js';
import type { Isolation } from '../plan/bisect.js';
import { createLimiter } from '../send/concurrency.js';
import { answersOf, dispatchBatch, type BatchSender, type DispatchContext } from '../send/dispatch.js';
import type { ProgressCounts, RowMeta, RunHooks, RunSettings } from './types.js';

/** What every stage of a run shares: its settings and hooks, its counts, and whether it has stopped. */
export interface RunControl {
  settings: RunSettings;
  hooks: RunHooks;
  sender?: BatchSender;
  signal?: AbortSignal;
  isolation?: Isolation;
  counts: ProgressCounts;
  record(outcome: RowOutcome): void;
  /** The first reason the run aborted wins. */
  abort(failure: { code: string; message: string; suggestion?: string }): void;
  stop(): boolean;
  /** Why no further batch is sent, once the run has stopped. */
  stopReason(): string | undefined;
}

export interface ResourceSender {
  send(batch: PlannedBatch<RowMeta>): Promise<void>;
  /** Every batch handed to `send` has all its outcomes. */
  idle(): Promise<void>;
}

/** The most batches of a kind between the reader and their answers: as many as the client may ever have in flight. */
export function batchesInProgress(settings: Pick<RunSettings, 'concurrency' | 'maxConcurrency'>): number {
  return settings.concurrency ?? settings.maxConcurrency;
}

/**
 * How many batches may be in progress now: the client's limit now (send/flow-control.ts) and two
 * ready to go, so the limit is always used (or it would never grow); built batches waiting for a
 * place they will not get soon were 70 MB of a 100,000-row push to a fast local API.
 */
function inProgressNow(run: RunControl): () => number {
  const most = batchesInProgress(run.settings);
  if (run.settings.concurrency !== undefined || !run.sender?.flow) return () => most;
  const flow = run.sender.flow.bind(run.sender);
  return () => Math.min(most, flow().concurrency + 2);
}

export function resourceSender(run: RunControl, resource: Resource): ResourceSender {
  const { settings, hooks, counts } = run;
  // progress asks the client itself as it redraws: a wait for a rate limit starts and ends between two batches' answers
  if (run.sender?.flow) counts.flowNow = run.sender.flow.bind(run.sender);
  const limiter = createLimiter(inProgressNow(run));
  const ctx: DispatchContext = {
    sender: run.sender!,
    resource,
    method: settings.method,
    source: settings.source,
    answers: answersOf(settings),
    isolation: run.isolation,
    signal: run.signal,
    record: run.record,
    warn: (d: Diagnostic) => hooks.warn(d, resource),
    accepted: (item: PlannedItem<RowMeta>) => {
      counts.itemsAcked += 1;
      // the read worker's items as their bytes: decoding each to hash it made garbage of every item
      hooks.accepted?.(resource, item.meta, item.encoded ?? item.json);
    },
    retried: (count: number) => {
      counts.retries += count;
    },
    abort: (reason: string) => run.abort({ code: 'NOT_DELIVERED', message: reason }),
    beforeSend: () => hooks.durable?.(),
    stopped: run.stopReason,
  };
  return {
    async send(batch) {
      if (settings.mode !== 'push') return planned(run, resource, batch);
      // push --emit: the body as it is sent
      hooks.emit?.(batch.body.toString('utf8'), resource);
      if (run.stop()) {
        notSent(run, resource, batch);
        return settled(batch);
      }
      await limiter
        .run(async () => {
          try {
            await deliver(run, ctx, batch);
          } finally {
            settled(batch);
          }
        })
        .catch(() => undefined);
    },
    idle: () => limiter.idle(),
  };
}

/** validate and --dry-run: a batch is shown (--emit) and counted, and a valid row is as far as it goes. */
function planned(run: RunControl, resource: Resource, batch: PlannedBatch<RowMeta>): void {
  const { settings, hooks } = run;
  hooks.planned?.({ batchId: batch.batchId, resource, items: batch.items.length, bytes: envelopeBytes(batch.batchId, settings.source, batch.items) });
  if (hooks.emit) {
    hooks.emit(batch.body.toString('utf8'), resource);
    batch.release();
  }
  for (const item of batch.items)
    run.record({ outcome: 'accepted', resource, file: item.meta.file, line: item.meta.line, externalId: item.meta.externalId, message: '', detail: '' });
  settled(batch);
}

/** Every item has its outcome: the read worker's chunks they came from may be given back. */
function settled(batch: PlannedBatch<RowMeta>): void {
  for (const item of batch.items) {
    const lease = item.lease;
    if (lease === undefined) continue;
    item.lease = undefined; // once only: a chunk's end() must not detach it again
    lease.drop();
  }
}

/** The rows of a batch not sent because the run has stopped. */
function notSent(run: RunControl, resource: Resource, batch: PlannedBatch<RowMeta>): void {
  const why = run.stopReason();
  for (const item of batch.items) run.record(batchedOutcome('skipped', resource, item.meta, batch.batchId, 'NOT_SENT', `not sent: ${why}`, item.meta.row));
}

/** One batch's way out, once it has a place: journal, in-flight record, dispatch, verdicts. */
async function deliver(run: RunControl, ctx: DispatchContext, batch: PlannedBatch<RowMeta>): Promise<void> {
  const { hooks, counts } = run;
  const resource = ctx.resource;
  // the run may have stopped while this batch waited for a place
  if (run.stop()) return notSent(run, resource, batch);
  // its id, members and exact bytes on disk before it leaves: a run killed now resends it first next
  // time, under the same batchId (an idempotency key for the server). Written while the journal's
  // fsync below runs: the batch waits for both at once, not for one after the other
  const recording = hooks.sending?.(resource, batch);
  // the state's journal is fsync'ed off this thread: no batch goes out before the acknowledgements already recorded are on disk
  const syncing = hooks.durable?.();
  if (syncing) await syncing;
  const handle = await recording;
  if (run.stop()) {
    // never sent, so there is nothing to resend: its record goes now
    if (handle !== undefined) hooks.withdrawn?.(handle);
    return notSent(run, resource, batch);
  }
  let answered: boolean;
  // a split batch's first half may have its outcomes when the second half's request throws
  const decided = new Set<RowMeta>();
  try {
    answered = await dispatchBatch({ ...ctx, settled: decided }, batch);
  } catch (error) {
    const e = error as { code?: string; message?: string; suggestion?: string };
    run.abort({ code: e.code ?? 'ERROR', message: e.message ?? String(error), suggestion: e.suggestion });
    for (const item of batch.items) {
      if (decided.has(item.meta)) continue;
      run.record(
        batchedOutcome('skipped', resource, item.meta, batch.batchId, 'NOT_DELIVERED', `batch ${batch.batchId}: ${(error as Error).message}`, item.meta.row),
      );
    }
    throw error;
  }
  if (answered) {
    // every item has the server's verdict: the record goes once the acknowledgements are journaled
    if (handle !== undefined) hooks.landed?.(handle);
    counts.batchesAcked += 1;
    const flow = run.sender?.flow?.();
    if (flow) [counts.concurrency, counts.inFlight, counts.pacedRate] = [flow.concurrency, flow.inFlight, flow.rate];
    // every request of it was answered: none can read its body any more
    batch.release();
  }
  hooks.progress?.(counts);
}
