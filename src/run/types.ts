// What a run is given and what it hands back.
import type { Method, Resource } from '../contract/resources.js';
import type { ReaderOptions } from '../read/types.js';
import type { RunMode } from '../report/run-report.js';

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
}
