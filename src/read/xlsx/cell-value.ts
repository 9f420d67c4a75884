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
 * would show (negative, past 9999-12-31).
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
  let day: string;
  if (date1904) day = isoDay(EPOCH_1904 + days * DAY_MS);
  // Excel's 1900 system counts 1900-02-29, a day that never was (Lotus 1-2-3's bug, kept): serials
  // below 60 are one day later than the epoch 1899-12-30 gives, and 60 itself is that day
  else if (days === 60) day = '1900-02-29';
  else day = isoDay(EPOCH_1900 + (days < 60 ? days + 1 : days) * DAY_MS);
  // a time format on a day or more (a formula's 24:00, a date-time shown as its time) keeps both
  return seconds === 0 && kind === NumberKind.date ? day : `${day}T${clock}`;
}

/**
 * An ISO cell (`t="d"`) as a serial date would be read: to the second (rounded, as serials are),
 * without the `Z` Excel writes after a wall time; any other text is kept as written.
 */
export function isoText(stored: string): string {
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
 * A cell reference's column (0-based: `B12` → 1) when it is one — one to three capital letters up to
 * XFD, then exactly `line`, its row's number —; -1 when it is malformed (`a2`, `A0`, `A02`, `B`,
 * past XFD), -2 when it is well formed but names another row. One pass of character codes: it runs
 * for every cell of the sheet.
 */
export function refColumn(ref: string, line: number): number {
  const length = ref.length;
  let n = 0;
  let i = 0;
  for (; i < length; i++) {
    const c = ref.charCodeAt(i);
    if (c < 65 || c > 90) break;
    n = n * 26 + c - 64;
  }
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
