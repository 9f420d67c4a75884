// Wall-clock times of a named IANA zone → instants with their UTC offset. Computed with
// Intl.DateTimeFormat only: the machine's own zone (process.env.TZ) never enters, so a
// `15/03/2024` cannot become the 14th because the CLI ran on a server in UTC-5.

export interface WallTime {
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
  second: number;
}

export function isValidTimeZone(zone: string): boolean {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: zone });
    return true;
  } catch {
    return false;
  }
}

const pad = (n: number, w = 2) => String(n).padStart(w, '0');

function offsetText(minutes: number): string {
  if (minutes === 0) return 'Z';
  const sign = minutes < 0 ? '-' : '+';
  const abs = Math.abs(minutes);
  return `${sign}${pad(Math.floor(abs / 60))}:${pad(abs % 60)}`;
}

/** Formats a wall time as ISO-8601 date-time with the given offset in minutes. */
function formatDateTime(w: WallTime, offsetMinutes: number): string {
  return `${pad(w.year, 4)}-${pad(w.month)}-${pad(w.day)}T${pad(w.hour)}:${pad(w.minute)}:${pad(w.second)}${offsetText(offsetMinutes)}`;
}

/**
 * One zone, compiled once per profile. `offsetAt` is cached per UTC half hour: a million rows of a few
 * hundred distinct dates call Intl a few hundred times.
 */
export class ZoneClock {
  private readonly format: Intl.DateTimeFormat;
  private readonly offsets = new Map<number, number>();

  constructor(readonly zone: string) {
    this.format = new Intl.DateTimeFormat('en-US', {
      timeZone: zone,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
    });
  }

  /** Offset of the zone from UTC, in minutes, at the instant `ms`. */
  offsetAt(ms: number): number {
    // offsets change on the hour or the half hour in every zone in use: one lookup per half hour
    const key = Math.floor(ms / 1_800_000);
    const hit = this.offsets.get(key);
    if (hit !== undefined) return hit;
    const parts: Record<string, number> = {};
    for (const p of this.format.formatToParts(new Date(ms))) if (p.type !== 'literal') parts[p.type] = Number(p.value);
    const wall = Date.UTC(parts.year!, parts.month! - 1, parts.day!, parts.hour!, parts.minute!, parts.second!);
    const offset = Math.round((wall - Math.floor(ms / 1000) * 1000) / 60_000);
    if (this.offsets.size > 100_000) this.offsets.clear();
    this.offsets.set(key, offset);
    return offset;
  }

  /**
   * The ISO date-time of a wall time in this zone. A time inside a daylight-saving gap (São Paulo's
   * midnight of 2018-11-04 never happened) moves forward to the first time that exists, so the
   * date stays the one the user wrote.
   */
  place(w: WallTime): string {
    const asUtc = Date.UTC(w.year, w.month - 1, w.day, w.hour, w.minute, w.second);
    const off1 = this.offsetAt(asUtc);
    const t1 = asUtc - off1 * 60_000;
    const off2 = this.offsetAt(t1);
    if (off2 === off1) return formatDateTime(w, off1);
    const t2 = asUtc - off2 * 60_000;
    if (this.offsetAt(t2) === off2) return formatDateTime(w, off2);
    // in a gap: take the later instant and show it as the zone's wall clock then
    const t = Math.max(t1, t2);
    const off = this.offsetAt(t);
    const d = new Date(t + off * 60_000);
    return formatDateTime(
      {
        year: d.getUTCFullYear(),
        month: d.getUTCMonth() + 1,
        day: d.getUTCDate(),
        hour: d.getUTCHours(),
        minute: d.getUTCMinutes(),
        second: d.getUTCSeconds(),
      },
      off,
    );
  }
}
