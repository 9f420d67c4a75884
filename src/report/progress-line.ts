// The arithmetic of a progress line, pure: the rate over the last seconds (never since the start, so
// it does not decay after a pause and recovers as soon as rows flow again), the time left, a bar, and
// a line fitted to the terminal's width by leaving out its least needed parts first.

/** Rows (or bytes) per second over the last `windowMs`. */
export class RateWindow {
  private readonly samples: Array<[at: number, total: number]> = [];

  constructor(private readonly windowMs = 5000) {}

  /** The running total at a time; times only grow. */
  add(at: number, total: number): void {
    const last = this.samples.at(-1);
    if (last && last[0] === at) last[1] = total;
    else this.samples.push([at, total]);
    // one sample older than the window stays: it is where the window's count starts
    while (this.samples.length > 2 && this.samples[1]![0] <= at - this.windowMs) this.samples.shift();
  }

  /** Per second over the window up to `now`; undefined until there are two samples a moment apart. */
  perSecond(now: number): number | undefined {
    const first = this.samples[0];
    const last = this.samples.at(-1);
    if (!first || !last || first === last) return undefined;
    // no sample since: the window still ends now, so a stall lowers the rate as it lasts
    const from = Math.max(first[0], now - this.windowMs);
    const base = from === first[0] ? first[1] : totalAt(this.samples, from);
    const span = now - from;
    return span <= 0 ? undefined : ((last[1] - base) * 1000) / span;
  }
}

/** The total at a time inside the samples, linear between two. */
function totalAt(samples: ReadonlyArray<[number, number]>, at: number): number {
  for (let i = 1; i < samples.length; i++) {
    const [t1, n1] = samples[i]!;
    if (t1 < at) continue;
    const [t0, n0] = samples[i - 1]!;
    return t1 === t0 ? n1 : n0 + ((n1 - n0) * (at - t0)) / (t1 - t0);
  }
  return samples.at(-1)![1];
}

/** Milliseconds left at a rate; undefined when nothing moves (no rate, or none left to measure by). */
export function etaMs(remaining: number, perSecond: number | undefined): number | undefined {
  if (perSecond === undefined || perSecond <= 0 || remaining < 0) return undefined;
  return (remaining * 1000) / perSecond;
}

/** `9s`, `4m 05s`, `2h 03m`. */
export function duration(ms: number): string {
  const s = Math.round(ms / 1000);
  if (s < 60) return `${s}s`;
  const m = Math.floor(s / 60);
  if (m < 60) return `${m}m ${String(s % 60).padStart(2, '0')}s`;
  return `${Math.floor(m / 60)}h ${String(m % 60).padStart(2, '0')}m`;
}

/** `812 B`, `1.2 MB`, `3.4 GB` (powers of 1000, as file managers show sizes). */
export function bytes(n: number): string {
  const units = ['B', 'kB', 'MB', 'GB', 'TB'];
  let value = n;
  let unit = 0;
  while (value >= 1000 && unit < units.length - 1) {
    value /= 1000;
    unit++;
  }
  return unit === 0 ? `${n} B` : `${value < 10 ? value.toFixed(1) : Math.round(value)} ${units[unit]}`;
}

/** `12,345`: counts are easier read grouped. */
export const count = (n: number) => Math.round(n).toLocaleString('en-US');

/** A bar `width` cells wide, filled to `fraction` (0..1). */
export function bar(fraction: number, width: number): string {
  const filled = Math.round(Math.min(1, Math.max(0, fraction)) * width);
  return `${'█'.repeat(filled)}${'░'.repeat(width - filled)}`;
}

/** One part of a line: its text, how soon it is left out when the line is too wide (higher: sooner), and a shorter text for a line still too wide once the droppable parts are gone. */
export interface LinePart {
  text: string;
  drop: number;
  short?: string;
}

/**
 * The parts joined in their order, leaving out the most droppable first until the line fits
 * `columns`, then taking the short texts; a line that still does not fit is cut, with `…` at its
 * end. Never wider than `columns`.
 */
export function fitLine(parts: readonly LinePart[], columns: number, separator = '  '): string {
  let kept = parts.filter((p) => p.text !== '');
  const width = (list: readonly LinePart[]) => list.reduce((sum, p) => sum + p.text.length, 0) + separator.length * Math.max(0, list.length - 1);
  while (kept.length > 1 && width(kept) > columns) {
    const most = Math.max(...kept.map((p) => p.drop));
    if (most <= 0) break;
    const at = kept.map((p) => p.drop).lastIndexOf(most);
    kept = kept.filter((_, i) => i !== at);
  }
  if (width(kept) > columns) kept = kept.map((p) => (p.short === undefined ? p : { ...p, text: p.short }));
  const line = kept.map((p) => p.text).join(separator);
  return line.length <= columns ? line : `${line.slice(0, Math.max(0, columns - 1))}…`;
}
