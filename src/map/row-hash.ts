// `rowHash`: an id made from a row's content, for exports without a unique key. `rh-` and the first
// 20 hex digits of SHA-256 over the sorted (header, cell) pairs: the same content gives the same id
// whatever its line or the columns' order, so repeated rows get one id (and are sent once), and any
// hashed cell differing gives another. Cells are hashed as read (before trim), every one of the row
// (`true`) or the columns named.
import { hash } from 'node:crypto';
import type { ColumnResolver, RowLike } from './columns.js';

/** The id for a row. */
export type RowHash = (row: RowLike) => string;

const idOf = (pairs: (readonly [string, string])[]) => `rh-${hash('sha256', JSON.stringify(pairs), 'hex').slice(0, 20)}`;
const byName = (a: readonly [string, unknown], b: readonly [string, unknown]) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0);

export function compileRowHash(spec: true | readonly string[], where: string, columns: ColumnResolver): RowHash {
  const names = spec === true ? columns.header : spec.map((c, i) => columns.resolve(c, `${where}.rowHash[${i}]`));
  if (names === undefined) {
    // JSON records: every key of the record, read per record
    return (row) =>
      idOf(
        Object.entries(row as Record<string, string | undefined>)
          .map(([k, v]) => [k, v ?? ''] as const)
          .sort(byName),
      );
  }
  const sorted = [...new Set(names)].sort();
  const cells = sorted.map((name) => columns.reader(name));
  return (row) => idOf(sorted.map((name, i) => [name, cells[i]!(row) ?? ''] as const));
}
