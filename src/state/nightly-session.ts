// Ties together what an unattended push needs around the pipeline: the lock on the state directory,
// the incremental state, and the run's folder of reports. Opened before any input is read, closed
// after the run however it ended; it never prints, it hands texts to `notice`.
import type { Method } from '../contract/resources.js';
import { BatchSyncError, ConfigError, EXIT } from '../errors.js';
import { createErrorsCsv, type ErrorsCsvWriter } from '../report/errors-csv.js';
import type { RunHooks } from '../run/run.js';
import type { ResumeContext, RunSession, SessionContext } from '../run/sync.js';
import { pruneReports, runFolder, writeRunReport } from './report-archive.js';
import { acquireLock, describeHolder } from './run-lock.js';
import { openStateStore, type StateStore } from './state-store.js';
import { ensureInFlightDir, loadInFlight, removeInFlight, writeInFlight, type LoadedInFlight } from './in-flight.js';
import { hashItem, type ItemHash } from './item-hash.js';
import { answersOf, dispatchBatch, type DispatchContext } from '../send/dispatch.js';
import type { PlannedItem } from '../plan/batcher.js';
import { SEND_ORDER } from '../plan/order.js';
import type { RowOutcome } from '../report/outcome.js';
import type { RowMeta } from '../plan/row-meta.js';
import { unlinkSync } from 'node:fs';

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
  let inFlightDir: string | undefined;
  let leftInFlight: LoadedInFlight[] = [];
  // a journal that could not be written: the in-flight records stay, so the next run resends those batches under their ids
  let stateFailed = false;
  const method = stateScope(settings.method, ctx.target);
  try {
    if (lock.tookOverFrom) notice(`warning: took over the lock of a run that is gone (${describeHolder(lock.tookOverFrom)})`);
    if (settings.recordState) {
      store = openStateStore(stateDir, {
        heldSince: ctx.startedAt,
        onFailure: (error) => {
          stateFailed = true;
          ctx.stop('STATE_NOT_SAVED', `stopped: cannot write the state journal in ${stateDir}: ${message(error)}`);
        },
      });
      for (const note of store.notes) notice(`warning: ${note}`);
      const notes: string[] = [];
      const all = loadInFlight(stateDir, notes);
      for (const note of notes) notice(`warning: ${note}`);
      // another target's or method's batches wait for a run against it
      leftInFlight = all.filter((r) => r.scope === method).sort((a, b) => SEND_ORDER.indexOf(a.resource) - SEND_ORDER.indexOf(b.resource) || (a.batchId < b.batchId ? -1 : a.batchId > b.batchId ? 1 : 0));
      // an embedded sandbox lived and died with its run: its batches can never be resent
      const gone = all.filter((r) => r.scope !== method && r.scope.includes('@embedded-sandbox-'));
      for (const r of gone) {
        try {
          unlinkSync(r.path);
        } catch {
          // gone already
        }
      }
      const elsewhere = all.length - leftInFlight.length - gone.length;
      if (elsewhere > 0) notice(`warning: ${elsewhere} batch(es) left in flight by an interrupted run against another target or method are kept in ${stateDir} for a run against it`);
      inFlightDir = ensureInFlightDir(stateDir);
    }
    if (settings.reportDir !== undefined) {
      folder = runFolder(settings.reportDir, ctx.runId);
      errors = createErrorsCsv({ dir: folder, inputs: ctx.inputs });
    }
  } catch (error) {
    lock.release();
    throw unusableDir('state or report directory', error);
  }

  // a record accepted by POST is no longer what the PATCH state remembers of it, and the reverse
  const others = [stateScope(settings.method === 'post' ? 'patch' : 'post', ctx.target)];
  const live = store;

  // in-flight records of answered batches, removed once their acknowledgements are on disk (or at close)
  const landing = new Set<string>();
  const removeNow = (path: string) => {
    if (!landing.delete(path)) return;
    try {
      unlinkSync(path);
    } catch {
      // gone already
    }
  };
  const landed = (path: string) => {
    if (stateFailed || live === undefined) return;
    landing.add(path);
    const syncing = live.durable();
    if (syncing) void syncing.then(() => (stateFailed ? undefined : removeNow(path)));
    else removeNow(path);
  };

  // the answers to the batches resent at the start, per resource and externalId, until a row of this run takes one
  const resent = new Map<string, { hash: ItemHash; outcome: RowOutcome }>();
  const resume = async (sender: Parameters<NonNullable<RunSession['resume']>>[0], signal: AbortSignal, run: ResumeContext) => {
    if (live === undefined) return;
    for (const record of leftInFlight) {
      if (signal.aborted) break;
      // its answer was journaled (every item is in the state as sent) and only the removal was cut
      // short: confirmed, nothing to resend (a batch holds only items the state did not have as they were)
      if (record.items.length > 0 && record.items.every((it, i) => it.externalId !== undefined && live.unchanged(method, record.resource, it.externalId, record.itemJson[i]!))) {
        landing.add(record.path);
        removeNow(record.path);
        continue;
      }
      notice(`note: resending batch ${record.batchId} (${record.items.length} ${record.resource} item(s)) that an interrupted run left in flight, with its own batchId and bytes`);
      const items: PlannedItem<RowMeta>[] = record.items.map((it, i) => ({ json: '', encoded: record.itemJson[i]!, bytes: it.bytes, meta: { file: it.file, line: it.line, externalId: it.externalId, fp: it.fp } }));
      const hashes = new Map<RowMeta, ItemHash>(items.map((item) => [item.meta, hashItem(item.encoded!)]));
      const decided = new Set<RowMeta>();
      const keep = (o: RowOutcome, meta: RowMeta | undefined) => {
        if (o.externalId === undefined || meta === undefined) return;
        resent.set(`${o.resource}\t${o.externalId}`, { hash: hashes.get(meta)!, outcome: o });
      };
      const metaOf = (o: RowOutcome) => items.find((i) => i.meta.file === o.file && i.meta.line === o.line && i.meta.externalId === o.externalId)?.meta;
      const dispatch: DispatchContext = {
        sender,
        resource: record.resource,
        method: settings.method,
        source: record.source,
        answers: answersOf(settings),
        isolation: run.isolation,
        warn: (d) => run.warn(d, record.resource),
        signal,
        record: (o) => keep(o, metaOf(o)),
        accepted: (item) => {
          if (item.meta.externalId !== undefined) live.accepted(method, record.resource, item.meta.externalId, item.encoded!, others, item.meta.fp);
        },
        abort: (reason) => ctx.stop('NOT_DELIVERED', `stopped: the batch ${record.batchId} left in flight by an interrupted run could not be resent: ${reason}`),
        beforeSend: () => live.durable(),
        settled: decided,
        stopped: () => (signal.aborted ? 'run stopped' : undefined),
      };
      const syncing = live.durable();
      if (syncing) await syncing;
      try {
        if (await dispatchBatch(dispatch, { batchId: record.batchId, items, body: record.body })) landed(record.path);
      } catch (error) {
        const e = error as { code?: string; message?: string };
        for (const item of items) {
          if (decided.has(item.meta)) continue;
          keep({ outcome: 'skipped', resource: record.resource, file: item.meta.file, line: item.meta.line, externalId: item.meta.externalId, message: 'NOT_DELIVERED', detail: `batch ${record.batchId}: ${message(error)}`, batchId: record.batchId }, item.meta);
        }
        ctx.stop(e.code ?? 'ERROR', e.message ?? String(error));
      }
    }
  };

  return {
    hooks: live && {
      accepted: (resource, meta, json) => {
        if (meta.externalId !== undefined) live.accepted(method, resource, meta.externalId, json, others, meta.fp);
      },
      // --full sends every row but still records each row's fingerprint for the next incremental run
      ...(settings.incremental ? incrementalHooks(live, method) : { sameRow: () => false, fingerprints: () => undefined }),
      durable: () => live.durable(),
      sending: async (resource, batch) => {
        const items = batch.items.map((i) => ({ externalId: i.meta.externalId, file: i.meta.file, line: i.meta.line, bytes: i.bytes, fp: i.meta.fp }));
        try {
          return await writeInFlight(inFlightDir!, { scope: method, resource, source: settings.source, batchId: batch.batchId, items }, batch.body);
        } catch (error) {
          ctx.stop('STATE_NOT_SAVED', `stopped: cannot record batch ${batch.batchId} as in flight in ${inFlightDir}: ${message(error)}`);
          return undefined;
        }
      },
      landed,
      resent: (resource, externalId, json) => {
        if (resent.size === 0) return undefined;
        const key = `${resource}\t${externalId}`;
        const prior = resent.get(key);
        if (prior === undefined) return undefined;
        const item = json();
        // a row the state knows by its fingerprint is the one the resend's acceptance recorded; any
        // other row is that item only if its JSON hashes the same (else it changed: it is sent)
        const same = item === undefined ? prior.outcome.outcome === 'accepted' : ((h) => h.hi === prior.hash.hi && h.lo === prior.hash.lo)(hashItem(item));
        if (!same) return undefined;
        resent.delete(key);
        return prior.outcome;
      },
    },
    resume,
    // an unchanged row needs no fixing: it stays out of the errors CSV (a nightly run would
    // otherwise write nearly every row there)
    sink: errors && ((o) => errors.write(o)),
    prepared(jobs) {
      for (const { job, source } of jobs) errors?.declareSource(job.file, { header: source.header, delimiter: source.detected.delimiter });
    },
    close(result) {
      // what could not be written: handed back to be reported with the run (exit 3 once anything was sent)
      const failures: string[] = [];
      try {
        try {
          live?.close();
          // every acknowledgement is on disk now: the answered batches' in-flight records can go
          if (!stateFailed) for (const path of [...landing]) removeNow(path);
        } catch (error) {
          failures.push(`the state in ${stateDir} was not saved: ${message(error)}; the next run sends these rows again`);
        }
        if (resent.size > 0) {
          const ids = [...resent.values()].map((r) => `${r.outcome.externalId} (${r.outcome.outcome}${r.outcome.message ? ` ${r.outcome.message}` : ''})`);
          notice(`note: ${resent.size} item(s) of the batch(es) resent for an interrupted run are not rows of this run (their rows changed or are not in its input); accepted ones are recorded in the state: ${ids.slice(0, 10).join(', ')}${ids.length > 10 ? ', …' : ''}`);
        }
        if (!result || folder === undefined || settings.reportDir === undefined) {
          errors?.abort();
          return failures;
        }
        try {
          const files = errors?.finish().files ?? [];
          writeRunReport(folder, { ...result.report, errorFiles: files.map((f) => f.path) }, failures.length > 0 ? Math.max(result.exitCode, EXIT.aborted) : result.exitCode);
          pruneReports(settings.reportDir, settings.keepReports, ctx.runId);
        } catch (error) {
          errors?.abort();
          failures.push(`the run's report was not written to ${folder}: ${message(error)}`);
        }
        return failures;
      } finally {
        lock.release();
      }
    },
  };
}
