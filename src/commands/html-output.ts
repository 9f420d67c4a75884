// `--html FILE` on push and validate: the page's file opened with the other outputs (before anything
// is sent, so an unwritable path is exit 2 and nothing went), the timeline sampled while the run goes
// (only then: a run without --html starts no timer), and the page written once the run is over.
import { dirname, relative, resolve, sep } from 'node:path';
import { BatchSyncError, EXIT } from '../errors.js';
import { writeReason } from '../report/errors-csv.js';
import type { RunPageInput } from '../report/html/run-data.js';
import { runPage } from '../report/html/run-page.js';
import { reportJson } from '../report/render-json.js';
import { startTimeline, type Timeline } from '../report/timeline.js';
import type { ResolvedSettings } from '../config/settings.js';
import { openOutput } from '../util/output-file.js';
import type { SyncOutcome } from '../run/sync-types.js';

const htmlError = (path: string, error: unknown) =>
  new BatchSyncError('HTML', `cannot write --html ${path}: ${writeReason(error)}`, EXIT.usage, {
    suggestion: 'Fix permissions or choose another file for --html.',
    cause: error,
  });

/** A link from the page to a file beside it: relative, and never read as a scheme (`javascript:x.csv` is `./javascript%3Ax.csv`). */
export function linkFrom(page: string, target: string): string {
  const rel = relative(dirname(resolve(page)), resolve(target))
    .split(sep)
    .map(encodeURIComponent)
    .join('/');
  return rel.startsWith('.') ? rel : `./${rel}`;
}

/** The settings that shaped the run, in words. */
function settingsOf(s: ResolvedSettings, mode: string): Array<[string, string]> {
  const list: Array<[string, string]> = [
    ['engine', s.engine],
    ['batch size', `${s.batchSize} items`],
  ];
  if (mode !== 'push') return list;
  list.push(
    ['requests in flight', s.concurrency === undefined ? `adaptive, up to ${s.maxConcurrency}` : `pinned at ${s.concurrency}`],
    ['rate cap', s.maxRate === undefined ? 'none (learnt from 429s)' : `${s.maxRate} requests per second`],
    ['answer style', `${s.answerStyle} (success is a count: ${s.checkSuccessCount ? 'yes' : 'no'}; details name items: ${s.namesItems ? 'yes' : 'no'})`],
    ['isolation of unattributed errors', s.isolateUnattributed ? `on, budget ${s.isolationBudget} requests` : 'off'],
    ['target', s.sandbox ? 'embedded sandbox' : 'API'],
  );
  return list;
}

export interface HtmlOutput {
  timeline: Timeline;
  /** Opens the file (exit 2 when it cannot be): called before anything is sent. */
  open(): void;
  /** Writes the page; what went wrong comes back as an output failure. */
  write(outcome: SyncOutcome, exitCode: number, junit?: string): BatchSyncError | undefined;
  discard(): void;
}

export function htmlOutput(path: string): HtmlOutput {
  const timeline = startTimeline();
  let file: ReturnType<typeof openOutput> | undefined;
  return {
    timeline,
    open() {
      try {
        file = openOutput(resolve(path));
      } catch (error) {
        timeline.stop();
        throw htmlError(path, error);
      }
    },
    write(outcome, exitCode, junit) {
      const samples = timeline.stop();
      const links = [
        ...(outcome.report.errorFiles ?? []).map((f) => ({ label: `errors CSV: ${f}`, href: linkFrom(path, f) })),
        ...(junit ? [{ label: `JUnit XML: ${junit}`, href: linkFrom(path, junit) }] : []),
      ];
      const input: RunPageInput = {
        report: reportJson(outcome.report),
        exitCode,
        settings: settingsOf(outcome.settings, outcome.report.mode),
        timeline: samples,
        links,
      };
      try {
        file ??= openOutput(resolve(path));
        file.write(runPage(input));
        file.commit();
        return undefined;
      } catch (error) {
        file?.discard();
        return htmlError(path, error);
      } finally {
        file = undefined;
      }
    },
    discard() {
      timeline.stop();
      file?.discard();
    },
  };
}
