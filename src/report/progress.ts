// What a long run shows while it works, on stderr so stdout stays the report: a live spinner on a
// terminal, a timestamped line every few seconds in cron and CI logs (no control characters, no line
// per row), nothing but errors when quiet. Only counts are printed, never row or payload values;
// event texts come from our own code (retries, warnings) and must not carry them either.
import type { Options as OraOptions, Ora } from 'ora';
import type { Output } from './output.js';
import { visible } from './terminal-text.js';
import { plural } from './plural.js';
import { bar, bytes, count, duration, fitLine, type LinePart } from './progress-line.js';
import { liveFigures, type FlowNow, type LiveFigures } from './progress-live.js';
import { shortName, type ReadPosition } from './read-position.js';

export type ProgressMode = 'tty' | 'plain' | 'quiet';

export interface ProgressCounts {
  rowsRead: number;
  batchesAcked: number;
  itemsAcked: number;
  retries: number;
  /** Requests the client may have in flight now (push). */
  concurrency?: number;
  /** Requests under way now (push): what the line shows, never the limit alone. */
  inFlight?: number;
  /** Requests per second the client paces at, when a rate limit applies (push). */
  pacedRate?: number;
  /** The resource being read or sent now. */
  resource?: string;
  /** The file being read now, as its records name it, and the line of the last record read. */
  file?: string;
  line?: number;
  /** The counts when that resource began: what is shown under its name is what it added since. */
  since?: { rowsRead: number; batchesAcked: number };
  /** The client now (push), asked as the line is drawn: a wait for a rate limit starts and ends between two answers. */
  flowNow?: () => FlowNow;
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

/** `deal: 8800 rows read, 48% of deals.csv, ETA 12s, 88 batches acknowledged, 1180 rows/s, 2 retries, 4 in flight (run: 8920 rows read)` */
export function progressText(c: ProgressCounts, live: LiveFigures = {}): string {
  const since = c.resource ? c.since : undefined;
  const rows = c.rowsRead - (since?.rowsRead ?? 0);
  const batches = c.batchesAcked - (since?.batchesAcked ?? 0);
  const parts = [plural(rows, 'row read', 'rows read')];
  const p = live.position;
  if (p) parts.push(`${percent(p)} of ${shortName(p.file)}${live.etaMs === undefined ? '' : `, ETA ${duration(live.etaMs)}`}`);
  if (c.batchesAcked > 0 || c.itemsAcked > 0) parts.push(plural(batches, 'batch acknowledged', 'batches acknowledged'));
  if (live.wait) parts.push(waitText(live.wait));
  else if (live.rowsPerSecond !== undefined) parts.push(`${Math.round(live.rowsPerSecond)} rows/s`);
  if (c.retries > 0) parts.push(plural(c.retries, 'retry', 'retries'));
  const { inFlight, pacedRate } = sending(c, live);
  if (inFlight) parts.push(`${inFlight} in flight`);
  if (pacedRate !== undefined) parts.push(`paced at ${pacedRate.toFixed(1)} requests/s`);
  // retries are the run's; after the first resource, its total rows are said apart
  const run = since && since.rowsRead > 0 ? ` (run: ${plural(c.rowsRead, 'row read', 'rows read')})` : '';
  return `${c.resource ? `${c.resource}: ` : ''}${parts.join(', ')}${run}`;
}

const percent = (p: ReadPosition) => `${Math.floor((p.bytes * 100) / p.size)}%`;

/** The client's figures as the line is drawn, else those of the last answer. */
const sending = (c: ProgressCounts, live: LiveFigures) => ({ inFlight: live.inFlight ?? c.inFlight, pacedRate: live.pacedRate ?? c.pacedRate });

/** `waiting 4s for the rate limit (429)`: whole seconds, counted up, so the last second reads 1s, never 0s. */
const waitText = (w: { ms: number; cause: string }) => `waiting ${duration(Math.ceil(w.ms / 1000) * 1000)} for the rate limit (${w.cause})`;
/** The same where the line is narrow. */
const waitShort = (w: { ms: number }) => `waiting ${duration(Math.ceil(w.ms / 1000) * 1000)} (rate limit)`;

/**
 * The spinner's line, fitted to `columns`: `deal ventas.csv ██████░░░░ 48% 1.2/2.5 MB 8,800 rows
 * 11,800 rows/s ETA 12s 4 in flight`. The least needed parts go first on a narrow terminal; the
 * name, the percentage and the ETA stay.
 */
function terminalLine(c: ProgressCounts, live: LiveFigures, columns: number): string {
  const since = c.resource ? c.since : undefined;
  const p = live.position;
  const name = [c.resource, p && shortName(p.file)].filter(Boolean).join(' ');
  const { inFlight, pacedRate } = sending(c, live);
  const wait = live.wait;
  const parts: LinePart[] = [
    { text: name, drop: 0 },
    { text: p ? bar(p.bytes / p.size, 16) : '', drop: 3 },
    { text: p ? percent(p) : '', drop: 0 },
    { text: p ? `${bytes(p.bytes)}/${bytes(p.size)}` : '', drop: 6 },
    { text: `${count(c.rowsRead - (since?.rowsRead ?? 0))} rows`, drop: 2 },
    // a wait is said as one, where the rate would fall to nothing while it lasts
    wait
      ? { text: waitText(wait), short: waitShort(wait), drop: 0 }
      : { text: live.rowsPerSecond === undefined ? '' : `${count(live.rowsPerSecond)} rows/s`, drop: 1 },
    { text: live.etaMs === undefined ? '' : `ETA ${duration(live.etaMs)}`, drop: 0 },
    { text: inFlight ? `${inFlight} in flight` : '', drop: 2 },
    { text: c.retries > 0 ? plural(c.retries, 'retry', 'retries') : '', drop: 4 },
    { text: pacedRate === undefined ? '' : `paced ${pacedRate.toFixed(1)}/s`, drop: 5 },
  ];
  return fitLine(parts, columns);
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

/** The spinner's line is redrawn this often even when no count changed: the rate and the ETA move on during a wait. */
const REDRAW_MS = 500;

export function createProgress(options: ProgressOptions): Progress {
  const { output, verbose = false, intervalMs = 5000 } = options;
  const now = options.now ?? Date.now;
  // without a spinner maker a terminal gets the plain lines: never a half-drawn spinner
  const picked = pickProgressMode(output, options.mode);
  let mode: ProgressMode = picked === 'tty' && !options.ora ? 'plain' : picked;
  const live = liveFigures(now);
  let latest: ProgressCounts | undefined;
  let lastShown = now();
  let unshown = false;
  let spinner: Ora | undefined;
  let redraw: ReturnType<typeof setInterval> | undefined;
  let stopped = false;

  // A terminal resized to no width mid-run: ora's own 80 ms timer would hit the endless loop at its
  // next frame, so the spinner is stopped as the size changes (before any frame) and plain lines go on.
  const stream = output.stderrStream;
  const onResize = () => {
    if (mode !== 'tty' || terminalColumns(output.stderrStream) !== undefined) return;
    mode = 'plain';
    clearInterval(redraw);
    spinner?.stop();
    spinner = undefined;
    unshown = latest !== undefined;
    lastShown = now() - intervalMs;
  };
  if (mode === 'tty') stream?.on('resize', onResize);

  // one line each: a retry reason quoting a server text must not start a line of its own
  const line = (text: string) => output.err(mode === 'plain' ? `${timestamp(now())}  ${visible(text)}` : visible(text));
  const shows = (level: ProgressLevel) => level === 'error' || (mode !== 'quiet' && (level === 'info' || verbose));
  // ora writes its frame (one character) and a space before the text
  const spinnerText = (counts: ProgressCounts) => visible(terminalLine(counts, live.at(counts), (terminalColumns(stream) ?? 80) - 3));
  const startSpinner = (counts: ProgressCounts) => {
    // discardStdin off: raw mode would delay Ctrl+C while a batch is being built
    const color = output.color.level > 0 ? 'cyan' : false;
    spinner = options.ora!({ stream: output.stderrStream, discardStdin: false, isEnabled: true, color }).start(spinnerText(counts));
    redraw = setInterval(() => {
      if (spinner && latest && terminalColumns(stream) !== undefined) spinner.text = spinnerText(latest);
    }, REDRAW_MS);
    redraw.unref?.();
  };

  return {
    get mode() {
      return mode;
    },
    update(counts) {
      if (stopped || mode === 'quiet') return;
      if (mode === 'tty' && terminalColumns(output.stderrStream) === undefined) onResize();
      latest = counts;
      unshown = true;
      live.sample(counts);
      const t = now();
      if (mode === 'tty') {
        if (!spinner) startSpinner(counts);
        else if (t - lastShown < SPINNER_REFRESH_MS) return;
        else spinner.text = spinnerText(counts);
      } else {
        if (t - lastShown < intervalMs) return;
        line(progressText(counts, live.at(counts)));
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
      clearInterval(redraw);
      stream?.removeListener('resize', onResize);
      spinner?.stop();
      if (mode === 'plain' && unshown && latest) line(progressText(latest, live.at(latest)));
    },
  };
}
