// Sends one planned batch and turns the answer into one outcome per item: accepted, rejected
// (with the server's message and detail), or — when the answer does not prove it — skipped as
// unverified. A 400 is bisected so one bad item never sinks its neighbours (unless both halves fail
// alike: then the request is at fault, not an item); an answer whose errors name no item is, with
// --isolate-unattributed, resent split the same way until each error is pinned to one item.
import type { Method, Resource } from '../contract/resources.js';
import type { SendRequest, SendResult } from './types.js';
import { envelopeBody, type PlannedBatch, type PlannedItem } from '../plan/batcher.js';
import type { RowOutcome } from '../report/outcome.js';
import type { AnswersProfile } from './answers.js';
import { readAnswer, type DataErrorElement } from './attribute-errors.js';
import type { Diagnostic } from '../validate/diagnostic.js';
import type { RowMeta } from '../plan/row-meta.js';
import { redact } from '../redact.js';

/** The part of the API client a run needs. */
export interface BatchSender {
  send(req: SendRequest): Promise<SendResult>;
}

/** The run's allowance of extra requests to pin errors that name no item (--isolate-unattributed). */
export interface Isolation {
  /** Most extra requests in the run. */
  budget: number;
  /** Extra requests sent so far. */
  sent: number;
  /** Batches left unverified because the budget was used up. */
  overBudget: number;
}

/** One allowance for the whole run, shared by every kind's batches and by the batches a killed run left in flight. */
export function newIsolation(settings: { isolateUnattributed: boolean; isolationBudget: number }): Isolation | undefined {
  return settings.isolateUnattributed ? { budget: settings.isolationBudget, sent: 0, overBudget: 0 } : undefined;
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
}

type Batch = Pick<PlannedBatch<RowMeta>, 'batchId' | 'items' | 'body'>;

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
      const reading = readAnswer(result.response, items.map((i) => i.meta.externalId), ctx.answers);
      switch (reading.kind) {
        case 'failed':
          return unverified(`the server's answer to batch ${batchId} says it failed: ${reading.reason}; none counted accepted (it may be partly applied), a rerun sends them again`);
        case 'unverifiable':
          return unverified(`the server's answer to batch ${batchId} cannot be verified: ${reading.reason}`);
        case 'unresolved':
          return isolate(ctx, batch, reading.reason);
        case 'read':
          break;
      }
      for (const w of reading.warnings) {
        ctx.warn?.({ severity: 'warning', file: items[0]!.meta.file, reason: `the server's answer to batch ${batchId} carried a message about no row (no row was refused for it): ${redact([w.message, w.detail].filter(Boolean).join(' '))}` });
      }
      items.forEach((item, index) => {
        const own = reading.perItem.get(index);
        if (own) {
          const { message, detail } = joinErrors(own);
          ctx.record(outcome(ctx, item.meta, batchId, 'rejected', message, detail));
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
        ctx.record(outcome(ctx, items[0]!.meta, batchId, 'rejected', `HTTP_${result.status}`, `${why}: ${errorText(result.body)} (batch ${batchId})`));
        return true;
      }
      // bisect (a 400 to isolate the bad item, a 413 to fit): each half is a new batch whose id derives from the parent's
      const [first, second] = halves(ctx, batch);
      const firstResult = await sendHalf(ctx, first);
      if (result.kind === 'bad-request' && firstResult && sameRefusal(firstResult, result)) {
        const secondResult = await sendHalf(ctx, second);
        if (secondResult && sameRefusal(secondResult, result)) {
          // both halves refused alike: the request, not an item, is at fault; splitting further
          // would send 2n−1 requests to learn nothing (a circuit breaker, issue 16.10)
          const detail = `the server refused every part of batch ${batchId} with the same error, so no item is singled out: ${errorText(result.body)}`;
          for (const item of items) ctx.record(outcome(ctx, item.meta, batchId, 'rejected', `HTTP_${result.status}`, detail));
          return true;
        }
        const a = await settle(ctx, first, firstResult);
        const b = secondResult ? await settle(ctx, second, secondResult) : false;
        return a && b;
      }
      const a = firstResult ? await settle(ctx, first, firstResult) : false;
      const secondResult = await sendHalf(ctx, second);
      const b = secondResult ? await settle(ctx, second, secondResult) : false;
      return a && b;
    }
    case 'unverified':
    case 'gave-up': {
      const message = result.kind === 'unverified' ? 'UNVERIFIED' : 'NOT_DELIVERED';
      for (const item of items) ctx.record(outcome(ctx, item.meta, batchId, 'skipped', message, `batch ${batchId}: ${result.reason}`));
      ctx.abort(result.reason);
      return false;
    }
    case 'cancelled':
      return unverified(`batch ${batchId} was interrupted before the server answered; a rerun sends it again`);
  }
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
    for (const item of items) ctx.record(outcome(ctx, item.meta, batchId, 'skipped', 'UNVERIFIED', `the server's answer to batch ${batchId} does not say which rows it refused (${reason}); ${why}`));
    return false;
  };
  if (!iso) {
    const hint = ctx.method === 'post' ? '; --isolate-unattributed resends it split to pin each error (safe when POST replaces by externalId)' : '';
    return unverified(`none counted accepted, a rerun sends them again${hint}`);
  }
  // one item whose answer still contradicts itself (named, yet counted accepted): resending tells no more
  if (items.length < 2) return unverified('none counted accepted, a rerun sends it again');
  if (iso.sent + 2 > iso.budget) {
    iso.overBudget++;
    return unverified(`the isolation budget of ${iso.budget} extra requests is used up; a rerun sends them again`);
  }
  // both requests are taken from the budget before either is sent: batches isolating at the same
  // time must not overdraw it; a half the run stops before sending is given back
  iso.sent += 2;
  const [first, second] = halves(ctx, batch);
  const firstResult = await sendHalf(ctx, first);
  const a = firstResult ? await settle(ctx, first, firstResult) : false;
  const secondResult = await sendHalf(ctx, second);
  const b = secondResult ? await settle(ctx, second, secondResult) : false;
  iso.sent -= Number(!firstResult) + Number(!secondResult);
  return a && b;
}

function halves(ctx: DispatchContext, { batchId, items }: Batch): [Batch, Batch] {
  const middle = Math.ceil(items.length / 2);
  const part = (suffix: string, slice: PlannedItem<RowMeta>[]): Batch => ({ batchId: `${batchId}.${suffix}`, items: slice, body: envelopeBody(`${batchId}.${suffix}`, ctx.source, slice) });
  return [part('1', items.slice(0, middle)), part('2', items.slice(middle))];
}

/** Sends one half of a split batch, or records its rows NOT_SENT when the run has stopped (undefined). */
async function sendHalf(ctx: DispatchContext, half: Batch): Promise<SendResult | undefined> {
  // the first half's acknowledgements may still be on their way to disk
  const syncing = ctx.beforeSend?.();
  if (syncing) await syncing;
  // the first half may have stopped the run (retries exhausted): the second is then not sent, as any later batch
  const why = ctx.stopped?.();
  if (why !== undefined) {
    for (const item of half.items) ctx.record(outcome(ctx, item.meta, half.batchId, 'skipped', 'NOT_SENT', `not sent: ${why}`));
    return undefined;
  }
  return sendBatch(ctx, half);
}

/** A refusal's text as a person reads it: the messages of a JSON error body, else the body itself. */
export function errorText(body: string): string {
  const text = body.trim();
  if (!text) return '(no body)';
  try {
    const json = JSON.parse(text) as { data?: { error?: unknown }; message?: unknown; error?: unknown };
    const list = Array.isArray(json?.data?.error) ? json.data.error : Array.isArray(json?.error) ? json.error : [json];
    const parts = list
      .map((e) => (e && typeof e === 'object' ? [(e as { message?: unknown }).message, (e as { detail?: unknown }).detail].filter((v) => typeof v === 'string' && v !== '').join(': ') : ''))
      .filter(Boolean);
    if (parts.length > 0) return parts.join('; ');
  } catch {
    // not JSON: the body as it came
  }
  return text;
}

/**
 * Two refusals alike: the same status and the same text once numbers and batch ids are left out. A
 * refusal that names an item (`items[3]`, `externalId=`) is about that item, never the whole batch.
 */
function sameRefusal(a: SendResult, b: SendResult & { kind: 'bad-request' }): boolean {
  const norm = (body: string) => errorText(body).replace(/[\w.-]*\d[\w.-]*/g, '#');
  if (/\bitems\[\d+\]|\bexternalId\s*=/.test(b.body)) return false;
  return a.kind === 'bad-request' && a.status === b.status && norm(a.body) === norm(b.body);
}
