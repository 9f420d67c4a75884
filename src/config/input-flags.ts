// The input options given on the command line (config/options.ts) as what the run reads: the
// resource and the reader options for the files named.
import { parseResource, RESOURCE_NAMES_HELP, type Resource } from '../contract/resources.js';
import { UsageError } from '../errors.js';
import type { ReaderOptions } from '../read/types.js';
import { longFlag, resolveOptions, type GivenFlags } from './option.js';
import { READER_OPTIONS } from './options-reader.js';

export function readerFlags(given: GivenFlags): ReaderOptions | undefined {
  const { fileFormat: format, ...options } = resolveOptions(READER_OPTIONS, given, {});
  const reader = Object.fromEntries(Object.entries({ format, ...options }).filter(([, v]) => v !== undefined)) as ReaderOptions;
  return Object.keys(reader).length > 0 ? reader : undefined;
}

/**
 * --resource, --profile and the reader flags act on the files named on the command line. A plan's
 * jobs are read and mapped as each job and its profile say: such a flag with a plan is refused
 * (exit 2), never dropped silently, and never laid over every job, whose files may each need
 * another reading (a CSV, a workbook, JSON) or kind.
 */
export function refuseFileFlagsForPlan(flags: { reader?: ReaderOptions; resource?: Resource; profiles?: readonly string[] }, planPath: string): void {
  const not = `the files named on the command line, not the jobs of ${planPath}`;
  if (flags.resource) throw new UsageError(`--resource names the kind of ${not}: set "resource" in its jobs[] or the profile`);
  if (flags.profiles?.length) throw new UsageError(`--profile maps ${not}: set "profile" in its jobs[]`);
  const reader = flags.reader;
  if (!reader) return;
  const given = Object.entries(reader).flatMap(([key, value]) => {
    const row = Object.values(READER_OPTIONS).find((r) => r.plan === `reader.${key}`);
    return row && 'flag' in row ? [{ flag: longFlag(row), json: `${JSON.stringify(key)}: ${JSON.stringify(value)}` }] : [];
  });
  if (!given.length) return;
  const list = given.map((g) => g.flag).join(', ');
  throw new UsageError(
    `${list} ${given.length === 1 ? 'reads' : 'read'} ${not}: put "reader": { ${given.map((g) => g.json).join(', ')} } in its jobs[].reader or in the profile's reader`,
  );
}

export function resourceFlag(name: string | undefined): Resource | undefined {
  if (name === undefined) return undefined;
  const resource = parseResource(name);
  if (!resource) throw new UsageError(`--resource: unknown resource "${name}"`, { suggestion: `use one of: ${RESOURCE_NAMES_HELP}` });
  return resource;
}
