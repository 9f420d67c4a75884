// A profile's `lookup` tables: one file's `key` column → its `value` column, loaded once per run
// before anything is sent (a problem with one is exit 2, naming the profile field), held off the
// heap in SharedArrayBuffers, so the read worker reads the very same memory instead of loading the
// file again, and bounded: a lookup file is the one input held whole, so past the cap it is refused
// with one line, never read into memory without end.
import { createHash } from 'node:crypto';
import { type Stats, statSync } from 'node:fs';
import { dirname, isAbsolute, relative, resolve, sep } from 'node:path';
import { ConfigError } from '../errors.js';
import { openSource } from '../read/open.js';
import type { ReaderOptions } from '../read/types.js';
import { IdTable, type SharedIdTable } from '../util/id-table.js';
import { grownBuffer, grownUint32 } from '../util/outgrown.js';
import { columnResolver } from './columns.js';
import type { LookupSpec, Profile } from './profile-schema.js';
import { flattenItem } from './records.js';

/** The caps of one table (the defaults; tests pass smaller ones). */
export interface LookupLimits {
  maxKeys: number;
  /** Keys and values together, as UTF-8. */
  maxBytes: number;
}
const LIMITS: LookupLimits = { maxKeys: 1_000_000, maxBytes: 128 * 1024 * 1024 };

/** A loaded table, as plain data a worker receives without a copy. */
export interface SharedLookup {
  /** The file for messages, relative to the working directory (as the user can open it); `path` as read. */
  file: string;
  path: string;
  /** The key column (`"…" is not an Id in User.csv`). */
  key: string;
  /** The value column (`"u7" is an Id in User.csv whose Email is empty`). */
  value: string;
  /** SHA-1 of every key and value in file order: what the rows' fingerprints depend on. */
  digest: string;
  keys: SharedIdTable;
  /** The values as UTF-8, and where each entry's starts (one more word than entries). */
  values: SharedArrayBuffer;
  valueStarts: SharedArrayBuffer;
}

/** A run's tables, by lookupId: one per file, key, value and reader options, whatever fields share it. */
export type LookupTables = Record<string, SharedLookup>;

/** What the mapper reads: the value for a key, or undefined. */
export interface LookupView {
  file: string;
  key: string;
  value: string;
  get(key: string): string | undefined;
}

const lookupPath = (spec: LookupSpec, profile: Pick<Profile, 'dir'>) => resolve(profile.dir ?? '.', spec.file);

/** The table a field's lookup reads, named by what decides its content. */
const lookupId = (spec: LookupSpec, profile: Pick<Profile, 'dir'>) => JSON.stringify([lookupPath(spec, profile), spec.key, spec.value, spec.reader ?? {}]);

/** Every field's and custom field's lookup of a profile, with its profile path (`fields.ownerExternalId`). */
function lookupsOf(profile: Profile): Array<{ spec: LookupSpec; where: string }> {
  const fields = Object.entries(profile.fields).map(([path, spec]) => ({ spec: spec.lookup, where: `fields.${path}` }));
  const customs = (profile.customFields ?? []).map((cf, i) => ({ spec: cf.lookup, where: `customFields[${i}]` }));
  return [...fields, ...customs].filter((l): l is { spec: LookupSpec; where: string } => l.spec !== undefined);
}

/**
 * A lookup file as messages name it: relative to the working directory, where the user opens it
 * from (the profile names it relative to its own folder, which is often another); a file outside
 * it by its full path, as run/sync.ts names input files.
 */
function shownPath(path: string, cwd: string): string {
  const rel = relative(cwd, path);
  return rel && !rel.startsWith('..') && !isAbsolute(rel) ? rel.split(sep).join('/') : path;
}

/**
 * The tables a profile's lookups read, each loaded once per run: `loaded` holds the run's tables so
 * far (another job's profile may read the same file). Returns this profile's alone. `cwd` is
 * the folder the messages name files from.
 */
export async function loadLookups(
  profile: Profile,
  limits: Partial<LookupLimits> = {},
  loaded: LookupTables = {},
  fast = true,
  cwd = process.cwd(),
): Promise<LookupTables> {
  const tables: LookupTables = {};
  for (const { spec, where } of lookupsOf(profile)) {
    const id = lookupId(spec, profile);
    const path = lookupPath(spec, profile);
    const at = { origin: profile.origin ?? 'profile', field: where, file: shownPath(path, cwd) };
    loaded[id] ??= await loadTable(spec, path, at, { ...LIMITS, ...limits }, fast);
    tables[id] = loaded[id];
  }
  return tables;
}

/** Why a path is no regular file to read ('missing', 'a FIFO', 'a directory'…), or undefined when it is one. */
function fileKind(path: string): string | undefined {
  let stat: Stats;
  try {
    stat = statSync(path);
  } catch {
    return 'missing';
  }
  if (stat.isFile()) return undefined;
  if (stat.isFIFO()) return 'a FIFO';
  if (stat.isDirectory()) return 'a directory';
  if (stat.isSocket()) return 'a socket';
  return 'a device';
}

/** Which profile and field a table is loaded for, and the file as messages name it: every message names them. */
interface LoadedFor {
  origin: string;
  field: string;
  file: string;
}

async function loadTable(spec: LookupSpec, path: string, at: LoadedFor, limits: LookupLimits, fast: boolean): Promise<SharedLookup> {
  const { file } = at;
  const fail = (text: string): never => {
    throw new ConfigError(`profile ${at.origin}: ${at.field}.lookup: ${text}`, { suggestion: `check ${file} and the lookup in the profile` });
  };
  // a FIFO nobody writes would block the open for ever, with the run's lock held: regular files only
  const kind = fileKind(path);
  const beside =
    file === spec.file ? "a lookup's file is found beside its profile" : `the profile's ${JSON.stringify(spec.file)} is relative to the profile's folder`;
  if (kind) fail(kind === 'missing' ? `${file} does not exist (${beside})` : `${file} is ${kind}, not a regular file`);
  const source = await openSource(path, { ...spec.reader } as ReaderOptions, fast);
  // a file whose first line is one cell is no table of keys and values (a key file is one such line):
  // nothing of it is echoed
  if (source.header && source.header.length < 2)
    fail(`${file} is not a table: its first line holds one cell, where a lookup needs a ${spec.key} and a ${spec.value} column`);
  const columns = columnResolver(source.header, file, at.origin);
  const keyColumn = columns.resolve(spec.key, `${at.field}.lookup.key`);
  const valueColumn = columns.resolve(spec.value, `${at.field}.lookup.value`);
  const keys = new IdTable();
  let lines = new Uint32Array(1024);
  let values = Buffer.allocUnsafe(1 << 16);
  let valueStarts = new Uint32Array(1025);
  let used = 0;
  let bytes = 0;
  const digest = createHash('sha1');
  for await (const record of source.records) {
    if (record.kind === 'unreadable') fail(`${file}:${record.line}: ${record.reason} (a lookup file must read whole)`);
    const row: Record<string, string | undefined> = record.kind === 'row' ? record.row : flattenItem((record as { item: unknown }).item);
    const key = (row[keyColumn] ?? '').trim();
    const value = (row[valueColumn] ?? '').trim();
    // a row without a key can match no cell: an empty cell takes the field's default before any lookup
    if (key === '') continue;
    const seen = keys.claim(key);
    if (seen >= 0) {
      const before = values.toString('utf8', valueStarts[seen], valueStarts[seen + 1]);
      if (before !== value)
        fail(
          `${file} has two ${spec.value} values for the ${spec.key} ${JSON.stringify(key)}: ${JSON.stringify(before)} (line ${lines[seen]}) and ${JSON.stringify(value)} (line ${record.line})`,
        );
      continue;
    }
    const entry = keys.size - 1;
    bytes += Buffer.byteLength(key) + Buffer.byteLength(value);
    if (keys.size > limits.maxKeys || bytes > limits.maxBytes) {
      const over =
        keys.size > limits.maxKeys ? `${limits.maxKeys.toLocaleString('en-US')} keys` : `${limits.maxBytes.toLocaleString('en-US')} bytes of keys and values`;
      fail(
        `${file} holds more than ${over}: a lookup table is held in memory, and bounded (${limits.maxKeys.toLocaleString('en-US')} keys, ${Math.round(limits.maxBytes / 1024 / 1024)} MiB of keys and values)`,
      );
    }
    if (entry === lines.length) lines = grownUint32(lines, lines.length * 2);
    if (entry + 2 > valueStarts.length) valueStarts = grownUint32(valueStarts, valueStarts.length * 2);
    const need = Buffer.byteLength(value);
    if (used + need > values.length) values = grownBuffer(values, Math.max(values.length * 2, used + need), used);
    lines[entry] = record.line;
    used += values.write(value, used, 'utf8');
    valueStarts[entry + 1] = used;
    digest.update(key).update('\0').update(value).update('\0');
  }
  // a table that can match nothing is a mistake (a JSON key misnamed, an empty file), not a run of row errors
  if (keys.size === 0) fail(`no row of ${file} has a ${spec.key}`);
  const sharedValues = new SharedArrayBuffer(used);
  new Uint8Array(sharedValues).set(values.subarray(0, used));
  const sharedStarts = new SharedArrayBuffer(4 * (keys.size + 1));
  new Uint32Array(sharedStarts).set(valueStarts.subarray(0, keys.size + 1));
  return { file, path, key: spec.key, value: spec.value, digest: digest.digest('hex'), keys: keys.share(), values: sharedValues, valueStarts: sharedStarts };
}

/** The mapper's view of a loaded table (on either thread). */
export function lookupView(table: SharedLookup): LookupView {
  const keys = IdTable.fromShared(table.keys);
  const values = Buffer.from(table.values);
  const starts = new Uint32Array(table.valueStarts);
  return {
    file: table.file,
    key: table.key,
    value: table.value,
    get(key) {
      const entry = keys.indexOf(key);
      return entry < 0 ? undefined : values.toString('utf8', starts[entry], starts[entry + 1]);
    },
  };
}

/** The view for a field's lookup in the run's tables; a table not loaded is refused (a mapper never runs without it). */
export function lookupFor(tables: LookupTables | undefined, spec: LookupSpec, profile: Pick<Profile, 'dir' | 'origin'>, where: string): LookupView {
  const table = tables?.[lookupId(spec, profile)];
  if (table === undefined)
    throw new ConfigError(
      `profile ${profile.origin ?? 'profile'}: ${where}.lookup: the table of ${spec.file} was not loaded (${dirname(lookupPath(spec, profile))})`,
    );
  return lookupView(table);
}
