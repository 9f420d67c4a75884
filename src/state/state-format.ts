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
import { hashHex, hashHexIn, type ItemHash } from '../util/item-hash.js';

export const SNAPSHOT_HEADER = 'batch-sync-state 2';
/** Headers this version reads: version 1 has no fingerprints. */
export const SNAPSHOT_HEADERS: readonly string[] = ['batch-sync-state 1', SNAPSHOT_HEADER];

const PLAIN_ID = /^[^\t\n\r"\\\uD800-\uDFFF]+$/;

function idField(id: string): string {
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

const TAB = 9;
const NEWLINE = 10;
const QUOTE = 34;

/**
 * A snapshot or journal entry read in place from the file's bytes. A plain ASCII id (nearly every
 * id) is not decoded: the state's tables take its bytes as they are (opening the state made a
 * string and a slice of the file's text per entry before, which every open of a big state paid for).
 */
export interface EntryAt {
  /** The id when it had to be decoded (written as JSON, or not ASCII); undefined when it is the ASCII bytes `idStart..idEnd`. */
  id: string | undefined;
  idStart: number;
  idEnd: number;
  hash: ItemHash;
  fp: ItemHash | undefined;
}

function isAscii(bytes: Uint8Array, start: number, end: number): boolean {
  for (let i = start; i < end; i++) if (bytes[i]! >= 0x80) return false;
  return true;
}

/** `<id>\t<hash>[\t<fingerprint>]` in `bytes[start..end)`; also the tail of a journal line. */
export function entryAt(bytes: Buffer, start: number, end: number): EntryAt | undefined {
  const n = end - start;
  if (n < 18 || bytes[end - 17] !== TAB) return undefined;
  const last = hashHexIn(bytes, end - 16);
  if (!last) return undefined;
  let idEnd = end - 17;
  let hash = last;
  let fp: ItemHash | undefined;
  // an id's own field never holds a raw tab: a second one from the end means a fingerprint
  if (n >= 35 && bytes[end - 34] === TAB) {
    const first = hashHexIn(bytes, end - 33);
    if (!first) return undefined;
    [hash, fp, idEnd] = [first, last, end - 34];
  }
  if (idEnd > start && bytes[start] !== QUOTE && isAscii(bytes, start, idEnd)) return { id: undefined, idStart: start, idEnd, hash, fp };
  const id = parseIdField(bytes.toString('utf8', start, idEnd));
  return id === undefined ? undefined : { id, idStart: start, idEnd, hash, fp };
}

export function sectionLine(method: string, resource: string): string {
  return `\t${method}\t${resource}`;
}

export function journalLine(method: string, resource: string, id: string, h: ItemHash, fp?: ItemHash): string {
  return `${method}\t${resource}\t${entryLine(id, h, fp)}\n`;
}

function tabIn(bytes: Buffer, from: number, end: number): number {
  for (let i = from; i < end; i++) if (bytes[i] === TAB) return i;
  return -1;
}

/** `<method>\t<resource>\t<entry>` in `bytes[start..end)`. */
export function journalEntryAt(bytes: Buffer, start: number, end: number): ({ method: string; resource: string } & EntryAt) | undefined {
  // searched within the line only: a search running on into the next lines made replaying a
  // journal of tab-less garbage quadratic
  const a = tabIn(bytes, start, end);
  const b = a < 0 ? -1 : tabIn(bytes, a + 1, end);
  if (a <= start || b <= a + 1) return undefined;
  const entry = entryAt(bytes, b + 1, end);
  return entry && { method: bytes.toString('utf8', start, a), resource: bytes.toString('utf8', a + 1, b), ...entry };
}

/** Calls `each` with the bounds of every complete non-empty line from `from`; a last line without its newline (a torn write) is not complete. */
export function forEachLineIn(bytes: Buffer, from: number, each: (start: number, end: number, lineNo: number) => void): { torn: boolean } {
  let start = from;
  let lineNo = 0;
  for (let end = bytes.indexOf(NEWLINE, start); end >= 0; end = bytes.indexOf(NEWLINE, start)) {
    lineNo++;
    if (end > start) each(start, end, lineNo);
    start = end + 1;
  }
  return { torn: start < bytes.length };
}
