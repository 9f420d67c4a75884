// Sends one planned batch and turns the answer into one outcome per item: accepted, rejected
// (with the server's message and detail), or — when the answer does not prove it — skipped as
// unverified. A 400 is bisected so one bad item never sinks its neighbours (unless both halves fail
// alike: then the request is at fault, not an item); an answer whose errors name no item is, with
// --isolate-unattributed, resent split the same way until each error is pinned to one item. What
// to split, when to stop and each row's verdict are decided in plan/bisect.ts; this file sends.
import type { FlowWait } from './rate-waits.js';
import type { Method, Resource } from '../contract/resources.js';
import type { FlowCounts, SendRequest, SendResult } from './types.js';
import type { PlannedItem } from '../plan/batcher.js';
import {
  claimIsolation,
  halves,
  onRefusal,
  refusedAlike,
  refusedItem,
  refusedWhole,
  rejectionOf,
  unclaim,
  type Batch,
  type Isolation,
} from '../plan/bisect.js';
import { batchedOutcome, type RowOutcome } from '../plan/outcome.js';
import type { AnswersProfile } from './answers.js';
import { readAnswer } from './attribute-errors.js';
import type { Diagnostic } from '../util/diagnostic.js';
import type { RowMeta } from '../plan/row-meta.js';
import { redact } from '../redact.js';

/** The part of the API client a run needs. */
export interface BatchSender {
  send(req: SendRequest): Promise<SendResult>;
  /** The requests in flight allowed now, the rate they are paced at (none: not paced) and the wait for a rate limit they are held in, for progress; what the requests met, for the timeline. */
  flow?(): { concurrency: number; inFlight?: number; rate?: number; wait?: FlowWait } & FlowCounts;
}

/** The answers profile the settings resolved to. */
export function answersOf(settings: { checkSuccessCount: boolean; namesItems: boolean; successCodes: readonly number[] }): DispatchContext['answers'] {
  return { successIsCount: settings.checkSuccessCount, namesItems: settings.namesItems, successCodes: [...settings.successCodes] };
}

export interface DispatchContext {
  sender: BatchSender;
  resource: Resource;
  method: Method;
  source: string;
  /** How the API answers (answers.ts). */
  answers: AnswersProfile;
  /** Set with --isolate-unattributed; shared by every batch of the run. */
  isolation?: Isolation;
  signal?: AbortSignal;
  record(outcome: RowOutcome): void;
  /** A warning the server's answer carried about no item (the rows keep their outcome). */
  warn?(diagnostic: Diagnostic): void;
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
  /**
   * Set while a batch is isolated: its rows were sent in this batch, whose answer named no row, so
   * they may be applied. Whatever ends the isolation early leaves them UNVERIFIED, never not sent.
   */
  sentIn?: { batchId: string; reason: string };
}

/** A row sent in a batch being isolated, when the isolation ends before its verdict. */
function sentInDetail(sentIn: NonNullable<DispatchContext['sentIn']>, what: string): string {
  return `sent in batch ${sentIn.batchId}, whose answer does not say which rows it refused (${sentIn.reason}); ${what}; a rerun sends them again`;
}

function outcome(ctx: DispatchContext, meta: RowMeta, batchId: string, kind: RowOutcome['outcome'], message: string, detail: string): RowOutcome {
  // server texts go to files (errors CSV, report.json) that the output redactor never sees: a
  // server echoing the key back must not put it there (an accepted item has no text, so accepted rows, nearly all, skip it)
  // an accepted row needs no cells (nothing hands it back); rows from the read worker decode theirs on demand
  ctx.settled?.add(meta);
  return batchedOutcome(kind, ctx.resource, meta, batchId, message && redact(message), detail && redact(detail), kind === 'accepted' ? undefined : meta.row);
}

/** Resolves true when the server answered the batch (every item then has the server's verdict). */
export async function dispatchBatch(ctx: DispatchContext, batch: Batch): Promise<boolean> {
  return settle(ctx, batch, await sendBatch(ctx, batch));
}

async function sendBatch(ctx: DispatchContext, { batchId, items, body }: Batch): Promise<SendResult> {
  const result = await ctx.sender.send({ resource: ctx.resource, method: ctx.method, batchId, body, itemCount: items.length, signal: ctx.signal });
  if (result.attempts > 1) ctx.retried?.(result.attempts - 1);
  return result;
}

async function settle(ctx: DispatchContext, batch: Batch, result: SendResult): Promise<boolean> {
  const { batchId, items } = batch;
  const unverified = (detail: string) => {
    for (const item of items) ctx.record(outcome(ctx, item.meta, batchId, 'skipped', 'UNVERIFIED', detail));
    return false;
  };
  switch (result.kind) {
    case 'ok': {
      const reading = readAnswer(
        result.response,
        items.map((i) => i.meta.externalId),
        ctx.answers,
      );
      switch (reading.kind) {
        case 'failed':
          return unverified(
            `the server's answer to batch ${batchId} says it failed: ${reading.reason}; none counted accepted (it may be partly applied), a rerun sends them again`,
          );
        case 'unverifiable':
          return unverified(`the server's answer to batch ${batchId} cannot be verified: ${reading.reason}`);
        case 'unresolved':
          return isolate(ctx, batch, reading.reason);
        case 'read':
          break;
      }
      for (const w of reading.warnings) {
        ctx.warn?.({
          severity: 'warning',
          file: items[0]!.meta.file,
          reason: `the server's answer to batch ${batchId} carried a message about no row (no row was refused for it): ${redact([w.message, w.detail].filter(Boolean).join(' '))}`,
        });
      }
      items.forEach((item, index) => {
        const own = rejectionOf(reading.perItem, index);
        if (own) {
          ctx.record(outcome(ctx, item.meta, batchId, 'rejected', own.message, own.detail));
        } else {
          ctx.record(outcome(ctx, item.meta, batchId, 'accepted', '', ''));
          ctx.accepted(item);
        }
      });
      return true;
    }
    case 'bad-request':
    case 'too-large':
      return refused(ctx, batch, result);
    case 'unverified':
    case 'gave-up':
    case 'cancelled':
      return unfinished(ctx, batch, result);
  }
}

/**
 * A batch without the server's verdict on its rows. Unverified when the server may have applied
 * it (an answer it could not read, a request interrupted while out, a batch being isolated); not
 * delivered when its attempts failed; not sent when none left. A give-up stops the run.
 */
function unfinished(ctx: DispatchContext, { batchId, items }: Batch, result: SendResult & { kind: 'unverified' | 'gave-up' | 'cancelled' }): false {
  const label = (message: string, detail: string) => {
    for (const item of items) ctx.record(outcome(ctx, item.meta, batchId, 'skipped', message, detail));
  };
  const why = () => ctx.stopped?.() ?? 'run interrupted';
  if (result.kind !== 'cancelled') ctx.abort(result.reason);
  if (ctx.sentIn) {
    const what =
      result.kind !== 'cancelled'
        ? `resent split, batch ${batchId}: ${result.reason}`
        : result.inFlight
          ? `resent split, batch ${batchId} was interrupted before the server answered`
          : `not resent split: ${why()}`;
    label('UNVERIFIED', sentInDetail(ctx.sentIn, what));
  } else if (result.kind === 'unverified') label('UNVERIFIED', `batch ${batchId}: ${result.reason}`);
  else if (result.kind === 'gave-up') {
    if (result.attempts === 0) label('NOT_SENT', `not sent: ${result.reason}`);
    else if (result.mayBeApplied) maybeApplied(`batch ${batchId}: ${result.reason}`);
    else label('NOT_DELIVERED', `batch ${batchId}: ${result.reason}`);
  } else if (result.inFlight) label('UNVERIFIED', `batch ${batchId} was interrupted before the server answered; a rerun sends it again`);
  else if (result.attempts === 0) label('NOT_SENT', `not sent: ${why()}`);
  else if (result.mayBeApplied) maybeApplied(`batch ${batchId}: not retried, ${why()}; last attempt: ${result.lastError?.message ?? 'failed'}`);
  else label('NOT_DELIVERED', `batch ${batchId}: not retried, ${why()}; last attempt: ${result.lastError?.message ?? 'failed'}`);
  return false;

  /** An attempt may have reached the server and been applied: UNVERIFIED, with how to check each row. */
  function maybeApplied(detail: string) {
    for (const item of items) {
      const id = item.meta.externalId;
      const check = id ? `check whether ${id} exists on the server before sending it again` : 'check on the server before sending it again';
      ctx.record(outcome(ctx, item.meta, batchId, 'skipped', 'UNVERIFIED', `${detail}; the server may have applied it: ${check}`));
    }
  }
}

/** A 400 or 413: the one item is rejected, a larger batch is split (a 400's halves watched by the circuit breaker). */
async function refused(ctx: DispatchContext, batch: Batch, result: SendResult & { kind: 'bad-request' | 'too-large' }): Promise<boolean> {
  const { batchId, items } = batch;
  const action = onRefusal(result.kind, items.length);
  if (action === 'reject') {
    const { message, detail } = refusedItem(result.kind, result, batchId);
    ctx.record(outcome(ctx, items[0]!.meta, batchId, 'rejected', message, detail));
    return true;
  }
  const [first, second] = halves(batch, ctx.source);
  const firstResult = await sendHalf(ctx, first, batchId);
  if (action === 'split-guarded' && firstResult?.kind === 'bad-request' && refusedAlike(firstResult, result)) {
    const secondResult = await sendHalf(ctx, second, batchId);
    if (secondResult?.kind === 'bad-request' && refusedAlike(secondResult, result)) {
      const { message, detail } = refusedWhole(result, batchId);
      for (const item of items) ctx.record(outcome(ctx, item.meta, batchId, 'rejected', message, detail));
      return true;
    }
    const a = await settle(ctx, first, firstResult);
    const b = secondResult ? await settle(ctx, second, secondResult) : false;
    return a && b;
  }
  const a = firstResult ? await settle(ctx, first, firstResult) : false;
  const secondResult = await sendHalf(ctx, second, batchId);
  const b = secondResult ? await settle(ctx, second, secondResult) : false;
  return a && b;
}

/**
 * An answer that does not say which items its errors are about. Without isolation the rows are
 * UNVERIFIED (never accepted, never rejected: a rerun sends them again); with it, the batch is
 * resent in halves until each error comes back from a batch of one item.
 */
async function isolate(ctx: DispatchContext, batch: Batch, reason: string): Promise<boolean> {
  const { batchId, items } = batch;
  const iso = ctx.isolation;
  const unverified = (why: string) => {
    for (const item of items)
      ctx.record(
        outcome(
          ctx,
          item.meta,
          batchId,
          'skipped',
          'UNVERIFIED',
          `the server's answer to batch ${batchId} does not say which rows it refused (${reason}); ${why}`,
        ),
      );
    return false;
  };
  switch (claimIsolation(iso, items.length)) {
    case 'off': {
      const hint = ctx.method === 'post' ? '; --isolate-unattributed resends it split to pin each error (safe when POST replaces by externalId)' : '';
      return unverified(`none counted accepted, a rerun sends them again${hint}`);
    }
    case 'single':
      return unverified('none counted accepted, a rerun sends it again');
    case 'over-budget':
      return unverified(`the isolation budget of ${iso!.budget} extra requests is used up; a rerun sends them again`);
    case 'split':
      break;
  }
  // its rows were sent and may be applied: however the isolation ends, none is called not sent
  const sentIn = ctx.sentIn ?? { batchId, reason };
  const inner: DispatchContext = { ...ctx, sentIn };
  const [first, second] = halves(batch, ctx.source);
  try {
    const firstResult = await sendHalf(inner, first, batchId);
    const a = firstResult ? await settle(inner, first, firstResult) : false;
    const secondResult = await sendHalf(inner, second, batchId);
    const b = secondResult ? await settle(inner, second, secondResult) : false;
    unclaim(iso!, Number(!firstResult) + Number(!secondResult));
    return a && b;
  } catch (error) {
    // an answer that ends the run (401, a redirect…) to a part: the rows without a verdict stay unverified
    const what = `resent split, the run ended: ${redact((error as Error).message ?? String(error))}`;
    for (const item of items)
      if (!ctx.settled?.has(item.meta)) ctx.record(outcome(ctx, item.meta, batchId, 'skipped', 'UNVERIFIED', sentInDetail(sentIn, what)));
    throw error;
  }
}

/**
 * Sends one half of batch `parent`, or, when the run has stopped, gives its rows their outcome
 * (undefined): UNVERIFIED when the parent is being isolated (sent, maybe applied), NOT_SENT when it
 * was refused (a 400 or 413 applies nothing).
 */
async function sendHalf(ctx: DispatchContext, half: Batch, parent: string): Promise<SendResult | undefined> {
  // the first half's acknowledgements may still be on their way to disk
  const syncing = ctx.beforeSend?.();
  if (syncing) await syncing;
  // the first half may have stopped the run (retries exhausted): the second is then not sent, as any later batch
  const why = ctx.stopped?.();
  if (why === undefined) return sendBatch(ctx, half);
  for (const item of half.items) {
    ctx.record(
      ctx.sentIn
        ? outcome(ctx, item.meta, half.batchId, 'skipped', 'UNVERIFIED', sentInDetail(ctx.sentIn, `not resent split: ${why}`))
        : outcome(ctx, item.meta, half.batchId, 'skipped', 'NOT_SENT', `refused with batch ${parent}, which applies nothing; not resent split: ${why}`),
    );
  }
  return undefined;
}
