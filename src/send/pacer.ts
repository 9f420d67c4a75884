// When the next request may leave at a rate of r a second (--max-rate, the rate learnt from 429s, a
// server's advertised policy). Two rules, both judged on the times requests really left (a timer
// that fires a little early or late never puts two requests closer than the rate allows, as a token
// bucket's own clock did) and, for a whole window, on when the server can have counted them:
// - requests are at least 1/r s apart: never a burst;
// - no window of n/r seconds holds more than n of them, n = r rounded down (at least 1): for a
//   whole r, no second holds more than r. A request leaves n/r s after the n-th one before it was
//   counted. That one counts as seen when its answer came back, or SEEN_WITHIN_MS after it left if
//   its answer takes longer: the server counts a request between the two, and the gap between two
//   requests can shrink on the way by as much as their delays differ.
// Pure: the caller passes the time and does the waiting.

/** How much two requests' delays to the server may differ, at most, while their answers are still out. */
export const SEEN_WITHIN_MS = 50;
/** The most requests one window is judged over (a rate above it is paced over a window shorter than a second). */
const MOST_IN_WINDOW = 1024;

export class Pacer {
  /** Departure times and the latest time each can have been counted, by departure number modulo the ring. */
  private readonly left = new Float64Array(MOST_IN_WINDOW);
  private readonly seen = new Float64Array(MOST_IN_WINDOW);
  private departed = 0;

  /** ms to wait from `nowMs` before a request may leave at `rate` a second (0: it may go now). */
  wait(rate: number | undefined, nowMs: number): number {
    if (rate === undefined || this.departed === 0) return 0;
    const gap = 1000 / rate;
    const last = this.departed - 1;
    let next = this.left[last % MOST_IN_WINDOW]! + gap;
    // at most n requests in n gaps (for a whole rate, a second)
    const n = Math.min(MOST_IN_WINDOW, Math.max(1, Math.floor(rate)));
    if (this.departed >= n) next = Math.max(next, this.seen[(this.departed - n) % MOST_IN_WINDOW]! + n * gap);
    return Math.max(0, next - nowMs);
  }

  /** A request leaves now; the number to pass to `answered`. */
  depart(nowMs: number): number {
    const at = this.departed++ % MOST_IN_WINDOW;
    this.left[at] = nowMs;
    this.seen[at] = nowMs + SEEN_WITHIN_MS;
    return this.departed - 1;
  }

  /** Its answer is back: the server has counted it by now. */
  answered(departure: number, nowMs: number): void {
    if (departure < this.departed - MOST_IN_WINDOW) return;
    const at = departure % MOST_IN_WINDOW;
    this.seen[at] = Math.min(this.seen[at]!, nowMs);
  }
}
