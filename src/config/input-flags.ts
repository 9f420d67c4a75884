// The input options given on the command line (config/options.ts INPUT_OPTIONS) as what the run
// reads: the resource and the reader options for the files named.
import { parseResource, RESOURCE_NAMES_HELP, type Resource } from '../contract/resources.js';
import { UsageError } from '../errors.js';
import type { ReaderOptions } from '../read/types.js';
import type { GivenFlags } from './option.js';

const textOf = (given: GivenFlags, key: string) => given[key] as string | undefined;

export function readerFlags(given: GivenFlags): ReaderOptions | undefined {
  const reader: ReaderOptions = {};
  const delimiter = textOf(given, 'delimiter');
  if (delimiter !== undefined) reader.delimiter = delimiter === '\\t' || delimiter === 'tab' ? '\t' : delimiter;
  const encoding = textOf(given, 'encoding');
  if (encoding !== undefined) reader.encoding = encoding;
  const headerRow = textOf(given, 'headerRow');
  if (headerRow !== undefined) {
    const n = Number(headerRow);
    if (!Number.isInteger(n) || n < 1) throw new UsageError(`--header-row takes a line number (1 or more), not "${headerRow}"`);
    reader.headerRow = n;
  }
  const escape = textOf(given, 'escape');
  if (escape !== undefined) reader.escape = escape;
  const maxRecordBytes = textOf(given, 'maxRecordBytes');
  if (maxRecordBytes !== undefined) {
    const n = Number(maxRecordBytes);
    if (!Number.isInteger(n) || n < 1024) throw new UsageError(`--max-record-bytes takes a whole number of bytes (1024 or more), not "${maxRecordBytes}"`);
    reader.maxRecordBytes = n;
  }
  return Object.keys(reader).length > 0 ? reader : undefined;
}

export function resourceFlag(name: string | undefined): Resource | undefined {
  if (name === undefined) return undefined;
  const resource = parseResource(name);
  if (!resource) throw new UsageError(`--resource: unknown resource "${name}"`, { suggestion: `use one of: ${RESOURCE_NAMES_HELP}` });
  return resource;
}
