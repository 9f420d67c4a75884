// The workbook's zip archive: its parts listed from the central directory (yauzl reads it from the
// end of the file, so parts can be read in any order: the shared strings before the sheet), each
// part streamed and inflated with caps that keep a zip bomb from costing memory or hours. Files
// that are no .xlsx (an old .xls, an encrypted workbook, an .ods, any other zip) are told apart
// here, each with its own one-line error.
import { open as openFile } from 'node:fs/promises';
import type { Readable } from 'node:stream';
import yauzl, { type Entry, type ZipFile } from 'yauzl';
import { InputError } from '../../errors.js';
import { fileError } from '../file-errors.js';

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
  has(part: string): boolean;
  /** The part's bytes, inflated, streamed; refused when its sizes look like a zip bomb. */
  stream(part: string, maxBytes?: number): Promise<Readable>;
  close(): void;
}

export async function openWorkbookZip(file: string): Promise<WorkbookZip> {
  await refuseNonZip(file);
  const zip = await new Promise<ZipFile>((resolve, reject) => {
    yauzl.open(file, { lazyEntries: true, autoClose: false, validateEntrySizes: true, strictFileNames: false }, (err, z) => (err ? reject(err) : resolve(z)));
  }).catch((err: unknown) => {
    if ((err as NodeJS.ErrnoException).code) throw fileError(file, err);
    throw notWorkbook(file, `a damaged zip archive (${(err as Error).message})`);
  });
  const entries = await listEntries(zip).catch((err: unknown) => {
    zip.close();
    throw notWorkbook(file, `a damaged zip archive (${(err as Error).message})`);
  });
  try {
    refuseOtherZips(file, entries);
  } catch (err) {
    zip.close();
    throw err;
  }
  return {
    has: (part) => entries.has(part),
    async stream(part, maxBytes = MAX_PART_BYTES) {
      const entry = entries.get(part);
      if (!entry) throw notWorkbook(file, `a workbook without its part ${part}`);
      refuseBomb(file, entry, maxBytes);
      if (entry.isEncrypted()) throw new InputError(`${file}: the workbook is encrypted (its part ${part} is)`, { suggestion: 'Save it without a password.' });
      return new Promise<Readable>((resolve, reject) => {
        zip.openReadStream(entry, (err, stream) => (err ? reject(notWorkbook(file, `a damaged zip archive (${err.message})`)) : resolve(stream)));
      });
    },
    close: () => zip.close(),
  };
}

function listEntries(zip: ZipFile): Promise<Map<string, Entry>> {
  const entries = new Map<string, Entry>();
  return new Promise((resolve, reject) => {
    zip.on('entry', (entry: Entry) => {
      entries.set(entry.fileName, entry);
      zip.readEntry();
    });
    zip.on('end', () => resolve(entries));
    zip.on('error', reject);
    zip.readEntry();
  });
}

function notWorkbook(file: string, what: string): InputError {
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
async function holds(handle: import('node:fs/promises').FileHandle, needle: Buffer): Promise<boolean> {
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

function refuseOtherZips(file: string, entries: Map<string, Entry>): void {
  if (entries.has('xl/workbook.xml')) return;
  if (entries.has('xl/workbook.bin')) throw notWorkbook(file, 'a binary workbook (.xlsb)');
  if (entries.has('content.xml') && entries.has('mimetype')) throw notWorkbook(file, 'an OpenDocument file (.ods)');
  if (entries.has('word/document.xml')) throw notWorkbook(file, 'a Word document');
  throw notWorkbook(file, 'a zip archive without xl/workbook.xml');
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
