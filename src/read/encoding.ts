// Encodings we read, and the byte stream every parser sees: UTF-8 without BOM, validated as it goes.

import { isUtf8 } from 'node:buffer';
import { createReadStream } from 'node:fs';
import iconv from 'iconv-lite';
import { InputError, UsageError } from '../errors.js';
import { at, fileError } from './file-errors.js';
import { type PerLineStats, perLineChunks } from './mixed-lines.js';
import type { SourceWarning } from './types.js';
import { firstInvalidUtf8, incompleteTail } from './utf8.js';

export type Encoding = 'utf-8' | 'utf-16le' | 'utf-16be' | 'windows-1252';

const NAMES: Record<string, Encoding> = {
  utf8: 'utf-8',
  'utf-8': 'utf-8',
  utf16le: 'utf-16le',
  'utf-16le': 'utf-16le',
  ucs2: 'utf-16le',
  'ucs-2': 'utf-16le',
  utf16be: 'utf-16be',
  'utf-16be': 'utf-16be',
  // latin1 and iso-8859-1 files are in practice Windows-1252 (€ “ ” – at 0x80–0x9F); browsers
  // read those labels the same way, and true ISO-8859-1 only differs in unprintable C1 controls.
  'windows-1252': 'windows-1252',
  windows1252: 'windows-1252',
  cp1252: 'windows-1252',
  'cp-1252': 'windows-1252',
  win1252: 'windows-1252',
  latin1: 'windows-1252',
  'latin-1': 'windows-1252',
  'iso-8859-1': 'windows-1252',
  iso88591: 'windows-1252',
  ansi: 'windows-1252',
};

export function normalizeEncoding(name: string): Encoding {
  const found = NAMES[name.trim().toLowerCase().replace(/_/g, '-')];
  if (!found) {
    throw new UsageError(`unknown encoding "${name}"`, {
      suggestion: 'Use one of: utf-8, utf-16le, utf-16be, windows-1252 (latin1 and iso-8859-1 are read as windows-1252).',
    });
  }
  return found;
}

const BOMS: Array<[Encoding, number[]]> = [
  ['utf-8', [0xef, 0xbb, 0xbf]],
  ['utf-16le', [0xff, 0xfe]],
  ['utf-16be', [0xfe, 0xff]],
];

/**
 * A BOM over an encoding declared for the file (`--encoding`, a profile's `reader.encoding`): the BOM
 * is unambiguous, and a file batch-sync wrote (its errors CSV: UTF-8 with a BOM) is read back with the
 * profile of the export it came from, which may declare another. Said once with --verbose, never a warning.
 */
export function bomOverDeclared(bom: Encoding, declared: Encoding | undefined): string | undefined {
  const name = (e: Encoding) => (e === 'windows-1252' ? e : e.toUpperCase());
  return declared === undefined || declared === bom
    ? undefined
    : `starts with a ${name(bom)} byte-order mark: read as ${name(bom)}, not the ${name(declared)} declared`;
}

export function bomOf(prefix: Uint8Array): { encoding: Encoding; length: number } | undefined {
  for (const [encoding, bytes] of BOMS) {
    if (bytes.every((b, i) => prefix[i] === b)) return { encoding, length: bytes.length };
  }
  return undefined;
}

const ICONV_NAME: Record<Exclude<Encoding, 'utf-8'>, string> = {
  'utf-16le': 'utf-16le',
  'utf-16be': 'utf-16be',
  'windows-1252': 'windows-1252',
};

/** Decodes a bounded prefix for detection; an incomplete last character is left out. */
export function decodePrefix(bytes: Buffer, encoding: Encoding, isWholeFile: boolean): Buffer {
  if (encoding === 'utf-8') return isWholeFile ? bytes : bytes.subarray(0, bytes.length - incompleteTail(bytes));
  return Buffer.from(iconv.getDecoder(ICONV_NAME[encoding]).write(bytes), 'utf8');
}

export interface Utf8StreamOptions {
  file: string;
  encoding: Encoding;
  /** Raw bytes to skip at the start (the BOM). */
  start: number;
  /** UTF-8 bytes of decoded text to drop before yielding (lines above the header). */
  skip: number;
  highWaterMark?: number;
  /**
   * Read line by line (the encoding was detected, not given): a line that is valid UTF-8 as UTF-8,
   * any other as Windows-1252, counted here. `encoding` is then not used.
   */
  perLine?: PerLineStats;
}

/**
 * The warning for a file read line by line that held lines of both encodings (`base`: what its
 * first bytes were taken for; a Windows-1252 file was already said to be one).
 */
export async function mixedEncodingWarning(file: string, base: Encoding, stats: PerLineStats): Promise<SourceWarning | undefined> {
  if (stats.firstCp1252 === undefined || (base !== 'utf-8' && !stats.utf8Seen)) return undefined;
  const n = stats.cp1252Lines;
  const lines = n === 1 ? '1 line is not UTF-8 and was' : `${n.toLocaleString('en-US')} lines are not UTF-8 and were`;
  const first = await lineAtOffset(file, stats.firstCp1252);
  const but = stats.withUtf8 ? `, but for the UTF-8 letters and signs ${stats.withUtf8.toLocaleString('en-US')} of them also hold` : '';
  return {
    file,
    mixedEncodings: true,
    message: `mixed encodings${stats.ended ? '' : ' (in the part read)'}: ${lines} read as windows-1252 (first: line ${first})${but}; the others as UTF-8 — give --encoding to read the whole file one way`,
  };
}

/**
 * The file as UTF-8 chunks. UTF-8 input is checked with the native validator and passed through
 * untouched (no decode and re-encode); other encodings go through iconv-lite, which, unlike
 * csv-parse's `latin1` and Node 20's TextDecoder, maps 0x80–0x9F to € “ ” – —.
 */
export async function* utf8Chunks(opts: Utf8StreamOptions): AsyncGenerator<Buffer> {
  const { file, encoding } = opts;
  let skip = opts.skip;
  const emit = (buf: Buffer): Buffer | undefined => {
    if (skip === 0) return buf;
    if (buf.length <= skip) {
      skip -= buf.length;
      return undefined;
    }
    const rest = buf.subarray(skip);
    skip = 0;
    return rest;
  };
  const stream = createReadStream(file, { start: opts.start, highWaterMark: opts.highWaterMark ?? 256 * 1024 });
  try {
    if (opts.perLine) {
      for await (const chunk of perLineChunks(stream, opts.start, opts.perLine)) {
        const out = emit(chunk);
        if (out) yield out;
      }
    } else if (encoding === 'utf-8') {
      let carry: Buffer | undefined;
      let offset = opts.start; // raw offset of the chunk being checked
      for await (const raw of stream as AsyncIterable<Buffer>) {
        const buf = carry ? Buffer.concat([carry, raw]) : raw;
        const cut = buf.length - incompleteTail(buf);
        const body = buf.subarray(0, cut);
        if (!isUtf8(body)) throw await invalidUtf8(file, offset + Math.max(0, firstInvalidUtf8(body)));
        carry = cut < buf.length ? Buffer.from(buf.subarray(cut)) : undefined;
        offset += cut;
        const out = emit(body);
        if (out) yield out;
      }
      if (carry) throw await invalidUtf8(file, offset);
    } else {
      const decoder = iconv.getDecoder(ICONV_NAME[encoding]);
      for await (const raw of stream as AsyncIterable<Buffer>) {
        const out = emit(Buffer.from(decoder.write(raw), 'utf8'));
        if (out) yield out;
      }
      const tail = decoder.end();
      if (tail) {
        const out = emit(Buffer.from(tail, 'utf8'));
        if (out) yield out;
      }
    }
  } catch (err) {
    if (err instanceof InputError) throw err;
    throw fileError(file, err);
  } finally {
    stream.destroy();
  }
}

async function invalidUtf8(file: string, offset: number): Promise<InputError> {
  const line = await lineAtOffset(file, offset);
  // only a file declared UTF-8 (--encoding, reader.encoding, a UTF-8 BOM) gets here: a detected one is read line by line
  return new InputError(`${at(file, line)}: not valid UTF-8 (byte ${offset + 1}), and the file was declared UTF-8`, {
    suggestion:
      'The file (or this line) is probably Windows-1252 (Excel "CSV" on Windows): pass --encoding windows-1252, or leave the encoding out to read each line in its own.',
  });
}

/** 1-based line of a byte offset, counting \r\n, \n and \r. Error path only: re-reads the start. */
async function lineAtOffset(file: string, offset: number): Promise<number> {
  let line = 1;
  let pos = 0;
  let prevCr = false;
  for await (const chunk of createReadStream(file, { end: Math.max(0, offset - 1) }) as AsyncIterable<Buffer>) {
    for (let i = 0; i < chunk.length && pos < offset; i++, pos++) {
      const b = chunk[i];
      if (b === 0x0a) {
        if (!prevCr) line++;
        prevCr = false;
      } else if (b === 0x0d) {
        line++;
        prevCr = true;
      } else prevCr = false;
    }
  }
  return line;
}
