// Ties together what an unattended push needs around the pipeline: the lock on the state directory,
// the incremental state, and the run's folder of reports. Opened before any input is read, closed
// after the run however it ended; it never prints, it hands texts to `notice`.
import type { Method } from '../contract/resources.js';
import { BatchSyncError, ConfigError } from '../errors.js';
import { createErrorsCsv, type ErrorsCsvWriter } from '../report/errors-csv.js';
import type { RunHooks } from '../run/run.js';
import type { RunSession, SessionContext } from '../run/sync.js';
import { pruneReports, runFolder, writeRunReport } from './report-archive.js';
import { acquireLock, describeHolder } from './run-lock.js';
import { openStateStore, type StateStore } from './state-store.js';

const message = (error: unknown) => (error instanceof Error ? error.message : String(error));

/** A directory we cannot create or write (ENOTDIR, EACCES, EROFS…) is the user's to fix, not a bug: exit 2, naming it. */
function unusableDir(what: string, error: unknown): unknown {
  if (error instanceof BatchSyncError || typeof (error as NodeJS.ErrnoException)?.code !== 'string') return error;
  return new ConfigError(`cannot use the ${what}: ${message(error)}`, {
    suggestion: 'check that the path is a directory you can write to, or choose another one',
    cause: error,
  });
}

/**
 * What a recorded acceptance is valid for. A POST acceptance says nothing about what a PATCH of
 * the same item would do, and one environment's acceptance says nothing about another's (staging
 * and production behind different base URLs): each method and target keeps its own hashes, so a
 * new target gets every row once instead of missing the ones another target already has.
 */
export function stateScope(method: Method, target: string | undefined): string {
  let where = target ?? 'no-base-url';
  try {
    const url = new URL(where);
    where = `${url.origin}${url.pathname.replace(/\/+$/, '')}`;
  } catch {
    // not a URL (the embedded sandbox's per-run name): used as it is
  }
  return `${method}@${where}`;
}

/** What an incremental run asks the state: whether a row or an item is unchanged, and the fingerprints for the read worker. */
function incrementalHooks(store: StateStore, scope: string): Pick<RunHooks, 'unchanged' | 'learn' | 'sameRow' | 'fingerprints'> {
  return {
    unchanged: (resource, id, json) => store.unchanged(scope, resource, id, json),
    learn: (resource, id, fp) => store.learn(scope, resource, id, fp),
    sameRow: (resource, id, fp) => store.sameRow(scope, resource, id, fp),
    fingerprints: (resource) => store.fingerprints(scope, resource),
  };
}

/** Incremental dry runs only consult the state: no lock, nothing written. */
function dryRunSession(ctx: SessionContext, stateDir: string): RunSession | undefined {
  if (!ctx.settings.incremental) return undefined;
  const store = openStateStore(stateDir, { readOnly: true });
  const scope = stateScope(ctx.settings.method, ctx.target);
  return { hooks: incrementalHooks(store, scope), close: () => undefined };
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
  let store: StateStore | undefined;
  let errors: ErrorsCsvWriter | undefined;
  let folder: string | undefined;
  try {
    if (lock.tookOverFrom) notice(`warning: took over the lock of a run that is gone (${describeHolder(lock.tookOverFrom)})`);
    if (settings.recordState) {
      store = openStateStore(stateDir, {
        heldSince: ctx.startedAt,
        onFailure: (error) => ctx.stop('STATE_NOT_SAVED', `stopped: cannot write the state journal in ${stateDir}: ${message(error)}`),
      });
      for (const note of store.notes) notice(`warning: ${note}`);
    }
    if (settings.reportDir !== undefined) {
      folder = runFolder(settings.reportDir, ctx.runId);
      errors = createErrorsCsv({ dir: folder, inputs: ctx.inputs });
    }
  } catch (error) {
    lock.release();
    throw unusableDir('state or report directory', error);
  }

  const method = stateScope(settings.method, ctx.target);
  // a record accepted by POST is no longer what the PATCH state remembers of it, and the reverse
  const others = [stateScope(settings.method === 'post' ? 'patch' : 'post', ctx.target)];
  const live = store;
  return {
    hooks: live && {
      accepted: (resource, meta, json) => {
        if (meta.externalId !== undefined) live.accepted(method, resource, meta.externalId, json, others, meta.fp);
      },
      // --full sends every row but still records each row's fingerprint for the next incremental run
      ...(settings.incremental ? incrementalHooks(live, method) : { sameRow: () => false, fingerprints: () => undefined }),
      durable: () => live.durable(),
    },
    // an unchanged row needs no fixing: it stays out of the errors CSV (a nightly run would
    // otherwise write nearly every row there)
    sink: errors && ((o) => errors.write(o)),
    prepared(jobs) {
      for (const { job, source } of jobs) errors?.declareSource(job.file, { header: source.header, delimiter: source.detected.delimiter });
    },
    close(result) {
      try {
        try {
          live?.close();
        } catch (error) {
          notice(`error: the state in ${stateDir} was not saved: ${message(error)}; the next run sends these rows again`);
        }
        if (!result || folder === undefined || settings.reportDir === undefined) {
          errors?.abort();
          return;
        }
        try {
          const files = errors?.finish().files ?? [];
          writeRunReport(folder, { ...result.report, errorFiles: files.map((f) => f.path) }, result.exitCode);
          pruneReports(settings.reportDir, settings.keepReports, ctx.runId);
        } catch (error) {
          errors?.abort();
          notice(`error: the run's report was not written to ${folder}: ${message(error)}`);
        }
      } finally {
        lock.release();
      }
    },
  };
}
