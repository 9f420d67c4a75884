// Options shared by validate and push: what to read and how, and how to report it.
import { Option, type Command } from 'commander';
import { parseResource, RESOURCE_NAMES_HELP, type Resource } from '../contract/resources.js';
import { UsageError } from '../errors.js';
import type { ReaderOptions } from '../read/types.js';

export interface InputFlags {
  profile?: string[];
  resource?: string;
  config?: string;
  delimiter?: string;
  encoding?: string;
  headerRow?: string;
  escape?: string;
  maxRecordBytes?: string;
  engine?: string;
  format: 'human' | 'json';
}

export function addInputOptions(command: Command): Command {
  return command
    .argument('[files...]', 'CSV, JSON or NDJSON files, each optionally paired with its profile as FILE:PROFILE; none: run the jobs of the sync plan')
    .option('-p, --profile <file>', 'mapping profile for the files not paired as FILE:PROFILE (default: <name>.profile.json beside each file, where init writes it, else canonical column names)', (value: string, previous: string[] | undefined) => [...(previous ?? []), value])
    .option('-r, --resource <kind>', `what the files hold: ${RESOURCE_NAMES_HELP} (default: from the profile or the file name)`)
    .option('-c, --config <file>', 'sync plan (default: ./batch-sync.config.json if present)')
    .option('--delimiter <char>', 'CSV delimiter (default: detected among , ; tab |)')
    .option('--encoding <name>', 'file encoding: utf-8, utf-16le, utf-16be, windows-1252, latin1 (default: detected)')
    .option('--header-row <n>', 'line of the header row, for exports with title rows above it')
    .option('--escape <char>', 'escape character inside quoted CSV fields (default: the quote itself, "")')
    .option('--max-record-bytes <n>', 'largest CSV record or JSON item before the file is declared broken (default 1048576)')
    .option('--engine <engine>', 'simple: one thread, csv-parse, zod; fast: a read worker and fast paths; auto: fast paths, the worker for large inputs. Same output (default: $BATCH_SYNC_ENGINE, the plan\'s defaults.engine, else auto)')
    .addOption(new Option('--format <format>', 'report format').choices(['human', 'json']).default('human'));
}

export function readerFlags(flags: InputFlags): ReaderOptions | undefined {
  const reader: ReaderOptions = {};
  if (flags.delimiter !== undefined) reader.delimiter = flags.delimiter === '\\t' || flags.delimiter === 'tab' ? '\t' : flags.delimiter;
  if (flags.encoding !== undefined) reader.encoding = flags.encoding;
  if (flags.headerRow !== undefined) {
    const n = Number(flags.headerRow);
    if (!Number.isInteger(n) || n < 1) throw new UsageError(`--header-row takes a line number (1 or more), not "${flags.headerRow}"`);
    reader.headerRow = n;
  }
  if (flags.escape !== undefined) reader.escape = flags.escape;
  if (flags.maxRecordBytes !== undefined) {
    const n = Number(flags.maxRecordBytes);
    if (!Number.isInteger(n) || n < 1024) throw new UsageError(`--max-record-bytes takes a whole number of bytes (1024 or more), not "${flags.maxRecordBytes}"`);
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
