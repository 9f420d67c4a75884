// The fingerprint of a raw input row, so an incremental rerun can tell an unchanged row before it
// validates and serialises it. An item's hash (item-hash.ts) needs the item, and building it is most
// of a run's work; the fingerprint needs only the row's text. Its context is everything else the
// item depends on: the tool and its ICU and time-zone data, the method, the resource, the file's
// header, delimiter and encoding, the reader options and the mapping profile. Equal fingerprints
// therefore mean equal items, and the state keeps each accepted item's fingerprint beside its hash.
//
// The context changing (a profile edited, the tool upgraded) only costs speed: the rows are then
// built and checked against their item hashes, as without fingerprints, and the new fingerprints
// are recorded. A row that had a mapping or contract warning gets no fingerprint: it goes through
// every check on every run, so its warnings are reported every time.
import { createHash, hash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { basename, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Method, Resource } from '../contract/resources.js';
import type { ReaderOptions, SourceRecord } from '../read/types.js';
import { VERSION } from '../version.js';
import { parseHashHex, sha1Prefix, type ItemHash } from '../util/item-hash.js';

export interface FingerprintContextParts {
  method: Method;
  resource: Resource;
  header: readonly string[] | undefined;
  detected: { encoding: string; delimiter?: string; headerRow?: number; sheet?: string };
  reader: ReaderOptions | undefined;
  /** The mapping profile as loaded (undefined for canonical input). */
  profile: unknown;
}

/** 16 hex digits standing for everything but the row's own text. */
export function fingerprintContext(parts: FingerprintContextParts): string {
  const { node, icu, tz, unicode } = process.versions;
  const text = JSON.stringify({ fingerprint: 1, tool: VERSION, code: codeDigest(), node, icu, tz, unicode, ...parts });
  return hash('sha1', text, 'hex').slice(0, 16);
}

let code: string | undefined;
/**
 * The code that turns a row into an item, as built: the reader, the mapper, the contract and its
 * checks, this file, and zod's version. The tool's version alone would not do: it is not bumped by
 * every commit, and a checkout updated with git pull runs new code under the same version. Hashed
 * once per thread (~60 files, a few ms), only in runs that fingerprint. Always the built files
 * (dist/), also when this module runs from src/ (the tests, whose read worker runs from dist/): the
 * main thread and the worker must name the same code.
 */
function codeDigest(): string {
  if (code !== undefined) return code;
  const digest = createHash('sha1');
  const here = fileURLToPath(new URL('..', import.meta.url));
  const built = join(here, '..', 'dist');
  const root = basename(here) === 'src' && existsSync(join(built, 'state', 'row-fingerprint.js')) ? built : here;
  const self = fileURLToPath(import.meta.url);
  const files: string[] = [root === here ? self : join(built, 'state', 'row-fingerprint.js')];
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (/\.(js|ts)$/.test(entry.name) && !entry.name.endsWith('.d.ts')) files.push(path);
    }
  };
  try {
    for (const stage of ['read', 'map', 'contract', 'validate']) walk(join(root, stage));
    for (const file of files.sort())
      digest
        .update(`${relative(root, file)}\0`)
        .update(readFileSync(file))
        .update('\0');
    digest.update(`zod ${(createRequire(import.meta.url)('zod/package.json') as { version: string }).version}`);
  } catch (error) {
    // a layout we cannot read: no row is then known from an earlier run of another build
    digest.update(`unreadable ${(error as Error).message} ${Date.now()}`);
  }
  return (code = digest.digest('hex').slice(0, 16));
}

/** Set apart the hash of a row taken as its cells from that of a line with the same text. */
const CELLS_FORM = 0x9e3779b9;

/** The context's two words, parsed once per context (a job has one). */
let lastContext = '';
let contextWords: ItemHash = { hi: 0, lo: 0 };
function wordsOf(context: string): ItemHash {
  if (context !== lastContext) {
    contextWords = parseHashHex(context)!; // always 16 hex digits (fingerprintContext)
    lastContext = context;
  }
  return contextWords;
}

/**
 * The row's fingerprint under `context`, or undefined for a record that has none (a JSON item, an
 * unreadable row). A line without quotes is fingerprinted as itself (the delimiter, in the context,
 * splits it); any other row as its cells under the header, JSON-encoded.
 */
export function rowFingerprint(context: string, record: SourceRecord, header: readonly string[] | undefined): ItemHash | undefined {
  if (record.kind !== 'row' || header === undefined) return undefined;
  let text: ItemHash;
  if (record.plain !== undefined) text = sha1Prefix(record.plain);
  else {
    const cells = record.cells;
    // cells past the header's width are blank ones the reader let through: the mapper never reads them
    const values = cells === undefined ? header.map((h) => record.row[h]) : cells.length === header.length ? cells : cells.slice(0, header.length);
    // a workbook's cell types count too: `1.5` as a number and as text map differently through a profile
    const h = sha1Prefix(JSON.stringify(record.types === undefined ? values : [values, record.types]));
    // the same text as a line and as cells (a line that reads like a JSON array) must not meet
    text = { hi: (h.hi ^ CELLS_FORM) >>> 0, lo: h.lo };
  }
  // the context is mixed in by XOR, not hashed with the text: no string of context + row to build
  // and flatten per row. Two rows of different contexts then share a fingerprint only if their
  // texts' hashes differ by exactly the contexts' difference: odds 2^-64, as for any two rows
  const c = wordsOf(context);
  const hi = (text.hi ^ c.hi) >>> 0;
  const lo = (text.lo ^ c.lo) >>> 0;
  return hi === 0 && lo === 0 ? { hi: 0, lo: 1 } : { hi, lo };
}

/**
 * The fingerprints of one state table as a set the read worker can consult without the table: open
 * addressing over a SharedArrayBuffer, two words a slot (0, 0 is empty: no fingerprint is), at most
 * half full, sized once at the run's start and never grown. A fingerprint determines the row's item, and so its externalId:
 * one in the set is the fingerprint of the item the state holds for that id, as of the run's start.
 * (A row whose id was accepted again since, earlier in the same run, is a duplicate anyway.)
 */
export class FingerprintSet {
  private readonly slots: Uint32Array;
  private readonly mask: number;

  constructor(buffer: SharedArrayBuffer) {
    this.slots = new Uint32Array(buffer);
    this.mask = this.slots.length / 2 - 1;
  }

  /** A set of at most `count` fingerprints, given by `each`. */
  static build(count: number, each: (add: (fp: ItemHash) => void) => void): SharedArrayBuffer {
    let size = 1024;
    while (size < 2 * count) size *= 2;
    const buffer = new SharedArrayBuffer(8 * size);
    const set = new FingerprintSet(buffer);
    each((fp) => set.add(fp));
    return buffer;
  }

  has(fp: ItemHash): boolean {
    const { slots, mask } = this;
    for (let i = fp.lo & mask; ; i = (i + 1) & mask) {
      const hi = slots[2 * i]!;
      const lo = slots[2 * i + 1]!;
      if (hi === fp.hi && lo === fp.lo) return true;
      if (hi === 0 && lo === 0) return false;
    }
  }

  private add(fp: ItemHash): void {
    const { slots, mask } = this;
    let i = fp.lo & mask;
    while (slots[2 * i] !== 0 || slots[2 * i + 1] !== 0) {
      if (slots[2 * i] === fp.hi && slots[2 * i + 1] === fp.lo) return;
      i = (i + 1) & mask;
    }
    slots[2 * i] = fp.hi;
    slots[2 * i + 1] = fp.lo;
  }
}
