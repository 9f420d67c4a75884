// The batches an interrupted run left in flight: resent at the start of the next run with their own
// batchIds and bytes, their answers kept until a row of this run takes one; and the in-flight
// records of answered batches, removed once their acknowledgements are on disk.
import { errorMessage } from '../errors.js';
import { unlinkSync } from 'node:fs';
import type { Method, Resource } from '../contract/resources.js';
import type { Isolation } from '../plan/bisect.js';
import type { PlannedItem } from '../plan/batcher.js';
import type { RowMeta } from '../plan/row-meta.js';
import { batchedOutcome, type RowOutcome } from '../plan/outcome.js';
import type { LoadedInFlight } from '../state/in-flight.js';
import { hashItem, type ItemHash, type ItemJson } from '../util/item-hash.js';
import type { StateStore } from '../state/state-store.js';
import type { Diagnostic } from '../util/diagnostic.js';
import type { AnswersProfile } from './answers.js';
import { dispatchBatch, type BatchSender, type DispatchContext } from './dispatch.js';

export interface Landing {
  /** The batch of this record was answered: its record goes once the answer is on disk. */
  landed(path: string): void;
  /** Removes a record now: its answer is on disk already, or its batch was never sent. */
  drop(path: string): void;
  /** Every acknowledgement is on disk: the answered batches' records go. */
  flush(): void;
}

/** `failed()`: the state journal could not be written, so the records stay and the next run resends those batches under their ids. */
export function createLanding(store: StateStore | undefined, failed: () => boolean): Landing {
  const landing = new Set<string>();
  const removeNow = (path: string) => {
    if (!landing.delete(path)) return;
    try {
      unlinkSync(path);
    } catch {
      // gone already
    }
  };
  return {
    landed(path) {
      if (failed() || store === undefined) return;
      landing.add(path);
      const syncing = store.durable();
      if (syncing) void syncing.then(() => (failed() ? undefined : removeNow(path)));
      else removeNow(path);
    },
    drop(path) {
      landing.add(path);
      removeNow(path);
    },
    flush() {
      if (!failed()) for (const path of [...landing]) removeNow(path);
    },
  };
}

export interface ResendOptions {
  records: readonly LoadedInFlight[];
  store: StateStore;
  /** The state scope of this run, and the scopes an acceptance makes stale. */
  scope: string;
  others: string[];
  method: Method;
  answers: AnswersProfile;
  landing: Landing;
  notice(text: string): void;
  /** Stop taking new batches; the run ends aborted (exit 3) with this reason. */
  stop(code: string, message: string): void;
}

/** What the batches resent at the start share with the rest of the run. */
export interface ResumeContext {
  isolation?: Isolation;
  warn(diagnostic: Diagnostic, resource: Resource): void;
}

export interface Resender {
  resume(sender: BatchSender, signal: AbortSignal, run: ResumeContext): Promise<void>;
  /** The outcome a resent batch gave this row's item, taken once; `json` gives the row's item JSON, or undefined for a row the state knows by its fingerprint. */
  resent(resource: Resource, externalId: string, json: () => ItemJson | undefined): RowOutcome | undefined;
  /** What no row of this run took (their rows changed or are not in its input), as a note; undefined when nothing is left. */
  leftover(): string | undefined;
}

export function createResender(opts: ResendOptions): Resender {
  const { store, scope } = opts;
  // the answers to the batches resent at the start, per resource and externalId, until a row of this run takes one
  const resent = new Map<string, { hash: ItemHash; outcome: RowOutcome }>();
  return {
    async resume(sender, signal, run) {
      for (const record of opts.records) {
        if (signal.aborted) break;
        // its answer was journaled (every item is in the state as sent) and only the removal was cut
        // short: confirmed, nothing to resend (a batch holds only items the state did not have as they were)
        if (
          record.items.length > 0 &&
          record.items.every((it, i) => it.externalId !== undefined && store.unchanged(scope, record.resource, it.externalId, record.itemJson[i]!))
        ) {
          opts.landing.drop(record.path);
          continue;
        }
        opts.notice(
          `note: resending batch ${record.batchId} (${record.items.length} ${record.resource} ${record.items.length === 1 ? 'item' : 'items'}) that an interrupted run left in flight, with its own batchId and bytes`,
        );
        await resend(opts, record, { sender, signal, run }, resent);
      }
    },
    resent(resource, externalId, json) {
      if (resent.size === 0) return undefined;
      const key = `${resource}\t${externalId}`;
      const prior = resent.get(key);
      if (prior === undefined) return undefined;
      const item = json();
      // a row the state knows by its fingerprint is the one the resend's acceptance recorded; any
      // other row is that item only if its JSON hashes the same (else it changed: it is sent)
      const same = item === undefined ? prior.outcome.outcome === 'accepted' : ((h) => h.hi === prior.hash.hi && h.lo === prior.hash.lo)(hashItem(item));
      if (!same) return undefined;
      resent.delete(key);
      return prior.outcome;
    },
    leftover() {
      if (resent.size === 0) return undefined;
      const ids = [...resent.values()].map((r) => `${r.outcome.externalId} (${r.outcome.outcome}${r.outcome.message ? ` ${r.outcome.message}` : ''})`);
      return `note: ${resent.size === 1 ? '1 item' : `${resent.size} items`} of the batches resent for an interrupted run ${resent.size === 1 ? 'is not a row' : 'are not rows'} of this run (their rows changed or are not in its input); accepted ones are recorded in the state: ${ids.slice(0, 10).join(', ')}${ids.length > 10 ? ', …' : ''}`;
    },
  };
}

/** Resends one record's batch as it was sent; its items' outcomes wait in `resent`. */
async function resend(
  opts: ResendOptions,
  record: LoadedInFlight,
  to: { sender: BatchSender; signal: AbortSignal; run: ResumeContext },
  resent: Map<string, { hash: ItemHash; outcome: RowOutcome }>,
): Promise<void> {
  const { store, scope } = opts;
  const resource: Resource = record.resource;
  const items: PlannedItem<RowMeta>[] = record.items.map((it, i) => ({
    json: '',
    encoded: record.itemJson[i]!,
    bytes: it.bytes,
    meta: { file: it.file, line: it.line, externalId: it.externalId, fp: it.fp },
  }));
  const hashes = new Map<RowMeta, ItemHash>(items.map((item) => [item.meta, hashItem(item.encoded!)]));
  const decided = new Set<RowMeta>();
  const keep = (o: RowOutcome, meta: RowMeta | undefined) => {
    if (o.externalId === undefined || meta === undefined) return;
    resent.set(`${o.resource}\t${o.externalId}`, { hash: hashes.get(meta)!, outcome: o });
  };
  const rowKey = (r: Pick<RowMeta, 'file' | 'line' | 'externalId'>) => `${r.line}\t${r.externalId}\t${r.file}`;
  const byRow = new Map(items.map((item) => [rowKey(item.meta), item.meta]));
  const metaOf = (o: RowOutcome) => byRow.get(rowKey(o));
  const dispatch: DispatchContext = {
    sender: to.sender,
    resource,
    method: opts.method,
    source: record.source,
    answers: opts.answers,
    isolation: to.run.isolation,
    warn: (d) => to.run.warn(d, resource),
    signal: to.signal,
    record: (o) => keep(o, metaOf(o)),
    accepted: (item) => {
      if (item.meta.externalId !== undefined) store.accepted(scope, resource, item.meta.externalId, item.encoded!, opts.others, item.meta.fp);
    },
    abort: (reason) => opts.stop('NOT_DELIVERED', `stopped: the batch ${record.batchId} left in flight by an interrupted run could not be resent: ${reason}`),
    beforeSend: () => store.durable(),
    settled: decided,
    stopped: () => (to.signal.aborted ? 'run stopped' : undefined),
  };
  const syncing = store.durable();
  if (syncing) await syncing;
  try {
    if (await dispatchBatch(dispatch, { batchId: record.batchId, items, body: record.body })) opts.landing.landed(record.path);
  } catch (error) {
    const e = error as { code?: string; message?: string };
    for (const item of items) {
      if (decided.has(item.meta)) continue;
      keep(
        batchedOutcome('skipped', resource, item.meta, record.batchId, 'NOT_DELIVERED', `batch ${record.batchId}: ${errorMessage(error)}`, undefined),
        item.meta,
      );
    }
    opts.stop(e.code ?? 'ERROR', e.message ?? String(error));
  }
}
