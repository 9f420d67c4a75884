// A zip archive opened by yauzl as other readers open it: up to its end-of-central-directory record,
// found by scanning back from the file's end, so bytes after the archive (a download with the
// server's output appended, a file padded to a block size) are passed over and counted.
import { type FileHandle, open as openFile } from 'node:fs/promises';
import { Readable } from 'node:stream';
import yauzl, { type ZipFile } from 'yauzl';

const OPTIONS = { lazyEntries: true, autoClose: false, validateEntrySizes: true, strictFileNames: false };

/**
 * The archive, opened by yauzl. yauzl looks for the end-of-central-directory record back from the
 * file's end and requires the file to stop where the record (and its comment) stops; a file with
 * bytes after it (a download with the server's output appended, a file padded to a block size),
 * which other readers and `unzip` open, is read up to the record, found here by scanning back.
 */
export async function openArchive(file: string): Promise<{ zip: ZipFile; trailingBytes: number }> {
  const handle = await openFile(file, 'r');
  let size: number;
  let end: number | undefined;
  try {
    size = (await handle.stat()).size;
    end = await archiveEnd(handle, size);
  } catch (err) {
    await handle.close();
    throw err;
  }
  if (end === undefined || end === size) {
    await handle.close();
    const zip = await new Promise<ZipFile>((resolve, reject) => yauzl.open(file, OPTIONS, (err, z) => (err ? reject(err) : resolve(z))));
    return { zip, trailingBytes: 0 };
  }
  const archiveSize = end;
  const zip = await new Promise<ZipFile>((resolve, reject) =>
    yauzl.fromRandomAccessReader(new FileRange(handle), archiveSize, OPTIONS, (err, z) => (err ? reject(err) : resolve(z))),
  ).catch(async (err: unknown) => {
    await handle.close();
    throw err;
  });
  return { zip, trailingBytes: size - archiveSize };
}

/**
 * An open file for yauzl, read by position (its ranges end where the archive does). Not through
 * fs.createReadStream: destroying one closes its descriptor, whatever `autoClose` says.
 */
class FileRange extends yauzl.RandomAccessReader {
  constructor(private readonly handle: FileHandle) {
    super();
  }
  override _readStreamForRange(start: number, end: number): Readable {
    const handle = this.handle;
    let position = start;
    return new Readable({
      read(size) {
        const length = Math.min(size, end - position);
        if (length <= 0) {
          this.push(null);
          return;
        }
        handle.read(Buffer.allocUnsafe(length), 0, length, position).then(({ bytesRead, buffer }) => {
          if (bytesRead === 0) return void this.destroy(new Error('the file ends before the archive does'));
          position += bytesRead;
          this.push(buffer.subarray(0, bytesRead));
        }, this.destroy.bind(this));
      },
    });
  }
  override close(callback: (err: Error | null) => void): void {
    this.handle.close().then(() => callback(null), callback);
  }
}

const END_RECORD = 22;
const END_SIGNATURE = 0x06054b50;
const ZIP64_LOCATOR_SIGNATURE = 0x07064b50;
const CENTRAL_SIGNATURE = 0x02014b50;

/**
 * Where the archive ends: after the last end-of-central-directory record whose central directory
 * is where it says (ends at the record and starts with an entry's signature, or a zip64 locator
 * before it), so the record's signature in the bytes that follow, or in a comment, is passed over.
 * Undefined when none is (a truncated file: yauzl says so in its words).
 */
async function archiveEnd(handle: FileHandle, size: number): Promise<number | undefined> {
  const step = 256 * 1024;
  const buffer = Buffer.alloc(step + END_RECORD);
  const u32At = async (position: number) => {
    const four = Buffer.alloc(4);
    const { bytesRead } = await handle.read(four, 0, 4, position);
    return bytesRead === 4 ? four.readUInt32LE(0) : undefined;
  };
  for (let high = size - END_RECORD; high >= 0; high -= step) {
    const low = Math.max(0, high - step + 1);
    const { bytesRead } = await handle.read(buffer, 0, high - low + END_RECORD, low);
    for (let p = high; p >= low; p--) {
      if (p - low + END_RECORD > bytesRead || buffer.readUInt32LE(p - low) !== END_SIGNATURE) continue;
      const record = buffer.subarray(p - low, p - low + END_RECORD);
      const end = p + END_RECORD + record.readUInt16LE(20);
      if (end > size) continue;
      // a zip64 archive (or a writer that always adds the zip64 records) has its locator just before
      if (p >= 20 && (await u32At(p - 20)) === ZIP64_LOCATOR_SIGNATURE) return end;
      const entries = record.readUInt16LE(10);
      const cdSize = record.readUInt32LE(12);
      const cdOffset = record.readUInt32LE(16);
      if (cdOffset + cdSize === p && (entries === 0 || (await u32At(cdOffset)) === CENTRAL_SIGNATURE)) return end;
    }
  }
  return undefined;
}
