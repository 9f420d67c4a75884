// The one entry point: a Mapper for a file, from its header and (optionally) a profile. Without a
// profile the input must be canonical (API-shaped JSON, or a CSV headed by field paths).
import type { Method, Resource } from '../contract/resources.js';
import { canonicalMapper } from './canonical-mapper.js';
import { profileMapper } from './profile-mapper.js';
import type { LookupTables } from './lookup-table.js';
import type { Profile } from './profile-schema.js';
import { itemAsIs, unreadable } from './records.js';
import type { MapResult, Mapper } from './types.js';
import type { Diagnostic } from '../util/diagnostic.js';

export interface CreateMapperOptions {
  resource: Resource;
  /** POST unless the profile or the caller says PATCH: it decides which fields exist and are required. */
  method?: Method;
  /** The CSV header; undefined for JSON sources. */
  header?: readonly string[];
  /** Header columns the reader named itself for a trailing delimiter: no field, so a file without a profile ignores them. */
  unnamedAtEnd?: readonly string[];
  profile?: Profile;
  /** The file's name as messages show it. */
  file: string;
  /** Workbooks: each header column's letter, so a cell at fault is named `Amount (C)` with its row. */
  columnLetters?: readonly string[];
  /** The run's lookup tables, loaded before (lookup-table.ts loadLookups). */
  lookups?: LookupTables;
}

/** Throws ConfigError when header and profile do not fit; row problems come back from `map` as data. */
export function createMapper(opts: CreateMapperOptions): Mapper {
  const { header, columnLetters } = opts;
  if (header && columnLetters) return withCellLetters(createMapper({ ...opts, columnLetters: undefined }), header, columnLetters, !opts.profile);
  if (opts.profile) return profileMapper({ ...opts, profile: opts.profile });
  if (header) return canonicalMapper({ ...opts, header });
  // JSON without a profile: items pass through as they are
  let rows: Mapper | undefined; // rows without a known header: canonical, by the first row's keys
  return {
    resource: opts.resource,
    map(record): MapResult {
      if (record.kind === 'unreadable') return unreadable(record);
      if (record.kind === 'item') return itemAsIs(record);
      rows ??= canonicalMapper({ ...opts, header: Object.keys(record.row) });
      return rows.map(record);
    },
  };
}

/**
 * Diagnostics that name a header column name its letter too: `Monto (E)`, on the row the report
 * gives; `canonical`: the columns are the fields, so a contract problem's field names its column.
 */
function withCellLetters(mapper: Mapper, header: readonly string[], letters: readonly string[], canonical: boolean): Mapper {
  const labels = new Map(header.map((name, i) => [name, `${name} (${letters[i]})`]));
  const relabel = (d: Diagnostic): Diagnostic => {
    const label = d.column === undefined ? undefined : labels.get(d.column);
    return label === undefined ? d : { ...d, column: label };
  };
  return {
    ...mapper,
    ...(canonical ? { columnOf: (field: string) => labels.get(field) } : {}),
    map(record) {
      const r = mapper.map(record);
      if (r.kind === 'invalid') return { ...r, problems: r.problems.map(relabel) };
      if (r.kind === 'item' && r.warnings.length > 0) return { ...r, warnings: r.warnings.map(relabel) };
      return r;
    },
  };
}
