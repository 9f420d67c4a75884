// The readers' one entry point: which reader a file needs, decided from options and extension.

import { UsageError } from '../errors.js';
import { openCsv } from './csv/read-csv.js';
import { openJson } from './json/read-json.js';
import { openNdjson } from './json/read-ndjson.js';
import type { OpenedSource, ReaderOptions, SourceFormat, SourceWarning } from './types.js';

const FORMATS: readonly SourceFormat[] = ['csv', 'json', 'ndjson', 'xlsx'];
// workbooks the xlsx reader opens; it tells an .xls or .ods apart with an error of its own
const WORKBOOK_EXTENSIONS = new Set(['xlsx', 'xlsm', 'xls', 'xlsb', 'ods']);

export function formatOf(file: string, forced?: string): SourceFormat {
  if (forced !== undefined) {
    const name = forced.toLowerCase() === 'jsonl' ? 'ndjson' : forced.toLowerCase();
    if (!FORMATS.includes(name as SourceFormat)) {
      throw new UsageError(`unknown input format "${forced}"`, { suggestion: 'Use csv, json, ndjson or xlsx.' });
    }
    return name as SourceFormat;
  }
  const ext = /\.([^./\\]+)$/.exec(file)?.[1]?.toLowerCase();
  if (ext === 'json') return 'json';
  if (ext === 'ndjson' || ext === 'jsonl') return 'ndjson';
  if (ext !== undefined && WORKBOOK_EXTENSIONS.has(ext)) return 'xlsx';
  return 'csv';
}

/**
 * Opens a file and detects how to read it from a bounded prefix; `records` then streams it once.
 * Throws InputError (exit 2) for files that cannot be read at all; rows that cannot be read come
 * back as `unreadable` records, and everything else worth telling as `warnings` (never printed here).
 * `fastCsv`: CSV through the fast path in front of csv-parse (the run's engine decides; simple: off).
 */
export async function openSource(file: string, options: ReaderOptions = {}, fastCsv = true): Promise<OpenedSource> {
  const warnings: SourceWarning[] = [];
  const format = formatOf(file, options.format);
  if (format === 'json') return openJson(file, options, warnings);
  if (format === 'ndjson') return openNdjson(file, options, warnings);
  // loaded only for a workbook: a CSV run does not pay for the zip and XML libraries at start-up
  if (format === 'xlsx') return (await import('./xlsx/read-xlsx.js')).openXlsx(file, options, warnings);
  return openCsv(file, options, warnings, fastCsv);
}
