// The batches in flight, on disk: before a batch's first request leaves, its exact request body and
// its members (externalId, file, line, each item's byte length, the row's fingerprint) are written to
// `<state-dir>/in-flight/<batch id>.batch` and fsync'ed (in-flight-writer.ts, together with the records
// of the batches that leave with it); once the server's answer is processed and its
// acknowledgements are in the journal, the file is removed. A run killed with batches in the air leaves
// their files, and the next run sends them first, with the same batchId and the same bytes — an
// idempotency key a server can deduplicate on — before it reads any input.
//
// Why the body itself and not the rows' identity and a digest: rebuilding the exact bytes would need
// the same input, profile and code, which a rerun cannot promise (the export is rewritten every
// night). A body is at most --max-body-bytes, and at most --concurrency files exist at a time (plus
// those whose batch got no answer), so the disk cost is bounded and nothing stays in memory.
//
// File: a first line `batch-sync-in-flight 2`, a second line of JSON (the record, with the body's
// SHA-256), then the body bytes. A record whose body no longer matches its digest was edited (or
// damaged) since: it is never resent, but set aside as `<name>.edited`. Version 1 records
// (no body digest; written by the release before) are still read, so an upgrade resends them.
import { createHash } from 'node:crypto';
import { mkdirSync, readdirSync, renameSync, unlinkSync } from 'node:fs';
import { join } from 'node:path';
import type { Resource } from '../contract/resources.js';
import { envelopeHead } from '../plan/batcher.js';
import { inSendOrder } from '../plan/order.js';
import { syncDirectory } from '../util/atomic-file.js';
import { hashHex, parseHashHex, type ItemHash } from '../util/item-hash.js';
import { readRegularFile } from './state-files.js';

const IN_FLIGHT_DIR = 'in-flight';
const HEADER = 'batch-sync-in-flight 2';
const HEADER_V1 = 'batch-sync-in-flight 1';

interface InFlightItem {
  externalId?: string;
  file: string;
  line: number;
  /** The item's JSON length in the body, in bytes. */
  bytes: number;
  fp?: ItemHash;
}

export interface InFlightRecord {
  /** The state scope (method and target) the batch was sent for: only a run of the same scope resends it. */
  scope: string;
  resource: Resource;
  source: string;
  batchId: string;
  items: InFlightItem[];
}

export interface LoadedInFlight extends InFlightRecord {
  path: string;
  body: Buffer;
  /** Each item's JSON, sliced from the body: the exact bytes sent. */
  itemJson: Buffer[];
}

function inFlightDir(stateDir: string): string {
  return join(stateDir, IN_FLIGHT_DIR);
}

/** A file name for any batch id (a --source may hold any character): readable, bounded, unique. */
function fileName(batchId: string): string {
  const digest = createHash('sha1').update(batchId).digest('hex').slice(0, 10);
  return `${batchId.replace(/[^A-Za-z0-9._-]/g, '_').slice(0, 120)}.${digest}.batch`;
}

const bodyDigest = (body: Buffer) => createHash('sha256').update(body).digest('hex');

/** Where the record of `batchId` goes in the folder `dir`. */
export const recordPath = (dir: string, batchId: string) => join(dir, fileName(batchId));

/** The record's first two lines (the version, then the record with its body's length and digest); the body follows them. */
export function recordHead(record: InFlightRecord, body: Buffer): Buffer {
  return Buffer.from(
    `${HEADER}\n${JSON.stringify({ ...record, bodyBytes: body.length, bodySha256: bodyDigest(body), items: record.items.map((i) => ({ ...i, fp: i.fp && hashHex(i.fp) })) })}\n`,
    'utf8',
  );
}

/** Creates the folder (and makes its entry durable) when it is not there yet. */
export function ensureInFlightDir(stateDir: string): string {
  const dir = inFlightDir(stateDir);
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  syncDirectory(stateDir);
  return dir;
}

export function removeQuietly(path: string): void {
  try {
    unlinkSync(path);
  } catch {
    // gone already
  }
}

/**
 * Every record in the folder. A file that cannot be read back whole was cut by a kill while it was
 * written, so its batch was never sent: it is removed, and `notes` says so.
 */
export function loadInFlight(stateDir: string, notes: string[]): LoadedInFlight[] {
  const dir = inFlightDir(stateDir);
  let names: string[];
  try {
    names = readdirSync(dir)
      .filter((n) => n.endsWith('.batch'))
      .sort();
  } catch {
    return [];
  }
  const records: LoadedInFlight[] = [];
  for (const name of names) {
    const path = join(dir, name);
    // a FIFO or a directory named like a record: refused, naming it (an open would block for ever)
    const loaded = parse(path, readRegularFile(path, 'in-flight record'));
    if (loaded === 'edited') setAside(path, notes);
    else if (loaded) records.push(loaded);
    else {
      notes.push(`${path}: an in-flight record cut short (the run was stopped while writing it, before its batch was sent); removed`);
      removeQuietly(path);
    }
  }
  return records;
}

/**
 * A record that does not match its digests: its bytes are not the batch that was sent, so they are
 * never sent. Its rows go out from the input as any other row; the file is kept for a look.
 */
function setAside(path: string, notes: string[]): void {
  const aside = `${path}.edited`;
  try {
    renameSync(path, aside);
  } catch {
    unlinkSync(path);
  }
  notes.push(
    `${path}: an in-flight record that does not match its digest (edited or damaged since it was written): not resent, set aside as ${aside}; its rows are sent from the input`,
  );
}

/**
 * The records a run of `scope` resends, in send order (by batchId within a kind). Another target's
 * or method's batches wait for a run against it; an embedded sandbox's batches can never be resent
 * (it lived and died with its run): they are removed. `notes` says what was kept or removed.
 */
export function loadInFlightFor(stateDir: string, scope: string, notes: string[]): LoadedInFlight[] {
  const all = loadInFlight(stateDir, notes);
  const mine = inSendOrder(all.filter((r) => r.scope === scope).sort((a, b) => (a.batchId < b.batchId ? -1 : a.batchId > b.batchId ? 1 : 0)));
  const gone = all.filter((r) => r.scope !== scope && r.scope.includes('@embedded-sandbox-'));
  for (const r of gone) removeQuietly(r.path);
  const elsewhere = all.length - mine.length - gone.length;
  if (elsewhere > 0)
    notes.push(
      `${elsewhere === 1 ? '1 batch' : `${elsewhere} batches`} left in flight by an interrupted run against another target or method ${elsewhere === 1 ? 'is' : 'are'} kept in ${stateDir} for a run against it`,
    );
  return mine;
}

/** The record; undefined when it was cut short (or does not hold together); `edited` when whole but not what was written. */
function parse(path: string, bytes: Buffer): LoadedInFlight | undefined | 'edited' {
  const first = bytes.indexOf(10);
  const version = first < 0 ? undefined : bytes.toString('utf8', 0, first);
  if (version !== HEADER && version !== HEADER_V1) return undefined;
  const second = bytes.indexOf(10, first + 1);
  if (second < 0) return undefined;
  let raw: Omit<InFlightRecord, 'items'> & { bodyBytes: number; bodySha256?: string; items: (Omit<InFlightItem, 'fp'> & { fp?: string })[] };
  try {
    raw = JSON.parse(bytes.toString('utf8', first + 1, second));
  } catch {
    return undefined;
  }
  const body = bytes.subarray(second + 1);
  if (typeof raw !== 'object' || raw === null || body.length !== raw.bodyBytes || !Array.isArray(raw.items)) return undefined;
  // the body (whose envelope names the batchId) as it was written: an edited one is never resent
  if (version === HEADER && raw.bodySha256 !== bodyDigest(body)) return 'edited';
  // the items' JSON, sliced where the envelope put them: after its head, one comma between each
  const headText = Buffer.from(envelopeHead(raw.batchId, raw.source), 'utf8');
  if (!body.subarray(0, headText.length).equals(headText)) return undefined;
  const head = headText.length;
  const itemJson: Buffer[] = [];
  let at = head;
  for (const item of raw.items) {
    if (!Number.isSafeInteger(item.bytes) || item.bytes < 0) return undefined;
    itemJson.push(body.subarray(at, at + item.bytes));
    at += item.bytes + 1;
  }
  if (at - (raw.items.length > 0 ? 1 : 0) + 2 !== body.length) return undefined;
  const items = raw.items.map((i) => ({ ...i, fp: i.fp === undefined ? undefined : parseHashHex(i.fp) }));
  return { path, scope: raw.scope, resource: raw.resource, source: raw.source, batchId: raw.batchId, items, body, itemJson };
}
