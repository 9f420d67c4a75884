// Reports on disk for unattended runs: `<report-dir>/<runId>/` holds the run's JSON report, its
// summary line, and the errors CSV of the rows not accepted. Only the last N run folders are kept.
// Run ids start with a UTC timestamp to the second (runs within one second are ordered below); only
// folders named like a run id are ever deleted, whatever else the user keeps in the report directory.
import { closeSync, constants, fstatSync, lstatSync, mkdirSync, openSync, readdirSync, readSync, rmdirSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { TopLevelFields } from '../util/json-fields.js';
import { fileKind, openOutput } from '../util/output-file.js';

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

/** Whole or not at all; never through a FIFO or device found where a report file belongs (nobody asked for that one). */
function writeAtomic(path: string, text: string): void {
  const file = openOutput(path, { through: false });
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

/**
 * Run folders by time. Run ids only say the second, so runs within one second go by the oldest
 * file in each (the run wrote it): not by the folder's own time, which a report page written into
 * an older run's folder later (`report RUN --html RUN/report.html`) would make the newest.
 */
function runsOldestFirst(reportDir: string): string[] {
  const runs = readdirSync(reportDir, { withFileTypes: true })
    .filter((e) => e.isDirectory() && RUN_FOLDER.test(e.name))
    .map((e) => ({ name: e.name, second: e.name.slice(0, 16) }));
  const seconds = new Map<string, number>();
  for (const r of runs) seconds.set(r.second, (seconds.get(r.second) ?? 0) + 1);
  const written = new Map(runs.filter((r) => seconds.get(r.second)! > 1).map((r) => [r.name, firstWritten(join(reportDir, r.name))]));
  return runs.sort((a, b) => (a.second === b.second ? written.get(a.name)! - written.get(b.name)! : a.second < b.second ? -1 : 1)).map((r) => r.name);
}

/** When the run wrote the first file still in its folder; the folder's own time when it holds none. */
function firstWritten(dir: string): number {
  let oldest = Infinity;
  try {
    for (const name of readdirSync(dir)) oldest = Math.min(oldest, lstatSync(join(dir, name)).mtimeMs);
  } catch {
    // gone or unreadable while listed: its own time below
  }
  if (oldest !== Infinity) return oldest;
  try {
    return statSync(dir).mtimeMs;
  } catch {
    return 0;
  }
}

/**
 * Deletes the oldest run folders beyond `keep` (never the current run's); returns their names, oldest
 * first.
 */
export function pruneReports(reportDir: string, keep: number, current: string): string[] {
  const runs = runsOldestFirst(reportDir).filter((name) => name !== current);
  const old = runs.slice(0, Math.max(0, runs.length - (keep - 1)));
  for (const name of old) rmSync(join(reportDir, name), { recursive: true, force: true });
  return old;
}

/** A report.json over this is not one a run wrote (its rows are capped at 100,000): left out unread. */
const MAX_REPORT_BYTES = 1024 ** 3;
/** The fields history reads are counts and reason groups (at most 1,000): a few MB at most. */
const MAX_FIELD_BYTES = 64 * 1024 * 1024;
const CHUNK_BYTES = 1024 * 1024;

type ArchivedReport = { runId: string; path: string } & ({ fields: Record<string, unknown> } | { problem: string });

/**
 * The archived runs' reports, newest first, as the given top-level fields of each report.json,
 * until `enough` says so. A folder without one is left out (a run killed before its report was
 * written has a folder, its errors CSV, and no report). Each file is opened non-blocking and read
 * only when it is a regular file under 1 GiB, streamed: a FIFO, a link to /dev/zero or a huge file
 * comes back as a `problem`, never a hang or the whole file in memory.
 */
export function* readRunReports(reportDir: string, fields: readonly string[]): Generator<ArchivedReport> {
  for (const name of runsOldestFirst(reportDir).reverse()) {
    const path = join(reportDir, name, REPORT_FILE);
    let fd: number;
    try {
      fd = openSync(path, constants.O_RDONLY | constants.O_NONBLOCK);
    } catch {
      continue;
    }
    try {
      yield { runId: name, path, ...readFields(fd, fields) };
    } finally {
      closeSync(fd);
    }
  }
}

function readFields(fd: number, fields: readonly string[]): { fields: Record<string, unknown> } | { problem: string } {
  const st = fstatSync(fd);
  if (!st.isFile()) return { problem: `it is ${fileKind(st)}, not a regular file` };
  if (st.size > MAX_REPORT_BYTES) return { problem: `${(st.size / 1024 ** 3).toFixed(1)} GiB, over the 1 GiB a run report can have` };
  const scan = new TopLevelFields(new Set(fields), MAX_FIELD_BYTES);
  const chunk = Buffer.allocUnsafe(CHUNK_BYTES);
  try {
    // at most the cap, even if the file grows while it is read
    for (let total = 0, n: number; total < MAX_REPORT_BYTES && (n = readSync(fd, chunk, 0, CHUNK_BYTES, null)) > 0; total += n) scan.feed(chunk.subarray(0, n));
    return { fields: scan.result() };
  } catch (error) {
    return { problem: `not readable as a run report (${(error as Error).message})` };
  }
}
