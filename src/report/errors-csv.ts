// The rows not accepted, handed back with their original columns so the user can fix them in a
// spreadsheet and feed the file back to `push` with the same profile. One errors file per input file
// (`deals.csv` → `<dir>/deals.errors.csv`): the header and delimiter of each input stay as they
// were, which is what lets the profile read it back. Our own columns are appended, `_`-prefixed,
// the row's resource among them.
import { accessSync, closeSync, constants, mkdtempSync, openSync, readSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { StringDecoder } from 'node:string_decoder';
import { basename, join } from 'node:path';
import { stringify } from 'csv-stringify/sync';
import { BatchSyncError, EXIT, UsageError, errorMessage } from '../errors.js';
import type { AtomicFile } from '../util/atomic-file.js';
import { openOutput } from '../util/output-file.js';
import { splitSheetLabel } from '../util/sheet-label.js';
import { neutraliseCell } from './formula-guard.js';
import type { RowOutcome } from '../plan/outcome.js';
import { inputFiles, sameFileNote } from './same-file.js';

/**
 * Appended after the original columns; mappers ignore them when the file is fed back. `_resource`
 * is the row's kind, so `push failed.csv` knows it whatever the file is named (errors CSVs written
 * before it came lack it, and are still read back).
 */
export const ERRORS_CSV_COLUMNS = ['_line', '_outcome', '_field', '_message', '_detail', '_resource'] as const;
const ADDED = new Set<string>(ERRORS_CSV_COLUMNS);
/** Written rows are buffered up to this size, then go to disk: streaming without a syscall per row. */
const FLUSH_BYTES = 64 * 1024;

export interface ErrorsCsvOptions {
  /** Directory the errors files go to (must exist and be writable). */
  dir?: string;
  /**
   * A character device or FIFO (`--errors /dev/null`, a pipe) instead of a directory: each input's
   * errors CSV is written whole in a private temp folder, then through it in turn at the end.
   */
  through?: string;
  /** Every input path of the run: an errors file never replaces one of them. */
  inputs: string[];
  /** Default `,`; pass the input's delimiter so the same profile reads the file back. */
  delimiter?: string;
  /**
   * Name of the errors file for an input; default `<name without extension>.errors.csv`. Called
   * with `probe` for the up-front check against the inputs, and without it once per input that
   * has a failure, in the order failures occur.
   */
  fileName?: (sourceFile: string, probe?: boolean) => string;
  /**
   * Every name the errors file of an input could get, when that depends on the order failures
   * occur (default: the probe's name). All are checked against the inputs before anything is sent.
   */
  candidates?: (sourceFile: string) => string[];
}

interface ErrorsCsvFile {
  source: string;
  path: string;
  rows: number;
}

export interface ErrorsCsvWriter {
  /** The input's header (and delimiter, if it differs): columns keep the input's order. */
  declareSource(file: string, opts?: { header?: string[]; delimiter?: string }): void;
  /** Write one row not accepted (accepted rows are ignored). Use as the collector's sink. */
  write(o: RowOutcome): void;
  /** The first write failure, if any: writing stops, and finish() throws it. */
  failure(): BatchSyncError | undefined;
  /** Flush, fsync and rename every file into place. */
  finish(): { files: ErrorsCsvFile[]; droppedCells: number };
  /** Remove the temp files; no errors file appears. */
  abort(): void;
}

/** `deals.csv` → `deals.errors.csv`; a sheet of a workbook of several, `cartera.xlsx[Ventas 2026]` → `cartera[Ventas 2026].errors.csv`. */
function defaultErrorsFileName(source: string): string {
  const { path, sheet } = splitSheetLabel(source);
  // a sheet's name may hold characters Windows refuses in a file name (Excel refuses only : \ / ? * [ ])
  const suffix = sheet === undefined ? '' : `[${sheet.replace(/[<>:"/\\|?*\u0000-\u001f]/g, '_')}]`;
  return `${basename(path).replace(/\.[^.]*$/, '')}${suffix}.errors.csv`;
}

interface OpenFile {
  source: string;
  file: AtomicFile;
  header: string[];
  delimiter: string;
  rows: number;
  buffer: string;
}

// a lone \r is quoted too (csv-stringify quotes only \n with unix records): unquoted, a reader
// would end the record there
const line = (f: OpenFile, cells: string[]) => stringify([cells.map(neutraliseCell)], { delimiter: f.delimiter, record_delimiter: 'unix', quoted_match: /\r/ });

export function createErrorsCsv(options: ErrorsCsvOptions): ErrorsCsvWriter {
  const name = options.fileName ?? defaultErrorsFileName;
  const inputs = inputFiles(options.inputs);
  const stream = options.through === undefined ? undefined : openThrough(options.through, inputs);
  const dir = stream ? mkdtempSync(join(tmpdir(), 'batch-sync-errors-')) : options.dir!;
  checkDirectory(dir);
  const targetFor = (source: string, probe?: boolean) => join(dir, name(source, probe));
  const refuseInput = (source: string, target = targetFor(source, true)) => {
    const input = inputs.find(target);
    if (input !== undefined) {
      throw new UsageError(`refusing to write the errors CSV over an input file: ${target}${sameFileNote(target, input)}`, {
        suggestion: 'Choose another errors directory, or rename the input (errors files are named <input>.errors.csv).',
      });
    }
  };
  // checked up front, so the run stops before sending anything (exit 2 promises that)
  for (const input of options.inputs) {
    for (const candidate of options.candidates?.(input) ?? [name(input, true)]) refuseInput(input, join(dir, candidate));
  }

  const declared = new Map<string, { header?: string[]; delimiter?: string }>();
  const open = new Map<string, OpenFile>();
  let failed: BatchSyncError | undefined;
  let droppedCells = 0;

  const flush = (f: OpenFile) => {
    f.file.write(f.buffer);
    f.buffer = '';
  };

  function fileFor(o: RowOutcome): OpenFile {
    const existing = open.get(o.file);
    if (existing) return existing;
    const target = uniqueTarget(o.file);
    // a workbook's sheet: its input is the workbook, declared by its path
    const input = splitSheetLabel(o.file).path;
    refuseInput(input, target);
    const d = declared.get(o.file) ?? declared.get(input) ?? {};
    // an errors file fed back carries stale `_` columns: they are replaced, not duplicated
    const header = (d.header ?? Object.keys(o.row ?? {})).filter((h) => !ADDED.has(h));
    const f: OpenFile = {
      source: o.file,
      file: openOutput(target, { through: false }),
      header,
      delimiter: d.delimiter ?? options.delimiter ?? ',',
      rows: 0,
      buffer: '',
    };
    open.set(o.file, f);
    // BOM: spreadsheets otherwise read UTF-8 accents as mojibake
    f.buffer = `\uFEFF${line(f, [...header, ...ERRORS_CSV_COLUMNS])}`;
    return f;
  }

  // `a/deals.csv` and `b/deals.csv` in one run must not both become `deals.errors.csv`
  function uniqueTarget(source: string): string {
    const used = new Set([...open.values()].map((f) => f.file.target));
    const first = targetFor(source);
    let target = first;
    for (let n = 2; used.has(target); n++) target = first.replace(/(\.errors\.csv|\.[^./\\]*)?$/, (ext) => `-${n}${ext}`);
    return target;
  }

  function fail(error: unknown, target: string): void {
    failed ??= writeError(error, target);
    for (const f of open.values()) f.file.discard();
  }

  return {
    declareSource(file, opts = {}) {
      declared.set(file, opts);
    },
    write(o) {
      if (o.outcome === 'accepted' || failed) return;
      let f: OpenFile | undefined;
      try {
        f = fileFor(o);
        const row = o.row ?? {};
        const known = new Set(f.header);
        droppedCells += Object.keys(row).filter((k) => !known.has(k) && !ADDED.has(k)).length;
        const cells = [...f.header.map((h) => row[h] ?? ''), String(o.line), o.outcome, o.field ?? '', o.message, o.detail, o.resource];
        f.buffer += line(f, cells);
        f.rows++;
        if (f.buffer.length >= FLUSH_BYTES) flush(f);
      } catch (error) {
        if (error instanceof UsageError) throw error;
        fail(error, f?.file.target ?? targetFor(o.file, true));
      }
    },
    failure: () => failed,
    finish() {
      if (failed) throw failed;
      const files: ErrorsCsvFile[] = [];
      for (const f of open.values()) {
        try {
          flush(f);
          f.file.commit();
          files.push({ source: f.source, path: f.file.target, rows: f.rows });
        } catch (error) {
          fail(error, f.file.target);
          throw failed;
        }
      }
      return { files: stream ? streamOut(stream, dir, files) : files, droppedCells };
    },
    abort() {
      for (const f of open.values()) f.file.discard();
      if (stream) closeTemp(stream, dir);
    },
  };
}

/** The device or FIFO, opened up front: nobody reading a FIFO fails before anything is sent. */
function openThrough(path: string, inputs: ReturnType<typeof inputFiles>): AtomicFile {
  if (inputs.find(path) !== undefined) throw new UsageError(`refusing to write the errors CSV over an input file: ${path}`);
  let stream: AtomicFile | undefined;
  try {
    stream = openOutput(path);
    // the BOM now: a device that cannot be written (/dev/full) fails before anything is sent
    stream.write('\uFEFF');
    return stream;
  } catch (error) {
    stream?.discard();
    throw writeError(error, path);
  }
}

/** The finished files through the stream, then the temp folder removed; a failure is the errors CSV's. */
function streamOut(stream: AtomicFile, dir: string, files: readonly ErrorsCsvFile[]): ErrorsCsvFile[] {
  try {
    copyThrough(stream, files);
  } catch (error) {
    throw writeError(error, stream.target);
  } finally {
    closeTemp(stream, dir);
  }
  return files.map((f) => ({ ...f, path: stream.target }));
}

function closeTemp(stream: AtomicFile, dir: string): void {
  stream.discard();
  rmSync(dir, { recursive: true, force: true });
}

/** Each finished errors CSV through the stream in turn, in chunks, without its BOM (the stream has one). */
function copyThrough(stream: AtomicFile, files: readonly ErrorsCsvFile[]): void {
  const chunk = Buffer.allocUnsafe(FLUSH_BYTES);
  for (const f of files) {
    const fd = openSync(f.path, 'r');
    // a character cut between two chunks is held back, not written as two broken halves
    const text = new StringDecoder('utf8');
    try {
      for (let n: number, first = true; (n = readSync(fd, chunk, 0, chunk.length, null)) > 0; first = false) {
        stream.write(text.write(chunk.subarray(first ? 3 : 0, n)));
      }
      stream.write(text.end());
    } finally {
      closeSync(fd);
    }
  }
  stream.commit();
}

function checkDirectory(dir: string): void {
  try {
    if (!statSync(dir).isDirectory()) throw Object.assign(new Error('not a directory'), { code: 'ENOTDIR' });
    accessSync(dir, constants.W_OK);
  } catch (error) {
    throw writeError(error, dir);
  }
}

const REASONS: Record<string, string> = {
  ENOSPC: 'the disk is full',
  EDQUOT: 'the disk quota is exceeded',
  EACCES: 'permission denied',
  EPERM: 'permission denied',
  EROFS: 'the file system is read-only',
  ENOENT: 'the directory does not exist',
  ENOTDIR: 'it is not a directory',
  EISDIR: 'a directory has that name',
  EFBIG: 'the file grew past the size limit (ulimit -f)',
};

/** Why a file could not be written, in words: `the disk is full (ENOSPC)`. */
export function writeReason(error: unknown): string {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  const why = (code && REASONS[code]) ?? errorMessage(error);
  return `${why}${code ? ` (${code})` : ''}`;
}

/** A clear one-line error instead of a stack: what could not be written and why. */
export function writeError(error: unknown, target: string): BatchSyncError {
  return new BatchSyncError('ERRORS_CSV', `cannot write the errors CSV ${target}: ${writeReason(error)}`, EXIT.usage, {
    suggestion: 'Free space or fix permissions, or choose another directory for the errors CSV. The report still lists the rows.',
    cause: error,
  });
}
