// What a run is given and what it hands back.
import type { Method, Resource } from '../contract/resources.js';
import type { ReaderOptions } from '../read/types.js';
import type { ItemHash } from '../state/item-hash.js';
import type { RunMode } from '../report/run-report.js';
import type { Engine, ReadTuning } from './settings.js';

// the run's mode and its progress counts are the report's own types: one definition each
export type { RunMode } from '../report/run-report.js';
export type { ProgressCounts } from '../report/progress.js';

/** One input file and how to read and map it. */
export interface Job {
  file: string;
  /** From --resource, the plan, the profile, or the file name — resolved before the run starts. */
  resource?: Resource;
  /** Path of a mapping profile; absent for canonical input. */
  profile?: string;
  /** The profile is the `<name>.profile.json` found beside the file, not one named by the user. */
  profileBeside?: boolean;
  reader?: ReaderOptions;
}

export interface RowMeta {
  file: string;
  line: number;
  externalId?: string;
  row?: Record<string, string>;
  /** The row's fingerprint (incremental runs), recorded with the item when the server accepts it. */
  fp?: ItemHash;
}


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
