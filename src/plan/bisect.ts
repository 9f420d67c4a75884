// The decisions about a batch the server refused (400, 413) or answered without saying which items
// it refused: whether it is split, into which halves, when splitting stops (the circuit breaker,
// the isolation budget), and each row's verdict. Pure, no I/O: send/dispatch.ts does the sending.
import { envelopeBody, type PlannedBatch } from './batcher.js';
import type { RowMeta } from './row-meta.js';

export type Batch = Pick<PlannedBatch<RowMeta>, 'batchId' | 'items' | 'body'>;

/** A refusal as it came: the HTTP status and body of a 400 or a 413. */
export interface Refusal {
  status: number;
  body: string;
}

/** The server's message about one item, and its detail. */
export interface Verdict {
  message: string;
  detail: string;
}

/**
 * The two halves of a batch, each a batch of its own whose id derives from the parent's (`<id>.1`,
 * `<id>.2`): a rerun that splits the same batch sends the same ids. The first half takes the odd item.
 */
export function halves({ batchId, items }: Batch, source: string): [Batch, Batch] {
  const middle = Math.ceil(items.length / 2);
  const part = (suffix: string, slice: Batch['items']): Batch => ({
    batchId: `${batchId}.${suffix}`,
    items: slice,
    body: envelopeBody(`${batchId}.${suffix}`, source, slice),
  });
  return [part('1', items.slice(0, middle)), part('2', items.slice(middle))];
}

/**
 * What a refused batch leads to: a single item is rejected with the server's text; a larger batch
 * is split (a 400 to single out the bad item, a 413 to fit), and a 400's halves are watched by the
 * circuit breaker (`refusedAlike`).
 */
export function onRefusal(kind: 'bad-request' | 'too-large', itemCount: number): 'reject' | 'split' | 'split-guarded' {
  if (itemCount === 1) return 'reject';
  return kind === 'bad-request' ? 'split-guarded' : 'split';
}

/** The verdict on the one item of a refused batch. */
export function refusedItem(kind: 'bad-request' | 'too-large', refusal: Refusal, batchId: string): Verdict {
  const why = kind === 'too-large' ? 'the server found this single item too large' : 'the server refused this item';
  return { message: `HTTP_${refusal.status}`, detail: `${why}: ${errorText(refusal.body)} (batch ${batchId})` };
}

/**
 * The circuit breaker: a half refused like its parent (the same status and the same text once
 * numbers and batch ids are left out). When both halves are, the request, not an item, is at fault:
 * splitting further would send 2n−1 requests to learn nothing. A refusal that names an item
 * (`items[3]`, `externalId=`) is about that item, never the whole batch.
 */
export function refusedAlike(half: Refusal, parent: Refusal): boolean {
  const norm = (body: string) => errorText(body).replace(/[\w.-]*\d[\w.-]*/g, '#');
  if (/\bitems\[\d+\]|\bexternalId\s*=/.test(parent.body)) return false;
  return half.status === parent.status && norm(half.body) === norm(parent.body);
}

/** The verdict on every item of a batch whose halves were both refused alike. */
export function refusedWhole(refusal: Refusal, batchId: string): Verdict {
  return {
    message: `HTTP_${refusal.status}`,
    detail: `the server refused every part of batch ${batchId} with the same error, so no item is singled out: ${errorText(refusal.body)}`,
  };
}

/** A refusal's text as a person reads it: the messages of a JSON error body, else the body itself. */
export function errorText(body: string): string {
  const text = body.trim();
  if (!text) return '(no body)';
  try {
    const json = JSON.parse(text) as { data?: { error?: unknown }; message?: unknown; error?: unknown };
    const list = Array.isArray(json?.data?.error) ? json.data.error : Array.isArray(json?.error) ? json.error : [json];
    const parts = list
      .map((e) =>
        e && typeof e === 'object'
          ? [(e as { message?: unknown }).message, (e as { detail?: unknown }).detail].filter((v) => typeof v === 'string' && v !== '').join(': ')
          : '',
      )
      .filter(Boolean);
    if (parts.length > 0) return parts.join('; ');
  } catch {
    // not JSON: the body as it came
  }
  return text;
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

/**
 * Whether a batch whose answer names no item is resent in halves. `off`: isolation was not asked
 * for; `single`: one item whose answer still contradicts itself (resending tells no more);
 * `over-budget`: counted in `overBudget`; `split`: both requests are taken from the budget at once,
 * so batches isolating at the same time cannot overdraw it (`unclaim` gives back a half not sent).
 */
export function claimIsolation(iso: Isolation | undefined, itemCount: number): 'off' | 'single' | 'over-budget' | 'split' {
  if (!iso) return 'off';
  if (itemCount < 2) return 'single';
  if (iso.sent + 2 > iso.budget) {
    iso.overBudget++;
    return 'over-budget';
  }
  iso.sent += 2;
  return 'split';
}

/** Gives back the requests of halves the run stopped before sending. */
export function unclaim(iso: Isolation, unsent: number): void {
  iso.sent -= unsent;
}

/**
 * The verdict on item `index` of a batch whose answer was read: its own errors, joined (rejected),
 * or undefined (accepted). Allocates nothing for an accepted item.
 */
export function rejectionOf(perItem: ReadonlyMap<number, readonly Verdict[]>, index: number): Verdict | undefined {
  const own = perItem.get(index);
  if (own === undefined) return undefined;
  return { message: [...new Set(own.map((e) => e.message))].join(', '), detail: own.map((e) => e.detail).join('; ') };
}
