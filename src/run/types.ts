// What a run is given and what it hands back.
import type { Method } from '../contract/resources.js';
import type { ItemHash } from '../util/item-hash.js';
import type { RunMode } from '../report/run-report.js';
import type { Engine, ReadTuning } from '../config/settings.js';

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
  concurrency: number;
  holdDependents: boolean;
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
