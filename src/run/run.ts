// The pipeline of one run: read → map → validate → plan → send → report, kind after kind in
// dependency order. The core never prints: it records outcomes and reports progress through
// callbacks, and returns what happened.
import type { Resource } from '../contract/resources.js';
import { batchId as makeBatchId } from '../plan/batch-id.js';
import { REF_PATHS } from '../map/types.js';
import { BodyBuffers, createBatcher, envelopeBytes, itemBytes, type PlannedBatch, type PlannedItem } from '../plan/batcher.js';
import { inSendOrder, SEND_ORDER } from '../plan/order.js';
import type { RowOutcome } from '../plan/outcome.js';
import type { PlannedBatchInfo } from '../report/run-report.js';
import { createCrossChecks } from '../validate/cross-checks.js';
import type { Diagnostic } from '../util/diagnostic.js';
import { createItemValidator } from '../validate/validate-item.js';
import { createLimiter } from '../send/concurrency.js';
import { newIsolation, type Isolation } from '../plan/bisect.js';
import { answersOf, dispatchBatch, type BatchSender } from '../send/dispatch.js';
import { ChunkLease, ChunkRowMeta, EncodedItem, LazyRow, MappedItem, lazyRow, rowOf, type RowRef } from './chunk-items.js';
import { ownString } from './own-string.js';
import { problemText } from './problem-text.js';
import { JOB_END, readInWorker, readsInWorker } from './read-in-worker.js';
import { ChunkReader, RAW, SAME } from './row-chunk.js';
import type { SourceRecord, SourceWarning } from '../read/types.js';
import type { ItemHash, ItemJson } from '../util/item-hash.js';
import { rowFingerprint } from '../state/row-fingerprint.js';
import type { PreparedJob } from './prepare.js';
import type { ProgressCounts, RowMeta, RunSettings } from './types.js';

export interface RunHooks {
  record(outcome: RowOutcome): void;
  /** A warning about a row of `resource`; the row keeps its own outcome. */
  warn(diagnostic: Diagnostic, resource: Resource): void;
  /** Each planned batch body, for `validate --emit` and `--dry-run`. */
  emit?(body: string, resource: Resource): void;
  /** Each planned batch that is not sent (validate, `--dry-run`), without building its body. */
  planned?(batch: PlannedBatchInfo): void;
  /** An item the server accepted (the state store listens here). */
  accepted?(resource: Resource, meta: RowMeta, itemJson: ItemJson): void;
  /** Whether an item is unchanged since the server last accepted it (incremental mode). */
  unchanged?(resource: Resource, externalId: string, itemJson: ItemJson): boolean;
  /** An item found unchanged came from a row with this fingerprint: recorded, so the next run knows the row. */
  learn?(resource: Resource, externalId: string, fp: ItemHash): void;
  /** Whether the item last accepted for this id came from a row with this fingerprint (incremental mode). */
  sameRow?(resource: Resource, externalId: string, fp: ItemHash): boolean;
  /** The state's fingerprints of a resource, for the read worker (incremental mode). */
  fingerprints?(resource: Resource): SharedArrayBuffer | undefined;
  /** Undefined when every acceptance recorded is on disk, else when it will be: a batch is sent only then. */
  durable?(): Promise<void> | undefined;
  progress?(counts: ProgressCounts): void;
  /**
   * Before a batch's first request (the state's in-flight record, in-flight.ts): resolves with a
   * handle once its id, members and bytes are on disk, or with undefined when they could not be
   * written (the run is then stopped, and the batch is not sent).
   */
  sending?(resource: Resource, batch: PlannedBatch<RowMeta>): Promise<string | undefined>;
  /** The batch of `sending`'s handle was answered, or not sent after all: its record may go once the answer is journaled. */
  landed?(handle: string): void;
  /**
   * The outcome of this row when a batch resent at the start of the run (an interrupted run's, with
   * its own batchId and bytes) carried this very item: the row then gets that outcome, and is not
   * sent again. `json` gives the row's item JSON, or undefined for a row the state knows by its fingerprint.
   */
  resent?(resource: Resource, externalId: string, json: () => ItemJson | undefined): RowOutcome | undefined;
}


export interface RunResult {
  aborted?: { code: string; message: string; suggestion?: string };
  interrupted: boolean;
  /** Rows read per resource: each must have exactly one recorded outcome (sync.ts checks). */
  read: Partial<Record<Resource, number>>;
  /** Distinct owner/agent ids the run's deals and activities name but its sales profiles do not. */
  ownersNotInRun: number;
  /** What --isolate-unattributed cost, when it was on. */
  isolation?: Isolation;
}

type RefsItem = Record<string, unknown> & { associated: Record<string, unknown> };

/** An item of only the ids checked across rows (REF_PATHS), for the references and held-back checks; `into` is reused. */
function refsItem(ids: readonly unknown[], into: RefsItem = { associated: {} }): RefsItem {
  into.ownerExternalId = ids[1];
  into.agentExternalId = ids[2];
  into.associated.accountExternalId = ids[3];
  into.associated.dealExternalId = ids[4];
  return into;
}

export async function runPipeline(
  jobs: readonly PreparedJob[],
  settings: RunSettings,
  hooks: RunHooks,
  sender?: BatchSender,
  signal?: AbortSignal,
  given?: Isolation,
): Promise<RunResult> {
  const checks = createCrossChecks();
  /** externalIds of sales profiles that were invalid or rejected in this run. */
  const failedProfiles = new Set<string>();
  const counts: ProgressCounts = { rowsRead: 0, batchesAcked: 0, itemsAcked: 0, retries: 0 };
  const read: RunResult['read'] = {};
  let aborted: RunResult['aborted'];
  const isolation = given ?? newIsolation(settings);

  const record = (o: RowOutcome) => {
    if (o.resource === 'sales-profile' && o.externalId && (o.outcome === 'invalid' || o.outcome === 'rejected')) failedProfiles.add(o.externalId);
    hooks.record(o);
  };
  const stop = () => aborted !== undefined || signal?.aborted === true;
  /** Why no further batch is sent, once the run has stopped. */
  const stopReason = (): string | undefined => {
    if (!stop()) return undefined;
    // a guard stops the run through the signal, with its own reason
    const reason = typeof signal?.reason === 'string' ? signal.reason : undefined;
    return aborted ? `run aborted (${aborted.message})` : reason ? `run stopped (${reason})` : 'run interrupted';
  };

  // big inputs are read, mapped, validated and serialised on the second core (push, validate and
  // --dry-run alike); the rest stays here
  const ordered = inSendOrder(jobs);
  // runs that keep a state fingerprint each row (row-fingerprint.ts): in incremental mode, a row the
  // state knows from its text is not validated or serialised again; the simple engine builds and
  // checks every row against its item hash
  const fingerprinting = hooks.sameRow !== undefined && settings.engine !== 'simple';
  const fingerprintSets = new Map<Resource, SharedArrayBuffer | undefined>();
  const fingerprintsOf = (resource: Resource) => {
    if (!fingerprintSets.has(resource)) fingerprintSets.set(resource, hooks.fingerprints?.(resource));
    return fingerprintSets.get(resource);
  };
  const workerJobs = () => ordered.map((j) => ({ ...j.job, resource: j.resource, fingerprint: fingerprinting ? { context: j.fingerprint, known: fingerprintsOf(j.resource) } : undefined }));
  const inWorker = ordered.length > 0 && readsInWorker(ordered.map((j) => j.job.file), settings.mode === 'push', settings.engine) ? readInWorker(workerJobs(), settings.method, settings.readTuning) : undefined;
  const workerRows = inWorker?.chunks();
  // what the reader found about a whole file (encoding guessed, title rows, unnamed columns…): a
  // warning under the file's resource, naming the file and the line where there is one
  const fileWarnings = (list: readonly SourceWarning[], resource: Resource) => {
    for (const w of list) hooks.warn({ severity: 'warning', file: w.file, line: w.line, reason: w.message }, resource);
  };
  try {
    for (const resource of SEND_ORDER) {
      const kindJobs = jobs.filter((j) => j.resource === resource);
      if (kindJobs.length === 0) continue;
      counts.resource = resource;
      counts.since = { rowsRead: counts.rowsRead, batchesAcked: counts.batchesAcked };
      const readBefore = counts.rowsRead;
      const limiter = createLimiter(settings.concurrency);
      const bodies = new BodyBuffers(settings.concurrency + 2);
      const batcher = createBatcher<RowMeta>({
        maxItems: settings.batchSize,
        maxBytes: settings.maxBodyBytes,
        source: settings.source,
        // one sequence per kind across all its files, so an id never repeats within a run
        batchIdOf: (n) => makeBatchId(settings.source, resource, settings.runId, n),
        bodies,
      });
      const ctx = {
        sender: sender!,
        resource,
        method: settings.method,
        source: settings.source,
        answers: answersOf(settings),
        isolation,
        signal,
        record,
        warn: (d: Diagnostic) => hooks.warn(d, resource),
        accepted: (item: PlannedItem<RowMeta>) => {
          counts.itemsAcked += 1;
          // the read worker's items as their bytes: decoding a million of them to hash them was 1 GB of garbage
          hooks.accepted?.(resource, item.meta, item.encoded ?? item.json);
        },
        retried: (count: number) => {
          counts.retries += count;
        },
        abort: (reason: string) => {
          aborted ??= { code: 'NOT_DELIVERED', message: reason };
        },
        beforeSend: () => hooks.durable?.(),
        stopped: stopReason,
      };

      const send = async (batch: PlannedBatch<RowMeta>) => {
        // every item has its outcome: the read worker's chunks they came from may be given back
        const settled = () => {
          for (const item of batch.items) {
            const lease = item.lease;
            if (lease === undefined) continue;
            item.lease = undefined; // once only: a chunk's end() must not detach it again
            lease.drop();
          }
        };
        if (settings.mode !== 'push') hooks.planned?.({ batchId: batch.batchId, resource, items: batch.items.length, bytes: envelopeBytes(batch.batchId, settings.source, batch.items) });
        if (hooks.emit) {
          hooks.emit(batch.body.toString('utf8'), resource);
          if (settings.mode !== 'push') batch.release();
        }
        if (settings.mode !== 'push') {
          // validate and dry-run: a valid row is as far as it goes
          for (const item of batch.items) record({ outcome: 'accepted', resource, file: item.meta.file, line: item.meta.line, externalId: item.meta.externalId, message: '', detail: '' });
          return settled();
        }
        const notSent = () => {
          const why = stopReason();
          for (const item of batch.items) record({ outcome: 'skipped', resource, file: item.meta.file, line: item.meta.line, externalId: item.meta.externalId, message: 'NOT_SENT', detail: `not sent: ${why}`, row: item.meta.row, batchId: batch.batchId });
        };
        if (stop()) {
          notSent();
          return settled();
        }
        await limiter.run(async () => {
          try {
            // the state's journal is fsync'ed off this thread: no batch goes out before the acknowledgements already recorded are on disk
            const syncing = hooks.durable?.();
            if (syncing) await syncing;
            // the run may have stopped while this batch waited for a place
            if (stop()) return notSent();
            // its id, members and exact bytes on disk before it leaves: a run killed now resends it
            // first next time, under the same batchId (an idempotency key for the server)
            const handle = hooks.sending === undefined ? undefined : await hooks.sending(resource, batch);
            if (stop()) {
              if (handle !== undefined) hooks.landed?.(handle);
              return notSent();
            }
            let answered: boolean;
            // a split batch's first half may have its outcomes when the second half's request throws
            const decided = new Set<RowMeta>();
            try {
              answered = await dispatchBatch({ ...ctx, settled: decided }, batch);
            } catch (error) {
              const e = error as { code?: string; message?: string; suggestion?: string };
              aborted ??= { code: e.code ?? 'ERROR', message: e.message ?? String(error), suggestion: e.suggestion };
              for (const item of batch.items) {
                if (decided.has(item.meta)) continue;
                record({ outcome: 'skipped', resource, file: item.meta.file, line: item.meta.line, externalId: item.meta.externalId, message: 'NOT_DELIVERED', detail: `batch ${batch.batchId}: ${(error as Error).message}`, row: item.meta.row, batchId: batch.batchId });
              }
              throw error;
            }
            if (answered) {
              // every item has the server's verdict: the record goes once the acknowledgements are journaled
              if (handle !== undefined) hooks.landed?.(handle);
              counts.batchesAcked += 1;
              // every request of it was answered: none can read its body any more
              batch.release();
            }
            hooks.progress?.(counts);
          } finally {
            settled();
          }
        }).catch(() => undefined);
      };

      // after an abort or an interrupt every file is still read to its end: invalid rows are still
      // reported as invalid and valid ones as NOT_SENT (send() checks stop()), so each row gets an
      // outcome and lands in the errors CSV; breaking out here lost the rest of the input silently

      const leased = <T extends EncodedItem | MappedItem>(item: T): T => {
        item.lease?.hold(item);
        return item;
      };

      /**
       * A valid item from here on: duplicates, references, held-back dependents, unchanged, size, batch.
       * `fp` is its row's fingerprint; `same` says the state already knows that row (the item is then
       * the mapped one, used for its references only: it is neither validated nor serialised).
       * `written` is its JSON when the mapper wrote it (the item then holds only its references).
       */
      const admit = (where: { file: string; line: number }, row: RowRef, externalId: string | undefined, item: Record<string, unknown>, encoded: Buffer | undefined, lease?: ChunkLease, fp?: ItemHash, same = false, written?: string): PlannedBatch<RowMeta> | undefined => {
        const duplicate = externalId === undefined ? undefined : checks.claim(resource, externalId, where);
        if (duplicate) {
          record({ outcome: 'invalid', resource, ...where, externalId, field: 'externalId', message: 'DUPLICATE', detail: duplicate.reason, row: rowOf(row) });
          return undefined;
        }
        for (const w of checks.references(resource, item, where)) hooks.warn(w, resource);
        // a batch resent first (an interrupted run's) already carried this item: its answer is this row's outcome
        if (externalId !== undefined && hooks.resent !== undefined) {
          const prior = hooks.resent(resource, externalId, () => (same ? undefined : (encoded ?? written ?? JSON.stringify(item))));
          if (prior) {
            record({ ...prior, ...where, row: prior.outcome === 'accepted' ? undefined : rowOf(row) });
            return undefined;
          }
        }
        if (settings.holdDependents && resource === 'deal') {
          const missing = [item.ownerExternalId, item.agentExternalId].find((id) => typeof id === 'string' && failedProfiles.has(id));
          if (missing !== undefined) {
            record({ outcome: 'skipped', resource, ...where, externalId, message: 'HELD_BACK', detail: `held back: its owner/agent sales-profile ${String(missing)} was not accepted in this run (--no-hold-dependents sends it anyway)`, row: rowOf(row) });
            return undefined;
          }
        }
        // most rows of a rerun, and no output shows their cells (never in the errors CSV): no row, so
        // the outcome (kept as a report example) holds no chunk of the read worker
        const unchanged = () => record({ outcome: 'skipped', resource, ...where, externalId, message: 'UNCHANGED', detail: 'unchanged since the server last accepted it (incremental mode)' });
        if (same) return void unchanged();
        // from the worker the JSON comes encoded, and the incremental state hashes those bytes as they are
        const json = encoded === undefined ? (written ?? JSON.stringify(item)) : undefined;
        if (externalId !== undefined && hooks.unchanged?.(resource, externalId, json ?? encoded!)) {
          if (fp !== undefined) hooks.learn?.(resource, externalId, fp);
          return void unchanged();
        }
        const bytes = encoded === undefined ? itemBytes(json!) : encoded.length;
        if (bytes > batcher.maxItemBytes) {
          record({ outcome: 'invalid', resource, ...where, externalId, message: 'TOO_LARGE', detail: `the item is ${bytes} bytes, more than fits one request (--max-body-bytes ${settings.maxBodyBytes})`, row: rowOf(row) });
          return undefined;
        }
        // an item of a worker chunk holds it until its batch has all its outcomes (its cells may be needed)
        if (encoded !== undefined) return batcher.add(leased(new EncodedItem(encoded, new ChunkRowMeta(where.file, where.line, externalId, row, fp), lease)));
        if (row instanceof LazyRow) return batcher.add(leased(new MappedItem(json!, bytes, new ChunkRowMeta(where.file, where.line, externalId, row, fp), lease)));
        return batcher.add({ json: json!, bytes, meta: { ...where, externalId, row, fp } });
      };

      const validate = createItemValidator(resource, settings.method, settings.engine !== 'simple');
      // the ids of a row whose JSON the mapper wrote, and the item of its references (reused row to row)
      const rawIds = new Array<unknown>(REF_PATHS.length);
      const rawRefs: RefsItem = { associated: {} };

      /** A record read here (or left RAW by the worker): map, validate, then admit. */
      const mapAndAdmit = (record_: SourceRecord, job: PreparedJob, row: RowRef, lease?: ChunkLease, fingerprinted = fingerprinting): PlannedBatch<RowMeta> | undefined => {
        const mapper = job.mapper;
        const where = { file: record_.file, line: record_.line };
        // incremental: a row the state knows by its fingerprint needs only its ids (read without
        // building the item where the mapper can; trusted only once the state confirms the pair)
        const fp = fingerprinted ? rowFingerprint(job.fingerprint, record_, job.source.header) : undefined;
        if (fp !== undefined && mapper.refs) {
          const ids = mapper.refs(record_);
          const id = ids[0];
          if (typeof id === 'string' && hooks.sameRow!(resource, id, fp)) return admit(where, row, ownString(id), refsItem(ids), undefined, lease, fp, true);
        }
        // a row certainly valid and clean: its JSON straight from its cells, no item built
        const written = mapper.json?.(record_, rawIds);
        if (written !== undefined) return admit(where, row, ownString(rawIds[0] as string), refsItem(rawIds, rawRefs), undefined, lease, fp, false, written);
        const mapped = mapper.map(record_);
        if (mapped.kind === 'skip') {
          record({ outcome: 'skipped', resource, ...where, message: 'SKIPPED', detail: mapped.reason, row: rowOf(row) });
          return undefined;
        }
        if (mapped.kind === 'invalid') {
          const first = mapped.problems[0];
          record({
            outcome: 'invalid', resource, ...where,
            externalId: mapped.externalId === undefined ? undefined : ownString(mapped.externalId), field: first?.field, column: first?.column,
            // the first problem's column and field travel apart; further ones name their own
            message: 'INVALID', detail: mapped.problems.map((p, i) => problemText(i === 0 ? { ...p, column: undefined } : p)).join('; '),
            row: rowOf(row),
          });
          return undefined;
        }
        for (const w of mapped.warnings) hooks.warn(w, resource);
        const externalId = typeof mapped.item.externalId === 'string' ? ownString(mapped.item.externalId) : undefined;
        // a row with warnings has no fingerprint: it is checked in full every run, and so warned about
        const clean = mapped.warnings.length === 0;
        if (fp !== undefined && clean && externalId !== undefined && hooks.sameRow!(resource, externalId, fp)) return admit(where, row, externalId, mapped.item, undefined, lease, fp, true);
        const checked = validate(mapped.item);
        if (!checked.ok) {
          const first = checked.problems[0];
          record({
            outcome: 'invalid', resource, ...where, externalId, field: first?.field,
            message: 'INVALID', detail: checked.problems.map((p) => problemText(p)).join('; '),
            row: rowOf(row),
          });
          return undefined;
        }
        for (const w of checked.warnings) hooks.warn({ severity: 'warning', ...where, field: w.field, reason: w.reason }, resource);
        return admit(where, row, externalId, checked.item, undefined, lease, clean && checked.warnings.length === 0 ? fp : undefined);
      };

      if (workerRows) {
        const refs: RefsItem = { associated: {} };
        for (let j = 0; j < kindJobs.length; j++) {
          const job = kindJobs[j]!;
          const source = job.source;
          fileWarnings(source.warnings, resource);
          for (;;) {
            const next = await workerRows.next();
            if (next.done) throw new Error('the read worker ended early');
            const chunk = next.value;
            if (chunk === JOB_END) {
              fileWarnings(inWorker!.lateWarnings(), resource);
              break;
            }
            const reader = new ChunkReader(chunk, source.header);
            const lease = new ChunkLease(chunk, inWorker!.giveBack);
            const file = chunk.file;
            while (reader.next()) {
              counts.rowsRead += 1;
              const where = { file, line: reader.line };
              const extra = reader.extra;
              if (extra?.warnings) for (const w of extra.warnings) hooks.warn(w, resource);
              const verdict = extra?.verdict;
              if (verdict) {
                const row = rowOf(lazyRow(reader));
                if (verdict.kind === 'skip') record({ outcome: 'skipped', resource, ...where, message: 'SKIPPED', detail: verdict.reason, row });
                else if (verdict.kind === 'map-invalid') record({ outcome: 'invalid', resource, ...where, externalId: verdict.externalId === undefined ? undefined : ownString(verdict.externalId), field: verdict.field, column: verdict.column, message: 'INVALID', detail: verdict.detail, row });
                else record({ outcome: 'invalid', resource, ...where, externalId: verdict.externalId === undefined ? undefined : ownString(verdict.externalId), field: verdict.field, message: 'INVALID', detail: verdict.detail, row });
                continue;
              }
              const kind = reader.itemBytes;
              const fp = reader.fingerprint();
              // SAME: the state held this row's item when the run started (the worker found its fingerprint)
              const same = kind === SAME;
              if (kind === RAW) {
                // a RAW row is fingerprinted only in a chunk the worker fingerprints: read in the same context
                const done = mapAndAdmit(reader.rawRecord(), job, lazyRow(reader), lease, fingerprinting && chunk.fps.length > 0);
                if (done) await send(done);
                if (counts.rowsRead % 2048 === 0) hooks.progress?.(counts);
                continue;
              }
              let encoded: Buffer | undefined;
              if (same) reader.takeIds();
              else encoded = reader.takeItem();
              const ids = reader.ids;
              const externalId = ids[0] === undefined ? undefined : ownString(ids[0]);
              const done = admit(where, lazyRow(reader), externalId, refsItem(ids, refs), encoded, lease, fp, same);
              if (done) await send(done);
              if (counts.rowsRead % 2048 === 0) hooks.progress?.(counts);
            }
            lease.end();
          }
        }
      } else {
        for (const job of kindJobs) {
          const opened = job.source.warnings.length;
          fileWarnings(job.source.warnings, resource);
          for await (const record_ of job.source.records) {
            counts.rowsRead += 1;
            // a CSV row builds its cells into an object only if an outcome needs them
            const row = record_.kind === 'item' ? undefined : record_.kind === 'row' ? new LazyRow(() => record_.row) : record_.row;
            const done = mapAndAdmit(record_, job, row);
            if (done) await send(done);
            if (counts.rowsRead % 2048 === 0) hooks.progress?.(counts);
          }
          fileWarnings(job.source.warnings.slice(opened), resource);
        }
      }
      const last = batcher.flush();
      if (last) await send(last);
      await limiter.idle();
      read[resource] = counts.rowsRead - readBefore;
      hooks.progress?.(counts);
    }
  } finally {
    await inWorker?.close();
  }
  return { aborted, interrupted: signal?.aborted === true && aborted === undefined, read, ownersNotInRun: checks.ownersNotInRun(), isolation };
}
