// An errors CSV fed back to push: its added `_` columns are dropped before mapping, and the
// apostrophes the formula guard put in front of cells are taken off again, so the same profile
// reads the rows exactly as they were in the original export. Its `_resource` column says which
// kind its rows are, so it is pushed back by its name alone, whatever that name is.
import { parseResource, RESOURCE_NAMES_HELP, type Resource } from '../contract/resources.js';
import { InputError } from '../errors.js';
import { ERRORS_CSV_COLUMNS } from '../report/errors-csv.js';
import { restoreCell } from '../report/formula-guard.js';
import { openSource } from '../read/index.js';
import { formatOf } from '../read/open.js';
import type { OpenedSource, ReaderOptions, SourceRecord } from '../read/types.js';

const ADDED: ReadonlySet<string> = new Set(ERRORS_CSV_COLUMNS);
const RESOURCE_COLUMN = '_resource';
/** Every errors CSV has these; `_resource` came later, and a file without it is still one. */
const ALWAYS = ERRORS_CSV_COLUMNS.filter((c) => c !== RESOURCE_COLUMN);

function isErrorsCsv(header: readonly string[] | undefined): boolean {
  return header !== undefined && ALWAYS.every((c) => header.includes(c));
}

/** A row's `_resource` as written, or undefined when the row has none. */
function resourceCell(row: Record<string, string>): string | undefined {
  const cell = restoreCell(row[RESOURCE_COLUMN] ?? '').trim();
  return cell === '' ? undefined : cell;
}

async function* restored(records: AsyncIterable<SourceRecord>, resource: Resource): AsyncIterable<SourceRecord> {
  for await (const record of records) {
    if (record.kind === 'item' || !record.row) {
      yield record;
      continue;
    }
    const row: Record<string, string> = Object.create(null);
    // header names are guarded like cells (an export's own "@id" column is written '@id)
    for (const [column, cell] of Object.entries(record.row)) if (!ADDED.has(column)) row[restoreCell(column)] = restoreCell(cell);
    const kind = resourceCell(record.row);
    if (record.kind === 'row' && kind !== undefined && parseResource(kind) !== resource) {
      // rows of two kinds pasted into one file: this one is not read as the file's kind
      const reason = `${RESOURCE_COLUMN} is "${kind}", but this errors CSV is read as ${resource}: push each kind's rows in their own file`;
      yield { kind: 'unreadable', file: record.file, line: record.line, reason, row };
      continue;
    }
    // a restored row is no longer its line split on the delimiter: it drops `plain`
    yield record.kind === 'row' ? { kind: 'row', file: record.file, line: record.line, row } : { ...record, row };
  }
}

/** The source as the original export: without our columns, cells as the user wrote them. */
export function asOriginalExport(source: OpenedSource, resource: Resource): OpenedSource {
  if (!isErrorsCsv(source.header)) return source;
  return { ...source, header: source.header!.filter((h) => !ADDED.has(h)).map(restoreCell), records: restored(source.records, resource) };
}

/** What an input says of itself before its job is decided: the options to open it with, and an errors CSV's kind. */
export interface InputInspection {
  opened: ReaderOptions;
  /** The `_resource` of an errors CSV's first row. */
  resource?: Resource;
}

/**
 * Looks at a CSV input's header and first row. An errors CSV has its header on line 1 whatever the
 * export it came from: fed back with the export's profile, a header row set for the export's title
 * rows must not apply to it. Its first row's `_resource` is the file's kind.
 */
export async function inspectInput(file: string, reader: ReaderOptions, fast: boolean): Promise<InputInspection> {
  if (formatOf(file, reader.format) !== 'csv') return { opened: reader };
  const { headerRow: _, ...fromLineOne } = reader;
  // a file that cannot be opened so is reported when it is opened for its rows
  const source = await openSource(file, fromLineOne, fast).catch(() => undefined);
  if (!source || !isErrorsCsv(source.header)) return { opened: reader };
  if (!source.header!.includes(RESOURCE_COLUMN)) return { opened: fromLineOne };
  let first: SourceRecord | undefined;
  for await (const record of source.records) {
    first = record;
    break;
  }
  const kind = first?.kind === 'row' ? resourceCell(first.row) : undefined;
  if (kind === undefined) return { opened: fromLineOne };
  const resource = parseResource(kind);
  if (!resource) {
    throw new InputError(`${file}:${first!.line}: ${RESOURCE_COLUMN} "${kind}" is not a resource (${RESOURCE_NAMES_HELP})`, {
      suggestion: 'put back the kind batch-sync wrote there, or pair the file with its kind as FILE:KIND',
    });
  }
  return { opened: fromLineOne, resource };
}
