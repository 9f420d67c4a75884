// What validate and push share once their options are parsed: progress on stderr, the errors
// CSV, the emitted batches, the report on stdout, and the exit code. Kept here so the two commands
// stay a list of options.
import { createWriteStream, mkdirSync, type WriteStream } from 'node:fs';
import { basename, dirname, extname, join, resolve } from 'node:path';
import { UsageError } from '../errors.js';
import { createErrorsCsv, type ErrorsCsvWriter } from '../report/errors-csv.js';
import { inputFiles, sameFileNote } from '../report/same-file.js';
import type { Output } from '../report/output.js';
import { startProgress } from '../report/progress.js';
import { REPORTERS } from '../report/reporters.js';
import { summaryLine } from '../report/summary-line.js';
import { DEFAULT_PLAN_FILE } from '../run/sync-plan.js';
import { sync, type SyncEnvironment, type SyncOutcome, type SyncRequest } from '../run/sync.js';
import { readerFlags, resourceFlag, type InputFlags } from './input-options.js';

export interface CommonFlags extends InputFlags {
  errors?: string;
  emit?: string;
  quiet?: boolean;
  verbose?: boolean;
}

export function syncRequest(mode: SyncRequest['mode'], files: string[], flags: CommonFlags, settings: SyncRequest['flags']): SyncRequest {
  return { mode, files, resource: resourceFlag(flags.resource), profile: flags.profile, reader: readerFlags(flags), config: flags.config, flags: settings };
}

/**
 * `--errors x.csv`: the first input with failures writes x.csv, any further one x.<input>.csv (one
 * file per input, because each keeps its own columns); `--errors dir`: `<input>.errors.csv` in it.
 */
function errorsWriter(target: string, inputs: string[]): ErrorsCsvWriter {
  const path = resolve(target);
  if (extname(path).toLowerCase() === '.csv') {
    const stem = basename(path, extname(path));
    const further = (source: string) => `${stem}.${basename(source, extname(source))}.csv`;
    let named = 0;
    return createErrorsCsv({
      dir: dirname(path),
      inputs,
      fileName: (source, probe) => (probe || named++ === 0 ? basename(path) : further(source)),
      // which input gets x.csv depends on which fails first: every input could get either name
      candidates: (source) => [basename(path), further(source)],
    });
  }
  mkdirSync(path, { recursive: true });
  return createErrorsCsv({ dir: path, inputs });
}

export async function runSyncCommand(request: SyncRequest, flags: CommonFlags, output: Output, environment: SyncEnvironment = {}): Promise<{ outcome: SyncOutcome; exitCode: number }> {
  const progress = await startProgress({ output, mode: flags.quiet ? 'quiet' : undefined, verbose: flags.verbose });
  // both output files are opened once the run's inputs are known (files named or the plan's jobs)
  // and before anything is sent, so neither can ever be written over an input
  let errors: ErrorsCsvWriter | undefined;
  let emitted: WriteStream | undefined;
  let outcome: SyncOutcome;
  try {
    outcome = await sync(request, {
      ...environment,
      onEvent: (text, level) => progress.event(text, level),
      onPrepared: (jobs) => {
        const inputs = jobs.map((j) => j.job.file);
        if (flags.emit) {
          // every file the run reads, however named (a symlink, ../x): data, profiles and the plan
          const plan = request.config ?? join(request.cwd ?? process.cwd(), DEFAULT_PLAN_FILE);
          // and by device and inode too: a hard link of an input is the input under another name
          const input = inputFiles([...inputs, ...jobs.flatMap((j) => (j.job.profile ? [j.job.profile] : [])), plan]).find(flags.emit);
          if (input !== undefined) throw new UsageError(`refusing to write --emit over an input of this run (data, profile or plan file): ${flags.emit}${sameFileNote(flags.emit, input)}`);
        }
        if (flags.errors) errors = errorsWriter(flags.errors, inputs);
        for (const { job, source } of jobs) errors?.declareSource(job.file, { header: source.header, delimiter: source.detected.delimiter });
        if (flags.emit) emitted = createWriteStream(flags.emit);
      },
      onProgress: (c) => progress.update(c),
      sink: flags.errors ? (o) => errors?.write(o) : undefined,
      emit: flags.emit ? (body) => void emitted?.write(`${body}\n`, 'utf8') : environment.emit,
      onWarning: flags.verbose ? (d) => progress.event(`warning: ${d.file}:${d.line ?? ''} ${d.field ?? ''} ${d.reason}`, 'debug') : undefined,
      // lock take-overs, the guard tripping, a state that could not be saved: shown even when quiet
      onNotice: (text) => progress.event(text, 'error'),
    });
  } catch (error) {
    errors?.abort();
    throw error;
  } finally {
    progress.stop();
    if (emitted) await new Promise((done) => emitted!.end(done));
  }
  if (errors) {
    const failure = errors.failure();
    if (failure) throw failure;
    const { files } = errors.finish();
    outcome.report.errorFiles = files.map((f) => f.path);
  }
  REPORTERS[flags.format](outcome.report, output);
  // always, whatever the format: cron mail and log scrapers read this line on stderr (stdout stays
  // the report, so `--format json` output is still one JSON document)
  output.err(summaryLine(outcome.report, outcome.exitCode));
  return { outcome, exitCode: outcome.exitCode };
}
