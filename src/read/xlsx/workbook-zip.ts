// The workbook's zip archive: its parts listed from the central directory (yauzl reads it from the
// end of the file, so parts can be read in any order: the shared strings before the sheet), each
// part streamed and inflated with caps that keep a zip bomb from costing memory or hours, and its
// CRC-32 and size checked as it inflates. Part names are matched as the Open Packaging Conventions
// say (ECMA-376 part 2, 6.2.2.3): without regard to case, so two entries whose names differ only in
// case (or are equal) are one part twice, and the archive is refused. Files that are no .xlsx (an
// old .xls, an encrypted workbook, an .ods, any other zip) are told apart here, each with its own
// one-line error.
import { type FileHandle, open as openFile } from 'node:fs/promises';
import { type Readable, Transform } from 'node:stream';
import { crc32 } from 'node:zlib';
import type { Entry, ZipFile } from 'yauzl';
import { InputError } from '../../errors.js';
import { fileError } from '../file-errors.js';
import { openArchive } from './zip-archive-end.js';

/**
 * A part inflating to more than this, at more than MAX_RATIO times its compressed size, is refused
 * unread: real sheets compress 5–50 times; a zip bomb about 1,000 times.
 */
const BOMB_MIN_BYTES = 16 * 1024 * 1024;
const MAX_RATIO = 200;
/** No part may inflate past this (a 1,048,576-row sheet of 20 columns is about 1 GiB of XML). */
const MAX_PART_BYTES = 8 * 1024 ** 3;

const OLE2 = Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]);
const ZIP = Buffer.from([0x50, 0x4b]);
// an encrypted .xlsx is an OLE2 file holding this stream (its directory names are UTF-16LE)
const ENCRYPTED = Buffer.from('EncryptedPackage', 'utf16le');

export interface WorkbookZip {
  /** Bytes after the archive's end record (0 in a file that is the archive alone). */
  trailingBytes: number;
  /** Whether the archive holds the part (a name from the archive's root, in any case). */
  has(part: string): boolean;
  /** The part's bytes, inflated, streamed; refused when its sizes look like a zip bomb. */
  stream(part: string, maxBytes?: number): Promise<Readable>;
  close(): void;
}

export async function openWorkbookZip(file: string): Promise<WorkbookZip> {
  await refuseNonZip(file);
  const { zip, trailingBytes } = await openArchive(file).catch((err: unknown) => {
    if ((err as NodeJS.ErrnoException).code) throw fileError(file, err);
    throw notWorkbook(file, `a damaged zip archive (${(err as Error).message})`);
  });
  const entries = await listEntries(zip).catch((err: unknown) => {
    zip.close();
    throw notWorkbook(file, err instanceof DuplicatePart ? err.message : `a damaged zip archive (${(err as Error).message})`);
  });
  return {
    trailingBytes,
    has: (part) => entries.has(partKey(part)),
    async stream(part, maxBytes = MAX_PART_BYTES) {
      const entry = entries.get(partKey(part));
      if (!entry) throw notWorkbook(file, `a workbook without its part ${part}`);
      refuseBomb(file, entry, maxBytes);
      if (entry.isEncrypted()) throw new InputError(`${file}: the workbook is encrypted (its part ${part} is)`, { suggestion: 'Save it without a password.' });
      const inflated = await new Promise<Readable>((resolve, reject) => {
        zip.openReadStream(entry, (err, stream) => (err ? reject(notWorkbook(file, `a damaged zip archive (${err.message})`)) : resolve(stream)));
      });
      return checked(file, entry, inflated);
    },
    close: () => zip.close(),
  };
}

/** A part's name as the archive is searched: from the root, `/` between folders, in lower case. */
const partKey = (name: string) => name.replace(/\\/g, '/').replace(/^\/+/, '').toLowerCase();

class DuplicatePart extends Error {}

/**
 * The inflated bytes, passed on as they come, their CRC-32 and count compared with the archive's
 * at the end: a part that differs is refused by name (yauzl checks the count too; its message is
 * put in the same words).
 */
function checked(file: string, entry: Entry, inflated: Readable): Readable {
  let crc = 0;
  let size = 0;
  const damaged = (what: string) =>
    new InputError(`${file}: its part ${entry.fileName} is damaged (${what}): the archive is corrupt`, {
      suggestion: 'Open it in Excel or LibreOffice and save it again, or ask for a fresh copy of the file.',
    });
  const out = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      crc = crc32(chunk, crc);
      size += chunk.length;
      done(null, chunk);
    },
    flush(done) {
      if (size !== entry.uncompressedSize) done(damaged(`${size} bytes where the archive says ${entry.uncompressedSize}`));
      else if (crc >>> 0 !== entry.crc32) done(damaged(`its CRC-32 is ${hex(crc)} where the archive says ${hex(entry.crc32)}`));
      else done();
    },
  });
  // yauzl's own size check ("too many bytes in the stream. expected 697. got at least 699") and
  // zlib's errors on a damaged stream
  inflated.on('error', (err: Error) => {
    const sizes = /expected (\d+)\. got (at least )?(\d+)/.exec(err.message);
    out.destroy(damaged(sizes ? `it inflates to ${sizes[2] ?? ''}${sizes[3]} bytes where the archive says ${sizes[1]}` : err.message.replace(/\.$/, '')));
  });
  out.on('close', () => inflated.destroy());
  return inflated.pipe(out);
}

const hex = (n: number) => (n >>> 0).toString(16).padStart(8, '0');

function listEntries(zip: ZipFile): Promise<Map<string, Entry>> {
  const entries = new Map<string, Entry>();
  return new Promise((resolve, reject) => {
    zip.on('entry', (entry: Entry) => {
      const key = partKey(entry.fileName);
      // a folder's own entry (`xl/`) is no part
      if (!key.endsWith('/')) {
        const twin = entries.get(key);
        if (twin) {
          zip.close();
          reject(
            new DuplicatePart(
              `two entries named ${twin.fileName === entry.fileName ? entry.fileName : `${twin.fileName} and ${entry.fileName}`} (one part twice)`,
            ),
          );
          return;
        }
        entries.set(key, entry);
      }
      zip.readEntry();
    });
    zip.on('end', () => resolve(entries));
    zip.on('error', reject);
    zip.readEntry();
  });
}

export function notWorkbook(file: string, what: string): InputError {
  return new InputError(`${file}: not an .xlsx workbook: ${what}`, {
    suggestion: 'Open it in Excel or LibreOffice and save it as an Excel workbook (.xlsx), or export CSV.',
  });
}

/** An old .xls, an encrypted workbook and anything not a zip, told apart by their first bytes. */
async function refuseNonZip(file: string): Promise<void> {
  const handle = await openFile(file, 'r').catch((err: unknown) => {
    throw fileError(file, err);
  });
  try {
    const head = Buffer.alloc(8);
    const { bytesRead } = await handle.read(head, 0, 8, 0);
    if (bytesRead === 0) throw new InputError(`${file}: file is empty`);
    if (head.subarray(0, bytesRead).equals(OLE2.subarray(0, bytesRead)) && bytesRead === 8) {
      if (await holds(handle, ENCRYPTED)) {
        throw new InputError(`${file}: the workbook is encrypted (password-protected)`, {
          suggestion: 'Open it in Excel, remove the password and save it again.',
        });
      }
      throw new InputError(`${file}: an Excel 97–2003 workbook (.xls); only .xlsx is read`, {
        suggestion: 'Open it in Excel or LibreOffice and save it as .xlsx, or export CSV.',
      });
    }
    if (!head.subarray(0, 2).equals(ZIP)) throw notWorkbook(file, 'it is not a zip archive (an .xlsx is one)');
  } finally {
    await handle.close();
  }
}

/** Whether the file holds `needle`, read in 1 MiB steps (bounded memory whatever its size). */
async function holds(handle: FileHandle, needle: Buffer): Promise<boolean> {
  const step = 1024 * 1024;
  const buffer = Buffer.alloc(step + needle.length);
  let position = 0;
  let carried = 0;
  for (;;) {
    const { bytesRead } = await handle.read(buffer, carried, step, position);
    if (bytesRead === 0) return false;
    const filled = carried + bytesRead;
    if (buffer.subarray(0, filled).includes(needle)) return true;
    carried = Math.min(needle.length - 1, filled);
    buffer.copy(buffer, 0, filled - carried, filled);
    position += bytesRead;
  }
}

/** A zip whose package names no workbook: what it is instead, when that can be told. */
export function noWorkbook(file: string, zip: WorkbookZip, detail: string): InputError {
  if (zip.has('xl/workbook.bin')) return notWorkbook(file, 'a binary workbook (.xlsb)');
  if (zip.has('content.xml') && zip.has('mimetype')) return notWorkbook(file, 'an OpenDocument file (.ods)');
  if (zip.has('word/document.xml')) return notWorkbook(file, 'a Word document');
  return notWorkbook(file, detail);
}

function refuseBomb(file: string, entry: Entry, maxBytes: number): void {
  const size = entry.uncompressedSize;
  const ratio = size / Math.max(1, entry.compressedSize);
  if (size > maxBytes || (size > BOMB_MIN_BYTES && ratio > MAX_RATIO)) {
    throw new InputError(
      `${file}: its part ${entry.fileName} would inflate to ${size} bytes from ${entry.compressedSize} (${Math.round(ratio)} times): refused as a possible zip bomb`,
      { suggestion: `batch-sync reads parts up to ${maxBytes} bytes and compressed at most ${MAX_RATIO} times; export the sheet as CSV if it is genuine.` },
    );
  }
}
