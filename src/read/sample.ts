// What `init` needs to propose a mapping: the header and the first rows, without reading the rest.

import { openSource } from './open.js';
import type { OpenedSource, ReaderOptions, SourceRecord } from './types.js';

export interface SourceSample extends Omit<OpenedSource, 'records'> {
  /** The first `limit` records (rows, items or unreadable ones), in file order. */
  records: SourceRecord[];
  /** False when the file holds more records than were taken. */
  complete: boolean;
}

export async function sampleSource(file: string, limit = 20, options: ReaderOptions = {}): Promise<SourceSample> {
  const source = await openSource(file, options);
  const records: SourceRecord[] = [];
  let complete = true;
  // leaving the loop early closes the file stream (the generator's finally runs)
  for await (const record of source.records) {
    if (records.length === limit) {
      complete = false;
      break;
    }
    records.push(record);
  }
  // a trailing delimiter's column (column_N) that no sampled row fills is nothing to propose a mapping for
  const unused = new Set(source.unnamedAtEnd?.filter((name) => records.every((r) => r.kind !== 'row' || (r.row[name] ?? '').trim() === '')));
  if (unused.size === 0 || !source.header) return { ...source, records, complete };
  return { ...source, header: source.header.filter((name) => !unused.has(name)), records, complete };
}
