// The input options given on the command line (config/options.ts) as what the run reads: the
// resource and the reader options for the files named.
import { parseResource, RESOURCE_NAMES_HELP, type Resource } from '../contract/resources.js';
import { UsageError } from '../errors.js';
import type { ReaderOptions } from '../read/types.js';
import { resolveOptions, type GivenFlags } from './option.js';
import { READER_OPTIONS } from './options-reader.js';

export function readerFlags(given: GivenFlags): ReaderOptions | undefined {
  const { fileFormat: format, ...options } = resolveOptions(READER_OPTIONS, given, {});
  const reader = Object.fromEntries(Object.entries({ format, ...options }).filter(([, v]) => v !== undefined)) as ReaderOptions;
  return Object.keys(reader).length > 0 ? reader : undefined;
}

export function resourceFlag(name: string | undefined): Resource | undefined {
  if (name === undefined) return undefined;
  const resource = parseResource(name);
  if (!resource) throw new UsageError(`--resource: unknown resource "${name}"`, { suggestion: `use one of: ${RESOURCE_NAMES_HELP}` });
  return resource;
}
