// The lock on a real directory, with real processes: a live holder refuses, a dead one is taken over.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, utimesSync, writeFileSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { LockedError } from '../../src/errors.js';
import { acquireLock, LOCK_FILE } from '../../src/state/run-lock.js';

const dir = () => mkdtempSync(join(tmpdir(), 'batch-sync-lock-'));
/** A pid that existed and is gone: a child that already exited. */
const deadPid = () => spawnSync(process.execPath, ['-e', '0']).pid!;

describe('run lock', () => {
  test('holds pid, host, start and run id; a second taker gets LockedError naming the holder; release frees it', () => {
    const d = dir();
    const lock = acquireLock(d, 'run-a', new Date('2026-11-21T02:00:00Z'));
    expect(JSON.parse(readFileSync(join(d, LOCK_FILE), 'utf8'))).toEqual({
      pid: process.pid,
      hostname: hostname(),
      startedAt: '2026-11-21T02:00:00.000Z',
      runId: 'run-a',
    });
    let error: unknown;
    try {
      acquireLock(d, 'run-b');
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(LockedError);
    expect((error as LockedError).exitCode).toBe(4);
    expect((error as Error).message).toContain(`pid ${process.pid} on ${hostname()}, run run-a, started 2026-11-21T02:00:00.000Z`);
    lock.release();
    expect(existsSync(join(d, LOCK_FILE))).toBe(false);
    acquireLock(d, 'run-c').release();
  });

  test('a lock whose process is gone is taken over and says whose it was', () => {
    const d = dir();
    const pid = deadPid();
    writeFileSync(join(d, LOCK_FILE), JSON.stringify({ pid, hostname: hostname(), startedAt: 'yesterday', runId: 'old' }));
    const lock = acquireLock(d, 'new');
    expect(lock.tookOverFrom).toMatchObject({ pid, runId: 'old' });
    expect(JSON.parse(readFileSync(join(d, LOCK_FILE), 'utf8')).runId).toBe('new');
    lock.release();
  });

  test('a lock from another host is never judged stale from here', () => {
    const d = dir();
    writeFileSync(join(d, LOCK_FILE), JSON.stringify({ pid: deadPid(), hostname: 'elsewhere.example', startedAt: 'x', runId: 'far' }));
    expect(() => acquireLock(d, 'mine')).toThrow(/on elsewhere\.example/);
  });

  test('release never deletes a lock that is no longer ours', () => {
    const d = dir();
    const lock = acquireLock(d, 'mine');
    writeFileSync(join(d, LOCK_FILE), JSON.stringify({ pid: 1, hostname: hostname(), startedAt: 'x', runId: 'theirs' }));
    lock.release();
    expect(JSON.parse(readFileSync(join(d, LOCK_FILE), 'utf8')).runId).toBe('theirs');
  });
  test("a lock naming our own pid but none of our runs (a container's pid 1 after the last run was killed) is taken over", () => {
    const d = dir();
    writeFileSync(join(d, LOCK_FILE), JSON.stringify({ pid: process.pid, hostname: hostname(), startedAt: 'yesterday', runId: 'run-killed' }));
    const lock = acquireLock(d, 'run-now');
    expect(lock.tookOverFrom?.runId).toBe('run-killed');
    // while we hold it, another run of this same process is still refused
    expect(() => acquireLock(d, 'run-other')).toThrow(LockedError);
    lock.release();
  });

  test('an unreadable lock file is refused while fresh (it may be being written) and taken over once a minute old', () => {
    const d = dir();
    const path = join(d, LOCK_FILE);
    writeFileSync(path, '');
    expect(() => acquireLock(d, 'too-soon')).toThrow(/unreadable/);
    const hourAgo = new Date(Date.now() - 3600_000);
    utimesSync(path, hourAgo, hourAgo);
    const lock = acquireLock(d, 'after-reboot');
    expect(lock.tookOverFrom?.runId).toBe('(unreadable lock file)');
    expect(JSON.parse(readFileSync(path, 'utf8')).runId).toBe('after-reboot');
    lock.release();
    // and the lock is never created empty: it is linked into place already written, no temp file left
    expect(readdirSync(d)).toEqual([]);
  });
});
