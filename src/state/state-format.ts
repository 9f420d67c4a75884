// The text lines of the state files. A snapshot is a header line, then per (method, resource) a
// section line starting with a tab, then `<externalId>\t<item hash>[\t<row fingerprint>]` lines, each
// 16 hex digits. A journal line is `<method>\t<resource>\t` and the same entry. The hashes are
// fixed-width at the end, so a line splits without scanning the id; an id that could break the line
// (tab, newline, quote, backslash, empty) or holds a surrogate (UTF-8 text cannot carry a lone one: it
// would come back as U+FFFD) is written as a JSON string instead, which escapes a lone surrogate. So
// an entry has one tab (no fingerprint) or two.
//
// Version 2 added the row fingerprint (row-fingerprint.ts). Version 1 files are read as entries
// without one. A writable store rewrites a version 1 snapshot (and writes a new one) before it
// journals anything, so a version 1 tool meets a version 2 header and refuses the directory: it
// would read a journal line's "id, hash, fingerprint" as an id and a hash.
import { hashHex, hashHexAt, type ItemHash } from './item-hash.js';

export const SNAPSHOT_HEADER = 'batch-sync-state 2';
/** Headers this version reads: version 1 has no fingerprints. */
export const SNAPSHOT_HEADERS: readonly string[] = ['batch-sync-state 1', SNAPSHOT_HEADER];

const PLAIN_ID = /^[^\t\n\r"\\\uD800-\uDFFF]+$/;

export function idField(id: string): string {
  return PLAIN_ID.test(id) ? id : JSON.stringify(id);
}

function parseIdField(text: string): string | undefined {
  if (!text.startsWith('"')) return text.length > 0 ? text : undefined;
  try {
    const id: unknown = JSON.parse(text);
    return typeof id === 'string' ? id : undefined;
  } catch {
    return undefined;
  }
}

/** `<id>\t<hash>[\t<fingerprint>]`; also the tail of a journal line. */
export function entryLine(id: string, h: ItemHash, fp?: ItemHash): string {
  return fp === undefined ? `${idField(id)}\t${hashHex(h)}` : `${idField(id)}\t${hashHex(h)}\t${hashHex(fp)}`;
}

export interface Entry {
  id: string;
  hash: ItemHash;
  fp?: ItemHash;
}

export function parseEntry(line: string): Entry | undefined {
  const n = line.length;
  if (n < 18 || line.charCodeAt(n - 17) !== 9) return undefined;
  const last = hashHexAt(line, n - 16);
  if (!last) return undefined;
  // an id's own field never holds a raw tab: a second one from the end means a fingerprint
  if (n >= 35 && line.charCodeAt(n - 34) === 9) {
    const hash = hashHexAt(line, n - 33);
    const id = parseIdField(line.slice(0, n - 34));
    return hash && id !== undefined ? { id, hash, fp: last } : undefined;
  }
  const id = parseIdField(line.slice(0, n - 17));
  return id !== undefined ? { id, hash: last } : undefined;
}

export function sectionLine(method: string, resource: string): string {
  return `\t${method}\t${resource}`;
}

export function journalLine(method: string, resource: string, id: string, h: ItemHash, fp?: ItemHash): string {
  return `${method}\t${resource}\t${entryLine(id, h, fp)}\n`;
}

export function parseJournalLine(line: string): ({ method: string; resource: string } & Entry) | undefined {
  const a = line.indexOf('\t');
  const b = a < 0 ? -1 : line.indexOf('\t', a + 1);
  if (a <= 0 || b <= a + 1) return undefined;
  const entry = parseEntry(line.slice(b + 1));
  return entry && { method: line.slice(0, a), resource: line.slice(a + 1, b), ...entry };
}

/** Calls `each` for every complete line; a last line without its newline (a torn write) is not complete. */
export function forEachLine(text: string, each: (line: string) => void): { torn: boolean } {
  let start = 0;
  for (let end = text.indexOf('\n'); end >= 0; end = text.indexOf('\n', start)) {
    if (end > start) each(text.slice(start, end));
    start = end + 1;
  }
  return { torn: start < text.length };
}
