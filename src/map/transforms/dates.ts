// Dates as exports write them (`2024-03-15`, `15/03/2024`, `03/15/2024 2:30 PM`, `15.03.2024`,
// `16 Apr, 2021`, Excel serials like `45366`) → ISO-8601. Calendar arithmetic only: no Date parsing of strings and
// no local time zone anywhere.
import type { WallTime, ZoneClock } from './time-zone.js';

export const DATE_FORMATS = ['auto', 'YYYY-MM-DD', 'DD/MM/YYYY', 'MM/DD/YYYY', 'DD.MM.YYYY', 'DD-MM-YYYY', 'excel'] as const;
export type DateFormat = (typeof DATE_FORMATS)[number];

export interface ParsedDate extends WallTime {
  hasTime: boolean;
  /** Offset written in the value itself (`Z`, `-03:00`), in minutes. */
  offset?: number;
}
export type DateResult = { ok: true; value: ParsedDate } | { ok: false; reason: string };

const ISO = /^(\d{4})-(\d{1,2})-(\d{1,2})(?:[T ](\d{1,2}):(\d{2})(?::(\d{2})(?:\.\d+)?)?\s*(Z|[+-]\d{2}:?\d{2})?)?$/i;
// day-month-year or month-day-year with / - . separators, an optional time, 12- or 24-hour
const NUMERIC = /^(\d{1,2})[/.-](\d{1,2})[/.-](\d{4})(?:[ T,]+(\d{1,2}):(\d{2})(?::(\d{2}))?\s*([AaPp][Mm])?)?$/;
const SERIAL = /^\d{1,6}(?:\.\d+)?$/;
// a month written as a word, day first (`16 Apr, 2021`, `15-Mar-2024`, `15 de marzo de 2024`) or
// month first (`Apr 16, 2021`), with an optional time: no order to guess
const TIME = String.raw`(?:[ T,]+(\d{1,2}):(\d{2})(?::(\d{2}))?\s*([AaPp][Mm])?)?`;
const DAY_FIRST = new RegExp(String.raw`^(\d{1,2})(?:[ .,-]+|\s+de\s+)(\p{L}+)\.?(?:[ .,-]+|\s+de\s+)(\d{4})${TIME}$`, 'iu');
const MONTH_FIRST = new RegExp(String.raw`^(\p{L}+)\.?[ -]+(\d{1,2}),?[ -]+(\d{4})${TIME}$`, 'iu');
// English, Spanish and Portuguese names, full and as their first three letters
const MONTHS = new Map<string, number>();
for (const names of [
  ['january', 'enero', 'janeiro'],
  ['february', 'febrero', 'fevereiro'],
  ['march', 'marzo', 'março', 'marco'],
  ['april', 'abril'],
  ['may', 'mayo', 'maio'],
  ['june', 'junio', 'junho'],
  ['july', 'julio', 'julho'],
  ['august', 'agosto'],
  ['september', 'septiembre', 'setiembre', 'setembro', 'sept'],
  ['october', 'octubre', 'outubro'],
  ['november', 'noviembre', 'novembro'],
  ['december', 'diciembre', 'dezembro'],
].entries()) {
  for (const name of names[1]) {
    MONTHS.set(name, names[0] + 1);
    MONTHS.set(name.slice(0, 3), names[0] + 1);
  }
}

function isLeapYear(y: number): boolean {
  return (y % 4 === 0 && y % 100 !== 0) || y % 400 === 0;
}
function daysInMonth(y: number, m: number): number {
  return m === 2 ? (isLeapYear(y) ? 29 : 28) : [4, 6, 9, 11].includes(m) ? 30 : 31;
}

function build(raw: string, y: number, m: number, d: number, h = 0, min = 0, s = 0, hasTime = false): DateResult {
  if (m < 1 || m > 12 || d < 1 || d > daysInMonth(y, m)) return { ok: false, reason: `"${raw}" is not a date that exists` };
  if (h > 23 || min > 59 || s > 59) return { ok: false, reason: `"${raw}" has a time that does not exist` };
  return { ok: true, value: { year: y, month: m, day: d, hour: h, minute: min, second: s, hasTime } };
}

/** Excel's day count from 1899-12-30 (the 1900 leap-year bug included, as Excel writes it). */
function fromExcelSerial(raw: string): DateResult {
  const serial = Number(raw);
  if (!(serial >= 1 && serial < 2_958_466)) return { ok: false, reason: `"${raw}" is not an Excel date serial` };
  const days = Math.floor(serial);
  const seconds = Math.round((serial - days) * 86_400);
  const d = new Date(Date.UTC(1899, 11, 30) + days * 86_400_000 + seconds * 1000);
  return build(raw, d.getUTCFullYear(), d.getUTCMonth() + 1, d.getUTCDate(), d.getUTCHours(), d.getUTCMinutes(), d.getUTCSeconds(), seconds > 0);
}

function fromIso(raw: string, m: RegExpExecArray): DateResult {
  const [, y, mo, d, h, mi, s, zone] = m;
  const r = build(raw, +y!, +mo!, +d!, h ? +h : 0, mi ? +mi : 0, s ? +s : 0, h !== undefined);
  if (r.ok && zone) {
    if (zone.toUpperCase() === 'Z') r.value.offset = 0;
    else {
      const digits = zone.replace(':', '');
      const minutes = Number(digits.slice(1, 3)) * 60 + Number(digits.slice(3, 5));
      r.value.offset = digits[0] === '-' ? -minutes : minutes;
    }
  }
  return r;
}

function fromNumeric(raw: string, m: RegExpExecArray, order: 'dmy' | 'mdy'): DateResult {
  const [, a, b, y, h, mi, s, ampm] = m;
  let hour = h ? +h : 0;
  if (ampm) {
    if (hour < 1 || hour > 12) return { ok: false, reason: `"${raw}" has a time that does not exist` };
    hour = (hour % 12) + (ampm.toLowerCase() === 'pm' ? 12 : 0);
  }
  const [day, month] = order === 'dmy' ? [+a!, +b!] : [+b!, +a!];
  return build(raw, +y!, month, day, hour, mi ? +mi : 0, s ? +s : 0, h !== undefined);
}

function fromMonthName(raw: string): DateResult | undefined {
  const dayFirst = DAY_FIRST.exec(raw);
  const m = dayFirst ?? MONTH_FIRST.exec(raw);
  if (!m) return undefined;
  const [, a, b, y, h, mi, s, ampm] = m;
  const [day, name] = dayFirst ? [+a!, b!] : [+b!, a!];
  const month = MONTHS.get(name.toLowerCase());
  if (month === undefined) return undefined;
  let hour = h ? +h : 0;
  if (ampm) {
    if (hour < 1 || hour > 12) return { ok: false, reason: `"${raw}" has a time that does not exist` };
    hour = (hour % 12) + (ampm.toLowerCase() === 'pm' ? 12 : 0);
  }
  return build(raw, +y!, month, day, hour, mi ? +mi : 0, s ? +s : 0, h !== undefined);
}

const EXPECTED: Record<DateFormat, string> = {
  auto: 'YYYY-MM-DD, DD/MM/YYYY (when the day is over 12) or an Excel serial',
  'YYYY-MM-DD': 'YYYY-MM-DD',
  'DD/MM/YYYY': 'DD/MM/YYYY',
  'MM/DD/YYYY': 'MM/DD/YYYY',
  'DD.MM.YYYY': 'DD.MM.YYYY',
  'DD-MM-YYYY': 'DD-MM-YYYY',
  excel: 'an Excel date serial',
};

/**
 * Parses one cell. Every format also accepts ISO `YYYY-MM-DD` (exports mix them) and, except
 * `YYYY-MM-DD`, an Excel serial (a date cell Excel saved as a number). `auto` reads `12/03/2024`
 * only when the order is certain (a part over 12) and otherwise asks for a format.
 */
export function parseDate(raw: string, format: DateFormat): DateResult {
  const iso = ISO.exec(raw);
  if (iso) return fromIso(raw, iso);
  if (format !== 'YYYY-MM-DD' && SERIAL.test(raw)) return fromExcelSerial(raw);
  const num = format === 'YYYY-MM-DD' || format === 'excel' ? null : NUMERIC.exec(raw);
  if (num) {
    if (format === 'MM/DD/YYYY') return fromNumeric(raw, num, 'mdy');
    if (format !== 'auto') return fromNumeric(raw, num, 'dmy');
    const [first, second] = [+num[1]!, +num[2]!];
    if (first > 12 && second <= 12) return fromNumeric(raw, num, 'dmy');
    if (second > 12 && first <= 12) return fromNumeric(raw, num, 'mdy');
    if (first === second) return fromNumeric(raw, num, 'dmy');
    return { ok: false, reason: `"${raw}" could be DD/MM/YYYY or MM/DD/YYYY; set "format" in the profile` };
  }
  const named = format === 'YYYY-MM-DD' || format === 'excel' ? undefined : fromMonthName(raw);
  if (named) return named;
  return { ok: false, reason: `"${raw}" is not a date in the format ${EXPECTED[format]}` };
}

const pad = (n: number, w = 2) => String(n).padStart(w, '0');

export function isoDate(d: ParsedDate): string {
  return `${pad(d.year, 4)}-${pad(d.month)}-${pad(d.day)}`;
}

/** A date-time: with the offset the value carried, or placed in the profile's zone (date-only → midnight there). */
export function isoDateTime(d: ParsedDate, clock: ZoneClock): string {
  if (d.offset !== undefined) {
    const sign = d.offset < 0 ? '-' : '+';
    const abs = Math.abs(d.offset);
    const off = d.offset === 0 ? 'Z' : `${sign}${pad(Math.floor(abs / 60))}:${pad(abs % 60)}`;
    return `${isoDate(d)}T${pad(d.hour)}:${pad(d.minute)}:${pad(d.second)}${off}`;
  }
  return clock.place(d);
}
