// The rows of one resource's files, read here or taken from the read worker's chunks, each handed
// through processRow (or as the worker left it) to the resource's Admission; a batch a row
// completes is sent before the next row is read.
import type { Resource } from '../contract/resources.js';
import type { PlannedBatch } from '../plan/batcher.js';
import type { SourceWarning } from '../read/types.js';
import type { ItemHash } from '../util/item-hash.js';
import { FingerprintSet } from '../state/row-fingerprint.js';
import { createItemValidator } from '../validate/validate-item.js';
import { REF_PATHS } from '../map/types.js';
import type { Admission } from './admission.js';
import { ChunkLease, LazyRow, lazyRow, type RowRef } from './chunk-items.js';
import type { PreparedJob } from './prepare.js';
import { processRow, type KnownRows, type RowContext } from './process-row.js';
import { JOB_END, type WorkerRows } from './read-in-worker.js';
import { ChunkReader } from './chunk-reader.js';
import { RAW, SAME, type RowChunk } from './row-chunk.js';
import type { RunControl } from './send-batch.js';
import type { RowMeta } from './types.js';
import type { NotRead } from '../report/run-report.js';

/** One resource's reading: its files, where its rows go, and how its batches leave. */
export interface ResourceRead {
  resource: Resource;
  jobs: readonly PreparedJob[];
  admission: Admission;
  send(batch: PlannedBatch<RowMeta>): Promise<void>;
  /** Whether rows are fingerprinted (incremental state), and the state's fingerprints of the resource. */
  fingerprinting: boolean;
  known: SharedArrayBuffer | undefined;
  /** Where reading stopped once the run was stopped (a signal, a guard): each file's rows not read. */
  notRead: NotRead[];
}

/**
 * Once the run is stopped, no further row is read: the rest of a file is one range in the report,
 * not read to be listed row by row (that took 7-18 s on a 300,000-row file, whatever the signal).
 */
const halted = (run: RunControl) => run.signal?.aborted === true;

/** The job's rows not read: from `line` on (`rows` of it read before), or all of them when reading never started. */
function leftUnread(r: ResourceRead, job: PreparedJob, at?: { line: number; file: string; rows: number }): void {
  const file = at?.file ?? job.source.rowsFile ?? job.source.file;
  r.notRead.push(at ? { resource: r.resource, file, fromLine: at.line, rowsRead: at.rows } : { resource: r.resource, file });
}

/** Rows read on this thread. */
export async function readHere(run: RunControl, r: ResourceRead): Promise<void> {
  for (const job of r.jobs) {
    if (halted(run)) {
      leftUnread(r, job);
      continue;
    }
    const ctx = rowContext(run, r, job);
    const opened = job.source.warnings.length;
    fileWarnings(run, job.source.warnings, r.resource);
    let rows = 0;
    for await (const record of job.source.records) {
      if (halted(run)) {
        leftUnread(r, job, { line: record.line, file: record.file, rows });
        break;
      }
      rows += 1;
      // a CSV row builds its cells into an object only if an outcome needs them
      const row: RowRef = record.kind === 'item' ? undefined : record.kind === 'row' ? new LazyRow(() => record.row) : record.row;
      r.admission.at(record.file, record.line, row);
      processRow(record, ctx, r.admission);
      await rowDone(run, r);
    }
    fileWarnings(run, job.source.warnings.slice(opened), r.resource);
  }
}

/** Rows the read worker read (and mostly mapped, validated and serialised: see read-worker.ts). */
export async function readFromWorker(run: RunControl, r: ResourceRead, worker: WorkerRows, chunks: AsyncGenerator<RowChunk | typeof JOB_END>): Promise<void> {
  for (const job of r.jobs) {
    if (halted(run)) {
      // the worker's chunks of this job and the next are left in its queue: it is ended with the run
      leftUnread(r, job);
      continue;
    }
    const ctx = rowContext(run, r, job);
    fileWarnings(run, job.source.warnings, r.resource);
    if (!(await chunksOf(run, r, job, ctx, worker, chunks))) return;
  }
}

/** One job's chunks, row by row; false when the run stopped before its last row. */
async function chunksOf(
  run: RunControl,
  r: ResourceRead,
  job: PreparedJob,
  ctx: RowContext,
  worker: WorkerRows,
  chunks: AsyncGenerator<RowChunk | typeof JOB_END>,
): Promise<boolean> {
  let rows = 0;
  for (;;) {
    const next = await chunks.next();
    if (next.done) throw new Error('the read worker ended early');
    if (next.value === JOB_END) {
      fileWarnings(run, worker.lateWarnings(), r.resource);
      return true;
    }
    const reader = new ChunkReader(next.value, job.source.header);
    const lease = new ChunkLease(reader.chunk, worker.giveBack);
    // a RAW row is fingerprinted only in a chunk the worker fingerprints: read in the same context
    const fingerprinted = ctx.fingerprint !== undefined && reader.chunk.fps.length > 0;
    while (reader.next()) {
      if (halted(run)) {
        leftUnread(r, job, { line: reader.line, file: reader.chunk.file, rows });
        lease.end();
        return false;
      }
      rows += 1;
      r.admission.at(reader.chunk.file, reader.line, lazyRow(reader), lease);
      takeRow(reader, ctx, r.admission, fingerprinted);
      await rowDone(run, r);
    }
    lease.end();
  }
}

/** Hands one row of a chunk to `admission` as the worker left it: decided, RAW (processed here), SAME or valid. */
function takeRow(reader: ChunkReader, ctx: RowContext, admission: Admission, fingerprinted: boolean): void {
  const extra = reader.extra;
  if (extra?.warnings) for (const w of extra.warnings) admission.warn(w);
  const verdict = extra?.verdict;
  if (verdict) {
    if (verdict.kind === 'skip') admission.skip(verdict.reason);
    else admission.invalid(verdict.externalId, verdict.field, verdict.column, verdict.detail);
    return;
  }
  const kind = reader.itemBytes;
  if (kind === RAW) return processRow(reader.rawRecord(), ctx, admission, fingerprinted);
  const fp = reader.fingerprint();
  // SAME: the state held this row's item when the run started (the worker found its fingerprint)
  if (kind === SAME) {
    reader.takeIds();
    return admission.same(fp!, reader.ids, undefined);
  }
  const encoded = reader.takeItem();
  admission.encoded(fp, reader.ids, encoded);
}

async function rowDone(run: RunControl, r: ResourceRead): Promise<void> {
  const counts = run.counts;
  counts.rowsRead += 1;
  const done = r.admission.take();
  if (done) await r.send(done);
  // where the reading is: the progress line measures it against the file's size
  counts.file = r.admission.file;
  counts.line = r.admission.line;
  if (counts.rowsRead % 2048 === 0) run.hooks.progress?.(counts);
}

/** What a job's rows are processed with on this thread. */
function rowContext(run: RunControl, r: ResourceRead, job: PreparedJob): RowContext {
  return {
    mapper: job.mapper,
    validate: createItemValidator(r.resource, run.settings.method, run.settings.engine !== 'simple'),
    header: job.source.header,
    fingerprint: r.fingerprinting ? job.fingerprint : undefined,
    known: new StateRows(run, r.resource, r.known),
    ids: new Array<unknown>(REF_PATHS.length),
  };
}

/** The state's fingerprints: a quick test in its set, when it gave one, then the pair of id and fingerprint. */
class StateRows implements KnownRows {
  private readonly set: FingerprintSet | undefined;
  constructor(
    private readonly run: RunControl,
    private readonly resource: Resource,
    known: SharedArrayBuffer | undefined,
  ) {
    this.set = known === undefined ? undefined : new FingerprintSet(known);
  }
  mayKnow(fp: ItemHash): boolean {
    // without a set, every row may be known: the pair decides
    return this.set === undefined ? this.run.hooks.fingerprints === undefined : this.set.has(fp);
  }
  knows(externalId: string, fp: ItemHash): boolean {
    return this.run.hooks.sameRow!(this.resource, externalId, fp);
  }
}

/**
 * What the reader found about a whole file (encoding guessed, title rows, unnamed columns…): a
 * warning under the file's resource, naming the file and the line where there is one.
 */
function fileWarnings(run: RunControl, list: readonly SourceWarning[], resource: Resource): void {
  for (const w of list) if (!w.note) run.hooks.warn({ severity: 'warning', file: w.file, line: w.line, reason: w.message }, resource);
}
