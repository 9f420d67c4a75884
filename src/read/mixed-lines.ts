// A CSV whose encoding was detected, not given, decoded line by line (encoding.ts's utf8Chunks reads
// it through here): a line that is valid UTF-8 as UTF-8, any other as Windows-1252, and, once the
// file has shown UTF-8, the UTF-8 letters a Windows-1252 line also holds kept. \n, \r, the delimiter
// and the quote are ASCII in both, so a line decodes alone; only the unfinished last line waits.
import { isAscii, isUtf8 } from 'node:buffer';
import iconv from 'iconv-lite';
import { incompleteTail } from './utf8.js';

/** What a read line by line found. */
export interface PerLineStats {
  /** Lines read as Windows-1252 (not valid UTF-8). */
  cp1252Lines: number;
  /** Raw byte offset of the first of them. */
  firstCp1252?: number;
  /** Whether a line (or a run of them) held UTF-8 beyond ASCII. */
  utf8Seen: boolean;
  /** Of the lines read as Windows-1252, those that also held UTF-8 letters or signs, read as UTF-8. */
  withUtf8?: number;
  /** The whole file was read (not a sample that stopped early): the counts are the file's. */
  ended?: boolean;
}

export const perLineStats = (): PerLineStats => ({ cp1252Lines: 0, utf8Seen: false });

/** What `detected.encoding` says of a file whose first bytes hold both UTF-8 and Windows-1252 lines. */
export const MIXED_ENCODING = 'utf-8+windows-1252';

/** A line with no line break that grows past this is decided alone (memory stays flat). */
const LONG_LINE = 1024 * 1024;

/** Offset just after the last \n (or, in a file of lone \r, the last \r) of `buf`; 0 when none. */
export function afterLastLine(buf: Buffer): number {
  const nl = buf.lastIndexOf(0x0a);
  return (nl >= 0 ? nl : buf.lastIndexOf(0x0d)) + 1;
}

/**
 * `bytes` as UTF-8, decided line by line (a line ends after \n or \r; \n, \r, the delimiter and the
 * quote are ASCII in both encodings, so a line decodes alone): a valid UTF-8 line as it is, any other
 * as Windows-1252. `offset`: the raw offset of `bytes[0]`, for the first such line's number.
 */
export function decodePerLine(bytes: Buffer, offset: number, stats: PerLineStats): Buffer {
  if (isUtf8(bytes)) {
    if (!stats.utf8Seen && !isAscii(bytes)) stats.utf8Seen = true;
    return bytes;
  }
  const parts: Buffer[] = [];
  // [kept, start) is not yet in parts: UTF-8 lines, or (cp1252) a run of Windows-1252 lines decoded
  // at once; an ASCII line reads the same either way and joins the run it is in
  let kept = 0;
  let cp1252 = false;
  const flush = (to: number) => {
    if (kept < to) parts.push(cp1252 ? Buffer.from(iconv.decode(bytes.subarray(kept, to), 'windows-1252'), 'utf8') : bytes.subarray(kept, to));
    kept = to;
  };
  let start = 0;
  let nl = -2;
  let cr = -2;
  while (start < bytes.length) {
    // each search runs once per break found, never again from every line (no quadratic scan)
    if (nl !== -1 && nl < start) nl = bytes.indexOf(0x0a, start);
    if (cr !== -1 && cr < start) cr = bytes.indexOf(0x0d, start);
    const brk = nl === -1 ? cr : cr === -1 ? nl : Math.min(nl, cr);
    const end = brk === -1 ? bytes.length : brk + 1;
    const line = bytes.subarray(start, end);
    if (!isUtf8(line)) {
      stats.cp1252Lines++;
      stats.firstCp1252 ??= offset + start;
      if (stats.utf8Seen) {
        flush(start);
        parts.push(cp1252ButUtf8Letters(line, stats));
        kept = end;
      } else if (!cp1252) {
        flush(start);
        cp1252 = true;
      }
    } else if (!stats.utf8Seen && !isAscii(line)) {
      flush(start);
      cp1252 = false;
      stats.utf8Seen = true;
    }
    start = end;
  }
  flush(bytes.length);
  return Buffer.concat(parts);
}

/** Each byte 0x80–0xFF as Windows-1252 says, in UTF-8. */
const CP1252_UTF8 = Array.from({ length: 128 }, (_, i) => Buffer.from(iconv.decode(Buffer.from([0x80 + i]), 'windows-1252'), 'utf8'));

/** Length of the UTF-8 letter or sign at `i` (U+0080–U+00FF; U+2000–U+203F, € and ™), or 0. */
function utf8LetterAt(line: Buffer, i: number): number {
  const b = line[i]!;
  const cont = (k: number) => {
    const c = line[i + k];
    return c !== undefined && c >= 0x80 && c <= 0xbf;
  };
  if ((b === 0xc2 || b === 0xc3) && cont(1)) return 2;
  const second = line[i + 1];
  if (b === 0xe2 && (second === 0x80 || second === 0x82 || second === 0x84) && cont(2)) return 3;
  return 0;
}

/**
 * A line that is not UTF-8, in a file that holds UTF-8 lines: as Windows-1252, but for the UTF-8
 * letters and signs it also holds (a vTiger row: a UTF-8 comment beside a name that another table
 * kept in Windows-1252). Only sequences a Spanish or Portuguese text in Windows-1252 next to never
 * holds (Ã or Â before a sign 0x80–0xBF, â€ ) are taken as UTF-8.
 */
function cp1252ButUtf8Letters(line: Buffer, stats: PerLineStats): Buffer {
  const out = Buffer.allocUnsafe(line.length * 3);
  let at = 0;
  let letters = false;
  for (let i = 0; i < line.length; ) {
    const b = line[i]!;
    if (b < 0x80) {
      out[at++] = b;
      i++;
      continue;
    }
    const n = utf8LetterAt(line, i);
    if (n > 0) {
      at += line.copy(out, at, i, i + n);
      i += n;
      letters = true;
    } else {
      at += CP1252_UTF8[b - 0x80]!.copy(out, at);
      i++;
    }
  }
  if (letters) stats.withUtf8 = (stats.withUtf8 ?? 0) + 1;
  return out.subarray(0, at);
}

/** The file's bytes from `start`, line by line as `decodePerLine` says; a partial last line waits for the rest. */
export async function* perLineChunks(stream: AsyncIterable<Buffer>, start: number, stats: PerLineStats): AsyncGenerator<Buffer> {
  let carry: Buffer | undefined;
  let offset = start; // raw offset of buf[0]
  for await (const raw of stream) {
    const buf = carry ? Buffer.concat([carry, raw]) : raw;
    let cut = afterLastLine(buf);
    if (cut === 0) {
      if (buf.length < LONG_LINE) {
        carry = carry ? buf : Buffer.from(buf);
        continue;
      }
      cut = buf.length - incompleteTail(buf);
    }
    carry = cut < buf.length ? Buffer.from(buf.subarray(cut)) : undefined;
    yield decodePerLine(buf.subarray(0, cut), offset, stats);
    offset += cut;
  }
  if (carry) yield decodePerLine(carry, offset, stats);
  stats.ended = true;
}
