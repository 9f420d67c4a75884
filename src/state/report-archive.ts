// Reports on disk for unattended runs: `<report-dir>/<runId>/` holds the run's JSON report, its
// summary line, and the errors CSV of the rows not accepted. Only the last N run folders are kept.
// Run ids start with a UTC timestamp, so name order is time order; only folders named like a run
// id are ever deleted, whatever else the user keeps in the report directory.
import { mkdirSync, readdirSync, readFileSync, rmdirSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { openAtomic } from '../util/atomic-file.js';

const REPORT_FILE = 'report.json';
const SUMMARY_FILE = 'summary.txt';

const RUN_FOLDER = /^\d{8}T\d{6}Z-[0-9a-f]{4}$/;

export function runFolder(reportDir: string, runId: string): string {
  const dir = join(reportDir, runId);
  mkdirSync(dir, { recursive: true });
  return dir;
}

/**
 * A run that ended before it had a report (exit 2: nothing was sent) leaves no folder behind: one
 * that holds nothing would read as a run in `history` and count against --keep-reports. Only an
 * empty folder goes; anything in it stays.
 */
export function dropEmptyRunFolder(dir: string): void {
  try {
    rmdirSync(dir);
  } catch {
    // not empty, or already gone: nothing to tidy
  }
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

/** The run's JSON report and its summary line, as the caller rendered them; both appear whole or not at all. */
export function writeRunReport(dir: string, texts: { json: string; summary: string }): string {
  const path = join(dir, REPORT_FILE);
  writeAtomic(path, texts.json);
  writeAtomic(join(dir, SUMMARY_FILE), texts.summary);
  return path;
}

/** Run folders by time: run ids only say the second, so runs within one second go by when their folder last changed. */
function runsOldestFirst(reportDir: string): string[] {
  return readdirSync(reportDir, { withFileTypes: true })
    .filter((e) => e.isDirectory() && RUN_FOLDER.test(e.name))
    .map((e) => ({ name: e.name, second: e.name.slice(0, 16), changed: statSync(join(reportDir, e.name)).mtimeMs }))
    .sort((a, b) => (a.second === b.second ? a.changed - b.changed : a.second < b.second ? -1 : 1))
    .map((r) => r.name);
}

/**
 * Deletes the oldest run folders beyond `keep` (never the current run's); returns their names. Run
 * ids only say the second, so runs within one second are ordered by when their folder last changed.
 */
export function pruneReports(reportDir: string, keep: number, current: string): string[] {
  const runs = runsOldestFirst(reportDir).filter((name) => name !== current);
  const old = runs.slice(0, Math.max(0, runs.length - (keep - 1)));
  for (const name of old) rmSync(join(reportDir, name), { recursive: true, force: true });
  return old;
}

/** The archived runs' report.json texts, oldest first (the order pruneReports keeps); a folder without one is left out. */
export function readRunReports(reportDir: string): Array<{ runId: string; text: string }> {
  const out: Array<{ runId: string; text: string }> = [];
  for (const name of runsOldestFirst(reportDir)) {
    try {
      out.push({ runId: name, text: readFileSync(join(reportDir, name, REPORT_FILE), 'utf8') });
    } catch {
      // a run killed before its report was written has a folder (its errors CSV) and no report
    }
  }
  return out;
}
