// One run per state directory: a lock file created with O_EXCL holding who took it. A second run
// fails at once naming the holder (exit 4). A lock left by a process that is gone — same host, and
// signal 0 says ESRCH — is taken over with a warning; a lock from another host is never judged
// from here (its pid means nothing on this machine).
import { closeSync, fsyncSync, linkSync, mkdirSync, openSync, renameSync, statSync, unlinkSync, writeSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { LockedError } from '../errors.js';
import { expectRegularFile, readRegularFile } from './state-files.js';

export const LOCK_FILE = 'lock';

export interface LockHolder {
  pid: number;
  hostname: string;
  startedAt: string;
  runId: string;
}

export interface RunLock {
  readonly path: string;
  /** Set when a stale lock was taken over: whose it was. */
  readonly tookOverFrom?: LockHolder;
  /** Remove the lock if it is still ours. Safe to call twice, and from a process 'exit' handler. */
  release(): void;
}

export function describeHolder(h: LockHolder): string {
  return `pid ${h.pid} on ${h.hostname}, run ${h.runId}, started ${h.startedAt}`;
}

function readHolder(path: string): LockHolder | undefined {
  try {
    const h = JSON.parse(readRegularFile(path, 'lock file').toString('utf8')) as Partial<LockHolder>;
    return typeof h.pid === 'number' && typeof h.hostname === 'string'
      ? { pid: h.pid, hostname: h.hostname, startedAt: String(h.startedAt), runId: String(h.runId) }
      : undefined;
  } catch {
    return undefined;
  }
}

/** Runs of this process holding a lock now: a lock naming our own pid but none of them is stale. */
const heldHere = new Set<string>();

/** An unreadable lock this old is taken for one whose writer died (written by an older version, or by hand). */
const UNREADABLE_STALE_MS = 60_000;

function isGone(h: LockHolder): boolean {
  // no process anywhere has pid 0, -1 or 2.5 (and kill(0) or kill(-1) would signal a whole group,
  // which always "exists"): such a lock was not written by a run, on this host or another
  if (!Number.isSafeInteger(h.pid) || h.pid <= 0) return true;
  if (h.hostname !== hostname()) return false;
  // our own pid, but not a run of ours: a pid reused (a container's pid 1 after the last run was killed)
  if (h.pid === process.pid) return !heldHere.has(h.runId);
  try {
    process.kill(h.pid, 0);
    return false;
  } catch (error) {
    // EPERM: it exists but belongs to someone else — alive
    return (error as NodeJS.ErrnoException).code === 'ESRCH';
  }
}

/**
 * Creates the lock with its holder already in it: written and fsync'ed to a temp file, then linked
 * into place (atomic, and fails if a lock exists). Created empty and then written, a kill in
 * between left an empty lock that no later run could judge.
 */
function tryCreate(path: string, me: LockHolder): boolean {
  const temp = `${path}.${process.pid}.${me.runId}.tmp`;
  const fd = openSync(temp, 'w', 0o644);
  try {
    writeSync(fd, `${JSON.stringify(me)}\n`);
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  try {
    linkSync(temp, path);
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw error;
  } finally {
    unlinkSync(temp);
  }
}

function ageMs(path: string): number {
  try {
    return Date.now() - statSync(path).mtimeMs;
  } catch {
    return 0;
  }
}

export function acquireLock(dir: string, runId: string, now = new Date()): RunLock {
  mkdirSync(dir, { recursive: true });
  const path = join(dir, LOCK_FILE);
  const me: LockHolder = { pid: process.pid, hostname: hostname(), startedAt: now.toISOString(), runId };
  let tookOverFrom: LockHolder | undefined;
  while (!tryCreate(path, me)) {
    // a directory would be renamed aside and left there; a FIFO would block the read for ever
    expectRegularFile(path, 'lock file');
    let holder = readHolder(path);
    const unreadable = holder === undefined;
    if (!holder) {
      if (ageMs(path) < UNREADABLE_STALE_MS) {
        throw new LockedError(`another run holds ${path} (its lock file is unreadable: it may be being written right now)`, {
          suggestion: `If no batch-sync run is active for this state directory, delete ${path} and run again.`,
        });
      }
      holder = { pid: 0, hostname: me.hostname, startedAt: 'unknown', runId: '(unreadable lock file)' };
    } else if (!isGone(holder)) {
      throw new LockedError(`another run holds the state directory ${dir}: ${describeHolder(holder)}`, {
        suggestion:
          holder.hostname === me.hostname
            ? `Wait for it to finish. If that process is not batch-sync (its pid was reused), delete ${path}.`
            : `It runs on another host; if it is not running any more, delete ${path}.`,
      });
    }
    // rename, not unlink: of two runs taking over the same stale lock only one rename succeeds, and
    // the loser then finds the winner's fresh lock
    const aside = `${path}.stale-${process.pid}`;
    try {
      renameSync(path, aside);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') continue;
      throw error;
    }
    const moved = readHolder(aside);
    unlinkSync(aside);
    if (unreadable ? moved !== undefined : moved?.runId !== holder.runId || moved.pid !== holder.pid) {
      // someone else took it over between our read and our rename: theirs is live; give it back
      if (moved) tryCreate(path, moved);
      throw new LockedError(`another run took the state directory ${dir} just now`, { suggestion: 'Wait for it to finish.' });
    }
    tookOverFrom = holder;
  }
  heldHere.add(me.runId);
  let released = false;
  const release = () => {
    if (released) return;
    released = true;
    heldHere.delete(me.runId);
    process.off('exit', release);
    // only ever delete our own lock: if it was taken over (we were thought dead), it is not ours
    if (readHolder(path)?.runId === me.runId && readHolder(path)?.pid === me.pid) {
      try {
        unlinkSync(path);
      } catch {
        // already gone
      }
    }
  };
  // the last resort for a path that skips `finally` (process.exit somewhere); not SIGKILL, which
  // leaves the lock behind to be found stale by the next run
  process.on('exit', release);
  return { path, tookOverFrom, release };
}
