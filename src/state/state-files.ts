// Checks on the files of a state directory before they are opened: a FIFO where the journal belongs
// would block the open for ever, a directory where the lock belongs would be renamed aside and left
// behind. And the leftovers of a run killed while writing a snapshot, removed by the next run.
import { closeSync, constants, fstatSync, fsyncSync, ftruncateSync, openSync, readdirSync, readFileSync, statSync, unlinkSync, type Stats } from 'node:fs';
import { join } from 'node:path';
import { BatchSyncError, EXIT } from '../errors.js';
import { fileKind } from '../util/output-file.js';

export function stateError(path: string, why: string): BatchSyncError {
  return new BatchSyncError('STATE', `cannot use the state ${path}: ${why}`, EXIT.usage, {
    suggestion: 'Fix or remove the state directory (without it the next run sends every row again), or run without --incremental.',
  });
}

function notRegular(path: string, what: string, st: Stats): BatchSyncError {
  return new BatchSyncError('STATE', `cannot use the ${what} ${path}: it is ${fileKind(st)}, not a regular file`, EXIT.usage, {
    suggestion: 'No batch-sync run creates it: move it away or remove it, or choose another --state-dir.',
  });
}

/** Throws when `path` exists and is not a regular file (a symlink to one is fine). */
export function expectRegularFile(path: string, what: string): void {
  const st = statSync(path, { throwIfNoEntry: false });
  if (!st || st.isFile()) return;
  throw notRegular(path, what, st);
}

/**
 * The whole of a state file, which must be a regular file (a symlink to one is fine). Opened
 * non-blocking and checked on the open descriptor: a FIFO put there between a check and the open
 * would otherwise block the open, and the main thread with it, for ever (SIGTERM included).
 */
export function readRegularFile(path: string, what: string): Buffer {
  const fd = openSync(path, constants.O_RDONLY | constants.O_NONBLOCK);
  try {
    const st = fstatSync(fd);
    if (!st.isFile()) throw notRegular(path, what, st);
    return readFileSync(fd);
  } finally {
    closeSync(fd);
  }
}

/** `.state.snapshot.<pid>.<random>.tmp`, as openAtomic names the snapshot being written. */
const SNAPSHOT_TEMP = /^\.state\.snapshot\.(\d+)\.[0-9a-f]+\.tmp$/;

function alive(pid: number): boolean {
  if (pid === process.pid) return true;
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code !== 'ESRCH';
  }
}

/**
 * Removes snapshot temps left by runs killed mid-compaction. Called under the run lock, so no other
 * run of this directory is writing one; still, a temp is removed only when its writer's pid is gone
 * or it was last written before `heldSince` (when this run took the lock): a pid reused by another
 * process then does not keep an orphan for ever, and a file written after the lock was taken (by
 * something that is not a run of ours) is left alone. Returns the names removed.
 */
export function removeOrphanSnapshots(dir: string, heldSince: Date): string[] {
  const removed: string[] = [];
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return removed;
  }
  for (const name of names) {
    const match = SNAPSHOT_TEMP.exec(name);
    if (!match) continue;
    const path = join(dir, name);
    const st = statSync(path, { throwIfNoEntry: false });
    if (!st?.isFile()) continue;
    if (alive(Number(match[1])) && st.mtimeMs >= heldSince.getTime()) continue;
    try {
      unlinkSync(path);
      removed.push(name);
    } catch {
      // gone already, or not ours to remove: it stays, as before
    }
  }
  return removed;
}

/** Cuts a file to its first `bytes` bytes, on disk. */
export function truncateFile(path: string, bytes: number): void {
  const fd = openSync(path, 'r+');
  try {
    ftruncateSync(fd, bytes);
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}
