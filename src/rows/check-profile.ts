// `init`'s proposal tried on the data before it is written: one pass over a file through the reader,
// mapper and validator `validate` uses, counting per field the rows it leaves invalid (and those with
// the cell empty), ids repeated and MySQL NULLs. Bounded in time: past its share of the budget it
// checks every 2nd, 4th… row, spread over the whole file; past the budget it stops and says so.
// Placeholders (`<FILL IN …>`) are the user's: a stand-in is mapped in their place, not counted.
import type { Method, Resource } from '../contract/resources.js';
import { ConfigError } from '../errors.js';
import { FILL_IN, parseProfile } from '../map/load-profile.js';
import { loadLookups, type LookupTables } from '../map/lookup-table.js';
import { targetShape, type LeafKind } from '../map/target-fields.js';
import { flattenItem } from '../map/records.js';
import type { Mapper } from '../map/types.js';
import type { ReaderOptions, SourceRecord } from '../read/types.js';
import { createItemValidator, type ItemValidator } from '../validate/validate-item.js';
import { type IdRepeats, idRepeatTracker } from './id-repeats.js';
import { mysqlNullCounter } from './mysql-null.js';
import { openJob } from './prepare.js';

export interface CheckInput {
  file: string;
  resource: Resource;
  method: Method;
  /** The proposed profile as JSON (placeholders and all). */
  profile: Record<string, unknown>;
  /** The profile's folder: its lookups' files are relative to it. */
  dir: string;
  /** The reader flags init was given, under the profile's own reader. */
  reader?: ReaderOptions;
  /** Fields whose value is asked elsewhere: counted as placeholders. */
  asked?: readonly string[];
  /** The pass stops reading past this many milliseconds. */
  budgetMs: number;
  /** Rows the file likely holds (from the sample's size), to spread the check when it cannot read all. */
  estimatedRows?: number;
  onProgress?(rowsRead: number): void;
  now?: () => number;
}

/** One field's problems over the rows checked. */
interface FieldTally {
  /** Rows where the field is invalid with its cell filled; with it empty, and the first such line. */
  invalid: number;
  empty: number;
  firstEmptyLine?: number;
  /** Reasons (their quoted values left out; apart where the cell is empty) with a count and an example line each. */
  reasons: Map<string, { count: number; example: string; line: number; empty: boolean }>;
}

export interface ProfileCheck {
  /** Rows read, and of them rows mapped and validated (all, or every `stride`-th). */
  read: number;
  checked: number;
  stride: number;
  /** False when the time budget ran out before the end of the file. */
  whole: boolean;
  valid: number;
  invalid: number;
  skipped: number;
  /** By the item's field path (`amount.value`, `customFields[2].value`; `(row)` for an unreadable row). */
  fields: Map<string, FieldTally>;
  /** Rows checked whose cell is filled, by field (fields read from one named column). */
  filled: Map<string, number>;
  /** Fields left for the user: their problems are not counted. */
  placeholders: string[];
  /** Lookups that could not be loaded (a key repeated with two values…), each left out of the pass. */
  lookupsFailed: { field: string; reason: string }[];
  /** Distinct values of the ids other files refer to, from the valid items (bounded). */
  ids: Map<'externalId' | 'ownerExternalId' | 'agentExternalId', Set<string>>;
  /**
   * Distinct cells of each field read through an open value map (`map` with `otherwise`: a stage's
   * won values), over every row checked, bounded: the sample's values are not all a file holds.
   */
  mapped: Map<string, Set<string>>;
  /** Rows whose externalId an earlier row had with other content (accounts, deals, activities read from a column). */
  idRepeats: IdRepeats;
  /** MySQL's `\N` as the file's NULL where the profile's reader does not say so (mysql-null.ts). */
  nulls?: { columns: string[]; firstLine: number };
}

const MAX_IDS = 200_000;
const MAX_MAPPED = 1000;
const MAX_REASONS = 50;
const ID_FIELDS = ['externalId', 'ownerExternalId', 'agentExternalId'] as const;

export async function checkProfile(input: CheckInput): Promise<ProfileCheck> {
  const now = input.now ?? Date.now;
  const started = now();
  const { json, placeholders } = standIns(input.profile, input.resource, input.method);
  for (const f of input.asked ?? []) placeholders.add(f);
  const lookupsFailed: ProfileCheck['lookupsFailed'] = [];
  const { profile, lookups } = await withLookups(json, input, lookupsFailed);
  const reader = { ...input.reader, ...(profile.reader as ReaderOptions | undefined) };
  const job = await openJob({ file: input.file, resource: input.resource, profile, reader, opened: reader, fast: true, lookups }, input.method);
  const validate = createItemValidator(input.resource, input.method, true);
  const check: ProfileCheck = {
    read: 0,
    checked: 0,
    stride: 1,
    whole: true,
    valid: 0,
    invalid: 0,
    skipped: 0,
    fields: new Map(),
    filled: new Map(),
    placeholders: [...placeholders],
    lookupsFailed,
    ids: new Map(ID_FIELDS.map((f) => [f, new Set<string>()])),
    mapped: new Map(),
    idRepeats: { rows: 0 },
  };
  const columns = columnsOf(profile.fields as Record<string, { column?: unknown }>);
  const open = openMaps(profile.fields as Record<string, { column?: unknown; map?: unknown; otherwise?: unknown }>, columns);
  for (const field of open.keys()) check.mapped.set(field, new Set());
  for (const field of columns.keys()) check.filled.set(field, 0);
  // the ids other files meet: the sales profiles' own, the deals' and activities' owners; never a placeholder's stand-in
  const wanted = input.resource === 'sales-profile' ? ['externalId'] : ['ownerExternalId', 'agentExternalId'];
  const skipIds = new Set<string>([...ID_FIELDS.filter((f) => !wanted.includes(f)), ...placeholders]);
  const idSpec = (profile.fields as Record<string, { rowHash?: unknown }>).externalId;
  const repeats = input.resource === 'sales-profile' || !idSpec || idSpec.rowHash || placeholders.has('externalId') ? undefined : idRepeatTracker();
  const nulls = reader.null === undefined ? mysqlNullCounter() : undefined;
  let segmentStart = started;
  for await (const record of job.source.records) {
    check.read += 1;
    if (check.read % SEGMENT === 0) {
      const at = now();
      input.onProgress?.(check.read);
      if (at - started > input.budgetMs) {
        check.whole = false;
        break;
      }
      check.stride = nextStride(check, at - segmentStart, input.budgetMs - (at - started), input.estimatedRows);
      segmentStart = at;
    }
    if (check.read % check.stride !== 0) continue;
    check.checked += 1;
    // a JSON item's cells as a profile names them (`Owner.Email`)
    const cells = record.kind === 'row' ? record.row : record.kind === 'item' ? flattenItem(record.item) : undefined;
    countFilled(check.filled, cells, columns);
    if (open.size && cells) collectMapped(check.mapped, cells, open);
    if (nulls && record.kind === 'row') nulls.see(record.row, record.line);
    const item = tally(check, record, cells, job.mapper, validate, placeholders, columns, skipIds);
    if (item) repeats?.see(item, record.line);
  }
  return Object.assign(check, { nulls: nulls?.found(), idRepeats: repeats?.repeats ?? check.idRepeats });
}

/** Rows between two looks at the clock. */
const SEGMENT = 1024;

/**
 * At the pace of the last SEGMENT rows, the rest of the file outlasting the time left: check every
 * other row from here on; well within it: twice as many (a slow first segment, the code warming
 * up, is made up for).
 */
function nextStride(check: ProfileCheck, segmentMs: number, leftMs: number, estimatedRows: number | undefined): number {
  const rest = Math.max(estimatedRows ?? 0, check.read * 1.05) - check.read;
  const projected = (rest * segmentMs) / SEGMENT;
  if (projected > leftMs) return check.stride * 2;
  if (check.stride > 1 && projected * 4 < leftMs) return check.stride / 2;
  return check.stride;
}

/** One row mapped and validated, and its problems counted under their fields; the item when it is valid. */
function tally(
  check: ProfileCheck,
  record: SourceRecord,
  row: Record<string, string | undefined> | undefined,
  mapper: Mapper,
  validate: ItemValidator,
  placeholders: Set<string>,
  columns: Map<string, string>,
  skipIds: ReadonlySet<string>,
): Record<string, unknown> | undefined {
  const mapped = mapper.map(record);
  if (mapped.kind === 'skip') {
    check.skipped += 1;
    return undefined;
  }
  let problems: { field?: string; reason: string }[];
  let valid: Record<string, unknown> | undefined;
  if (mapped.kind === 'invalid') problems = mapped.problems;
  else {
    const result = validate(mapped.item);
    problems = result.ok ? [] : result.problems;
    if (result.ok) collectIds(check, (valid = result.item), skipIds);
  }
  problems = problems.filter((p) => p.field === undefined || !placeholders.has(p.field));
  if (!problems.length) {
    check.valid += 1;
    return valid;
  }
  check.invalid += 1;
  for (const p of new Map(problems.map((x) => [x.field ?? '(row)', x])).values()) {
    const field = p.field ?? '(row)';
    const t = check.fields.get(field) ?? check.fields.set(field, { invalid: 0, empty: 0, reasons: new Map() }).get(field)!;
    const column = columns.get(field);
    // a CSV's column by name (not by letter or position), or a JSON key absent or null
    const empty = row !== undefined && column !== undefined && (record.kind === 'item' || column in row) && (row[column] ?? '').trim() === '';
    if (empty) {
      t.empty += 1;
      t.firstEmptyLine ??= record.line;
    } else t.invalid += 1;
    let key = `${empty ? 'empty' : 'filled'}\0${p.reason.replace(/"[^"]*"/g, '"…"')}`;
    // bounded: reasons that name values outside quotes could be as many as the rows
    if (!t.reasons.has(key) && t.reasons.size >= MAX_REASONS) key = 'more';
    const r = t.reasons.get(key);
    if (r) r.count += 1;
    else t.reasons.set(key, { count: 1, example: p.reason, line: record.line, empty });
  }
  return undefined;
}

function countFilled(filled: Map<string, number>, row: Record<string, string | undefined> | undefined, columns: Map<string, string>) {
  if (row === undefined) return;
  for (const [field, column] of columns) if ((row[column] ?? '').trim() !== '') filled.set(field, (filled.get(field) ?? 0) + 1);
}

function collectIds(check: ProfileCheck, item: Record<string, unknown>, skip: ReadonlySet<string>) {
  for (const f of ID_FIELDS) {
    if (skip.has(f)) continue;
    const v = item[f];
    const set = check.ids.get(f)!;
    if (typeof v === 'string' && set.size < MAX_IDS) set.add(v);
  }
}

/** The fields read through a value map that lets other values through (`otherwise`), by their column. */
function openMaps(fields: Record<string, { map?: unknown; otherwise?: unknown }>, columns: Map<string, string>): Map<string, string> {
  return new Map([...columns].filter(([field]) => fields[field]?.map !== undefined && fields[field]?.otherwise !== undefined));
}

function collectMapped(mapped: Map<string, Set<string>>, row: Record<string, string | undefined>, open: Map<string, string>) {
  for (const [field, column] of open) {
    const v = row[column]?.trim();
    const set = mapped.get(field)!;
    if (v && set.size < MAX_MAPPED) set.add(v);
  }
}

/** Each field's source column, where it is one named column. */
function columnsOf(fields: Record<string, { column?: unknown }>): Map<string, string> {
  const out = new Map<string, string>();
  for (const [path, spec] of Object.entries(fields)) {
    const c = Array.isArray(spec.column) && spec.column.length === 1 ? spec.column[0] : spec.column;
    if (typeof c === 'string') out.set(path, c);
  }
  return out;
}

/** The profile loaded with its lookups; a lookup that cannot load is left out (its field reads the column itself) and said. */
async function withLookups(json: Record<string, unknown>, input: CheckInput, failed: ProfileCheck['lookupsFailed']) {
  const fields = json.fields as Record<string, Record<string, unknown>>;
  for (;;) {
    const profile = { ...parseProfile(json, input.file), dir: input.dir };
    try {
      // its notes are about the profile proposed: its lookup files named as the profile names them
      const lookups: LookupTables = await loadLookups(profile, {}, {}, true, input.dir);
      return { profile, lookups };
    } catch (error) {
      const at = error instanceof ConfigError ? /fields\.(.+?)\.lookup: (.*)/.exec(error.message) : null;
      if (!at || !fields[at[1]!]?.lookup) throw error;
      failed.push({ field: at[1]!, reason: at[2]! });
      const file = (fields[at[1]!]!.lookup as { file?: string }).file;
      for (const spec of Object.values(fields)) if ((spec.lookup as { file?: string } | undefined)?.file === file) delete spec.lookup;
    }
  }
}

/** A value each kind of field accepts: what a placeholder stands in for while the rest is checked. */
const STAND_IN: Record<LeafKind, unknown> = {
  string: 'x',
  boolean: false,
  number: 0,
  decimal: '0',
  date: '2000-01-01',
  datetime: '2000-01-01T00:00:00Z',
  dateOrDateTime: '2000-01-01',
};
const standInFor = (path: string, kind: LeafKind | undefined) =>
  /email$/i.test(path) ? 'x@example.com' : /currency$/i.test(path) ? 'USD' : STAND_IN[kind ?? 'string'];

/** A copy of the profile with each placeholder given a stand-in (a format its first choice), and the fields that had one. */
function standIns(profile: Record<string, unknown>, resource: Resource, method: Method) {
  const json = structuredClone(profile);
  const shape = targetShape(resource, method);
  const placeholders = new Set<string>();
  const fields = json.fields as Record<string, Record<string, unknown>>;
  const isPlaceholder = (v: unknown) => typeof v === 'string' && v.startsWith(FILL_IN);
  for (const [path, spec] of Object.entries(fields)) {
    if (isPlaceholder(spec.format)) spec.format = (spec.format as string).slice(FILL_IN.length + 2).split(' or ')[0];
    if (!Object.values(spec).some(isPlaceholder)) continue;
    placeholders.add(path);
    fields[path] = { const: standInFor(path, shape.fields.get(path)?.kind), ...(spec.transform ? { transform: spec.transform } : {}) };
  }
  for (const spec of (json.customFields ?? []) as Record<string, unknown>[]) {
    if (isPlaceholder(spec.format)) spec.format = (spec.format as string).slice(FILL_IN.length + 2).split(' or ')[0];
  }
  return { json, placeholders };
}
