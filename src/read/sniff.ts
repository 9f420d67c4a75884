// The first bytes of a file decide how to read it: what it is, its encoding, whether it is text at all.
// Only a bounded prefix is read here; the records are streamed later.

import { isUtf8 } from 'node:buffer';
import { open } from 'node:fs/promises';
import { InputError } from '../errors.js';
import { bomOf, bomOverDeclared, decodePrefix, type Encoding, normalizeEncoding } from './encoding.js';
import { afterLastLine, decodePerLine, perLineStats } from './mixed-lines.js';
import { fileError } from './file-errors.js';
import type { SourceWarning } from './types.js';
import { incompleteTail } from './utf8.js';

export const PREFIX_BYTES = 64 * 1024;

export interface Sniffed {
  size: number;
  encoding: Encoding;
  /** Bytes of BOM to skip. */
  bomLength: number;
  /** The prefix decoded to UTF-8, BOM removed, last partial character left out. */
  text: Buffer;
  /** Whether `text` is the whole file. */
  whole: boolean;
  /** The encoding was detected and the reader asked for it: read line by line (encoding.ts's `perLine`). */
  perLine: boolean;
  /** Read line by line, and the first bytes already hold lines of both encodings (`encoding` is then utf-8). */
  mixed: boolean;
}

async function readPrefix(file: string, bytes: number): Promise<{ prefix: Buffer; size: number }> {
  let handle: Awaited<ReturnType<typeof open>> | undefined;
  try {
    handle = await open(file, 'r');
    const stat = await handle.stat();
    if (stat.isDirectory()) throw Object.assign(new Error('directory'), { code: 'EISDIR' });
    const want = Math.min(bytes, stat.size);
    const prefix = Buffer.alloc(want);
    let got = 0;
    while (got < want) {
      const { bytesRead } = await handle.read(prefix, got, want - got, got);
      if (bytesRead === 0) break;
      got += bytesRead;
    }
    return { prefix: prefix.subarray(0, got), size: stat.size };
  } catch (err) {
    throw fileError(file, err);
  } finally {
    await handle?.close();
  }
}

/** `lineByLine`: the caller reads a detected encoding line by line (CSV); JSON readers read it whole. */
export async function sniff(
  file: string,
  encodingOption: string | undefined,
  warnings: SourceWarning[],
  prefixBytes = PREFIX_BYTES,
  lineByLine = false,
): Promise<Sniffed> {
  const { prefix, size } = await readPrefix(file, prefixBytes);
  const whole = prefix.length === size;
  if (size === 0) throw new InputError(`${file}: file is empty`);
  rejectNonText(file, prefix);

  const forced = encodingOption === undefined ? undefined : normalizeEncoding(encodingOption);
  const bom = bomOf(prefix);
  let encoding: Encoding;
  let perLine = false;
  let mixedText: Buffer | undefined;
  if (bom) {
    const note = bomOverDeclared(bom.encoding, forced);
    if (note) warnings.push({ file, message: note, note: true });
    encoding = bom.encoding;
  } else if (forced) {
    encoding = forced;
  } else {
    const checked = whole ? prefix : prefix.subarray(0, prefix.length - incompleteTail(prefix));
    encoding = isUtf8(checked) ? 'utf-8' : 'windows-1252';
    perLine = lineByLine;
    if (perLine && encoding === 'windows-1252') {
      // its complete lines, each in its own encoding: UTF-8 lines among them make the file mixed
      const stats = perLineStats();
      const text = decodePerLine(whole ? prefix : prefix.subarray(0, afterLastLine(prefix)), 0, stats);
      if (stats.utf8Seen) {
        encoding = 'utf-8';
        mixedText = text;
      }
    }
    if (encoding === 'windows-1252') {
      warnings.push({
        file,
        message: 'not valid UTF-8: read as Windows-1252 (pass --encoding to choose another)',
      });
    }
  }
  // a few stray NULs (rich text pasted into a field) are the readers' to remove, cell by cell: only a
  // file that is mostly binary is refused whole
  if (encoding !== 'utf-16le' && encoding !== 'utf-16be' && prefix.includes(0)) {
    const utf16 = looksUtf16(prefix);
    const controls = controlBytes(prefix);
    if (utf16 || controls * 100 > prefix.length)
      throw new InputError(`${file}: looks binary (${controls} of its first ${prefix.length} bytes are NUL or other control bytes), not CSV or JSON`, {
        suggestion: utf16 ? `It may be UTF-16 without a byte-order mark: try --encoding ${utf16}.` : 'Export the data as CSV or JSON text.',
      });
  }
  const bomLength = bom?.length ?? 0;
  const text = mixedText ?? decodePrefix(prefix.subarray(bomLength), encoding, whole);
  if (whole && text.toString('utf8').trim() === '') throw new InputError(`${file}: file is empty`);
  return { size, encoding, bomLength, text, whole, perLine, mixed: mixedText !== undefined };
}

function rejectNonText(file: string, prefix: Buffer): void {
  const starts = (...bytes: number[]) => bytes.every((b, i) => prefix[i] === b);
  if (starts(0x50, 0x4b, 0x03, 0x04)) {
    throw new InputError(`${file}: this is an Excel workbook (or another zip file), not CSV`, {
      suggestion: 'Name it .xlsx (or set the plan\'s reader.format to "xlsx") to read the workbook itself, or export it as CSV.',
    });
  }
  if (starts(0x89, 0x50, 0x4e, 0x47) || starts(0xff, 0xd8, 0xff) || starts(0x47, 0x49, 0x46, 0x38) || starts(0x1f, 0x8b)) {
    throw new InputError(`${file}: looks binary (an image or a compressed file), not CSV or JSON`, { suggestion: 'Export the data as CSV or JSON text.' });
  }
  if (starts(0xd0, 0xcf, 0x11, 0xe0)) {
    throw new InputError(`${file}: this is a legacy Excel workbook (.xls), not CSV`, {
      suggestion: 'Open it in Excel and export it as CSV (File → Save As → CSV UTF-8).',
    });
  }
}

/** NUL and the C0 controls no text holds (tab, LF, VT, FF, CR and ESC do). */
function controlBytes(prefix: Buffer): number {
  let n = 0;
  for (let i = 0; i < prefix.length; i++) {
    const b = prefix[i]!;
    if (b < 0x20 && b !== 0x09 && b !== 0x0a && b !== 0x0b && b !== 0x0c && b !== 0x0d && b !== 0x1b) n++;
  }
  return n;
}

/** NULs in every other byte of ASCII-heavy text: UTF-16 that lost its BOM. */
function looksUtf16(prefix: Buffer): 'utf-16le' | 'utf-16be' | undefined {
  const n = Math.min(prefix.length & ~1, 512);
  let even = 0;
  let odd = 0;
  for (let i = 0; i < n; i++) if (prefix[i] === 0) i % 2 === 0 ? even++ : odd++;
  if (n < 4) return undefined;
  if (odd > n / 4 && even === 0) return 'utf-16le';
  if (even > n / 4 && odd === 0) return 'utf-16be';
  return undefined;
}
