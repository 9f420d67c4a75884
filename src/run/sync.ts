// The core behind `validate` and `push`: resolve the jobs and settings, check everything that can
// be checked before sending, run the pipeline, and hand back the run's report. It never prints and
// never exits: the command renders the report and sets the exit code. Its types: sync-types.ts.
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { isAbsolute, relative, resolve } from 'node:path';
import { BatchSyncError, EXIT } from '../errors.js';
import { newRunId } from '../plan/batch-id.js';
import { createCollector, type Collector } from '../report/collector.js';
import { plural } from '../report/plural.js';
import { buildRunReport, failedRows, type RunReport } from '../report/run-report.js';
import { createRejectionGuard } from './rejection-guard.js';
import type { SandboxHeld } from '../report/sandbox-lines.js';
import { connect, type ConnectOptions } from './connect.js';
import { newIsolation } from '../plan/bisect.js';
import { pairProfiles } from '../config/pair-profiles.js';
import { refuseFileFlagsForPlan } from '../config/input-flags.js';
import { prepareJobs } from '../rows/prepare.js';
import { runPipeline } from './run.js';
import { resolveSettings } from '../config/settings.js';
import { DEFAULT_PLAN_FILE, loadSyncPlan, type SyncPlan } from '../config/sync-plan.js';
import type { Job } from '../rows/types.js';
import type { RunSession, SyncEnvironment, SyncOutcome, SyncRequest } from './sync-types.js';

export async function loadPlanFor(request: Pick<SyncRequest, 'config' | 'cwd'>): Promise<SyncPlan | undefined> {
  const cwd = request.cwd ?? process.cwd();
  if (request.config) return loadSyncPlan(resolve(cwd, request.config));
  const implicit = resolve(cwd, DEFAULT_PLAN_FILE);
  return existsSync(implicit) ? loadSyncPlan(implicit) : undefined;
}

/** A plan's file below the working directory is named (in every report line) relative to it. */
function shown(path: string, cwd: string): string {
  if (cwd !== process.cwd()) return path;
  const rel = relative(cwd, path);
  return rel && !rel.startsWith('..') && !isAbsolute(rel) ? rel : path;
}

function jobsFor(request: SyncRequest, plan: SyncPlan | undefined): Job[] {
  const cwd = request.cwd ?? process.cwd();
  const profiles = request.profiles ?? (request.profile ? [request.profile] : []);
  if (request.files.length > 0) {
    // named as typed: `deals.csv:14` for `push deals.csv`, the full path for a full path
    return pairProfiles(request.files, profiles, (p) => resolve(cwd, p)).map(({ file, kind, profile, beside }) => ({
      file: cwd === process.cwd() ? file : resolve(cwd, file),
      // FILE:KIND is the file's own; --resource is for the files not paired with a kind
      resource: kind ?? request.resource,
      profile: profile ? resolve(cwd, profile) : undefined,
      ...(beside ? { profileBeside: true } : {}),
      reader: request.reader,
    }));
  }
  // a flag for the files named, given with none, is refused rather than dropped
  if (plan) refuseFileFlagsForPlan({ ...request, profiles }, shown(plan.path, cwd));
  return (plan?.jobs ?? []).map((job) => ({ ...job, file: shown(job.file, cwd) }));
}

/** Exit code of a finished run: 3 aborted, 1 some rows not accepted, 0 otherwise. */
export function exitCodeOf(report: RunReport, interrupted: boolean): number {
  if (report.aborted || interrupted) return EXIT.aborted;
  return failedRows(report) > 0 ? EXIT.notAccepted : EXIT.ok;
}

/** A guard or the session can stop the run like an interrupt, but with a reason of its own. */
function stopper(environment: SyncEnvironment) {
  const controller = new AbortController();
  let stopped: { code: string; message: string } | undefined;
  const stop = (code: string, message: string) => {
    if (stopped) return;
    stopped = { code, message };
    environment.onNotice?.(message);
    controller.abort(message);
  };
  const signal = environment.signal ? AbortSignal.any([environment.signal, controller.signal]) : controller.signal;
  return { stop, signal, stopped: () => stopped };
}

type PipelineResult = Awaited<ReturnType<typeof runPipeline>>;

/**
 * Every row read must have exactly one outcome: a row without one would vanish from every count
 * and file, so a run where that happened says so loudly instead of reporting a clean result.
 */
function assertAccounted(collector: ReturnType<typeof createCollector>, read: PipelineResult['read']) {
  const unaccounted = collector.unaccounted(read);
  if (unaccounted.length === 0) return;
  const what = unaccounted.map((u) => `${u.resource}: ${plural(u.read, 'row')} read, ${plural(u.recorded, 'outcome')}`).join('; ');
  throw new BatchSyncError(
    'UNACCOUNTED',
    `batch-sync bug: rows without exactly one outcome (${what}); the accepted rows so far are recorded. Please report this`,
    EXIT.bug,
  );
}

/** Why the run ended early, if it did: the pipeline's own abort, a guard's or session's stop, or an interrupt. */
function abortedBy(result: PipelineResult, stopped: { code: string; message: string } | undefined) {
  if (result.aborted) {
    const { code, message, suggestion } = result.aborted;
    return { code, message: suggestion ? `${message}. ${suggestion}` : message };
  }
  if (stopped) return stopped;
  return result.interrupted ? { code: 'INTERRUPTED', message: 'the run was interrupted (SIGINT/SIGTERM): no new batches were taken' } : undefined;
}

/** The collector of the run's outcomes; every row not accepted also goes to the command's and the session's sinks. */
function collectorFor(environment: SyncEnvironment, session: RunSession | undefined): Collector {
  const sinks = [environment.sink, session?.sink].filter((f) => f !== undefined);
  if (sinks.length === 0) return createCollector();
  return createCollector({
    sink: (o) => {
      for (const f of sinks) f(o);
    },
  });
}

/** A profile nobody named is said once, so a file is never mapped by a surprise; a reader's notes go to --verbose. */
function tellPrepared(prepared: Awaited<ReturnType<typeof prepareJobs>>, environment: SyncEnvironment, cwd: string): void {
  for (const { job, source } of prepared) {
    if (job.profileBeside) environment.onEvent?.(`profile ${shown(job.profile!, cwd)} for ${job.file} (found beside it)`, 'info');
    for (const w of source.warnings) if (w.note) environment.onEvent?.(`${w.file}: ${w.message}`, 'debug');
  }
}

/** How a push connects: its key from the request's environment, its lines and its signals from the command's. */
function connectOptions(request: SyncRequest, environment: SyncEnvironment): ConnectOptions {
  const { cancel, keepSandbox: keep } = environment;
  return { env: request.env, cancel, say: (text, level) => environment.onEvent?.(text, level), keep };
}

export async function sync(request: SyncRequest, environment: SyncEnvironment = {}): Promise<SyncOutcome> {
  const startedAt = new Date();
  const plan = await loadPlanFor(request);
  const settings = resolveSettings(request.flags, plan, request.env, request.cwd);
  const runId = newRunId(startedAt);
  environment.onSettings?.(settings);
  const { stop, signal, stopped: stoppedBy } = stopper(environment);
  const notice = (text: string) => environment.onNotice?.(text);
  // each embedded sandbox starts empty: its state must never make a rerun skip rows
  const target = settings.sandbox ? `embedded-sandbox-${randomBytes(6).toString('hex')}` : settings.baseUrl;
  const jobs = jobsFor(request, plan);
  const session = environment.openSession?.({
    runId,
    target,
    startedAt,
    mode: request.mode,
    settings,
    inputs: jobs.map((j) => j.file),
    notice,
    stop,
  });
  let finished: { report: RunReport; exitCode: number } | undefined;
  let out: SyncOutcome | undefined;
  try {
    // after the lock: a run the lock refuses never announces a start to the monitor
    await environment.onStart?.();
    const prepared = await prepareJobs(jobs, settings.method, settings.engine);
    tellPrepared(prepared, environment, request.cwd ?? process.cwd());
    environment.onPrepared?.(prepared);
    session?.prepared?.(prepared);
    const collector = collectorFor(environment, session);
    const guard = request.mode === 'push' ? createRejectionGuard(settings) : undefined;
    const connection = request.mode === 'push' ? await connect(settings, connectOptions(request, environment)) : undefined;
    if (connection) environment.onConnected?.(() => connection.sender.flow?.());
    let sandbox: SandboxHeld | undefined;
    let result: PipelineResult;
    try {
      // the batches a killed run left in flight draw on the same isolation allowance as this run's
      const isolation = newIsolation(settings);
      if (connection) await session?.resume?.(connection.sender, signal, { isolation, warn: (d, resource) => collector.warn(d, resource) });
      result = await runPipeline(
        prepared,
        { ...settings, mode: request.mode, runId },
        {
          record: (o) => {
            collector.record(o);
            const tripped = guard?.record(o);
            if (tripped) stop('TOO_MANY_REJECTIONS', tripped);
          },
          warn: (d, resource) => {
            collector.warn(d, resource);
            environment.onWarning?.(d);
          },
          emit: environment.emit,
          planned: environment.onBatch,
          progress: environment.onProgress,
          ...environment.hooks,
          ...session?.hooks,
        },
        connection?.sender,
        signal,
        isolation,
      );
    } finally {
      sandbox = await connection?.close();
    }
    assertAccounted(collector, result.read);
    // the embedded sandbox held only this run's profiles: which owners its deals and activities lacked
    if (sandbox) sandbox = { ...sandbox, ownersMissing: { ...result.namedOwnersNotInRun, heldBack: settings.holdDependents } };
    const aborted = abortedBy(result, stoppedBy());
    // validate and dry runs send nothing: no isolation to report, whatever the flag
    const isolation = connection &&
      result.isolation && { requests: result.isolation.sent, budget: result.isolation.budget, overBudget: result.isolation.overBudget };
    const meta = {
      runId,
      mode: request.mode,
      startedAt,
      endedAt: new Date(),
      aborted,
      ownersNotInRun: result.ownersNotInRun,
      isolation,
      traffic: connection?.traffic(),
      notRead: result.notRead,
    };
    const report = buildRunReport(meta, collector, session?.preview?.());
    finished = { report, exitCode: exitCodeOf(report, result.interrupted) };
    // counted by the flow control as each request leaves: resent, isolating and retried ones too
    const sent = (meta.traffic?.requests ?? 0) > 0;
    out = { ...finished, sent, settings, plan, collector, inputs: prepared.map((p) => p.job.file), sandbox };
    return out;
  } finally {
    const failures = session?.close(finished) ?? [];
    // with the run's outcome they go to the command, which reports them with it; without one, now
    if (out) out.outputFailures = failures;
    else for (const failure of failures) notice(`error: ${failure}`);
  }
}
