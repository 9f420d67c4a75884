// Reports on disk for unattended runs: `<report-dir>/<runId>/` holds the run's JSON report, its
// summary line, and the errors CSV of the rows not accepted. Only the last N run folders are kept.
// Run ids start with a UTC timestamp, so name order is time order; only folders named like a run
// id are ever deleted, whatever else the user keeps in the report directory.
import { mkdirSync, readdirSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { openAtomic } from '../util/atomic-file.js';
import { reportJson } from '../report/render-json.js';
import type { RunReport } from '../report/run-report.js';
import { summaryLine } from '../report/summary-line.js';

export const REPORT_FILE = 'report.json';
export const SUMMARY_FILE = 'summary.txt';

const RUN_FOLDER = /^\d{8}T\d{6}Z-[0-9a-f]{4}$/;

export function runFolder(reportDir: string, runId: string): string {
  const dir = join(reportDir, runId);
  mkdirSync(dir, { recursive: true });
  return dir;
}

function writeAtomic(path: string, text: string): void {
  const file = openAtomic(path);
  try {
    file.write(text);
    file.commit();
  } catch (error) {
    file.discard();
    throw error;
  }
}

/** The same JSON document `--format json` prints, plus the summary line; both appear whole or not at all. */
export function writeRunReport(dir: string, report: RunReport, exitCode: number): string {
  const path = join(dir, REPORT_FILE);
  writeAtomic(path, `${JSON.stringify({ ...reportJson(report), exitCode }, null, 2)}\n`);
  writeAtomic(join(dir, SUMMARY_FILE), `${summaryLine(report, exitCode)}\n`);
  return path;
}

/**
 * Deletes the oldest run folders beyond `keep` (never the current run's); returns their names. Run
 * ids only say the second, so runs within one second are ordered by when their folder last changed.
 */
export function pruneReports(reportDir: string, keep: number, current: string): string[] {
  const runs = readdirSync(reportDir, { withFileTypes: true })
    .filter((e) => e.isDirectory() && RUN_FOLDER.test(e.name))
    .map((e) => ({ name: e.name, second: e.name.slice(0, 16), changed: statSync(join(reportDir, e.name)).mtimeMs }))
    .sort((a, b) => (a.second === b.second ? a.changed - b.changed : a.second < b.second ? -1 : 1))
    .map((r) => r.name)
    .filter((name) => name !== current);
  const old = runs.slice(0, Math.max(0, runs.length - (keep - 1)));
  for (const name of old) rmSync(join(reportDir, name), { recursive: true, force: true });
  return old;
}
