// Sends one planned batch and turns the answer into one outcome per item: accepted, rejected
// (with the server's message and detail), or — when the answer cannot be trusted — skipped as
// unverified. A 400 is bisected so one bad item never sinks its neighbours.
import type { Method, Resource } from '../contract/resources.js';
import type { SendRequest, SendResult } from '../send/types.js';
import { envelopeBody, type PlannedBatch, type PlannedItem } from '../plan/batcher.js';
import type { RowOutcome } from '../report/outcome.js';
import { attributeErrors, type DataErrorElement } from '../send/attribute-errors.js';
import type { RowMeta } from './types.js';
import { redact } from '../redact.js';

/** The part of the API client a run needs. */
export interface BatchSender {
  send(req: SendRequest): Promise<SendResult>;
}

export interface DispatchContext {
  sender: BatchSender;
  resource: Resource;
  method: Method;
  source: string;
  checkSuccessCount: boolean;
  signal?: AbortSignal;
  record(outcome: RowOutcome): void;
  /** Called once per item the server accepted. */
  accepted(item: PlannedItem<RowMeta>): void;
  /** Retries the client made for a batch (the progress display counts them). */
  retried?(count: number): void;
  /** A batch could not be delivered: the run must stop taking new batches. */
  abort(reason: string): void;
  /**
   * Awaited before each half of a split batch is sent (the first request of a batch waits in
   * run.ts): no request leaves while acknowledgements already recorded are not yet on disk.
   */
  beforeSend?(): Promise<void> | undefined;
  /** The items that got their outcome here: if a later request of the batch throws, only the others still need one. */
  settled?: Set<RowMeta>;
  /** Why the run stopped taking batches (aborted, interrupted, stopped by a guard), if it has. */
  stopped?(): string | undefined;
}

function outcome(ctx: DispatchContext, meta: RowMeta, batchId: string, kind: RowOutcome['outcome'], message: string, detail: string): RowOutcome {
  // server texts go to files (errors CSV, report.json) that the output redactor never sees: a
  // server echoing the key back must not put it there (an accepted item has no text: 0.3 s per 1M rows saved)
  // an accepted row needs no cells (nothing hands it back); rows from the read worker decode theirs on demand
  ctx.settled?.add(meta);
  return { outcome: kind, resource: ctx.resource, file: meta.file, line: meta.line, externalId: meta.externalId, message: message && redact(message), detail: detail && redact(detail), row: kind === 'accepted' ? undefined : meta.row, batchId };
}

function joinErrors(errors: readonly DataErrorElement[]): { message: string; detail: string } {
  return { message: [...new Set(errors.map((e) => e.message))].join(', '), detail: errors.map((e) => e.detail).join('; ') };
}

/** Resolves true when the server answered the batch (every item then has the server's verdict). */
export async function dispatchBatch(ctx: DispatchContext, batch: Pick<PlannedBatch<RowMeta>, 'batchId' | 'items' | 'body'>): Promise<boolean> {
  const { batchId, items } = batch;
  const result = await ctx.sender.send({ resource: ctx.resource, method: ctx.method, batchId, body: batch.body, itemCount: items.length, signal: ctx.signal });
  if (result.attempts > 1) ctx.retried?.(result.attempts - 1);

  switch (result.kind) {
    case 'ok': {
      const ids = items.map((i) => i.meta.externalId);
      const attribution = attributeErrors(result.response.data.error, ids, { success: result.response.data.success, checkSuccessCount: ctx.checkSuccessCount });
      if (attribution.unverifiable) {
        for (const item of items) ctx.record(outcome(ctx, item.meta, batchId, 'skipped', 'UNVERIFIED', `the server's answer to batch ${batchId} cannot be verified: ${attribution.unverifiable}`));
        return false;
      }
      const whole = attribution.batchLevel.length > 0 ? joinErrors(attribution.batchLevel) : undefined;
      items.forEach((item, index) => {
        const own = attribution.perItem.get(index);
        if (own) {
          const { message, detail } = joinErrors(own);
          ctx.record(outcome(ctx, item.meta, batchId, 'rejected', message, detail));
        } else if (whole) {
          ctx.record(outcome(ctx, item.meta, batchId, 'rejected', whole.message, `not attributable to an item: whole batch ${batchId}: ${whole.detail}`));
        } else {
          ctx.record(outcome(ctx, item.meta, batchId, 'accepted', '', ''));
          ctx.accepted(item);
        }
      });
      return true;
    }
    case 'bad-request':
    case 'too-large': {
      if (items.length === 1) {
        const why = result.kind === 'too-large' ? 'the server found this single item too large' : 'the server refused this item';
        ctx.record(outcome(ctx, items[0]!.meta, batchId, 'rejected', `HTTP_${result.status}`, `${why} (batch ${batchId}): ${result.body.trim() || '(no body)'}`));
        return true;
      }
      // bisect (a 400 to isolate the bad item, a 413 to fit): each half is a new batch whose id derives from the parent's
      const middle = Math.ceil(items.length / 2);
      const first = await bisectHalf(ctx, `${batchId}.1`, items.slice(0, middle));
      const second = await bisectHalf(ctx, `${batchId}.2`, items.slice(middle));
      return first && second;
    }
    case 'unverified':
    case 'gave-up': {
      const message = result.kind === 'unverified' ? 'UNVERIFIED' : 'NOT_DELIVERED';
      for (const item of items) ctx.record(outcome(ctx, item.meta, batchId, 'skipped', message, `batch ${batchId}: ${result.reason}`));
      ctx.abort(result.reason);
      return false;
    }
    case 'cancelled':
      for (const item of items) ctx.record(outcome(ctx, item.meta, batchId, 'skipped', 'UNVERIFIED', `batch ${batchId} was interrupted before the server answered; a rerun sends it again`));
      return false;
  }
}

async function bisectHalf(ctx: DispatchContext, batchId: string, items: PlannedItem<RowMeta>[]): Promise<boolean> {
  // the first half's acknowledgements may still be on their way to disk
  const syncing = ctx.beforeSend?.();
  if (syncing) await syncing;
  // the first half may have stopped the run (retries exhausted): the second is then not sent, as any later batch
  const why = ctx.stopped?.();
  if (why !== undefined) {
    for (const item of items) ctx.record(outcome(ctx, item.meta, batchId, 'skipped', 'NOT_SENT', `not sent: ${why}`));
    return false;
  }
  return dispatchBatch(ctx, { batchId, items, body: envelopeBody(batchId, ctx.source, items) });
}
