// The state's hashes in memory: one HashTable per method and resource, filled from the snapshot and
// the journal replayed over it, and written back as a snapshot.
import type { AtomicFile } from '../util/atomic-file.js';
import { HashTable } from './hash-table.js';
import { FORGOTTEN } from '../util/item-hash.js';
import { readRegularFile, stateError } from './state-files.js';
import { entryAt, entryLine, forEachLineIn, journalEntryAt, sectionLine, SNAPSHOT_HEADER, SNAPSHOT_HEADERS, type EntryAt } from './state-format.js';

const tableKey = (method: string, resource: string) => `${method}\t${resource}`;

export class StateTables {
  private readonly tables = new Map<string, HashTable>();
  // the table a run asks about, row after row: remembered, so no key string is built and hashed for every row
  private lastMethod: string | undefined;
  private lastResource: string | undefined;
  private lastTable: HashTable | undefined;

  /** The table of a method and resource, created when there is none. */
  table(method: string, resource: string): HashTable {
    return this.existing(method, resource) ?? this.byKey(tableKey(method, resource));
  }

  /** The table of a method and resource, if it has one (remembered for the next call). */
  existing(method: string, resource: string): HashTable | undefined {
    if (method === this.lastMethod && resource === this.lastResource) return this.lastTable;
    const t = this.tables.get(tableKey(method, resource));
    if (t !== undefined) {
      this.lastMethod = method;
      this.lastResource = resource;
      this.lastTable = t;
    }
    return t;
  }

  /** The table of another method (no remembering: asked once per accepted item, not per row). */
  other(method: string, resource: string): HashTable | undefined {
    return this.tables.get(tableKey(method, resource));
  }

  get entries(): number {
    return [...this.tables.values()].reduce((n, t) => n + t.size, 0);
  }

  private byKey(key: string): HashTable {
    let t = this.tables.get(key);
    if (!t) this.tables.set(key, (t = new HashTable()));
    return t;
  }

  /** Loads a snapshot; returns its length and whether it is of this version. */
  loadSnapshot(path: string): { size: number; current: boolean } {
    const bytes = readRegularFile(path, 'state snapshot');
    const firstEnd = bytes.indexOf(10);
    const header = bytes.toString('utf8', 0, firstEnd < 0 ? bytes.length : firstEnd);
    if (!SNAPSHOT_HEADERS.includes(header)) {
      const newer = /^batch-sync-state \d+$/.test(header);
      throw stateError(
        path,
        newer
          ? `written by a newer batch-sync ("${header}"; this version reads "${SNAPSHOT_HEADER}" and older)`
          : `not a state snapshot (expected the first line "${SNAPSHOT_HEADER}")`,
      );
    }
    let current: HashTable | undefined;
    forEachLineIn(bytes, firstEnd + 1, (start, end, lineNo) => {
      if (bytes[start] === 9) {
        current = this.byKey(bytes.toString('utf8', start + 1, end));
        return;
      }
      const e = entryAt(bytes, start, end);
      if (!e || !current) throw stateError(path, `line ${lineNo + 1} is not an entry`);
      put(current, bytes, e);
    });
    return { size: bytes.length, current: header === SNAPSHOT_HEADER };
  }

  /** Replays a journal's bytes; returns how many lines could not be read and whether the last was cut short. */
  replayJournal(bytes: Buffer): { bad: number; torn: boolean } {
    let bad = 0;
    const { torn } = forEachLineIn(bytes, 0, (start, end) => {
      const e = journalEntryAt(bytes, start, end);
      if (e) put(this.byKey(tableKey(e.method, e.resource)), bytes, e);
      else bad++;
    });
    return { bad, torn };
  }

  /** Writes every table to `file` as a snapshot (forgotten entries left out); returns its length. */
  writeSnapshot(file: AtomicFile): number {
    let chunk = `${SNAPSHOT_HEADER}\n`;
    let written = 0;
    for (const [key, t] of this.tables) {
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
    return written + chunk.length;
  }
}

/** An entry read from a state file into its table. */
function put(table: HashTable, bytes: Buffer, e: EntryAt): void {
  if (e.id === undefined) table.setAscii(bytes, e.idStart, e.idEnd, e.hash, e.fp);
  else table.set(e.id, e.hash, e.fp);
}
