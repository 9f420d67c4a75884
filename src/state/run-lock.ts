// One run per state directory: a lock file created with O_EXCL holding who took it. A second run
// fails at once naming the holder (exit 4). A lock left by a process that is gone — same host, and
// signal 0 says ESRCH — is taken over with a warning; a lock from another host is never judged
// from here (its pid means nothing on this machine).
import { closeSync, mkdirSync, openSync, readFileSync, renameSync, unlinkSync, writeSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { LockedError } from '../errors.js';

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
    const h = JSON.parse(readFileSync(path, 'utf8')) as Partial<LockHolder>;
    return typeof h.pid === 'number' && typeof h.hostname === 'string' ? { pid: h.pid, hostname: h.hostname, startedAt: String(h.startedAt), runId: String(h.runId) } : undefined;
  } catch {
    return undefined;
  }
}

function isGone(h: LockHolder): boolean {
  if (h.hostname !== hostname()) return false;
  try {
    process.kill(h.pid, 0);
    return false;
  } catch (error) {
    // EPERM: it exists but belongs to someone else — alive
    return (error as NodeJS.ErrnoException).code === 'ESRCH';
  }
}

function tryCreate(path: string, me: LockHolder): boolean {
  let fd: number;
  try {
    fd = openSync(path, 'wx', 0o644);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw error;
  }
  try {
    writeSync(fd, `${JSON.stringify(me)}\n`);
  } finally {
    closeSync(fd);
  }
  return true;
}

export function acquireLock(dir: string, runId: string, now = new Date()): RunLock {
  mkdirSync(dir, { recursive: true });
  const path = join(dir, LOCK_FILE);
  const me: LockHolder = { pid: process.pid, hostname: hostname(), startedAt: now.toISOString(), runId };
  let tookOverFrom: LockHolder | undefined;
  while (!tryCreate(path, me)) {
    const holder = readHolder(path);
    if (!holder) {
      throw new LockedError(`another run holds ${path} (its lock file is unreadable: it may be being written right now)`, {
        suggestion: `If no batch-sync run is active for this state directory, delete ${path} and run again.`,
      });
    }
    if (!isGone(holder)) {
      throw new LockedError(`another run holds the state directory ${dir}: ${describeHolder(holder)}`, {
        suggestion: holder.hostname === me.hostname
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
    if (moved?.runId !== holder.runId || moved.pid !== holder.pid) {
      // someone else took it over between our read and our rename: theirs is live; give it back
      if (moved) tryCreate(path, moved);
      throw new LockedError(`another run took the state directory ${dir} just now`, { suggestion: 'Wait for it to finish.' });
    }
    tookOverFrom = holder;
  }
  let released = false;
  const release = () => {
    if (released) return;
    released = true;
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
