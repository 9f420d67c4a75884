// The state's append-only journal on disk. Lines are queued as batches are acknowledged and written
// together in a microtask; each write is fsync'ed on libuv's thread pool, and `durable` tells the run
// when everything written is on disk (no batch is sent before).
import { close as closeAsync, closeSync, fsync, fsyncSync, ftruncateSync, mkdirSync, openSync, writeSync } from 'node:fs';

export interface JournalHooks {
  /** Writes what is queued: the store's flush, which may fold the journal into the snapshot. */
  flush(): void;
  /** A write failed (disk full): recording stops. */
  onFailure?(error: Error): void;
}

export class JournalFile {
  private fd: number | undefined;
  // a second descriptor for the background fsync (of the same file): closing `fd` never races it
  private syncFd: number | undefined;
  private pending: string[] = [];
  private scheduled = false;
  private syncing = false;
  private syncAgain = false;
  private closeSyncFd = false;
  private waiters: (() => void)[] = [];
  failed: Error | undefined;
  flushes = 0;
  flushMs = 0;

  /** Opens (creates) the journal at `path` in `dir`; `bytes`: its length as read. */
  constructor(
    dir: string,
    path: string,
    public bytes: number,
    private readonly hooks: JournalHooks,
  ) {
    mkdirSync(dir, { recursive: true });
    this.fd = openSync(path, 'a', 0o600);
    try {
      this.syncFd = openSync(path, 'r+');
    } catch (error) {
      closeSync(this.fd);
      throw error;
    }
  }

  /** Open and not failed: lines are still recorded. */
  get writable(): boolean {
    return this.fd !== undefined && !this.failed;
  }

  get open(): boolean {
    return this.fd !== undefined;
  }

  fail(error: Error): void {
    if (this.failed) return;
    this.failed = error;
    this.hooks.onFailure?.(error);
  }

  /** Queues a journal line; the microtask writes all queued so far. */
  append(line: string): void {
    this.pending.push(line);
    if (this.scheduled) return;
    this.scheduled = true;
    queueMicrotask(() => this.flushSafely());
  }

  private flushSafely(): void {
    try {
      this.hooks.flush();
    } catch (error) {
      this.fail(error as Error);
    }
  }

  /** Writes the queued lines now (the fsync follows off the main thread); false when there were none. */
  write(): boolean {
    this.scheduled = false;
    if (this.fd === undefined || this.pending.length === 0) return false;
    const t = performance.now();
    const buf = Buffer.from(this.pending.join(''), 'utf8');
    this.pending = [];
    let off = 0;
    while (off < buf.length) off += writeSync(this.fd, buf, off);
    this.syncSoon();
    this.bytes += buf.length;
    this.flushes++;
    this.flushMs += performance.now() - t;
    return true;
  }

  /** fsync on the thread pool; writes made while one runs get the next one. */
  private syncSoon(): void {
    if (this.syncFd === undefined) return;
    if (this.syncing) {
      this.syncAgain = true;
      return;
    }
    this.syncing = true;
    fsync(this.syncFd, (error) => {
      this.syncing = false;
      if (error) this.fail(error);
      if (this.closeSyncFd) {
        closeAsync(this.syncFd!, () => undefined);
        this.syncFd = undefined;
      } else if (this.syncAgain && !this.failed) {
        this.syncAgain = false;
        return this.syncSoon();
      }
      this.syncAgain = false;
      const done = this.waiters;
      this.waiters = [];
      for (const resolve of done) resolve();
    });
  }

  /** Undefined when everything recorded is on disk, else a promise that resolves once it is. */
  durable(): Promise<void> | undefined {
    // lines recorded but not yet written (their microtask has not run): write them now
    if (this.pending.length > 0 && !this.failed) this.flushSafely();
    if (!this.syncing) return undefined;
    return new Promise<void>((resolve) => this.waiters.push(resolve));
  }

  /** fsyncs whatever the background fsync has not covered yet. */
  syncNow(): void {
    fsyncSync(this.fd!);
  }

  /** Empties the journal: the snapshot now holds everything. */
  empty(): void {
    ftruncateSync(this.fd!, 0);
    fsyncSync(this.fd!);
    this.bytes = 0;
  }

  /** Releases the file; a background fsync still running closes its own descriptor when done. */
  close(): void {
    if (this.fd === undefined) return;
    closeSync(this.fd);
    this.fd = undefined;
    if (this.syncing) this.closeSyncFd = true;
    else if (this.syncFd !== undefined) {
      closeSync(this.syncFd);
      this.syncFd = undefined;
    }
  }

  /** Closes both descriptors at once: the store could not be opened after all. */
  abandon(): void {
    closeSync(this.fd!);
    closeSync(this.syncFd!);
    this.fd = undefined;
  }
}
