// The pipeline of one run, kind after kind in dependency order: read → map → validate
// (process-row.ts, here or in the read worker) → admit (plan/admit.ts, through admission.ts) →
// batch (plan/batcher.ts) → send (send-batch.ts) → record (the hooks). The core never prints: it
// records outcomes and reports progress through callbacks, and returns what happened.
import type { Resource } from '../contract/resources.js';
import { batchId as makeBatchId } from '../plan/batch-id.js';
import { BodyBuffers, createBatcher } from '../plan/batcher.js';
import { inSendOrder, SEND_ORDER } from '../plan/order.js';
import type { RowOutcome } from '../plan/outcome.js';
import { createCrossChecks, type OwnersNotInRun } from '../validate/cross-checks.js';
import { Admission } from '../rows/admission.js';
import { newIsolation, type Isolation } from '../plan/bisect.js';
import type { BatchSender } from '../send/dispatch.js';
import type { PreparedJob } from '../rows/prepare.js';
import { readFromWorker, readHere, type ResourceRead } from '../rows/read-rows.js';
import { readInWorker, readsInWorker, type WorkerRows } from '../rows/read-in-worker.js';
import { batchesInProgress, resourceSender, type RunControl } from '../rows/send-batch.js';
import type { RowMeta, RunHooks, RunSettings } from '../rows/types.js';
import type { NotRead } from '../report/run-report.js';

export type { RunHooks } from '../rows/types.js';

export interface RunResult {
  aborted?: { code: string; message: string; suggestion?: string };
  interrupted: boolean;
  /** Rows read per resource: each must have exactly one recorded outcome (sync.ts checks). */
  read: Partial<Record<Resource, number>>;
  /** Distinct owner/agent ids the run's deals and activities name but its sales profiles do not. */
  ownersNotInRun: number;
  /** The same, with the first few ids named (the embedded sandbox's hint). */
  namedOwnersNotInRun: OwnersNotInRun;
  /** What --isolate-unattributed cost, when it was on. */
  isolation?: Isolation;
  /** Where a stopped run stopped reading each file it had not finished (read-rows.ts). */
  notRead: NotRead[];
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
  const read: RunResult['read'] = {};
  const notRead: NotRead[] = [];
  const run = runControl(settings, hooks, failedProfiles, sender, signal, given ?? newIsolation(settings));
  // runs that keep a state fingerprint each row (row-fingerprint.ts): in incremental mode, a row the
  // state knows from its text is not validated or serialised again; the simple engine builds and
  // checks every row against its item hash
  const fingerprinting = hooks.sameRow !== undefined && settings.engine !== 'simple';
  const known = new Map<Resource, SharedArrayBuffer | undefined>();
  for (const r of SEND_ORDER) if (fingerprinting && jobs.some((j) => j.resource === r)) known.set(r, hooks.fingerprints?.(r));
  // big inputs are read, mapped, validated and serialised on the second core (push, validate and
  // --dry-run alike); the rest stays here
  const worker = startWorker(inSendOrder(jobs), settings, fingerprinting, known);
  const chunks = worker?.chunks();
  try {
    for (const resource of SEND_ORDER) {
      const kindJobs = jobs.filter((j) => j.resource === resource);
      if (kindJobs.length === 0) continue;
      const counts = run.counts;
      counts.resource = resource;
      counts.since = { rowsRead: counts.rowsRead, batchesAcked: counts.batchesAcked };
      const readBefore = counts.rowsRead;
      const batcher = batcherFor(settings, resource);
      const admission = new Admission({ resource, settings, hooks, checks, batcher, failedProfiles, record: run.record });
      const sending = resourceSender(run, resource);
      // after an abort every file is still read to its end: invalid rows are still reported as
      // invalid and valid ones as NOT_SENT (send() checks stop()), so each row gets an outcome and
      // lands in the errors CSV. A stop (a signal, a guard) ends the reading at once instead: the
      // rows read have their outcomes, the rest of each file is one range in notRead
      const r: ResourceRead = { resource, jobs: kindJobs, admission, send: sending.send, fingerprinting, known: known.get(resource), notRead };
      if (worker) await readFromWorker(run, r, worker, chunks!);
      else await readHere(run, r);
      const last = batcher.flush();
      if (last) await sending.send(last);
      await sending.idle();
      read[resource] = counts.rowsRead - readBefore;
      hooks.progress?.(counts);
    }
  } finally {
    await worker?.close();
  }
  return {
    aborted: run.aborted,
    interrupted: signal?.aborted === true && run.aborted === undefined,
    read,
    ownersNotInRun: checks.ownersNotInRun(),
    namedOwnersNotInRun: checks.namedOwnersNotInRun(),
    isolation: run.isolation,
    notRead,
  };
}

function startWorker(
  ordered: readonly PreparedJob[],
  settings: RunSettings,
  fingerprinting: boolean,
  known: Map<Resource, SharedArrayBuffer | undefined>,
): WorkerRows | undefined {
  if (
    ordered.length === 0 ||
    !readsInWorker(
      ordered.map((j) => j.job.file),
      settings.mode === 'push',
      settings.engine,
    )
  )
    return undefined;
  const jobs = ordered.map((j) => ({ ...j.spec, fingerprint: fingerprinting ? { context: j.fingerprint, known: known.get(j.resource) } : undefined }));
  return readInWorker(jobs, settings.method, settings.readTuning);
}

function batcherFor(settings: RunSettings, resource: Resource) {
  return createBatcher<RowMeta>({
    maxItems: settings.batchSize,
    maxBytes: settings.maxBodyBytes,
    source: settings.source,
    // one sequence per kind across all its files, so an id never repeats within a run
    batchIdOf: (n) => makeBatchId(settings.source, resource, settings.runId, n),
    bodies: new BodyBuffers(batchesInProgress(settings) + 2),
  });
}

function runControl(
  settings: RunSettings,
  hooks: RunHooks,
  failedProfiles: Set<string>,
  sender: BatchSender | undefined,
  signal: AbortSignal | undefined,
  isolation: Isolation | undefined,
): RunControl & { aborted?: RunResult['aborted'] } {
  const run: RunControl & { aborted?: RunResult['aborted'] } = {
    settings,
    hooks,
    sender,
    signal,
    isolation,
    counts: { rowsRead: 0, batchesAcked: 0, itemsAcked: 0, retries: 0 },
    record(o: RowOutcome) {
      // a repeated row is no failed profile: its id's first row decides (it records its own failure)
      if (o.resource === 'sales-profile' && o.externalId && (o.outcome === 'rejected' || (o.outcome === 'invalid' && o.message !== 'DUPLICATE')))
        failedProfiles.add(o.externalId);
      hooks.record(o);
    },
    abort(failure) {
      run.aborted ??= failure;
    },
    stop: () => run.aborted !== undefined || signal?.aborted === true,
    stopReason() {
      if (!run.stop()) return undefined;
      // a guard stops the run through the signal, with its own reason
      const reason = typeof signal?.reason === 'string' ? signal.reason : undefined;
      return run.aborted ? `run aborted (${run.aborted.message})` : reason ? `run stopped (${reason})` : 'run interrupted';
    },
  };
  return run;
}
