// A file that appears complete or not at all: written to a temp file beside the target (same
// directory, so rename is atomic on the same filesystem), fsynced, then renamed over the target. A
// crash, a full disk or an abort leaves the old target untouched and no half-written file behind.
import { closeSync, fsyncSync, openSync, renameSync, unlinkSync, writeSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { randomBytes } from 'node:crypto';

export interface AtomicFile {
  readonly target: string;
  write(text: string): void;
  /** fsync, close, rename over the target. */
  commit(): void;
  /** Close and delete the temp file; the target is left as it was. Safe to call twice. */
  discard(): void;
}

export function openAtomic(target: string): AtomicFile {
  const temp = join(dirname(target), `.${basename(target)}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`);
  // 'wx': never follow or reuse an existing file at the temp name
  let fd: number | undefined = openSync(temp, 'wx', 0o600);
  const close = () => {
    if (fd !== undefined) {
      const f = fd;
      fd = undefined;
      closeSync(f);
    }
  };
  return {
    target,
    write(text) {
      if (fd === undefined) throw new Error(`${target} is already closed`);
      const buf = Buffer.from(text, 'utf8');
      let off = 0;
      while (off < buf.length) off += writeSync(fd, buf, off);
    },
    commit() {
      if (fd === undefined) throw new Error(`${target} is already closed`);
      fsyncSync(fd);
      close();
      renameSync(temp, target);
      syncDirectory(dirname(target));
    },
    discard() {
      try {
        close();
      } catch {
        // the fd may be the thing that failed; the unlink below still matters
      }
      try {
        unlinkSync(temp);
      } catch {
        // already renamed or never created
      }
    },
  };
}

/** Makes the rename itself durable; not possible on every platform (Windows), so best effort. */
export function syncDirectory(dir: string): void {
  let fd: number | undefined;
  try {
    fd = openSync(dir, 'r');
    fsyncSync(fd);
  } catch {
    // best effort
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}
