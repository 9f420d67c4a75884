// Starts the read worker (read-worker.ts) and hands its chunks over one by one, in order. The
// worker stays a few chunks ahead and no further, so memory stays bounded when sending is slower.
import { existsSync, statSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { Method } from '../contract/resources.js';
import { formatOf } from '../read/open.js';
import type { SourceWarning } from '../read/types.js';
import { BatchSyncError, ConfigError, InputError, UsageError } from '../errors.js';
import type { ReadWorkerData, ReadWorkerMessage, WorkerJob } from './read-worker.js';
import type { RowChunk } from './row-chunk.js';
import type { Engine, ReadTuning } from '../config/settings.js';

/**
 * Below this much input the worker costs more than it saves: starting it and its isolate outweigh
 * the second core. Validate, whose main thread sends nothing, gains later than a push. The
 * thresholds come from one-thread-against-worker runs (BENCHMARKS.md, "Figures behind code choices").
 */
const WORKER_MIN_BYTES = { sends: 10 * 1024 * 1024, checks: 24 * 1024 * 1024 };

function workerFile(): string | undefined {
  const here = new URL('./read-worker.js', import.meta.url);
  if (existsSync(fileURLToPath(here))) return fileURLToPath(here);
  // run from the TypeScript sources (the tests): the built worker, which test/global-setup.ts
  // rebuilds whenever it is older than the sources
  const built = new URL('../../dist/rows/read-worker.js', import.meta.url);
  return existsSync(fileURLToPath(built)) ? fileURLToPath(built) : undefined;
}

/**
 * Whether a run over these files reads them in the worker, by the run's engine: never for simple,
 * always for fast, and for auto when the input is large enough to gain from it (`sends`: a push;
 * validate and --dry-run gain only on larger inputs).
 */
export function readsInWorker(files: readonly string[], sends: boolean, engine: Engine): boolean {
  if (engine === 'simple') return false;
  if (workerFile() === undefined) {
    if (engine === 'fast') throw new Error('the read worker is not built (dist/rows/read-worker.js): run npm run build');
    return false;
  }
  if (engine === 'fast') return true;
  // a workbook's reading (XML parsing) is most of its cost and stays on one thread either way: handing
  // its rows to the main thread costs more than the second core gives back (BENCHMARKS.md, workbooks)
  if (files.some((file) => formatOf(file) === 'xlsx')) return false;
  let total = 0;
  for (const file of files) {
    try {
      total += statSync(file).size;
    } catch {
      return false;
    }
  }
  return total >= (sends ? WORKER_MIN_BYTES.sends : WORKER_MIN_BYTES.checks);
}

function rebuild(e: { name: string; message: string; code?: string; suggestion?: string }): Error {
  const opts = { suggestion: e.suggestion };
  if (e.name === 'InputError') return new InputError(e.message, opts);
  if (e.name === 'ConfigError') return new ConfigError(e.message, opts);
  if (e.name === 'UsageError') return new UsageError(e.message, opts);
  if (e.code !== undefined && e.name !== 'Error') return new BatchSyncError(e.code, e.message, 2, opts);
  return Object.assign(new Error(e.message), e.code === undefined ? {} : { code: e.code });
}

/** Marks the end of one job's chunks. */
export const JOB_END = Symbol('job end');

export interface WorkerRows {
  /** The chunks of every job, in the order given, each job's followed by JOB_END. */
  chunks(): AsyncGenerator<RowChunk | typeof JOB_END>;
  /** At a JOB_END: the file-level warnings the worker found while reading that job (after opening it). */
  lateWarnings(): SourceWarning[];
  /** A chunk's buffers, once nothing here reads them: transferred back, so freed without waiting for a full GC here. */
  giveBack(buffers: ArrayBuffer[]): void;
  close(): Promise<void>;
}

export function readInWorker(jobs: readonly WorkerJob[], method: Method, tuning: ReadTuning): WorkerRows {
  const { split, chunkRows } = tuning;
  const taken = new Int32Array(new SharedArrayBuffer(4));
  const data: ReadWorkerData = {
    jobs: [...jobs],
    method,
    chunkRows,
    chunkBytes: 1024 * 1024,
    ahead: 4,
    split,
    rawGap: 1,
    taken: taken.buffer as SharedArrayBuffer,
  };
  const worker = new Worker(workerFile()!, {
    workerData: data,
    // the worker makes most of the run's short-lived garbage: a young generation larger than the
    // default keeps scavenges few; this size is as fast as larger ones at a lower peak, and smaller is
    // slower (BENCHMARKS.md, "Figures behind code choices")
    resourceLimits: { maxYoungGenerationSizeMb: 32 },
  });
  const queue: ReadWorkerMessage[] = [];
  let jobEndWarnings: SourceWarning[] = [];
  let waiting: (() => void) | undefined;
  let failed: Error | undefined;
  const arrived = () => {
    waiting?.();
    waiting = undefined;
  };
  worker.on('message', (m: ReadWorkerMessage) => {
    queue.push(m);
    arrived();
  });
  worker.on('error', (error) => {
    failed ??= error;
    arrived();
  });
  worker.on('exit', (code) => {
    failed ??= new Error(`the read worker stopped (exit code ${code})`);
    arrived();
  });
  return {
    async *chunks() {
      for (;;) {
        while (queue.length === 0) {
          if (failed) throw failed;
          await new Promise<void>((resolve) => (waiting = resolve));
        }
        const m = queue.shift()!;
        if (m.type === 'end') return;
        if (m.type === 'job-end') {
          jobEndWarnings = m.warnings;
          yield JOB_END;
          continue;
        }
        if (m.type === 'error') throw rebuild(m.error);
        Atomics.add(taken, 0, 1);
        worker.postMessage('read');
        yield m.chunk;
      }
    },
    lateWarnings: () => jobEndWarnings,
    giveBack(buffers) {
      worker.postMessage('free', buffers);
    },
    async close() {
      worker.removeAllListeners('exit');
      await worker.terminate();
    },
  };
}
