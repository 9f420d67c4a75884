// The read worker's wire format: rows handed to the main thread a chunk at a time, in a few flat
// buffers and strings (structured-cloning one object per row cost more than the work moved off the
// main thread). A chunk carries, per row, its start line, its original cells (for the errors CSV),
// and either the valid item (its JSON bytes and the ids it references), or what the worker found
// wrong with it, or nothing (RAW: the main thread processes it). Warnings and verdicts ride along as
// small plain objects. A row read from a line without quotes travels as that line (split again only
// if an outcome needs its cells).
//
// Every field is declared once, below: the writer (chunk-writer.ts) allocates and trims the arrays
// from ARRAYS, the transfer list comes from ARRAYS and TEXTS, and the reader (chunk-reader.ts) checks
// VERSION. Change a field: change it here and bump VERSION.
import type { Diagnostic } from '../util/diagnostic.js';

/** The format's version: a worker of another build (a stale dist/) is refused, not misread. */
export const VERSION = 2;

/** What the worker decided about a row that does not go on (built into an outcome on the main thread). */
export type WorkerVerdict = { kind: 'skip'; reason: string } | { kind: 'invalid'; externalId?: string; field?: string; column?: string; detail: string };

/** externalId, owner, agent, associated account, associated deal (REF_PATHS): the ids of a valid or SAME row. */
export const ID_SLOTS = 5;

/**
 * The typed arrays of a chunk: how many entries each row (`row`), valid or SAME row (`item`) or
 * cell of a CELLS row (`cell`) has. Allocated for a chunk's capacity, trimmed to what it holds.
 */
export const ARRAYS = {
  /** Each row's start line. */
  lines: { type: Uint32Array, per: 'row', width: 1 },
  /** Size in bytes (UTF-8) of each row's item JSON, or DECIDED, RAW or SAME. */
  itemBytes: { type: Int32Array, per: 'row', width: 1 },
  /** Incremental runs: each row's fingerprint (row-fingerprint.ts), hi and lo, 0 and 0 for none; empty otherwise. */
  fps: { type: Uint32Array, per: 'row', width: 2 },
  /** PLAIN when the row is a line in `plain`, CELLS when its cells are in `cells`, 0 when it has none or they are in `extras`. */
  hasCells: { type: Uint8Array, per: 'row', width: 1 },
  /** Each PLAIN row's length in chars (0 for other rows). */
  plainLengths: { type: Int32Array, per: 'row', width: 1 },
  /** The lengths of a valid or SAME row's ids in `ids`, -1 for a value that is not a string. */
  idLengths: { type: Int32Array, per: 'item', width: ID_SLOTS },
  /** Each cell's length in chars in `cells`. */
  cellLengths: { type: Int32Array, per: 'cell', width: 1 },
} as const;

/**
 * Texts as bytes, not strings: a transferred buffer is freed with its small wrapper at the next
 * scavenge, where a large string sat in the main thread's large-object space until a full GC.
 */
export const TEXTS = [
  /** The items' JSON as UTF-8, concatenated: the main thread copies it into request bodies. */
  'items',
  /** Every cell of the CELLS rows, concatenated, as UTF-16LE (decoded only for rows an outcome hands back). */
  'cells',
  /** The PLAIN rows' lines, concatenated, as UTF-16LE. */
  'plain',
] as const;

export type ArrayName = keyof typeof ARRAYS;
export type ChunkArrays = { [K in ArrayName]: InstanceType<(typeof ARRAYS)[K]['type']> };

export interface RowChunk extends ChunkArrays, Record<(typeof TEXTS)[number], Uint8Array> {
  version: number;
  /** Index of the job (in the order the worker was given them). */
  job: number;
  file: string;
  count: number;
  /** The valid and SAME rows' ids (ID_SLOTS each), concatenated. */
  ids: string;
  /** Column names of the rows whose cells are in `cells` (all rows of a chunk share them). */
  keys: string[];
  /** The file's header, in file order, and delimiter: a PLAIN row's line split on it gives its cells under it. */
  header: string[];
  delimiter: string;
  /** The rare rows that need more: warnings, a verdict, cells under other column names. */
  extras: ChunkExtra[];
}

export interface ChunkExtra {
  index: number;
  warnings?: Diagnostic[];
  verdict?: WorkerVerdict;
  /** Cells under column names other than `keys` (an unreadable row's column_N), as [names, cells]. */
  row?: [string[], string[]];
}

/** itemBytes of a row the worker found wrong or skipped (its verdict is in extras). */
export const DECIDED = -1;
/**
 * itemBytes of a readable CSV row the worker only read: the main thread maps, validates and
 * serialises it (when it would otherwise wait for the worker, see read-worker.ts).
 */
export const RAW = -2;
/**
 * itemBytes of a row whose fingerprint is in the state's set (incremental runs): the item the server
 * last accepted for its id came from this very row. Only its ids travel (read from its cells where
 * the mapper can); it is neither validated nor serialised.
 */
export const SAME = -3;
/** hasCells of a row whose cells are in `cells`, and of one that is a line in `plain`. */
export const CELLS = 1;
export const PLAIN = 2;

/** Every buffer of a chunk, each once: what is transferred to the main thread, and back once read. */
export function chunkBuffers(c: RowChunk): ArrayBuffer[] {
  const buffers: ArrayBuffer[] = [];
  for (const name in ARRAYS) buffers.push(c[name as ArrayName].buffer as ArrayBuffer);
  for (const name of TEXTS) buffers.push(c[name].buffer as ArrayBuffer);
  return buffers;
}
