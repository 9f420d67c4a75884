// An errors CSV fed back to push: its added `_` columns are dropped before mapping, and the
// apostrophes the formula guard put in front of cells are taken off again, so the same profile
// reads the rows exactly as they were in the original export.
import { ERRORS_CSV_COLUMNS } from '../report/errors-csv.js';
import { restoreCell } from '../report/formula-guard.js';
import type { OpenedSource, SourceRecord } from '../read/types.js';

const ADDED: ReadonlySet<string> = new Set(ERRORS_CSV_COLUMNS);

export function isErrorsCsv(header: readonly string[] | undefined): boolean {
  return header !== undefined && ERRORS_CSV_COLUMNS.every((c) => header.includes(c));
}

async function* restored(records: AsyncIterable<SourceRecord>): AsyncIterable<SourceRecord> {
  for await (const record of records) {
    if (record.kind === 'item' || !record.row) {
      yield record;
      continue;
    }
    const row: Record<string, string> = Object.create(null);
    // header names are guarded like cells (an export's own "@id" column is written '@id)
    for (const [column, cell] of Object.entries(record.row)) if (!ADDED.has(column)) row[restoreCell(column)] = restoreCell(cell);
    // a restored row is no longer its line split on the delimiter: it drops `plain`
    yield record.kind === 'row' ? { kind: 'row', file: record.file, line: record.line, row } : { ...record, row };
  }
}

/** The source as the original export: without our columns, cells as the user wrote them. */
export function asOriginalExport(source: OpenedSource): OpenedSource {
  if (!isErrorsCsv(source.header)) return source;
  return { ...source, header: source.header!.filter((h) => !ADDED.has(h)).map(restoreCell), records: restored(source.records) };
}
