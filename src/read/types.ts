// What a reader hands the rest of the pipeline: records that remember where they came from.

export type SourceFormat = 'csv' | 'json' | 'ndjson' | 'xlsx';

export interface ReaderOptions {
  /** Forced format; otherwise from the extension (.json, .ndjson/.jsonl, .xlsx/.xlsm, anything else CSV). */
  format?: SourceFormat;
  /** CSV delimiter; detected among , ; tab | when absent (a `sep=;` first line also sets it). */
  delimiter?: string;
  /**
   * Forced encoding (utf-8, utf-16le, utf-16be, windows-1252, latin1 — read as windows-1252, as
   * browsers do); otherwise BOM, then UTF-8, then Windows-1252 when the first bytes are not UTF-8.
   */
  encoding?: string;
  /** 1-based line of the header row (for exports with title rows above it). Default 1 (or detected). */
  headerRow?: number;
  /** CSV quote character, default `"`. */
  quote?: string;
  /**
   * CSV escape character inside quoted fields. Default: the quote itself (`""`, RFC 4180, what
   * Excel and most CRMs write). Set `\` for MySQL-style `\"` exports.
   */
  escape?: string;
  /**
   * Largest record (CSV row or JSON item) in bytes; default 1 MiB. A record over it stops the read
   * with an error naming the line it started on: almost always an unbalanced quote.
   */
  maxRecordBytes?: number;
  /**
   * CSV: the file's NULL marker (MySQL's `\N`): a cell whose whole text is it, quoted or not, reads
   * as empty. Default none: every cell is read as it stands.
   */
  null?: string;
  /** Workbooks: the sheet to read, by name or by number from 1. Default: the first that holds data. */
  sheet?: string;
  /**
   * JSON: a JSON pointer (RFC 6901) to the array of items, `/records`. Default: the top-level array,
   * or the one top-level key holding an array of objects.
   */
  root?: string;
}

/** A CSV row: header → cell. Objects have a null prototype, so a `__proto__` header is just a column. */
export interface RowRecord {
  kind: 'row';
  file: string;
  /** 1-based line where the record starts in the file. */
  line: number;
  row: Record<string, string>;
  /**
   * From the CSV reader: the cells in the order of `names` (the header array itself, so a mapper
   * compiled for that header can compare it by identity and read cells by index, never building
   * `row`, which the reader then builds only when asked).
   */
  cells?: readonly string[];
  names?: readonly string[];
  /**
   * The record's text when its cells are exactly that text split on the file's delimiter (a line
   * without quotes): the read worker ships this one string instead of every cell.
   */
  plain?: string;
  /**
   * From the xlsx reader: one letter per cell of `cells` saying what the workbook stored: `n` a
   * number (its text the decimal, `.` as the mark), `d` a date (its text ISO-8601), `b` a boolean
   * (`true`/`false`); any other letter, text. A mapper reads typed cells without locale formats.
   */
  types?: string;
}

/** A JSON or NDJSON item, taken as it is (already in API shape). */
export interface ItemRecord {
  kind: 'item';
  file: string;
  line: number;
  item: unknown;
}

/** A record that exists but cannot be read (ragged row, broken NDJSON line): it ends as "invalid". */
export interface UnreadableRecord {
  kind: 'unreadable';
  file: string;
  line: number;
  reason: string;
  /** The raw cells when there are any, so the errors CSV can carry them back. */
  row?: Record<string, string>;
}

export type SourceRecord = RowRecord | ItemRecord | UnreadableRecord;

export interface SourceWarning {
  file: string;
  line?: number;
  message: string;
  /** Worth saying with --verbose, not a warning: the file is read as it says (a BOM over a declared encoding). */
  note?: boolean;
  /** The file held lines of both UTF-8 and Windows-1252 and was read line by line (`init` then declares no encoding). */
  mixedEncodings?: boolean;
}

/** How the header row was decided (read/header-row.ts): the option, the first row, a row further down, or the old rule. */
export type HeaderHow = 'option' | 'first' | 'detected' | 'fallback';

/** Which row is the header of a CSV file or a sheet, and why. */
export interface HeaderChoiceInfo {
  /** 1-based line (a sheet's row) of the header. */
  line: number;
  /** What the file's lines are called: `line`, or a sheet's `row`. */
  unit: 'line' | 'row';
  how: HeaderHow;
  /** Why this row, in words: `the first row whose names cover the 11 columns of the rows below it`. */
  why: string;
  /** The lines above the header that were passed over (title, metadata, blank rows). */
  above?: { from: number; to: number };
  /**
   * When the sampled rows below the header all hold values outside its named columns (it leaves no
   * data rows): that, in a sentence naming the row that looks like the header, or how to choose one.
   */
  noRowFits?: string;
  /** Then, a row that looks like the header (the one detection picks), when it is another. */
  lookalike?: number;
  /**
   * When no row qualified and the one taken holds mostly values, not names (a file with no header
   * row): what it holds, `line 1 holds values: "100", "179500.00000000", "2019-03-04 10:22:11"`.
   */
  headerless?: string;
}

export interface OpenedSource {
  file: string;
  /**
   * The file as its records and warnings name it when that is not `file`: a workbook of several
   * worksheets' sheet, `cartera.xlsx[Ventas 2026]` (util/sheet-label.ts).
   */
  rowsFile?: string;
  format: SourceFormat;
  /** CSV header after normalisation (trimmed, NBSP → space, unnamed → column_N); undefined for JSON. */
  header?: string[];
  /** The last header columns that had no name (a trailing delimiter), as `header` calls them (`column_N`). */
  unnamedAtEnd?: string[];
  /** What was detected or used, for `init` and `--verbose`. */
  detected: {
    encoding: string;
    delimiter?: string;
    headerRow?: number;
    sheet?: string;
    /** JSON: where the items array was found (`reader.root`), when the reader says; `inspect` shows it. */
    root?: string;
  };
  /** CSV and workbooks: which row is the header and why (read/header-row.ts). */
  headerChoice?: HeaderChoiceInfo;
  /** Workbooks: every sheet, in the workbook's order (`inspect` names the others). */
  sheets?: { name: string; hidden: boolean; chart: boolean }[];
  /** Workbooks: each header column's letter in the sheet (`C`), for diagnostics that name a cell. */
  columnLetters?: string[];
  /** File-level warnings found while opening (e.g. encoding guessed). More may be pushed while reading. */
  warnings: SourceWarning[];
  /** Streams the records once. */
  records: AsyncIterable<SourceRecord>;
}

export const DEFAULT_MAX_RECORD_BYTES = 1024 * 1024;
