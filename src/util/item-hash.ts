// The fingerprint of an item the server accepted: the first 64 bits of SHA-1 over its JSON. The item
// JSON is canonical for a row (JSON.stringify of the validated item, keys in mapping order), so equal
// rows hash equal. 64 bits are compared only against the same externalId's previous hash, so a
// changed row is mistaken for unchanged with odds of 2^-64 per row — never in practice. It is used as
// a checksum, not for security.
import { hash } from 'node:crypto';

/**
 * The hash of no item: an id whose record the server changed by another method (a PATCH after a
 * POST) matches nothing, so its next row is sent.
 */
export const FORGOTTEN: ItemHash = { hi: 0, lo: 0 };

/** Two unsigned 32-bit halves: stored in a Uint32Array without boxing a number per entry. */
export interface ItemHash {
  hi: number;
  lo: number;
}

/** The item's JSON as text, or as its UTF-8 bytes (the read worker's): both hash the same. */
export type ItemJson = string | Uint8Array;

export function hashItem(json: ItemJson): ItemHash {
  return sha1Prefix(json);
}

/** The first 64 bits of SHA-1 over the text (as UTF-8) or bytes; never all zeros. */
export function sha1Prefix(data: ItemJson): ItemHash {
  // the one-shot crypto.hash (Node ≥ 20.12) skips the Hash object, which cost as much as the hashing;
  // a string is hashed as its UTF-8 bytes, so text and bytes of one item give one hash. The digest
  // comes as a Latin-1 string, a char per byte: as a Buffer, each one was an ArrayBuffer of its own
  // outside the heap, slower to make and piling up for the GC over a big rerun
  const d = hash('sha1', data, 'binary'); // 'binary' is Latin-1
  const hi = ((d.charCodeAt(0) << 24) | (d.charCodeAt(1) << 16) | (d.charCodeAt(2) << 8) | d.charCodeAt(3)) >>> 0;
  const lo = ((d.charCodeAt(4) << 24) | (d.charCodeAt(5) << 16) | (d.charCodeAt(6) << 8) | d.charCodeAt(7)) >>> 0;
  // all zeros is FORGOTTEN (and "no fingerprint"): a text hashing to it (odds 2^-64) is taken as one bit away
  return hi === 0 && lo === 0 ? { hi: 0, lo: 1 } : { hi, lo };
}

const BYTE_HEX = Array.from({ length: 256 }, (_, b) => b.toString(16).padStart(2, '0'));
const wordHex = (w: number) => BYTE_HEX[w >>> 24]! + BYTE_HEX[(w >>> 16) & 255]! + BYTE_HEX[(w >>> 8) & 255]! + BYTE_HEX[w & 255]!;

/** 16 lower-case hex digits: the fixed-width form in the snapshot and the journal. */
export function hashHex(h: ItemHash): string {
  // a byte table instead of toString(16).padStart: every journal line pays for this, so no temporaries
  return wordHex(h.hi) + wordHex(h.lo);
}

/** Value of each lower-case hex digit by byte, -1 for anything else. */
const HEX_DIGIT = new Int8Array(256).fill(-1);
for (let d = 0; d < 16; d++) HEX_DIGIT[d.toString(16).charCodeAt(0)] = d;

/** The 8 hex digits at `at` as a word, or -1. */
function hexWord(bytes: Uint8Array, at: number): number {
  let v = 0;
  for (let i = at; i < at + 8; i++) {
    const d = HEX_DIGIT[bytes[i]!]!;
    if (d < 0) return -1;
    v = v * 16 + d;
  }
  return v;
}

export function parseHashHex(text: string): ItemHash | undefined {
  const bytes = Buffer.from(text, 'utf8');
  return bytes.length === 16 ? hashHexIn(bytes, 0) : undefined;
}

/**
 * The 16 lower-case hex digits at `at` in `bytes` (the caller knows they are there). Read in place,
 * without decoding the line: opening a state of a million entries reads two per line.
 */
export function hashHexIn(bytes: Uint8Array, at: number): ItemHash | undefined {
  const hi = hexWord(bytes, at);
  const lo = hi < 0 ? -1 : hexWord(bytes, at + 8);
  return lo < 0 ? undefined : { hi, lo };
}
