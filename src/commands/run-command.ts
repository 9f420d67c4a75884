// What validate and push share once their options are parsed: progress on stderr, the errors
// CSV, the emitted batches, the report on stdout, and the exit code. Kept here so the two commands
// stay a list of options.
import { mkdirSync, statSync } from 'node:fs';
import { basename, dirname, extname, join, resolve } from 'node:path';
import { BatchSyncError, EXIT, UsageError } from '../errors.js';
import { createErrorsCsv, writeError, writeReason, type ErrorsCsvWriter } from '../report/errors-csv.js';
import { inputFiles, sameFileNote, type InputFiles } from '../report/same-file.js';
import { isStreamTarget, openOutput } from '../util/output-file.js';
import type { Output } from '../report/output.js';
import { startProgress } from '../report/progress.js';
import { REPORTERS, type ReportFormat } from '../report/reporters.js';
import type { PreparedJob } from '../rows/prepare.js';
import type { PlannedBatchInfo } from '../report/run-report.js';
import { summaryLine } from '../report/summary-line.js';
import { visible } from '../report/terminal-text.js';
import { readerFlags, resourceFlag } from '../config/input-flags.js';
import { resolveOptions, type GivenFlags } from '../config/option.js';
import { REPORT_OPTIONS } from '../config/options.js';
import { processEnv } from '../config/environment.js';
import { appendStepSummary, reportContext, writeJunit, type CiFlags } from './ci-outputs.js';
import { htmlOutput } from './html-output.js';
import { DEFAULT_PLAN_FILE } from '../config/sync-plan.js';
import { sync } from '../run/sync.js';
import type { SyncEnvironment, SyncOutcome, SyncRequest } from '../run/sync-types.js';

export const FILES_ARGUMENT = [
  '[files...]',
  'CSV, JSON, NDJSON or .xlsx files, each optionally paired with its profile as FILE:PROFILE or with its kind as FILE:KIND (deals.csv:deal; a file may be named once per kind); none: run the jobs of the sync plan',
] as const;

/** The run the options given on the command line ask for; the settings are resolved by sync(). */
export function syncRequest(mode: SyncRequest['mode'], files: string[], given: GivenFlags): SyncRequest {
  const text = (key: string) => given[key] as string | undefined;
  return {
    mode,
    files,
    resource: resourceFlag(text('resource')),
    profiles: given.profile as string[] | undefined,
    reader: readerFlags(given),
    config: text('config'),
    flags: given,
  };
}

/**
 * `--errors x.csv`: the first input with failures writes x.csv, any further one x.<input>.csv (one
 * file per input, because each keeps its own columns); `--errors dir`: `<input>.errors.csv` in it.
 */
function errorsWriter(target: string, inputs: string[]): ErrorsCsvWriter {
  const path = resolve(target);
  // a character device or FIFO (/dev/null, a pipe): every input's errors CSV through it in turn
  if (isStreamTarget(path)) return createErrorsCsv({ through: path, inputs });
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
  try {
    const st = statSync(path, { throwIfNoEntry: false });
    // a socket or block device: said as such, not as mkdir's EEXIST
    if (st && !st.isDirectory()) openOutput(path, { through: false });
    mkdirSync(path, { recursive: true });
  } catch (error) {
    // a file where the directory should be (`--errors /dev/full`), no permission: one line, exit 2
    throw writeError(error, path);
  }
  return createErrorsCsv({ dir: path, inputs });
}

function emitError(path: string, error: unknown): BatchSyncError {
  return new BatchSyncError('EMIT', `cannot write --emit ${path}: ${writeReason(error)}`, EXIT.usage, {
    suggestion: 'Free space or fix permissions, or choose another file for --emit.',
    cause: error,
  });
}

/**
 * `--emit`'s file, opened once the inputs are proven distinct and before anything is read or sent:
 * a directory or a missing folder fails here (exit 2). A regular file is written whole (temp and
 * rename at the end), a character device or FIFO through. Written synchronously, so a write that
 * fails (a full disk) is known at once and kept for the end of the run instead of surfacing later as
 * an unhandled stream error with a stack, after a summary that said OK.
 */
function openEmit(path: string): { write(text: string): void; close(): void; failure(): BatchSyncError | undefined } {
  let file: ReturnType<typeof openOutput> | undefined;
  try {
    file = openOutput(resolve(path));
  } catch (error) {
    throw emitError(path, error);
  }
  let failed: BatchSyncError | undefined;
  return {
    write(text) {
      if (file === undefined || failed) return;
      try {
        file.write(text);
      } catch (error) {
        failed = emitError(path, error);
        file.discard();
        file = undefined;
      }
    },
    close() {
      if (file === undefined) return;
      const f = file;
      file = undefined;
      try {
        f.commit();
      } catch (error) {
        f.discard();
        failed ??= emitError(path, error);
      }
    },
    failure: () => failed,
  };
}

/** The errors CSV completed, or aborted with what went wrong added to `failures`. */
function finishErrorsCsv(errors: ErrorsCsvWriter, outcome: SyncOutcome, failures: BatchSyncError[], target: string): void {
  const failure = errors.failure();
  if (failure) {
    errors.abort();
    failures.push(failure);
    return;
  }
  try {
    outcome.report.errorFiles = [...new Set(errors.finish().files.map((f) => f.path))];
  } catch (error) {
    errors.abort();
    failures.push(error instanceof BatchSyncError ? error : writeError(error, target));
  }
}

/** The data files a run reads: each job's, and the files its profiles' lookups read. */
const dataFiles = (jobs: readonly PreparedJob[]) => [
  ...jobs.map((j) => j.job.file),
  ...jobs.flatMap((j) => Object.values(j.spec.lookups ?? {}).map((l) => l.path)),
];

/** Every file the run reads, however named (a symlink, ../x, a hard link): data, profiles and the plan; no output goes over one. */
function refuseOverInputs(request: SyncRequest, jobs: readonly PreparedJob[], outputs: Record<string, string | undefined>): InputFiles {
  const plan = request.config ?? join(request.cwd ?? process.cwd(), DEFAULT_PLAN_FILE);
  const read = inputFiles([...dataFiles(jobs), ...jobs.flatMap((j) => (j.job.profile ? [j.job.profile] : [])), plan]);
  for (const [flag, file] of Object.entries(outputs)) {
    const input = file === undefined ? undefined : read.find(file);
    if (input !== undefined)
      throw new UsageError(`refusing to write ${flag} over an input of this run (data, profile or plan file): ${file}${sameFileNote(file!, input)}`);
  }
  return read;
}

interface PrintContext {
  output: Output;
  flags: CiFlags & { format: ReportFormat };
  /** `--emit -`: the report goes to stderr. */
  toStdout: boolean;
  cwd: string;
  /** The command's own lines after the report. */
  more: string[];
  failures: BatchSyncError[];
  /** The run's inputs, once known: the step summary is never appended to one. */
  inputs?: InputFiles;
}

/** The report in its format, the GitHub step summary, the command's lines, then one line per output that failed. */
function printReport(outcome: SyncOutcome, exitCode: number, { output, flags, toStdout, cwd, more, failures, inputs }: PrintContext): void {
  const context = reportContext(outcome, flags, cwd);
  REPORTERS[flags.format](outcome.report, toStdout ? { ...output, out: output.err } : output, context);
  if (flags.format === 'github' && flags.githubStepSummary) {
    const problem = appendStepSummary(outcome, context, flags.githubStepSummary, exitCode, inputs);
    if (problem) output.err(problem);
  }
  // a JSON report or annotations must stay alone on stdout: anything more goes to stderr then
  for (const line of more) (toStdout || flags.format !== 'human' ? output.err : output.out)(line);
  for (const failure of failures) {
    output.err(`${output.color.red('error:')} ${visible(failure.message)}`);
    if (failure.suggestion) output.err(`  ${visible(failure.suggestion)}`);
  }
}

/**
 * `epilogue`: lines the command adds after the report (what the embedded sandbox holds), printed
 * where the report goes and before the summary line, which stays the last line on stderr.
 */
export async function runSyncCommand(
  request: SyncRequest,
  output: Output,
  environment: SyncEnvironment = {},
  epilogue?: (outcome: SyncOutcome) => string[],
  /** Awaited once the report is out and before the summary line (the cron notifications). */
  finish?: (outcome: SyncOutcome, exitCode: number) => Promise<void>,
): Promise<{ outcome: SyncOutcome; exitCode: number }> {
  const flags = resolveOptions(REPORT_OPTIONS, request.flags, request.env ?? processEnv());
  const progress = await startProgress({ output, mode: flags.quiet ? 'quiet' : undefined, verbose: flags.verbose });
  // both output files are opened once the run's inputs are known (files named or the plan's jobs)
  // and before anything is sent, so neither can ever be written over an input
  let errors: ErrorsCsvWriter | undefined;
  let emitted: ReturnType<typeof openEmit> | undefined;
  let read: InputFiles | undefined;
  // `--emit -`: stdout is the envelopes, one per line and nothing else; the report goes to stderr
  const toStdout = flags.emit === '-';
  const emitFile = toStdout ? undefined : flags.emit;
  const batches: PlannedBatchInfo[] | undefined = request.mode === 'dry-run' ? [] : undefined;
  // --html only: a run without it samples nothing
  const html = flags.html === undefined ? undefined : htmlOutput(flags.html);
  let outcome: SyncOutcome;
  try {
    outcome = await sync(request, {
      ...environment,
      onEvent: (text, level) => progress.event(text, level),
      onPrepared: (jobs) => {
        read = refuseOverInputs(request, jobs, { '--emit': emitFile, '--junit': flags.junit, '--html': flags.html });
        html?.open();
        if (flags.errors) errors = errorsWriter(flags.errors, dataFiles(jobs));
        for (const { job, source } of jobs) errors?.declareSource(source.rowsFile ?? job.file, { header: source.header, delimiter: source.detected.delimiter });
        if (emitFile) emitted = openEmit(emitFile);
      },
      onProgress: html
        ? (c) => {
            html.timeline.progress(c);
            progress.update(c);
          }
        : (c) => progress.update(c),
      onConnected: html ? (flow) => html.timeline.connected(flow) : undefined,
      sink: (o) => {
        if (flags.errors) errors?.write(o);
      },
      emit: toStdout ? (body) => output.out(body) : emitFile ? (body) => emitted?.write(`${body}\n`) : environment.emit,
      onBatch: batches ? (b) => void batches.push(b) : undefined,
      onWarning: flags.verbose ? (d) => progress.event(`warning: ${d.file}:${d.line ?? ''} ${d.field ?? ''} ${d.reason}`, 'debug') : undefined,
      // lock take-overs, the guard tripping, a state that could not be saved: shown even when quiet
      onNotice: (text) => progress.event(text, 'error'),
    });
  } catch (error) {
    errors?.abort();
    html?.discard();
    throw error;
  } finally {
    progress.stop();
    emitted?.close();
  }
  // an output file that failed during the run: the report is still printed (it holds what the
  // server accepted), then one line per failure; exit 3 once anything was sent, else exit 2
  const failures: BatchSyncError[] = [];
  const emitFailure = emitted?.failure();
  if (emitFailure) failures.push(emitFailure);
  // the state and the run's report folder (--report-dir)
  for (const failure of outcome.outputFailures ?? []) failures.push(new BatchSyncError('OUTPUT', failure, EXIT.aborted));
  if (errors) finishErrorsCsv(errors, outcome, failures, flags.errors!);
  const junitFailure = flags.junit === undefined ? undefined : writeJunit(outcome, flags.junit);
  if (junitFailure) failures.push(junitFailure);
  // an output file that failed: exit 3 once any request went out (the server may hold rows), else 2
  const settled = () => (failures.length === 0 ? outcome.exitCode : Math.max(outcome.exitCode, outcome.sent ? EXIT.aborted : EXIT.usage));
  // the page says the exit code as it stands; a page that cannot be written is a failure of its own
  const htmlFailure = html?.write(outcome, settled(), flags.junit);
  if (htmlFailure) failures.push(htmlFailure);
  const exitCode = settled();
  if (batches) outcome.report.batches = batches;
  printReport(outcome, exitCode, { output, flags, toStdout, cwd: request.cwd ?? process.cwd(), more: epilogue?.(outcome) ?? [], failures, inputs: read });
  await finish?.(outcome, exitCode);
  // always, whatever the format: cron mail and log scrapers read this line on stderr (stdout stays
  // the report, so `--format json` output is still one JSON document)
  output.err(summaryLine(outcome.report, exitCode));
  return { outcome, exitCode };
}
