// Writes the in-flight records (in-flight.ts) of a run: a batch's first request leaves only once its
// record is on disk.
//
// The records of batches that take their places together are made durable together (group commit,
// as the journal's lines are): each file is written at once, and at the end of the event loop's turn
// the group's fdatasyncs and one fsync of the folder start together on the thread pool; records
// written while a group is being synced make up the next. One file per batch still, so a record goes
// as soon as its own batch is answered: a file per group would keep an answered batch's record until
// its group-mates were answered, and a kill then would resend it (the journal holds only acceptances,
// so one with a rejected item is not known as answered), applying its accepted items twice.
import { closeSync, constants, fdatasync, fsync, openSync, writeSync } from 'node:fs';
import { recordHead, recordPath, removeQuietly, type InFlightRecord } from './in-flight.js';

export interface InFlightWriter {
  /**
   * Writes the record now and resolves with its path once its data and its entry in the folder are
   * on disk: only then may the batch's first request leave. Rejects (leaving no file) when it cannot.
   */
  write(record: InFlightRecord, body: Buffer): Promise<string>;
}

interface Written {
  fd: number;
  path: string;
  resolve(path: string): void;
  reject(error: unknown): void;
}

/** The writer of a run's records in `dir` (ensureInFlightDir's). */
export function inFlightWriter(dir: string): InFlightWriter {
  let next: Written[] = [];
  let syncing = false;
  const syncNext = () => {
    const group = next;
    next = [];
    syncing = true;
    void syncGroup(dir, group).then(() => {
      syncing = false;
      if (next.length > 0) syncNext();
    });
  };
  return {
    write(record, body) {
      const path = recordPath(dir, record.batchId);
      let fd: number;
      try {
        fd = writeFile(path, record, body);
      } catch (error) {
        return Promise.reject(error);
      }
      return new Promise<string>((resolve, reject) => {
        next.push({ fd, path, resolve, reject });
        // the records written in this turn of the event loop (or while a group syncs) share the fsyncs
        if (next.length === 1 && !syncing) setImmediate(syncNext);
      });
    },
  };
}

/** The record's file, written (not yet synced); its descriptor stays open for the group's fdatasync. */
function writeFile(path: string, record: InFlightRecord, body: Buffer): number {
  const head = recordHead(record, body);
  // truncated: a record left by a run that was killed before it sent this very batch id is replaced.
  // Non-blocking: a FIFO put at this name fails the open instead of blocking the main thread for ever
  const fd = openSync(path, constants.O_WRONLY | constants.O_CREAT | constants.O_TRUNC | constants.O_NONBLOCK, 0o600);
  try {
    for (const part of [head, body]) for (let at = 0; at < part.length; ) at += writeSync(fd, part, at, part.length - at);
    return fd;
  } catch (error) {
    // a record cut short must not be taken for a batch in flight
    closeSync(fd);
    removeQuietly(path);
    throw error;
  }
}

/**
 * One group's fsyncs, all begun at once on the thread pool: each file's data, and the folder once for
 * the entries of all. Each record resolves when its own data and the folder are on disk.
 */
function syncGroup(dir: string, group: Written[]): Promise<unknown> {
  const folder = syncFolder(dir);
  return Promise.all(
    group.map(
      (w) =>
        new Promise<void>((done) =>
          fdatasync(w.fd, (error) => {
            closeSync(w.fd);
            if (error) {
              removeQuietly(w.path);
              w.reject(error);
              return done();
            }
            void folder.then(() => {
              w.resolve(w.path);
              done();
            });
          }),
        ),
    ),
  );
}

/** The folder's fsync, so the records' entries survive a crash; not every platform can open or fsync a directory: best effort. */
function syncFolder(dir: string): Promise<void> {
  let fd: number;
  try {
    fd = openSync(dir, 'r');
  } catch {
    return Promise.resolve();
  }
  return new Promise((done) =>
    fsync(fd, () => {
      closeSync(fd);
      done();
    }),
  );
}
