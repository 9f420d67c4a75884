// What a validate or push is given (the request, the command's environment, the nightly session's
// part) and what it hands back: the types around sync(), apart from its steps.
import type { Resource } from '../contract/resources.js';
import type { RowOutcome } from '../plan/outcome.js';
import type { Collector } from '../report/collector.js';
import type { FlowView } from '../report/timeline.js';
import type { PlannedBatchInfo, RunReport } from '../report/run-report.js';
import type { SandboxHeld } from '../report/sandbox-lines.js';
import type { Diagnostic } from '../util/diagnostic.js';
import type { BatchSender } from '../send/dispatch.js';
import type { ResumeContext } from '../send/resend.js';
import type { PreparedJob } from '../rows/prepare.js';
import type { KeptSandbox } from './connect.js';
import type { RunHooks } from './run.js';
import type { GivenFlags } from '../config/option.js';
import type { ResolvedSettings } from '../config/settings.js';
import type { SyncPlan } from '../config/sync-plan.js';
import type { Job, ProgressCounts, RunMode } from '../rows/types.js';

/** The hooks by which the incremental state takes part in a run. */
type StateHooks = 'accepted' | 'unchanged' | 'holds' | 'learn' | 'sameRow' | 'fingerprints' | 'durable' | 'sending' | 'landed' | 'withdrawn' | 'resent';

export interface SyncRequest {
  mode: RunMode;
  files: string[];
  /** --resource, --profile and reader flags apply to the files named on the command line (with a plan and none: refused). */
  resource?: Resource;
  profile?: string;
  /** Every --profile given (several are refused unless files are paired as FILE:PROFILE); wins over `profile`. */
  profiles?: string[];
  reader?: Job['reader'];
  /** --config; otherwise batch-sync.config.json in the working directory if there is one. */
  config?: string;
  /** The options given on the command line, by key (config/options.ts); the rest comes from the plan, the environment, the defaults. */
  flags: GivenFlags;
  cwd?: string;
  env?: NodeJS.ProcessEnv;
}

/** What sending needs beyond the settings: given by the command (client, sandbox, signals). */
export interface SyncEnvironment {
  /** Lines about sending (retries, warnings), for the progress display. */
  onEvent?(text: string, level: 'debug' | 'info' | 'error'): void;
  /** No new batches once it fires (an interrupt). */
  signal?: AbortSignal;
  /** Fires after an interrupt's grace period: requests in flight are then cancelled. */
  cancel?: AbortSignal;
  onProgress?(counts: ProgressCounts): void;
  /** A push is connected: what its requests meet, to be read when wanted (the HTML report's timeline). */
  onConnected?(flow: () => FlowView | undefined): void;
  emit?(body: string, resource: Resource): void;
  /** Each batch validate or `--dry-run` planned and did not send. */
  onBatch?(batch: PlannedBatchInfo): void;
  /** Every row not accepted, as it happens (the errors CSV writer). */
  sink?(outcome: RowOutcome): void;
  hooks?: Partial<Pick<RunHooks, StateHooks>>;
  onWarning?(d: Diagnostic): void;
  /** Every job has been opened and checked; nothing was sent yet. */
  onPrepared?(jobs: readonly PreparedJob[]): void;
  /**
   * Push's unattended-run machinery (lock, incremental state, reports on disk), opened once the
   * settings are known and before any file is opened, and always closed after the run.
   */
  openSession?(context: SessionContext): RunSession | undefined;
  /** Something the user should hear about now (a lock taken over, the guard tripping). */
  onNotice?(text: string): void;
  /** The settings are resolved and nothing is locked, read or sent yet (the cron notifier is made). */
  onSettings?(settings: ResolvedSettings): void;
  /** The run holds its lock (when it takes one) and nothing is read or sent yet (the cron start ping). */
  onStart?(): Promise<void>;
  /** `push --sandbox --keep-open`: the embedded sandbox, with its page, handed over after the run instead of stopped. */
  keepSandbox?(sandbox: KeptSandbox): void;
}

export interface SessionContext {
  runId: string;
  /** Where the items go (the base URL, or a name of the embedded sandbox): the state is kept per target. */
  target?: string;
  startedAt: Date;
  mode: RunMode;
  settings: ResolvedSettings;
  inputs: string[];
  notice(text: string): void;
  /** Stop taking new batches; the run ends aborted (exit 3) with this reason. */
  stop(code: string, message: string): void;
}

export interface RunSession {
  hooks?: Partial<Pick<RunHooks, StateHooks>>;
  /** Every row not accepted, as it happens. */
  sink?(outcome: RowOutcome): void;
  prepared?(jobs: readonly PreparedJob[]): void;
  /**
   * Before the first batch of the run: resend the batches an interrupted run left in flight, with
   * their own batchIds and bytes. Their rows then take those answers as their outcomes (`resent`).
   */
  resume?(sender: BatchSender, signal: AbortSignal, run: ResumeContext): Promise<void>;
  /** `push --dry-run --incremental`: per resource, the rows the state found new or changed. */
  preview?(): Partial<Record<Resource, { new: number; changed: number }>>;
  /**
   * With the outcome when the run finished, without it when it failed; must not throw. Returns what
   * could not be written (the state, the run's report folder), one line each.
   */
  close(result?: { report: RunReport; exitCode: number }): string[] | undefined;
}

export interface SyncOutcome {
  report: RunReport;
  exitCode: number;
  /**
   * Whether any request went out to the API (push only). An output file that fails after that is
   * exit 3 (the server may hold rows), before it exit 2.
   */
  sent: boolean;
  settings: ResolvedSettings;
  plan?: SyncPlan;
  collector: Collector;
  /** Input files of the run, so output files are never written over one. */
  inputs: string[];
  /** What the embedded sandbox held at the end (`push --sandbox`). */
  sandbox?: SandboxHeld;
  /** Files of the session that could not be written (the state, the run's report folder), one line each. */
  outputFailures?: string[];
}
