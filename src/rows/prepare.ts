// Everything that can be wrong before the first request: files, resources, profiles, headers.
// All of it is checked for every job up front, so a bad plan fails with exit 2 having sent nothing.
import { access, stat } from 'node:fs/promises';
import { resourceFromFileName, type Method, type Resource } from '../contract/resources.js';
import { BatchSyncError, ConfigError, InputError, UsageError } from '../errors.js';
import { createMapper, loadProfile } from '../map/index.js';
import { loadLookups, type LookupTables } from '../map/lookup-table.js';
import type { Profile } from '../map/profile-schema.js';
import type { Mapper } from '../map/types.js';
import { noHeaderRow, openSource } from '../read/index.js';
import { fingerprintContext } from '../state/row-fingerprint.js';
import type { OpenedSource, ReaderOptions, SourceRecord } from '../read/types.js';
import { asOriginalExport, inspectInput } from './errors-csv-input.js';
import type { Engine } from '../config/settings.js';
import type { Job } from './types.js';

/**
 * A job with everything decided that needs more than its own file: its resource, its profile as
 * loaded and the reader options it is opened with. Plain data, so the read worker opens the same
 * file the same way without deciding any of it again.
 */
export interface JobSpec {
  file: string;
  resource: Resource;
  profile?: Profile;
  /** The profile's reader options under the job's own: what the row fingerprints name. */
  reader: ReaderOptions;
  /** What the file is opened with: `reader`, without its header row for an errors CSV (inspectInput). */
  opened: ReaderOptions;
  /** False for the simple engine: CSV through csv-parse alone, and mappers without their fast paths. */
  fast?: boolean;
  /** The run's lookup tables the profile reads, loaded once (shared memory: the read worker gets them without a copy). */
  lookups?: LookupTables;
}

export interface PreparedJob {
  job: Job;
  spec: JobSpec;
  resource: Resource;
  source: OpenedSource;
  mapper: Mapper;
  /** What the items of this job depend on besides each row's text (row-fingerprint.ts); computed when first asked. */
  readonly fingerprint: string;
}

/** `engine` (settings.ts): simple reads CSV through csv-parse alone, and its mappers have no fast paths. */
export async function prepareJobs(jobs: readonly Job[], method: Method, engine: Engine = 'auto'): Promise<PreparedJob[]> {
  const fast = engine !== 'simple';
  if (jobs.length === 0) {
    throw new UsageError('no input files', { suggestion: 'name files to read, or run from a directory with a batch-sync.config.json (or pass --config)' });
  }
  const prepared: PreparedJob[] = [];
  /** The run's lookup tables, each loaded once whatever jobs and fields read it. */
  const tables: LookupTables = {};
  /** Each file (by device and inode: a link is the same file) and kind read so far, as first named. */
  const readAs = new Map<string, string>();
  for (const job of jobs) {
    await access(job.file).catch((error: NodeJS.ErrnoException) => {
      throw new InputError(`${job.file}: ${error.code === 'ENOENT' ? 'no such file' : error.code === 'EACCES' ? 'permission denied' : error.message}`);
    });
    const profile = job.profile ? await loadProfile(job.profile) : undefined;
    const reader = { ...profile?.reader, ...job.reader };
    const { opened, resource: carried } = await inspectInput(job.file, reader, fast);
    const resource = resourceOf(job, profile, carried);
    await refuseReadTwice(readAs, job, resource);
    const lookups = profile ? await loadLookups(profile, {}, tables, fast) : undefined;
    const spec: JobSpec = { file: job.file, resource, profile, reader, opened, fast, lookups };
    prepared.push(await openJob(spec, method, job));
  }
  return prepared;
}

/**
 * A job's kind: named (FILE:KIND, --resource, the plan), carried by an errors CSV (`_resource`),
 * the profile's, or the file name's. Two that disagree are refused: never a guess between them.
 */
function resourceOf(job: Job, profile: Profile | undefined, carried: Resource | undefined): Resource {
  const profileResource = profile?.resource;
  const resource = job.resource ?? carried ?? profileResource ?? resourceFromFileName(job.file);
  if (!resource) {
    throw new UsageError(`${job.file}: cannot tell which resource this file holds`, {
      suggestion: `pair it with its kind as ${job.file}:deal (sales-profile, account, deal, activity), pass --resource, use a profile that names one, or name the file deals.csv, accounts.csv, …`,
    });
  }
  if (carried && carried !== resource) {
    throw new ConfigError(`${job.file}: this errors CSV holds ${carried} rows (its _resource column), but the file is to be read as ${resource}`, {
      suggestion: `drop --resource, or pair the file with its kind as ${job.file}:${carried}`,
    });
  }
  if (profileResource && profileResource !== resource) {
    throw new ConfigError(`${job.file}: profile ${job.profile} maps ${profileResource} items, but the file is to be read as ${resource}`);
  }
  return resource;
}

/** A file is read once per kind and profile (two profiles may derive owners and agents from one file). */
async function refuseReadTwice(readAs: Map<string, string>, job: Job, resource: Resource): Promise<void> {
  const same = `${await identity(job.file)}\0${resource}\0${job.profile === undefined ? '' : await identity(job.profile)}`;
  const earlier = readAs.get(same);
  if (earlier !== undefined) {
    const also = earlier === job.file ? '' : ` (also as ${earlier})`;
    const how = job.profile === undefined ? '' : ' with the same profile';
    throw new UsageError(`${job.file} is named twice as ${resource}${how}${also}: every row would repeat itself; name it once`, {
      suggestion: 'a file may be read once per kind and profile: e.g. as sales-profile (owners derived from it) and as deal',
    });
  }
  readAs.set(same, job.file);
}

/** The file itself, however it is named. */
async function identity(file: string): Promise<string> {
  const s = await stat(file);
  return `${s.dev}:${s.ino}`;
}

/** Opens a job's file and builds its mapper, as decided in its spec: on the main thread and in the read worker alike. */
export async function openJob(spec: JobSpec, method: Method, job: Job = { file: spec.file }): Promise<PreparedJob> {
  const { file, resource, profile, reader, lookups } = spec;
  const fast = spec.fast !== false;
  const opened = asOriginalExport(await openSource(file, spec.opened, fast), resource);
  const created = withHeaderHint(opened, () =>
    createMapper({
      resource,
      method,
      header: opened.header,
      unnamedAtEnd: opened.unnamedAtEnd,
      columnLetters: opened.columnLetters,
      profile,
      file,
      lookups,
    }),
  );
  // a profile of constants (the one owner of an export that names none) maps every row to the same
  // item: its first row is the job's one row, and the rest of the file is neither read nor counted
  const source = created.constant ? { ...opened, records: upToFirstRow(opened.records) } : opened;
  // said once for the file, with its other file-level warnings (in the read worker, opening it
  // again, they are counted among those found on opening, so they are not said twice)
  for (const note of created.notes ?? []) source.warnings.push({ file, message: note });
  // the simple engine maps every row and serialises its item with JSON.stringify
  const mapper: Mapper = fast ? created : { resource: created.resource, map: (record) => created.map(record), columnOf: created.columnOf };
  // only runs that keep a state ask: the context digests the build, which takes a moment
  let context: string | undefined;
  // what a lookup returns is part of the item: a lookup file that changed makes every row new to the state
  const digests = Object.values(lookups ?? {}).map((l) => l.digest);
  const mapping = digests.length === 0 ? profile : { profile, lookups: digests };
  const fingerprint = () => (context ??= fingerprintContext({ method, resource, header: source.header, detected: source.detected, reader, profile: mapping }));
  return {
    job,
    spec,
    resource,
    source,
    mapper,
    get fingerprint() {
      return fingerprint();
    },
  };
}

/** The records up to the first that is a row or an item (an unreadable line before it is still the job's). */
async function* upToFirstRow(records: AsyncIterable<SourceRecord>): AsyncIterable<SourceRecord> {
  for await (const record of records) {
    yield record;
    // leaving the loop closes the file
    if (record.kind !== 'unreadable') return;
  }
}

/**
 * A header that leaves no data rows (a header row set on a title or metadata row) is why its
 * columns are not the ones the profile or the contract expects: the error then says where the
 * header looks to be instead of its usual advice.
 */
function withHeaderHint<T>(source: OpenedSource, build: () => T): T {
  try {
    return build();
  } catch (error) {
    const choice = source.headerChoice;
    const hint = choice && (choice.noRowFits ?? noHeaderRow(choice));
    if (!(error instanceof BatchSyncError) || hint === undefined) throw error;
    throw new BatchSyncError(error.code, error.message, error.exitCode, { suggestion: hint, cause: error });
  }
}
