// The read worker: reads, maps, validates and serialises the rows of every job on the second core,
// and hands them to the main thread in chunks (row-chunk.ts). What needs the whole run (duplicate
// ids, held-back dependents, the incremental state), sending and accounting stay on the main thread.
//
// That leaves the main thread idle much of the time, waiting for the worker. So when it is waiting
// (nothing queued but the chunk just posted) the worker only reads the next chunk and leaves its
// readable CSV rows RAW, for the main thread to map, validate and serialise itself — at most one
// chunk in two, which suits rows through a profile (they cost the worker more) as well as canonical
// ones; when the main thread has a backlog, the worker does it all. Mapping is per row (no mapper keeps state across rows), so
// each row gets the same outcome either way (test/rows/read-worker.test.ts).
import { parentPort, workerData } from 'node:worker_threads';
import type { Method } from '../contract/resources.js';
import type { ItemHash } from '../util/item-hash.js';
import { FingerprintSet } from '../state/row-fingerprint.js';
import { REF_PATHS, refsOf } from '../map/types.js';
import type { SourceWarning } from '../read/types.js';
import type { Diagnostic } from '../util/diagnostic.js';
import { createItemValidator } from '../validate/validate-item.js';
import { openJob, type JobSpec } from './prepare.js';
import { processRow, type KnownRows, type RowSink } from './process-row.js';
import { ChunkWriter } from './chunk-writer.js';

/**
 * A job as the worker reads it: as the main thread decided it (prepare.ts), and in incremental runs
 * with what it needs to fingerprint rows.
 */
export interface WorkerJob extends JobSpec {
  fingerprint?: {
    /** The job's fingerprint context (PreparedJob.fingerprint, from the main thread). */
    context: string;
    /** The state's fingerprints for the job's resource (FingerprintSet), if it has any. */
    known?: SharedArrayBuffer;
  };
}

export interface ReadWorkerData {
  jobs: WorkerJob[];
  method: Method;
  chunkRows: number;
  chunkBytes: number;
  /** Chunks the main thread may have unread before the worker waits. */
  ahead: number;
  /** Which chunks leave their rows RAW: as above (auto), every one or none (for tests). */
  split: 'auto' | 'all' | 'none';
  /** In auto, the chunks read in full between two left RAW. */
  rawGap: number;
  /**
   * One Int32 the main thread increments as it takes each chunk: a busy worker sees messages only
   * when it next yields to its event loop, too late to tell whether the main thread is waiting now.
   */
  taken: SharedArrayBuffer;
}

export type ReadWorkerMessage =
  | { type: 'chunk'; chunk: import('./row-chunk.js').RowChunk }
  /** `warnings`: the file-level warnings found while reading (the ones found opening it the main thread has). */
  | { type: 'job-end'; warnings: SourceWarning[] }
  | { type: 'end' }
  | { type: 'error'; error: { name: string; message: string; code?: string; suggestion?: string } };

const data = workerData as ReadWorkerData;
const port = parentPort!;
const taken = new Int32Array(data.taken);
let posted = 0;
/** Chunks posted that the main thread has not taken yet. */
const unread = () => posted - Atomics.load(taken, 0);
let wake: (() => void) | undefined;
port.on('message', (m: unknown) => {
  // 'read' follows each chunk the main thread takes, to wake a worker waiting for room; 'free'
  // brings a chunk's buffers back once the main thread is done with them: dropped here
  if (m !== 'read') return;
  wake?.();
  wake = undefined;
});

async function post(writer: ChunkWriter): Promise<void> {
  const { chunk, transfer } = writer.finish();
  port.postMessage({ type: 'chunk', chunk } satisfies ReadWorkerMessage, transfer);
  posted += 1;
  while (unread() >= data.ahead) await new Promise<void>((resolve) => (wake = resolve));
}

/** A row's result into the chunk being filled (processRow's sink in the worker). */
class ChunkSink implements RowSink {
  constructor(public w: ChunkWriter) {}
  warn(d: Diagnostic): void {
    this.w.warn(d);
  }
  skip(reason: string): void {
    this.w.verdict({ kind: 'skip', reason });
  }
  invalid(externalId: string | undefined, field: string | undefined, column: string | undefined, detail: string): void {
    this.w.verdict({ kind: 'invalid', externalId, field, column, detail });
  }
  same(fp: ItemHash, ids: readonly unknown[] | undefined, item: Record<string, unknown> | undefined): void {
    this.w.fingerprint(fp);
    this.w.same(ids ?? refsOf(item!));
  }
  valid(fp: ItemHash | undefined, ids: readonly unknown[] | undefined, item: Record<string, unknown> | undefined, json: string | undefined): void {
    if (fp !== undefined) this.w.fingerprint(fp);
    this.w.item(json ?? JSON.stringify(item), ids ?? refsOf(item!));
  }
}

/** The state's fingerprints as of the run's start: a row whose fingerprint is in the set is unchanged. */
class KnownSet implements KnownRows {
  constructor(private readonly set: FingerprintSet | undefined) {}
  mayKnow(fp: ItemHash): boolean {
    return this.set?.has(fp) === true;
  }
  knows(): boolean {
    return true;
  }
}

async function main(): Promise<void> {
  for (let j = 0; j < data.jobs.length; j++) {
    const job = data.jobs[j]!;
    const prepared = await openJob(job, data.method);
    const { source, mapper, resource } = prepared;
    const opened = source.warnings.length;
    // the worker opens the file again, later than the main thread: if it changed in between, its
    // rows would be built from another context than the main thread's. A fingerprint must name the
    // context its item was built in, so then this job has none (its chunks carry none, and the main
    // thread leaves its RAW rows without one too)
    const asked = job.fingerprint;
    const fingerprint = asked !== undefined && asked.context === prepared.fingerprint ? asked : undefined;
    const ctx = {
      mapper,
      validate: createItemValidator(resource, data.method),
      header: source.header,
      fingerprint: fingerprint?.context,
      known: new KnownSet(fingerprint?.known === undefined ? undefined : new FingerprintSet(fingerprint.known)),
      ids: new Array<unknown>(REF_PATHS.length),
    };
    const layout =
      source.format === 'csv' && source.header !== undefined && source.detected.delimiter !== undefined
        ? { header: source.header, delimiter: source.detected.delimiter }
        : undefined;
    let sinceRaw = data.rawGap;
    const leaveRaw = () => {
      // the chunk just posted may not be taken yet: the main thread is waiting when nothing else is queued
      const waiting = unread() <= 1;
      const raw = data.split === 'all' || (data.split === 'auto' && layout !== undefined && waiting && sinceRaw >= data.rawGap);
      sinceRaw = raw ? 0 : sinceRaw + 1;
      return raw;
    };
    const sink = new ChunkSink(new ChunkWriter(j, data.chunkRows, layout, fingerprint !== undefined));
    let raw = leaveRaw();
    for await (const record of source.records) {
      if (!sink.w.fits(record.file, data.chunkBytes)) {
        await post(sink.w);
        sink.w = new ChunkWriter(j, data.chunkRows, layout, fingerprint !== undefined);
        raw = leaveRaw();
      }
      sink.w.row(record);
      if (raw && record.kind === 'row') sink.w.raw();
      else processRow(record, ctx, sink);
    }
    if (sink.w.count > 0) await post(sink.w);
    port.postMessage({ type: 'job-end', warnings: source.warnings.slice(opened) } satisfies ReadWorkerMessage);
  }
  port.postMessage({ type: 'end' } satisfies ReadWorkerMessage);
}

main().catch((error: unknown) => {
  const e = error as { name?: string; message?: string; code?: string; suggestion?: string };
  port.postMessage({
    type: 'error',
    error: { name: e.name ?? 'Error', message: e.message ?? String(error), code: typeof e.code === 'string' ? e.code : undefined, suggestion: e.suggestion },
  } satisfies ReadWorkerMessage);
});
