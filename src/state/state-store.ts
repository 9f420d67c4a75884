// What the server last accepted, per method, resource and externalId: a snapshot plus an append-only
// journal in the state directory. Opening loads the snapshot and replays the journal over it. Each
// acknowledged batch is appended to the journal before the run moves on (see `accepted`) and
// fsync'ed on libuv's thread pool, and no batch is sent before that fsync has finished (`durable`);
// closing folds the journal into a new snapshot, written atomically.
import { close as closeAsync, closeSync, existsSync, fsync, fsyncSync, ftruncateSync, mkdirSync, openSync, readFileSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { BatchSyncError, EXIT } from '../errors.js';
import { openAtomic } from '../util/atomic-file.js';
import { HashMemo } from './hash-memo.js';
import { HashTable } from './hash-table.js';
import { FORGOTTEN, hashItem, type ItemHash, type ItemJson } from './item-hash.js';
import { FingerprintSet } from './row-fingerprint.js';
import { expectRegularFile, removeOrphanSnapshots } from './state-files.js';
import { entryAt, entryLine, forEachLineIn, journalEntryAt, journalLine, sectionLine, SNAPSHOT_HEADER, SNAPSHOT_HEADERS, type EntryAt } from './state-format.js';

export const SNAPSHOT_FILE = 'state.snapshot';
export const JOURNAL_FILE = 'state.journal';
/** A journal beyond this is folded into the snapshot mid-run, so a crash-looping night cannot grow it without bound. */
export const COMPACT_BYTES = 64 * 1024 * 1024;

export interface StateStoreOptions {
  /** Consult only (dry runs): no journal is opened, nothing is written. */
  readOnly?: boolean;
  compactBytes?: number;
  /**
   * A journal write failed (disk full): recording stops, and the run should stop too — its further
   * acknowledgements could not be kept, so the next run would send them again.
   */
  onFailure?(error: Error): void;
  /**
   * When the run lock was taken (writing stores only): snapshot temps older than it, or whose writer
   * is gone, are orphans of a run killed mid-compaction and are removed.
   */
  heldSince?: Date;
}

export interface StateStats {
  entries: number;
  journalBytes: number;
  /** Journal writes (one per acknowledged batch, or fewer when answers arrive together) and their cost. */
  flushes: number;
  flushMs: number;
  openMs: number;
}

export interface StateStore {
  readonly dir: string;
  /** Whether the server last accepted exactly this item for this externalId with this method. */
  unchanged(method: string, resource: string, id: string, json: ItemJson): boolean;
  /**
   * Records the fingerprint of the row an unchanged item now comes from (another text giving the
   * same item, or a state without fingerprints yet): the next run knows the row (`sameRow`).
   */
  learn(method: string, resource: string, id: string, fp: ItemHash): void;
  /** Whether the item last accepted for this id came from a row with this fingerprint (row-fingerprint.ts). */
  sameRow(method: string, resource: string, id: string, fp: ItemHash): boolean;
  /** The fingerprints of one table as a set for the read worker, or undefined when the table is empty. */
  fingerprints(method: string, resource: string): SharedArrayBuffer | undefined;
  /**
   * Records an item the server accepted, and the fingerprint of its row if it has one. The line is
   * written and fsync'ed in a microtask queued now: after the synchronous loop that reports the
   * batch's items, before the run takes another step.
   */
  accepted(method: string, resource: string, id: string, json: ItemJson, supersedes?: readonly string[], fp?: ItemHash): void;
  /**
   * Undefined when everything recorded so far is on disk, else a promise that resolves once it is.
   * The run sends a batch only after: an acknowledgement never waits only in the page cache while
   * another batch goes out, as when the fsync ran on the main thread (1.9 s of it per 1M rows).
   */
  durable(): Promise<void> | undefined;
  /** Write what is pending now (the fsync follows off the main thread). */
  flush(): void;
  /** Fold the journal into a new snapshot (temp + fsync + rename), then empty the journal. */
  compact(): void;
  /**
   * Flush, fold the journal into the snapshot when there is none yet or the journal has grown to an
   * eighth of it (a small one is replayed at the next open instead), release the file. Safe to call twice.
   */
  close(): void;
  stats(): StateStats;
  /** Things worth a warning found while opening (a torn journal line from a killed run). */
  readonly notes: string[];
}

const tableKey = (method: string, resource: string) => `${method}\t${resource}`;

export function stateError(path: string, why: string): BatchSyncError {
  return new BatchSyncError('STATE', `cannot use the state ${path}: ${why}`, EXIT.usage, {
    suggestion: 'Fix or remove the state directory (without it the next run sends every row again), or run without --incremental.',
  });
}

export function openStateStore(dir: string, options: StateStoreOptions = {}): StateStore {
  const started = performance.now();
  const snapshotPath = join(dir, SNAPSHOT_FILE);
  const journalPath = join(dir, JOURNAL_FILE);
  const tables = new Map<string, HashTable>();
  const notes: string[] = [];
  const table = (key: string) => {
    let t = tables.get(key);
    if (!t) tables.set(key, (t = new HashTable()));
    return t;
  };

  // a FIFO would block the read (or the journal's open) for ever: refused before opening
  expectRegularFile(snapshotPath, 'state snapshot');
  expectRegularFile(journalPath, 'state journal');
  if (!options.readOnly) {
    const orphans = removeOrphanSnapshots(dir, options.heldSince ?? new Date());
    if (orphans.length) notes.push(`${dir}: removed ${orphans.length} unfinished snapshot file(s) of a run stopped while writing one (${orphans.join(', ')})`);
  }
  const loaded = existsSync(snapshotPath) ? loadSnapshot(snapshotPath, table) : undefined;
  /** The snapshot's length (its bytes, or its chars once this run wrote it: about the same): a small journal is left to be replayed rather than rewriting it all at close. */
  let snapshotSize = loaded?.size ?? 0;
  let journalBytes = 0;
  if (existsSync(journalPath)) {
    const bytes = readFileSync(journalPath);
    let bad = 0;
    const { torn } = forEachLineIn(bytes, 0, (start, end) => {
      const e = journalEntryAt(bytes, start, end);
      if (e) put(table(tableKey(e.method, e.resource)), bytes, e);
      else bad++;
    });
    journalBytes = bytes.length;
    if (torn) {
      notes.push(`${journalPath}: ignored an incomplete last line (a run was stopped while writing it); that batch will be sent again`);
      journalBytes = bytes.lastIndexOf(10) + 1;
      // the next append must start on a fresh line, not glue onto the torn one
      if (!options.readOnly) truncate(journalPath, journalBytes);
    }
    if (bad > 0) notes.push(`${journalPath}: ignored ${bad} unreadable line(s)`);
  }

  let fd: number | undefined;
  // a second descriptor for the background fsync (of the same file): closing `fd` never races it
  let syncFd: number | undefined;
  if (!options.readOnly) {
    mkdirSync(dir, { recursive: true });
    fd = openSync(journalPath, 'a', 0o600);
    try {
      syncFd = openSync(journalPath, 'r+');
    } catch (error) {
      closeSync(fd);
      throw error;
    }
  }
  const openMs = performance.now() - started;
  const compactBytes = options.compactBytes ?? COMPACT_BYTES;
  let pending: string[] = [];
  let scheduled = false;
  let flushes = 0;
  let flushMs = 0;
  let failed: Error | undefined;
  const memo = new HashMemo();
  let syncing = false;
  let syncAgain = false;
  let closeSyncFd = false;
  let waiters: (() => void)[] = [];
  const fail = (error: Error) => {
    if (failed) return;
    failed = error;
    options.onFailure?.(failed);
  };
  /** fsync on the thread pool; writes made while one runs get the next one. */
  const syncSoon = () => {
    if (syncFd === undefined) return;
    if (syncing) {
      syncAgain = true;
      return;
    }
    syncing = true;
    fsync(syncFd, (error) => {
      syncing = false;
      if (error) fail(error);
      if (closeSyncFd) {
        closeAsync(syncFd!, () => undefined);
        syncFd = undefined;
      } else if (syncAgain && !failed) {
        syncAgain = false;
        return syncSoon();
      }
      syncAgain = false;
      const done = waiters;
      waiters = [];
      for (const resolve of done) resolve();
    });
  };

  // the table a run asks about, row after row: its key was a new string to build and hash each time (0.2 s per 1M rows)
  let lastMethod: string | undefined;
  let lastResource: string | undefined;
  let lastTable: HashTable | undefined;
  const existing = (method: string, resource: string): HashTable | undefined => {
    if (method === lastMethod && resource === lastResource) return lastTable;
    const t = tables.get(tableKey(method, resource));
    if (t !== undefined) {
      lastMethod = method;
      lastResource = resource;
      lastTable = t;
    }
    return t;
  };

  /** Queues a journal line; the microtask writes all queued so far. */
  const journal = (line: string) => {
    pending.push(line);
    if (scheduled) return;
    scheduled = true;
    queueMicrotask(() => {
      try {
        store.flush();
      } catch (error) {
        fail(error as Error);
      }
    });
  };

  const store: StateStore = {
    dir,
    notes,
    unchanged(method, resource, id, json) {
      const t = existing(method, resource);
      const slot = t === undefined ? -1 : t.slotOf(id);
      // an id without a previous hash is not hashed here: a first run hashes each item once, in `accepted`
      if (t === undefined || slot < 0) return false;
      const hash = hashItem(json);
      if (t.matchesAt(slot, hash)) return true;
      // bytes (the read worker's items) are not remembered: a changed item is then hashed again when accepted
      if (typeof json === 'string') memo.remember(json, hash);
      return false;
    },
    learn(method, resource, id, fp) {
      if (fd === undefined || failed) return;
      const t = existing(method, resource);
      const slot = t === undefined ? -1 : t.slotOf(id);
      if (slot < 0 || t!.fingerprintAt(slot, fp)) return;
      t!.setFingerprintAt(slot, fp);
      journal(journalLine(method, resource, id, t!.hashAt(slot), fp));
    },
    sameRow(method, resource, id, fp) {
      const t = existing(method, resource);
      const slot = t === undefined ? -1 : t.slotOf(id);
      // a forgotten entry (FORGOTTEN) has no fingerprint
      return slot >= 0 && t!.fingerprintAt(slot, fp);
    },
    fingerprints(method, resource) {
      const t = existing(method, resource);
      if (t === undefined || t.size === 0) return undefined;
      return FingerprintSet.build(t.size, (add) => t.forEachFingerprint(add));
    },
    accepted(method, resource, id, json, supersedes, fp) {
      if (fd === undefined || failed) return;
      const hash = (typeof json === 'string' ? memo.take(json) : undefined) ?? hashItem(json);
      (existing(method, resource) ?? table(tableKey(method, resource))).set(id, hash, fp);
      journal(journalLine(method, resource, id, hash, fp));
      // the record changed under the other methods' memory of it: their next row for it is sent
      for (const other of supersedes ?? []) {
        const t = tables.get(tableKey(other, resource));
        const slot = t === undefined ? -1 : t.slotOf(id);
        if (slot < 0 || t!.matchesAt(slot, FORGOTTEN)) continue;
        t!.set(id, FORGOTTEN);
        journal(journalLine(other, resource, id, FORGOTTEN));
      }
    },
    flush() {
      scheduled = false;
      if (fd === undefined || pending.length === 0) return;
      const t = performance.now();
      const buf = Buffer.from(pending.join(''), 'utf8');
      pending = [];
      let off = 0;
      while (off < buf.length) off += writeSync(fd, buf, off);
      syncSoon();
      journalBytes += buf.length;
      flushes++;
      flushMs += performance.now() - t;
      if (journalBytes > compactBytes) store.compact();
    },
    compact() {
      if (fd === undefined) return;
      const file = openAtomic(snapshotPath);
      try {
        let chunk = `${SNAPSHOT_HEADER}\n`;
        let written = 0;
        for (const [key, t] of tables) {
          chunk += `${sectionLine(...(key.split('\t') as [string, string]))}\n`;
          t.forEach((id, hash, fp) => {
            if (hash.hi === FORGOTTEN.hi && hash.lo === FORGOTTEN.lo) return; // as good as absent
            chunk += `${entryLine(id, hash, fp)}\n`;
            if (chunk.length > 1 << 20) {
              file.write(chunk);
              written += chunk.length;
              chunk = '';
            }
          });
        }
        file.write(chunk);
        file.commit();
        snapshotSize = written + chunk.length;
      } catch (error) {
        file.discard();
        throw error;
      }
      // only once the snapshot holds everything: a crash before this line replays the journal over
      // the new snapshot, which changes nothing (the journal's last word per id is the snapshot's)
      ftruncateSync(fd, 0);
      fsyncSync(fd);
      journalBytes = 0;
    },
    durable() {
      // lines recorded but not yet written (their microtask has not run): write them now
      if (pending.length > 0 && !failed) {
        try {
          store.flush();
        } catch (error) {
          fail(error as Error);
        }
      }
      if (!syncing) return undefined;
      return new Promise<void>((resolve) => waiters.push(resolve));
    },
    close() {
      if (fd === undefined) return;
      try {
        if (failed) throw failed;
        store.flush();
        fsyncSync(fd); // whatever the background fsync has not covered yet
        // a rerun that changed 1% of a million rows journals ~700 KB: rewriting the 45 MB snapshot
        // for it took 0.3 s of every such run; replaying it at the next open takes a few ms
        if (journalBytes > 0 && (snapshotSize === 0 || 8 * journalBytes >= snapshotSize)) store.compact();
      } finally {
        closeSync(fd);
        fd = undefined;
        if (syncing) closeSyncFd = true;
        else if (syncFd !== undefined) {
          closeSync(syncFd);
          syncFd = undefined;
        }
      }
    },
    stats: () => ({ entries: [...tables.values()].reduce((n, t) => n + t.size, 0), journalBytes, flushes, flushMs, openMs }),
  };
  // before the first line this version journals, the directory says which version it is: a new
  // state gets its snapshot now, a version 1 one is rewritten. An older batch-sync then refuses the
  // directory by the snapshot's header instead of misreading this version's journal lines (it would
  // take "id, hash, fingerprint" for an id and a hash, and skip rows that changed)
  if (fd !== undefined && loaded?.current !== true) {
    try {
      store.compact();
    } catch (error) {
      closeSync(fd);
      closeSync(syncFd!);
      throw error;
    }
  }
  return store;
}

/** An entry read from a state file into its table. */
function put(table: HashTable, bytes: Buffer, e: EntryAt): void {
  if (e.id === undefined) table.setAscii(bytes, e.idStart, e.idEnd, e.hash, e.fp);
  else table.set(e.id, e.hash, e.fp);
}

/** Loads the snapshot into the tables; returns its length and whether it is of this version. */
function loadSnapshot(path: string, table: (key: string) => HashTable): { size: number; current: boolean } {
  const bytes = readFileSync(path);
  const firstEnd = bytes.indexOf(10);
  const header = bytes.toString('utf8', 0, firstEnd < 0 ? bytes.length : firstEnd);
  if (!SNAPSHOT_HEADERS.includes(header)) {
    const newer = /^batch-sync-state \d+$/.test(header);
    throw stateError(path, newer ? `written by a newer batch-sync ("${header}"; this version reads "${SNAPSHOT_HEADER}" and older)` : `not a state snapshot (expected the first line "${SNAPSHOT_HEADER}")`);
  }
  let current: HashTable | undefined;
  forEachLineIn(bytes, firstEnd + 1, (start, end, lineNo) => {
    if (bytes[start] === 9) {
      current = table(bytes.toString('utf8', start + 1, end));
      return;
    }
    const e = entryAt(bytes, start, end);
    if (!e || !current) throw stateError(path, `line ${lineNo + 1} is not an entry`);
    put(current, bytes, e);
  });
  return { size: bytes.length, current: header === SNAPSHOT_HEADER };
}

function truncate(path: string, bytes: number): void {
  const fd = openSync(path, 'r+');
  try {
    ftruncateSync(fd, bytes);
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}
