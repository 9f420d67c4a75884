// The figures of a progress line that the counts alone do not say, sampled as it is drawn: the rates
// over the last seconds, how far into its file the run reads, the time left, and what the client
// says now (requests in flight, the pace, a wait for a rate limit).
import { etaMs, RateWindow } from './progress-line.js';
import { positionAt, type ReadPosition } from './read-position.js';

/** What the client says as the line is drawn: requests under way, the rate they are paced at, and the wait for a rate limit they are held in. */
export interface FlowNow {
  inFlight?: number;
  rate?: number;
  wait?: { ms: number; cause: string };
}

/** What the counts alone do not say: the rate over the last seconds, and how far into its file the run reads. */
export interface LiveFigures {
  /** Rows read per second over the last seconds (not since the start: a pause does not linger in it). */
  rowsPerSecond?: number;
  position?: ReadPosition;
  /** Time left to read the file at the recent byte rate, plus the wait under way. */
  etaMs?: number;
  /** A wait for a rate limit under way: shown as a wait, not as a falling rate. */
  wait?: { ms: number; cause: string };
  inFlight?: number;
  pacedRate?: number;
}

/** What of the counts the figures are made from. */
interface Counted {
  rowsRead: number;
  file?: string;
  line?: number;
  flowNow?: () => FlowNow;
}

/**
 * The figures of a line, sampled when it is drawn: the recent rates, the position in the file read
 * now, and the client's wait. The rates run on a clock that stops while a wait for a rate limit is
 * under way: the wait is shown as a wait and added to the ETA, and neither the rate nor the ETA
 * afterwards counts it as slowness.
 */
export function liveFigures(now: () => number): { sample(c: Counted): void; at(c: Counted): LiveFigures } {
  const rows = new RateWindow();
  // the rate counts from the start until the window is full
  let sampled = now();
  rows.add(sampled, 0);
  let read = new RateWindow();
  let file: string | undefined;
  const positionOf = positionAt();
  let held = 0;
  let observed = sampled;
  let waiting = false;
  /** The time on the rates' clock: an interval that began in a wait is left out. */
  const clock = (t: number, wait: boolean) => {
    if (waiting) held += t - observed;
    [observed, waiting] = [t, wait];
    return t - held;
  };
  return {
    // update() may come per batch: a sample every 100 ms is plenty for a rate over seconds
    sample(c) {
      const t = now();
      if (t - sampled < 100) return;
      sampled = t;
      rows.add(clock(t, c.flowNow?.().wait !== undefined), c.rowsRead);
    },
    at(c) {
      const flow = c.flowNow?.();
      const t = clock(now(), flow?.wait !== undefined);
      rows.add(t, c.rowsRead);
      const position = c.file === undefined || c.line === undefined ? undefined : positionOf(c.file, c.line);
      // each file its own byte rate: the next one starts from nothing
      if (position && position.file !== file) [file, read] = [position.file, new RateWindow()];
      if (position) read.add(t, position.bytes);
      const left = position && etaMs(position.size - position.bytes, read.perSecond(t));
      return {
        rowsPerSecond: rows.perSecond(t),
        position,
        etaMs: left === undefined ? undefined : left + (flow?.wait?.ms ?? 0),
        wait: flow?.wait,
        inFlight: flow?.inFlight,
        pacedRate: flow?.rate,
      };
    },
  };
}
