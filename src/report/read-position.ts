// How far the run is into the file it reads, for the progress bar and the ETA: the line of the last
// record read, times the bytes a line takes in the file's first 64 KiB, against the file's size. An
// estimate (rows vary in length; a quoted cell may span lines), capped below the size until the file
// is done, and needing nothing from the readers but the line they already report. A workbook's lines
// are its rows, unrelated to its compressed bytes: it gets no bar.
import { closeSync, openSync, readSync, statSync } from 'node:fs';
import { basename } from 'node:path';

export interface ReadPosition {
  /** The file as the user named it. */
  file: string;
  bytes: number;
  size: number;
}

const SAMPLE_BYTES = 64 * 1024;
const NO_BAR = /\.(xlsx|xlsm)(\[.*\])?$/i;

interface Measured {
  size: number;
  /** Bytes per line in the file's first bytes (the whole file when it is that small). */
  bytesPerLine: number;
}

/** The position in a file at a line; undefined for a file it cannot measure. Each file is measured once. */
export function positionAt(): (file: string, line: number) => ReadPosition | undefined {
  const measured = new Map<string, Measured | undefined>();
  return (file, line) => {
    if (NO_BAR.test(file)) return undefined;
    if (!measured.has(file)) measured.set(file, measure(file));
    const m = measured.get(file);
    if (!m) return undefined;
    // never 100% before the end: the estimate may run ahead of the file
    const bytes = Math.min(Math.round(line * m.bytesPerLine), Math.floor(m.size * 0.99));
    return { file, bytes, size: m.size };
  };
}

function measure(file: string): Measured | undefined {
  let fd: number | undefined;
  try {
    const size = statSync(file).size;
    fd = openSync(file, 'r');
    const sample = Buffer.alloc(Math.min(SAMPLE_BYTES, size));
    const got = readSync(fd, sample, 0, sample.length, 0);
    let lines = 0;
    for (let i = sample.indexOf(10); i !== -1 && i < got; i = sample.indexOf(10, i + 1)) lines++;
    return size > 0 && lines > 0 ? { size, bytesPerLine: got / lines } : undefined;
  } catch {
    return undefined;
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

/** The file's name alone, as a progress line shows it. */
export const shortName = (file: string) => basename(file);
