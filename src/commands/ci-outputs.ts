// The report files CI reads, written once the run is over: `--junit FILE` (beside any --format) and,
// with `--format github`, the Markdown summary appended to $GITHUB_STEP_SUMMARY.
import { join, resolve } from 'node:path';
import { BatchSyncError, EXIT } from '../errors.js';
import { writeReason } from '../report/errors-csv.js';
import type { ReportContext } from '../report/render-github.js';
import { junitXml } from '../report/render-junit.js';
import { stepSummary } from '../report/step-summary.js';
import type { InputFiles } from '../report/same-file.js';
import { openOutput } from '../util/output-file.js';
import type { SyncOutcome } from '../run/sync-types.js';

export interface CiFlags {
  junit?: string;
  format: string;
  githubWorkspace?: string;
  githubStepSummary?: string;
}

/** The JUnit XML, whole or not at all; what went wrong comes back as the run's output failure. */
export function writeJunit(outcome: SyncOutcome, path: string): BatchSyncError | undefined {
  let file: ReturnType<typeof openOutput> | undefined;
  try {
    // a character device or FIFO (/dev/null, /dev/stdout) is written through, never renamed over
    file = openOutput(resolve(path));
    file.write(junitXml(outcome.report));
    file.commit();
    return undefined;
  } catch (error) {
    file?.discard();
    return new BatchSyncError('JUNIT', `cannot write --junit ${path}: ${writeReason(error)}`, EXIT.usage, {
      suggestion: 'Free space or fix permissions, or choose another file for --junit.',
      cause: error,
    });
  }
}

/** Where annotation paths start, and every file that holds the whole report. */
export function reportContext(outcome: SyncOutcome, flags: CiFlags, cwd: string): ReportContext {
  const folder =
    outcome.report.mode === 'push' && outcome.settings.reportDir !== undefined ? join(outcome.settings.reportDir, outcome.report.runId) : undefined;
  const fullReport = [...(outcome.report.errorFiles ?? []), ...(flags.junit ? [flags.junit] : []), ...(folder ? [folder] : [])];
  return { cwd, workspace: flags.githubWorkspace, fullReport };
}

/**
 * GitHub's step summary file: appended to, as every step does, with the rules of every output:
 * never an input of the run, a FIFO or device written through without blocking, anything else
 * refused. A failure is said, never fatal.
 */
export function appendStepSummary(outcome: SyncOutcome, context: ReportContext, path: string, exitCode: number, inputs?: InputFiles): string | undefined {
  if (inputs?.find(path) !== undefined) return `warning: not appending the step summary to $GITHUB_STEP_SUMMARY (${path}): it is an input of this run`;
  let file: ReturnType<typeof openOutput> | undefined;
  try {
    file = openOutput(path, { append: true });
    file.write(stepSummary(outcome.report, context, exitCode));
    file.commit();
    return undefined;
  } catch (error) {
    file?.discard();
    return `warning: cannot append the step summary to $GITHUB_STEP_SUMMARY (${path}): ${writeReason(error)}`;
  }
}
