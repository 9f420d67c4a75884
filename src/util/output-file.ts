// Where an output goes when its path already names something. A regular file (or nothing) gets a
// file written whole or not at all (atomic-file.ts). A character device or a FIFO the user named
// (`--junit /dev/null`, `--emit /dev/stdout`, a pipe to another process) is written through, never
// renamed over: as root, a rename over /dev/null replaced it for every later process. Anything
// else (a directory, a socket, a block device) is refused. A FIFO is opened non-blocking (nobody
// reading it is ENXIO at once, not a hang) and a reader that stops reading fails the write after a
// while instead of holding the run for ever.
import { closeSync, constants, fstatSync, openSync, statSync, writeSync, type Stats } from 'node:fs';
import { openAtomic, type AtomicFile } from './atomic-file.js';

/** How long a FIFO's reader may leave it full before the write fails. */
const STALLED_MS = 10_000;

/** `a FIFO`, `a directory`… for a file that is not a regular one. */
export function fileKind(st: Stats): string {
  if (st.isDirectory()) return 'a directory';
  if (st.isFIFO()) return 'a FIFO';
  if (st.isSocket()) return 'a socket';
  if (st.isCharacterDevice()) return 'a device';
  if (st.isBlockDevice()) return 'a block device';
  return 'a special file';
}

/** An error that says what the target is; `EISDIR` for a directory, as the system would. */
function notRegular(st: Stats): Error {
  if (st.isDirectory()) return Object.assign(new Error('a directory has that name'), { code: 'EISDIR' });
  return new Error(`it is ${fileKind(st)}, not a regular file`);
}

/** A character device or FIFO at `path` (through symlinks): what an output writes through. */
export function isStreamTarget(path: string): boolean {
  try {
    const st = statSync(path, { throwIfNoEntry: false });
    return st !== undefined && (st.isCharacterDevice() || st.isFIFO());
  } catch {
    // under a regular file (ENOTDIR), no permission: not one; opening it says why
    return false;
  }
}

/**
 * Opens `path` for an output: written through when it is a character device or FIFO and `through`
 * allows it, else whole or not at all. Throws (a clear reason for writeReason) for anything else.
 */
export function openOutput(path: string, options: { through?: boolean; append?: boolean } = {}): AtomicFile {
  const st = statSync(path, { throwIfNoEntry: false });
  if (st === undefined || st.isFile()) {
    if (options.append) return openStream(path, constants.O_WRONLY | constants.O_APPEND | constants.O_CREAT);
    return openAtomic(path);
  }
  if (options.through !== false && (st.isCharacterDevice() || st.isFIFO())) return openStream(path, constants.O_WRONLY);
  throw notRegular(st);
}

/** Writes straight to `path`, non-blocking; commit and discard both close it. */
function openStream(path: string, flags: number): AtomicFile {
  let fd: number | undefined;
  try {
    fd = openSync(path, flags | constants.O_NONBLOCK, 0o644);
  } catch (error) {
    throw (error as NodeJS.ErrnoException).code === 'ENXIO' ? Object.assign(new Error('no process reads the FIFO'), { code: 'ENXIO' }) : error;
  }
  // what was opened is checked again: it may have changed since the stat
  const st = fstatSync(fd);
  if (!st.isFile() && !st.isCharacterDevice() && !st.isFIFO()) {
    closeSync(fd);
    throw notRegular(st);
  }
  const close = () => {
    if (fd === undefined) return;
    const f = fd;
    fd = undefined;
    closeSync(f);
  };
  return {
    target: path,
    write(text) {
      if (fd === undefined) throw new Error(`${path} is already closed`);
      writeAll(fd, Buffer.from(text, 'utf8'));
    },
    commit: close,
    discard() {
      try {
        close();
      } catch {
        // the descriptor may be the thing that failed
      }
    },
  };
}

const pause = new Int32Array(new SharedArrayBuffer(4));

/** Every byte, waiting while a FIFO is full; a reader that takes nothing for STALLED_MS fails it. */
function writeAll(fd: number, buf: Buffer): void {
  let stalledSince: number | undefined;
  for (let off = 0; off < buf.length; ) {
    try {
      off += writeSync(fd, buf, off);
      stalledSince = undefined;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EAGAIN') throw error;
      stalledSince ??= Date.now();
      if (Date.now() - stalledSince > STALLED_MS) throw Object.assign(new Error(`the reader took nothing for ${STALLED_MS / 1000} s`), { code: 'ETIMEDOUT' });
      Atomics.wait(pause, 0, 0, 5);
    }
  }
}
