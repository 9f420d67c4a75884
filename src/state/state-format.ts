// The text lines of the state files. A snapshot is a header line, then per (method, resource) a
// section line starting with a tab, then `<externalId>\t<16 hex digits>` lines. A journal line is
// `<method>\t<resource>\t<externalId>\t<16 hex digits>`. The hash is fixed-width at the end, so a line
// splits without scanning the id; an id that could break the line (tab, newline, quote, backslash,
// empty) or holds a surrogate (UTF-8 text cannot carry a lone one: it would come back as U+FFFD) is
// written as a JSON string instead, which escapes a lone surrogate.
import { hashHex, parseHashHex, type ItemHash } from './item-hash.js';

export const SNAPSHOT_HEADER = 'batch-sync-state 1';

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

/** `<id>\t<hash>`; also the tail of a journal line. */
export function entryLine(id: string, h: ItemHash): string {
  return `${idField(id)}\t${hashHex(h)}`;
}

export function parseEntry(line: string): { id: string; hash: ItemHash } | undefined {
  if (line.length < 18 || line.charCodeAt(line.length - 17) !== 9) return undefined;
  const hash = parseHashHex(line.slice(-16));
  const id = parseIdField(line.slice(0, -17));
  return hash && id !== undefined ? { id, hash } : undefined;
}

export function sectionLine(method: string, resource: string): string {
  return `\t${method}\t${resource}`;
}

export function journalLine(method: string, resource: string, id: string, h: ItemHash): string {
  return `${method}\t${resource}\t${entryLine(id, h)}\n`;
}

export function parseJournalLine(line: string): { method: string; resource: string; id: string; hash: ItemHash } | undefined {
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
