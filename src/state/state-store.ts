// What the server last accepted, per method, resource and externalId: a snapshot plus an append-only
// journal in the state directory. Opening loads the snapshot and replays the journal over it. Each
// acknowledged batch is appended to the journal before the run moves on (see `accepted`) and
// fsync'ed on libuv's thread pool, and no batch is sent before that fsync has finished (`durable`);
// closing folds the journal into a new snapshot, written atomically.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { openAtomic } from '../util/atomic-file.js';
import { HashMemo } from './hash-memo.js';
import { FORGOTTEN, hashItem, type ItemHash, type ItemJson } from '../util/item-hash.js';
import { JournalFile } from './journal-file.js';
import { FingerprintSet } from './row-fingerprint.js';
import { expectRegularFile, readRegularFile, removeOrphanSnapshots, truncateFile } from './state-files.js';
import { journalLine } from './state-format.js';
import { StateTables } from './state-tables.js';

export const SNAPSHOT_FILE = 'state.snapshot';
export const JOURNAL_FILE = 'state.journal';
/** A journal beyond this is folded into the snapshot mid-run, so a crash-looping night cannot grow it without bound. */
const COMPACT_BYTES = 64 * 1024 * 1024;

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

interface StateStats {
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
  /** Whether the state holds anything for this id: a row not unchanged is then a changed one, else a new one (the dry-run preview). */
  known(method: string, resource: string, id: string): boolean;
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
   * another batch goes out, and the fsync runs off the main thread, where it stalled the whole run.
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

/** What opening read: the tables, the snapshot's length and version, the journal's length. */
interface Loaded {
  tables: StateTables;
  snapshot?: { size: number; current: boolean };
  journalBytes: number;
}

/** Reads the snapshot and replays the journal over it; a torn last journal line is cut off (unless read-only). */
function load(dir: string, options: StateStoreOptions, notes: string[]): Loaded {
  const snapshotPath = join(dir, SNAPSHOT_FILE);
  const journalPath = join(dir, JOURNAL_FILE);
  // a FIFO would block the read (or the journal's open) for ever: refused before opening
  expectRegularFile(snapshotPath, 'state snapshot');
  expectRegularFile(journalPath, 'state journal');
  if (!options.readOnly) {
    const orphans = removeOrphanSnapshots(dir, options.heldSince ?? new Date());
    if (orphans.length) notes.push(`${dir}: removed ${orphans.length} unfinished snapshot file(s) of a run stopped while writing one (${orphans.join(', ')})`);
  }
  const tables = new StateTables();
  const snapshot = existsSync(snapshotPath) ? tables.loadSnapshot(snapshotPath) : undefined;
  if (!existsSync(journalPath)) return { tables, snapshot, journalBytes: 0 };
  const bytes = readRegularFile(journalPath, 'state journal');
  const { bad, torn } = tables.replayJournal(bytes);
  let journalBytes = bytes.length;
  if (torn) {
    notes.push(`${journalPath}: ignored an incomplete last line (a run was stopped while writing it); that batch will be sent again`);
    journalBytes = bytes.lastIndexOf(10) + 1;
    // the next append must start on a fresh line, not glue onto the torn one
    if (!options.readOnly) truncateFile(journalPath, journalBytes);
  }
  if (bad > 0) notes.push(`${journalPath}: ignored ${bad} unreadable line(s)`);
  return { tables, snapshot, journalBytes };
}

export function openStateStore(dir: string, options: StateStoreOptions = {}): StateStore {
  const started = performance.now();
  const notes: string[] = [];
  const { tables, snapshot, journalBytes } = load(dir, options, notes);
  const journal = options.readOnly
    ? undefined
    : new JournalFile(dir, join(dir, JOURNAL_FILE), journalBytes, { flush: () => store.flush(), onFailure: options.onFailure });
  const openMs = performance.now() - started;
  const store = createStore(dir, tables, journal, {
    notes,
    openMs,
    journalBytes,
    compactBytes: options.compactBytes ?? COMPACT_BYTES,
    /** The snapshot's length (its bytes, or its chars once this run wrote it: about the same): a small journal is left to be replayed rather than rewriting it all at close. */
    snapshotSize: snapshot?.size ?? 0,
  });
  // before the first line this version journals, the directory says which version it is: a new
  // state gets its snapshot now, a version 1 one is rewritten. An older batch-sync then refuses the
  // directory by the snapshot's header instead of misreading this version's journal lines (it would
  // take "id, hash, fingerprint" for an id and a hash, and skip rows that changed)
  if (journal !== undefined && snapshot?.current !== true) {
    try {
      store.compact();
    } catch (error) {
      journal.abandon();
      throw error;
    }
  }
  return store;
}

/** The questions a run asks the tables, row after row: whether an item or a row is unchanged. */
function createQueries(tables: StateTables, memo: HashMemo): Pick<StateStore, 'unchanged' | 'known' | 'sameRow' | 'fingerprints'> {
  return {
    known(method, resource, id) {
      const t = tables.existing(method, resource);
      return t !== undefined && t.slotOf(id) >= 0;
    },
    unchanged(method, resource, id, json) {
      const t = tables.existing(method, resource);
      const slot = t === undefined ? -1 : t.slotOf(id);
      // an id without a previous hash is not hashed here: a first run hashes each item once, in `accepted`
      if (t === undefined || slot < 0) return false;
      const hash = hashItem(json);
      if (t.matchesAt(slot, hash)) return true;
      // bytes (the read worker's items) are not remembered: a changed item is then hashed again when accepted
      if (typeof json === 'string') memo.remember(json, hash);
      return false;
    },
    sameRow(method, resource, id, fp) {
      const t = tables.existing(method, resource);
      const slot = t === undefined ? -1 : t.slotOf(id);
      // a forgotten entry (FORGOTTEN) has no fingerprint
      return slot >= 0 && t!.fingerprintAt(slot, fp);
    },
    fingerprints(method, resource) {
      const t = tables.existing(method, resource);
      if (t === undefined || t.size === 0) return undefined;
      return FingerprintSet.build(t.size, (add) => t.forEachFingerprint(add));
    },
  };
}

/** What the run records: items accepted and rows learnt, journaled as they come. */
function createRecording(tables: StateTables, memo: HashMemo, journal: JournalFile | undefined): Pick<StateStore, 'learn' | 'accepted'> {
  return {
    learn(method, resource, id, fp) {
      if (journal === undefined || !journal.writable) return;
      const t = tables.existing(method, resource);
      const slot = t === undefined ? -1 : t.slotOf(id);
      if (slot < 0 || t!.fingerprintAt(slot, fp)) return;
      t!.setFingerprintAt(slot, fp);
      journal.append(journalLine(method, resource, id, t!.hashAt(slot), fp));
    },
    accepted(method, resource, id, json, supersedes, fp) {
      if (journal === undefined || !journal.writable) return;
      const hash = (typeof json === 'string' ? memo.take(json) : undefined) ?? hashItem(json);
      tables.table(method, resource).set(id, hash, fp);
      journal.append(journalLine(method, resource, id, hash, fp));
      // the record changed under the other methods' memory of it: their next row for it is sent
      for (const other of supersedes ?? []) {
        const t = tables.other(other, resource);
        const slot = t === undefined ? -1 : t.slotOf(id);
        if (slot < 0 || t!.matchesAt(slot, FORGOTTEN)) continue;
        t!.set(id, FORGOTTEN);
        journal.append(journalLine(other, resource, id, FORGOTTEN));
      }
    },
  };
}

function createStore(
  dir: string,
  tables: StateTables,
  journal: JournalFile | undefined,
  opened: { notes: string[]; openMs: number; journalBytes: number; compactBytes: number; snapshotSize: number },
): StateStore {
  const memo = new HashMemo();
  let snapshotSize = opened.snapshotSize;
  const store: StateStore = {
    dir,
    notes: opened.notes,
    ...createQueries(tables, memo),
    ...createRecording(tables, memo, journal),
    flush() {
      if (journal === undefined) return;
      if (journal.write() && journal.bytes > opened.compactBytes) store.compact();
    },
    compact() {
      if (journal === undefined || !journal.open) return;
      const file = openAtomic(join(dir, SNAPSHOT_FILE));
      try {
        const size = tables.writeSnapshot(file);
        file.commit();
        snapshotSize = size;
      } catch (error) {
        file.discard();
        throw error;
      }
      // only once the snapshot holds everything: a crash before this line replays the journal over
      // the new snapshot, which changes nothing (the journal's last word per id is the snapshot's)
      journal.empty();
    },
    durable: () => journal?.durable(),
    close() {
      if (journal === undefined || !journal.open) return;
      try {
        if (journal.failed) throw journal.failed;
        store.flush();
        journal.syncNow(); // whatever the background fsync has not covered yet
        // a rerun that changed few rows journals little: rewriting the whole snapshot for it would
        // cost every such run far more than replaying the journal at the next open
        if (journal.bytes > 0 && (snapshotSize === 0 || 8 * journal.bytes >= snapshotSize)) store.compact();
      } finally {
        journal.close();
      }
    },
    stats: () => ({
      entries: tables.entries,
      journalBytes: journal?.bytes ?? opened.journalBytes,
      flushes: journal?.flushes ?? 0,
      flushMs: journal?.flushMs ?? 0,
      openMs: opened.openMs,
    }),
  };
  return store;
}
