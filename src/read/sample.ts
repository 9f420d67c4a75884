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
  return { ...source, records, complete };
}
