// The lock on a real directory, with real processes: a live holder refuses, a dead one is taken over.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
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
    expect(JSON.parse(readFileSync(join(d, LOCK_FILE), 'utf8'))).toEqual({ pid: process.pid, hostname: hostname(), startedAt: '2026-11-21T02:00:00.000Z', runId: 'run-a' });
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
});
