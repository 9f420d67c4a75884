// Ties together what an unattended push needs around the pipeline: the lock on the state directory,
// the incremental state, the batches an interrupted run left in flight, and the run's folder of
// reports. Opened before any input is read, closed after the run however it ended; it never prints,
// it hands texts to `notice`.
import { BatchSyncError, ConfigError, EXIT, errorMessage } from '../errors.js';
import { createErrorsCsv, type ErrorsCsvWriter } from '../report/errors-csv.js';
import { reportJson } from '../report/render-json.js';
import { summaryLine } from '../report/summary-line.js';
import { ensureInFlightDir, loadInFlightFor, type LoadedInFlight } from '../state/in-flight.js';
import { inFlightWriter, type InFlightWriter } from '../state/in-flight-writer.js';
import { dropEmptyRunFolder, pruneReports, runFolder, writeRunReport } from '../state/report-archive.js';
import { acquireLock, describeHolder } from '../state/run-lock.js';
import { stateScope } from '../state/state-scope.js';
import { openStateStore, type StateStore } from '../state/state-store.js';
import { answersOf } from '../send/dispatch.js';
import { createLanding, createResender, type Landing, type Resender } from '../send/resend.js';
import type { RunHooks } from './run.js';
import type { Resource } from '../contract/resources.js';
import type { RunSession, SessionContext } from './sync-types.js';

/** A directory we cannot create or write (ENOTDIR, EACCES, EROFS…) is the user's to fix, not a bug: exit 2, naming it. */
function unusableDir(what: string, error: unknown): unknown {
  if (error instanceof BatchSyncError || typeof (error as NodeJS.ErrnoException)?.code !== 'string') return error;
  return new ConfigError(`cannot use the ${what}: ${errorMessage(error)}`, {
    suggestion: 'check that the path is a directory you can write to, or choose another one',
    cause: error,
  });
}

/** What an incremental run asks the state: whether a row or an item is unchanged, and the fingerprints for the read worker. */
function incrementalHooks(store: StateStore, scope: string): Pick<RunHooks, 'unchanged' | 'holds' | 'learn' | 'sameRow' | 'fingerprints'> {
  return {
    unchanged: (resource, id, json) => store.unchanged(scope, resource, id, json),
    holds: (resource, id, json) => store.unchanged(scope, resource, id, json),
    learn: (resource, id, fp) => store.learn(scope, resource, id, fp),
    sameRow: (resource, id, fp) => store.sameRow(scope, resource, id, fp),
    fingerprints: (resource) => store.fingerprints(scope, resource),
  };
}

/**
 * Incremental dry runs only consult the state: no lock, nothing written. Each row the state does
 * not find unchanged is counted new or changed by whether the state holds its id (the preview).
 */
function dryRunSession(ctx: SessionContext, stateDir: string): RunSession | undefined {
  if (!ctx.settings.incremental) return undefined;
  const store = openStateStore(stateDir, { readOnly: true });
  const scope = stateScope(ctx.settings.method, ctx.target);
  const hooks = incrementalHooks(store, scope);
  const sent: Partial<Record<Resource, { new: number; changed: number }>> = {};
  const unchanged: RunHooks['unchanged'] = (resource, id, json) => {
    if (store.unchanged(scope, resource, id, json)) return true;
    (sent[resource] ??= { new: 0, changed: 0 })[store.known(scope, resource, id) ? 'changed' : 'new']++;
    return false;
  };
  return { hooks: { ...hooks, unchanged }, preview: () => sent, close: () => undefined };
}

/** What the session opened under its lock. `failed`: the state journal could not be written. */
interface Opened {
  store?: StateStore;
  leftInFlight: LoadedInFlight[];
  inFlightDir?: string;
  inFlight?: InFlightWriter;
  folder?: string;
  errors?: ErrorsCsvWriter;
  failed: { state: boolean };
}

/** Opens the state, its in-flight records and the run's report folder; throws with nothing left open but the lock. */
function openUnderLock(ctx: SessionContext, stateDir: string, scope: string): Opened {
  const { settings, notice } = ctx;
  const opened: Opened = { leftInFlight: [], failed: { state: false } };
  if (settings.recordState) {
    opened.store = openStateStore(stateDir, {
      heldSince: ctx.startedAt,
      onFailure: (error) => {
        opened.failed.state = true;
        ctx.stop('STATE_NOT_SAVED', `stopped: cannot write the state journal in ${stateDir}: ${errorMessage(error)}`);
      },
    });
    for (const note of opened.store.notes) notice(`warning: ${note}`);
    const notes: string[] = [];
    opened.leftInFlight = loadInFlightFor(stateDir, scope, notes);
    for (const note of notes) notice(`warning: ${note}`);
    opened.inFlightDir = ensureInFlightDir(stateDir);
    opened.inFlight = inFlightWriter(opened.inFlightDir);
  }
  if (settings.reportDir !== undefined) {
    const folder = runFolder(settings.reportDir, ctx.runId);
    try {
      opened.errors = createErrorsCsv({ dir: folder, inputs: ctx.inputs });
    } catch (error) {
      dropEmptyRunFolder(folder);
      throw error;
    }
    opened.folder = folder;
  }
  return opened;
}

export function openNightlySession(ctx: SessionContext): RunSession | undefined {
  const { settings, notice } = ctx;
  const stateDir = settings.stateDir;
  if (stateDir === undefined || ctx.mode === 'validate') return undefined;
  if (ctx.mode === 'dry-run') return dryRunSession(ctx, stateDir);

  let lock: ReturnType<typeof acquireLock>;
  try {
    lock = acquireLock(stateDir, ctx.runId, ctx.startedAt);
  } catch (error) {
    throw unusableDir('state directory', error);
  }
  const scope = stateScope(settings.method, ctx.target);
  let opened: Opened;
  try {
    if (lock.tookOverFrom) notice(`warning: took over the lock of a run that is gone (${describeHolder(lock.tookOverFrom)})`);
    opened = openUnderLock(ctx, stateDir, scope);
  } catch (error) {
    lock.release();
    throw unusableDir('state or report directory', error);
  }
  const { store: live, failed, errors } = opened;
  // a journal that could not be written: the in-flight records stay, so the next run resends those batches under their ids
  const landing = createLanding(live, () => failed.state);
  // a record accepted by POST is no longer what the PATCH state remembers of it, and the reverse
  const others = [stateScope(settings.method === 'post' ? 'patch' : 'post', ctx.target)];
  const resender =
    live &&
    createResender({
      records: opened.leftInFlight,
      store: live,
      scope,
      others,
      method: settings.method,
      answers: answersOf(settings),
      landing,
      notice,
      stop: ctx.stop,
    });
  return {
    hooks: live && {
      accepted: (resource, meta, json) => {
        if (meta.externalId !== undefined) live.accepted(scope, resource, meta.externalId, json, others, meta.fp);
      },
      // --full sends every row but still records each row's fingerprint for the next incremental run
      ...(settings.incremental ? incrementalHooks(live, scope) : { sameRow: () => false, fingerprints: () => undefined }),
      durable: () => live.durable(),
      sending: async (resource, batch) => {
        const items = batch.items.map((i) => ({ externalId: i.meta.externalId, file: i.meta.file, line: i.meta.line, bytes: i.bytes, fp: i.meta.fp }));
        try {
          return await opened.inFlight!.write({ scope, resource, source: settings.source, batchId: batch.batchId, items }, batch.body);
        } catch (error) {
          ctx.stop('STATE_NOT_SAVED', `stopped: cannot record batch ${batch.batchId} as in flight in ${opened.inFlightDir}: ${errorMessage(error)}`);
          return undefined;
        }
      },
      landed: landing.landed,
      withdrawn: landing.drop,
      resent: resender!.resent,
    },
    resume: resender?.resume,
    // an unchanged row needs no fixing: it stays out of the errors CSV (a nightly run would
    // otherwise write nearly every row there)
    sink: errors && ((o) => errors.write(o)),
    prepared(jobs) {
      for (const { job, source } of jobs) errors?.declareSource(source.rowsFile ?? job.file, { header: source.header, delimiter: source.detected.delimiter });
    },
    close(result) {
      try {
        return closeSession(ctx, stateDir, opened, { landing, resender }, result);
      } finally {
        lock.release();
      }
    },
  };
}

/** Saves the state and writes the run's report folder; returns what could not be written (exit 3 once anything was sent). */
function closeSession(
  ctx: SessionContext,
  stateDir: string,
  opened: Opened,
  inFlight: { landing: Landing; resender?: Resender },
  result: Parameters<RunSession['close']>[0],
): string[] {
  const { settings, notice } = ctx;
  const { errors, folder } = opened;
  const failures: string[] = [];
  try {
    opened.store?.close();
    // every acknowledgement is on disk now: the answered batches' in-flight records can go
    inFlight.landing.flush();
  } catch (error) {
    failures.push(`the state in ${stateDir} was not saved: ${errorMessage(error)}; the next run sends these rows again`);
  }
  const leftover = inFlight.resender?.leftover();
  if (leftover !== undefined) notice(leftover);
  if (!result || folder === undefined || settings.reportDir === undefined) {
    errors?.abort();
    // the run failed before it had a report (exit 2): its folder would hold nothing
    if (folder !== undefined) dropEmptyRunFolder(folder);
    return failures;
  }
  try {
    const files = errors?.finish().files ?? [];
    const report = { ...result.report, errorFiles: files.map((f) => f.path) };
    const exitCode = failures.length > 0 ? Math.max(result.exitCode, EXIT.aborted) : result.exitCode;
    writeRunReport(folder, { json: `${JSON.stringify({ ...reportJson(report), exitCode }, null, 2)}\n`, summary: `${summaryLine(report, exitCode)}\n` });
    pruneReports(settings.reportDir, settings.keepReports, ctx.runId);
  } catch (error) {
    errors?.abort();
    failures.push(`the run's report was not written to ${folder}: ${errorMessage(error)}`);
  }
  return failures;
}
