// What a run is given and what it hands back.
import type { Method, Resource } from '../contract/resources.js';
import type { ItemHash, ItemJson } from '../util/item-hash.js';
import type { PlannedBatch } from '../plan/batcher.js';
import type { RowOutcome } from '../plan/outcome.js';
import type { ProgressCounts } from '../report/progress.js';
import type { PlannedBatchInfo, RunMode } from '../report/run-report.js';
import type { Diagnostic } from '../util/diagnostic.js';
import type { Engine, ReadTuning } from '../config/settings.js';
import type { RowMeta } from '../plan/row-meta.js';

// the run's mode and its progress counts are the report's own types: one definition each
export type { RunMode } from '../report/run-report.js';
export type { ProgressCounts } from '../report/progress.js';

// one input file and how to read and map it: decided by config/ (files named, or the plan's jobs)
export type { Job } from '../config/job.js';

export type { RowMeta } from '../plan/row-meta.js';

export interface RunSettings {
  mode: RunMode;
  method: Method;
  source: string;
  batchSize: number;
  maxBodyBytes: number;
  /** Pinned requests in flight (--concurrency); unset, the client's limit adapts up to maxConcurrency. */
  concurrency?: number;
  maxConcurrency: number;
  holdDependents: boolean;
  /** `push --sandbox`: the target is an embedded sandbox started empty for this run. */
  sandbox?: boolean;
  checkSuccessCount: boolean;
  namesItems: boolean;
  successCodes: readonly number[];
  isolateUnattributed: boolean;
  isolationBudget: number;
  runId: string;
  /** settings.ts: which machinery reads the rows (simple, fast, auto), decided once for the run. */
  engine: Engine;
  readTuning: ReadTuning;
}

/** How a run hands back what happens: outcomes, warnings, batches, and its questions to the state. */
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
  /** The same question about a repeated row's item, only asked: a dry run's preview does not count it. */
  holds?(resource: Resource, externalId: string, itemJson: ItemJson): boolean;
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
   * Before a batch's first request (the state's in-flight record, in-flight.ts): writes it at once
   * and resolves with a handle once its id, members and bytes are on disk, or with undefined when
   * they could not be written (the run is then stopped, and the batch is not sent). Never rejects.
   */
  sending?(resource: Resource, batch: PlannedBatch<RowMeta>): Promise<string | undefined>;
  /** The batch of `sending`'s handle was answered: its record may go once the answer is journaled. */
  landed?(handle: string): void;
  /** The batch of `sending`'s handle was not sent after all (the run stopped): its record goes now. */
  withdrawn?(handle: string): void;
  /**
   * The outcome of this row when a batch resent at the start of the run (an interrupted run's, with
   * its own batchId and bytes) carried this very item: the row then gets that outcome, and is not
   * sent again. `json` gives the row's item JSON, or undefined for a row the state knows by its fingerprint.
   */
  resent?(resource: Resource, externalId: string, json: () => ItemJson | undefined): RowOutcome | undefined;
}
