// Columns a profile names, found in the file's header: exactly, else ignoring case and surrounding
// spaces. A column that is not there is a ConfigError naming the profile field and close matches.
// Header names are unique: the reader reads a repeated name's later copies as `Name (2)`, `Name (3)`
// (read/repeated-names.ts), and a profile names them so. There is no form by position or letter on
// purpose: an export that gains a column moves every position after it, and a profile naming a
// position would then read another column without a word, where a name not found stops the run.
import { ConfigError } from '../errors.js';
import { closeMatches } from './close-matches.js';

export interface ColumnResolver {
  /** The file's header; undefined for JSON records (their keys are only known per record). */
  readonly header: readonly string[] | undefined;
  /** The header's own spelling of `name`; `where` is the profile field that names it. */
  resolve(name: string, where: string): string;
  /**
   * A resolved column's cell: from a CSV row's cells, in the header's order, by index, else from a
   * row object by name (JSON items).
   */
  reader(column: string): (row: RowLike) => string | undefined;
  /** A resolved column's index in the header, -1 when the header is only known per record. */
  index(column: string): number;
}

/** A row by column name (a JSON item through a profile), or a CSV row's cells in the header's order. */
export type RowLike = Record<string, string | undefined> | readonly string[];

const byName = (column: string) => (row: RowLike) => (row as Record<string, string | undefined>)[column];

export function columnResolver(header: readonly string[] | undefined, file: string, profileName: string): ColumnResolver {
  if (!header) return { header, resolve: (name) => name, reader: byName, index: () => -1 }; // JSON records: keys are only known per record
  const exact = new Set(header);
  const loose = new Map<string, string[]>();
  for (const h of header) {
    const key = h.trim().toLowerCase();
    loose.set(key, [...(loose.get(key) ?? []), h]);
  }
  return {
    header,
    index: (column) => header.indexOf(column),
    reader(column) {
      const at = header.indexOf(column);
      // cells by index build no object per row (one with no prototype is a dictionary: slow to fill and read)
      return at < 0 ? byName(column) : (row) => (Array.isArray(row) ? (row as readonly string[])[at] : (row as Record<string, string | undefined>)[column]);
    },
    resolve(name, where) {
      if (exact.has(name)) return name;
      const candidates = loose.get(name.trim().toLowerCase());
      if (candidates?.length === 1) return candidates[0]!;
      const near = closeMatches(name, header);
      throw new ConfigError(`profile ${profileName}: ${where}: column "${name}" is not in ${file}${near.length ? `; close matches: ${near.join(', ')}` : ''}`, {
        suggestion: `the file's columns are: ${header.map((h) => `"${h}"`).join(', ')}`,
      });
    },
  };
}
