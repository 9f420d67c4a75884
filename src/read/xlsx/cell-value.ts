// A stored number as the text the rest of the pipeline reads: decimal text for a number, ISO-8601
// for a number its style shows as a date. Calendar arithmetic in UTC only: the wall time the
// workbook shows is the wall time written, never shifted by this machine's time zone.
import { expandExponent } from '../../util/decimal-text.js';
import { NumberKind } from './styles.js';

/**
 * The number as the shortest decimal text of at most 15 significant digits, without an exponent:
 * 15 digits is Excel's own precision and what it shows, so a stored `0.30000000000000004` (0.1+0.2)
 * is `0.3`, and `1E-7` is `0.0000001`.
 */
export function numberText(stored: string): string | undefined {
  // most cells: a plain decimal of at most 15 characters is already that text (15 digits round-trip)
  if (stored.length <= 15 && PLAIN.test(stored)) return stored === '-0' ? '0' : stored;
  const n = Number(stored);
  if (!Number.isFinite(n) || stored.trim() === '') return undefined;
  // (near the largest double, rounding to 15 digits would overflow: such a number is kept as it is)
  const rounded = Number.isFinite(Number(n.toPrecision(15))) ? Number(n.toPrecision(15)) : n;
  if (rounded === 0) return '0';
  const text = String(rounded);
  return expandExponent(text);
}

const PLAIN = /^-?(?:0|[1-9]\d*)(?:\.\d*[1-9])?$/;
const DAY_MS = 86_400_000;
const EPOCH_1900 = Date.UTC(1899, 11, 30);
const EPOCH_1904 = Date.UTC(1904, 0, 1);
const pad = (n: number, w = 2) => String(n).padStart(w, '0');

/**
 * A date-formatted number as `YYYY-MM-DD`, `YYYY-MM-DDTHH:MM:SS` (a time part in the value or the
 * format) or `HH:MM:SS` (a time-only format, under one day); undefined when it is no date Excel
 * would show (negative, past 9999-12-31); '' for serial 0 under a date format in the 1900 system
 * (ZERO_DATE).
 */
export function dateText(serial: number, kind: NumberKind, date1904: boolean): string | undefined {
  if (!(serial >= 0) || serial >= 2_958_466) return undefined;
  let days = Math.floor(serial);
  let seconds = Math.round((serial - days) * 86_400);
  if (seconds === 86_400) {
    days++;
    seconds = 0;
  }
  const clock = `${pad(Math.floor(seconds / 3600))}:${pad(Math.floor(seconds / 60) % 60)}:${pad(seconds % 60)}`;
  if (kind === NumberKind.time && days === 0) return clock;
  if (days === 0 && seconds === 0 && !date1904) return ZERO_DATE;
  let day: string;
  if (date1904) day = isoDay(EPOCH_1904 + days * DAY_MS);
  // Excel's 1900 system counts 1900-02-29, a day that never was (Lotus 1-2-3's bug, kept): serials
  // 1–59 are one day later than the epoch 1899-12-30 gives, and 60 itself is that day; day 0
  // (Excel's 1900-01-00) is 1899-12-30, as Excel's Strict save writes it
  else if (days === 60) day = '1900-02-29';
  else day = isoDay(EPOCH_1900 + (days < 60 && days > 0 ? days + 1 : days) * DAY_MS);
  // a time format on a day or more (a formula's 24:00, a date-time shown as its time) keeps both
  return seconds === 0 && kind === NumberKind.date ? day : `${day}T${clock}`;
}

/**
 * Serial 0 under a date format in the 1900 system: Excel shows `1900-01-00`, a day that never was;
 * nearly always a formula pointing at an empty cell (`=Model!A5`), so no date at all. Read as an
 * empty cell (and said once, naming the cells), never as a date in 1899.
 */
export const ZERO_DATE = '';
/** The day Excel's Strict save writes for serial 0 (and the day part of a time under one day). */
const DAY_ZERO = '1899-12-30';

/**
 * An ISO cell (`t="d"`, what Excel's Strict save writes for every date-formatted number) as the
 * Transitional save's serial under the same style reads: a day without its midnight under a date
 * format, a time of day alone under a time format, serial 0 (`1899-12-30`) ZERO_DATE, and an ISO
 * 8601 duration (`PT0H11M0.000S`, an elapsed-time format's value) its number of days. Undefined
 * for a duration too large for a number.
 */
export function isoCell(stored: string, kind: NumberKind): { text: string; duration: boolean } | undefined {
  if (stored.charCodeAt(0) === 80 /* P */ || stored.startsWith('-P')) {
    const days = durationDays(stored);
    if (days !== undefined) {
      const text = numberText(String(days));
      return text === undefined ? undefined : { text, duration: true };
    }
  }
  const iso = isoText(stored);
  if (kind === NumberKind.plain || iso.length < 10 || !iso.startsWith(DAY_ZERO)) {
    return { text: kind === NumberKind.date && iso.endsWith('T00:00:00') ? iso.slice(0, 10) : iso, duration: false };
  }
  const clock = iso.length > 11 ? iso.slice(11) : '00:00:00';
  if (kind === NumberKind.time) return { text: clock, duration: false };
  return { text: clock === '00:00:00' ? ZERO_DATE : iso, duration: false };
}

/** An ISO 8601 duration of days, hours, minutes and seconds as a number of days. */
function durationDays(stored: string): number | undefined {
  const m = DURATION.exec(stored);
  if (!m || stored.endsWith('T') || stored.endsWith('P')) return undefined;
  const [, sign, d = '0', h = '0', min = '0', s = '0'] = m;
  const days = Number(d) + Number(h) / 24 + Number(min) / 1440 + Number(s) / 86_400;
  return Number.isFinite(days) ? (sign ? -days : days) : undefined;
}
const DURATION = /^(-)?P(?:(\d+(?:\.\d+)?)D)?(?:T(?:(\d+(?:\.\d+)?)H)?(?:(\d+(?:\.\d+)?)M)?(?:(\d+(?:\.\d+)?)S)?)?$/;

/**
 * An ISO cell (`t="d"`) as a serial date would be read: to the second (rounded, as serials are),
 * without the `Z` Excel writes after a wall time; any other text is kept as written.
 */
function isoText(stored: string): string {
  const m = ISO_CELL.exec(stored);
  if (!m || (m[1] === undefined && m[2] === undefined)) return stored.replace(/Z$/, '');
  const [, day = '', time = '', fraction = ''] = m;
  if (fraction === '' || fraction < '.5') return time === '' ? day : day ? `${day}T${time}` : time;
  // half a second or more: one second later, carried into the minute, hour and day
  const ms = Date.parse(`${day || '1970-01-01'}T${time}Z`) + 1000;
  const iso = new Date(ms).toISOString().slice(0, 19);
  return day ? iso : iso.slice(11);
}
const ISO_CELL = /^(?:(\d{4}-\d\d-\d\d)(?:T|$))?(?:(\d\d:\d\d:\d\d)(\.\d+)?)?Z?$/;

function isoDay(ms: number): string {
  const d = new Date(ms);
  return `${pad(d.getUTCFullYear(), 4)}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())}`;
}

/**
 * A cell reference's column (0-based: `B12` → 1) when it is one — one to three letters up to XFD
 * (lower case as some writers write them: `a1`), then exactly `line`, its row's number —; -1 when
 * it is malformed (`A0`, `A02`, `B`, past XFD), -2 when it is well formed but names another row,
 * -3 when it is digits alone: a column index (`r="0"`, a trading platform's export), which names
 * no cell in A1 style, so the cell is placed by its position. One pass of character codes: it runs
 * for every cell of the sheet.
 */
export function refColumn(ref: string, line: number): number {
  const length = ref.length;
  let n = 0;
  let i = 0;
  for (; i < length; i++) {
    let c = ref.charCodeAt(i);
    if (c >= 97 && c <= 122) c -= 32;
    if (c < 65 || c > 90) break;
    n = n * 26 + c - 64;
  }
  if (i === 0 && DIGITS.test(ref)) return -3;
  if (i === 0 || i > 3 || n > 16_384 || i === length || ref.charCodeAt(i) === 48) return -1;
  let row = 0;
  for (; i < length; i++) {
    const c = ref.charCodeAt(i);
    if (c < 48 || c > 57) return -1;
    row = row * 10 + c - 48;
  }
  if (row > MAX_ROW) return -1;
  return row === line ? n - 1 : -2;
}
const MAX_ROW = 1_048_576;
const DIGITS = /^\d+$/;

/** 0 → `A`, 27 → `AB`. */
export function columnLetter(index: number): string {
  let n = index + 1;
  let s = '';
  while (n > 0) {
    const r = (n - 1) % 26;
    s = String.fromCharCode(65 + r) + s;
    n = Math.floor((n - 1) / 26);
  }
  return s;
}
