// What a long run shows while it works, on stderr so stdout stays the report: a live spinner on a
// terminal, a timestamped line every few seconds in cron and CI logs (no control characters, no line
// per row), nothing but errors when quiet. Only counts are printed, never row or payload values;
// event texts come from our own code (retries, warnings) and must not carry them either.
import type { Options as OraOptions, Ora } from 'ora';
import type { Output } from './output.js';
import { visible } from './terminal-text.js';
import { plural } from './plural.js';

export type ProgressMode = 'tty' | 'plain' | 'quiet';

export interface ProgressCounts {
  rowsRead: number;
  batchesAcked: number;
  itemsAcked: number;
  retries: number;
  /** Requests the client may have in flight now (push). */
  concurrency?: number;
  /** Requests per second the client paces at, when a rate limit applies (push). */
  pacedRate?: number;
  /** The resource being read or sent now. */
  resource?: string;
  /** The counts when that resource began: what is shown under its name is what it added since. */
  since?: { rowsRead: number; batchesAcked: number };
}

/** debug: shown with --verbose only; info: shown unless quiet; error: always shown. */
type ProgressLevel = 'debug' | 'info' | 'error';

export interface ProgressOptions {
  output: Output;
  /** Forced mode; otherwise tty when stderr is a terminal, plain when not. */
  mode?: ProgressMode;
  verbose?: boolean;
  /** Plain mode prints at most one progress line per interval. */
  intervalMs?: number;
  /** Clock, injectable so tests do not sleep. */
  now?: () => number;
  /** The spinner maker (ora), loaded by startProgress only when there is a terminal to draw on. */
  ora?: (options: OraOptions) => Ora;
}

export interface Progress {
  readonly mode: ProgressMode;
  update(counts: ProgressCounts): void;
  /** A line worth seeing now: `retrying batch X after 503 in 1.2 s`. */
  event(text: string, level?: ProgressLevel): void;
  /** Ends the spinner (and prints the last counts in plain mode) before the report is printed. */
  stop(): void;
}

/** Spinner text is rebuilt at most this often: update() may be called per row. */
const SPINNER_REFRESH_MS = 100;

/**
 * The terminal's width, when it reports one a spinner can be drawn in. A pseudo-terminal nobody
 * sized (`script` in cron, some CI runners) reports 0 columns: ora divides by the width to count the
 * lines it must clear, gets Infinity, and then writes cursor-up/clear-line codes in a synchronous
 * loop that never ends (full CPU, and no signal handler ever runs again). So no width, no spinner.
 */
function terminalColumns(stream: NodeJS.WritableStream | undefined): number | undefined {
  const columns = (stream as { columns?: unknown } | undefined)?.columns;
  return typeof columns === 'number' && Number.isInteger(columns) && columns > 0 ? columns : undefined;
}

export function pickProgressMode(output: Output, forced?: ProgressMode): ProgressMode {
  if (forced) return forced;
  return output.stderrIsTTY && terminalColumns(output.stderrStream) !== undefined ? 'tty' : 'plain';
}

/** `deal: 8800 rows read, 88 batches acknowledged, 11800 items/s, 2 retries, concurrency 12 (run: 8920 rows read)` */
export function progressText(c: ProgressCounts, elapsedMs: number): string {
  const since = c.resource ? c.since : undefined;
  const rows = c.rowsRead - (since?.rowsRead ?? 0);
  const batches = c.batchesAcked - (since?.batchesAcked ?? 0);
  const parts = [plural(rows, 'row read', 'rows read')];
  if (c.batchesAcked > 0 || c.itemsAcked > 0) {
    const rate = elapsedMs > 0 ? Math.round((c.itemsAcked * 1000) / elapsedMs) : 0;
    parts.push(plural(batches, 'batch acknowledged', 'batches acknowledged'), `${rate} items/s`);
  }
  if (c.retries > 0) parts.push(plural(c.retries, 'retry', 'retries'));
  if (c.concurrency !== undefined) parts.push(`concurrency ${c.concurrency}`);
  if (c.pacedRate !== undefined) parts.push(`paced at ${c.pacedRate.toFixed(1)} requests/s`);
  // rate and retries are the run's; after the first resource, its total rows are said apart
  const run = since && since.rowsRead > 0 ? ` (run: ${plural(c.rowsRead, 'row read', 'rows read')})` : '';
  return `${c.resource ? `${c.resource}: ` : ''}${parts.join(', ')}${run}`;
}

/** `2026-11-21T05:44:56Z`: second precision is enough for a log and easier to read. */
const timestamp = (ms: number) => new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z');

/**
 * createProgress, with ora imported only when stderr is a terminal: cron and CI runs never load it
 * (it and its dependencies would take resident memory for nothing there).
 */
export async function startProgress(options: Omit<ProgressOptions, 'ora'>): Promise<Progress> {
  if (pickProgressMode(options.output, options.mode) !== 'tty') return createProgress(options);
  const { default: ora } = await import('ora');
  return createProgress({ ...options, ora });
}

export function createProgress(options: ProgressOptions): Progress {
  const { output, verbose = false, intervalMs = 5000 } = options;
  const now = options.now ?? Date.now;
  // without a spinner maker a terminal gets the plain lines: never a half-drawn spinner
  const picked = pickProgressMode(output, options.mode);
  let mode: ProgressMode = picked === 'tty' && !options.ora ? 'plain' : picked;
  const started = now();
  let latest: ProgressCounts | undefined;
  let lastShown = started;
  let unshown = false;
  let spinner: Ora | undefined;
  let stopped = false;

  // A terminal resized to no width mid-run: ora's own 80 ms timer would hit the endless loop at its
  // next frame, so the spinner is stopped as the size changes (before any frame) and plain lines go on.
  const stream = output.stderrStream;
  const onResize = () => {
    if (mode !== 'tty' || terminalColumns(output.stderrStream) !== undefined) return;
    mode = 'plain';
    spinner?.stop();
    spinner = undefined;
    unshown = latest !== undefined;
    lastShown = now() - intervalMs;
  };
  if (mode === 'tty') stream?.on('resize', onResize);

  // one line each: a retry reason quoting a server text must not start a line of its own
  const line = (text: string) => output.err(mode === 'plain' ? `${timestamp(now())}  ${visible(text)}` : visible(text));
  const shows = (level: ProgressLevel) => level === 'error' || (mode !== 'quiet' && (level === 'info' || verbose));

  return {
    get mode() {
      return mode;
    },
    update(counts) {
      if (stopped || mode === 'quiet') return;
      if (mode === 'tty' && terminalColumns(output.stderrStream) === undefined) onResize();
      latest = counts;
      unshown = true;
      const t = now();
      if (mode === 'tty') {
        // discardStdin off: raw mode would delay Ctrl+C while a batch is being built
        if (!spinner) {
          const color = output.color.level > 0 ? 'cyan' : false;
          spinner = options.ora!({ stream: output.stderrStream, discardStdin: false, isEnabled: true, color }).start(progressText(counts, t - started));
        } else if (t - lastShown < SPINNER_REFRESH_MS) return;
        spinner.text = progressText(counts, t - started);
      } else {
        if (t - lastShown < intervalMs) return;
        line(progressText(counts, t - started));
      }
      lastShown = t;
      unshown = false;
    },
    event(text, level = 'info') {
      if (!shows(level)) return;
      // a spinner line must be cleared first, or the event is printed into the middle of it
      spinner?.clear();
      line(text);
      spinner?.render();
    },
    stop() {
      if (stopped) return;
      stopped = true;
      stream?.removeListener('resize', onResize);
      spinner?.stop();
      if (mode === 'plain' && unshown && latest) line(progressText(latest, now() - started));
    },
  };
}
