// Other readers' public test workbooks (fixtures/outside/xlsx/: calamine and SheetJS test_files),
// every cell of every worksheet read by batch-sync's reader and compared with what their authors
// expect: openpyxl's reading (openpyxl.json, written by make.py), corrected by hand where openpyxl
// is wrong or the project's own tests state the value (expectations.json › corrections, each with
// its source). Where batch-sync reads a cell differently on purpose, or refuses a workbook, the
// reason is in expectations.json › differences and refused, and in docs/reading-exports.md; an entry that no
// longer applies fails the test too.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { InputError } from '../../src/errors.js';
import { readWorkbookCells } from './xlsx-cells.js';

const ROOT = join(import.meta.dirname, '../../fixtures/outside/xlsx');
const json = <T>(name: string): T => JSON.parse(readFileSync(join(ROOT, name), 'utf8')) as T;

type Cell = [type: string, text: string, serial?: string];
interface Reading {
  date1904?: boolean;
  sheets?: { name: string; state: string; cells: [string, string, string, string?][] }[];
  openpyxlError?: string;
}
interface Expectations {
  corrections: Record<string, { cells?: Record<string, Cell | null>; asDate?: string; by: string; why: string; readable?: boolean }>;
  differences: Record<string, { cells: Record<string, Cell | null>; why: string }>;
  refused: Record<string, { message: string; why: string }>;
}

const openpyxl = json<Record<string, Reading>>('openpyxl.json');
const expectations = json<Expectations>('expectations.json');
const workbooks = ['calamine', 'sheetjs', 'excelize', 'exceljs'].flatMap((dir) =>
  readdirSync(join(ROOT, dir))
    .filter((f) => /\.xls[xm]$/.test(f))
    .map((f) => `${dir}/${f}`),
);

/**
 * A cell as compared: an error value is text to batch-sync, a whole-day date its day, and a date
 * openpyxl makes of a negative serial (before 1899-12-30, which Excel shows as ####) the number.
 */
function normal([type, text, serial]: Cell): string {
  if (type === 'd' && serial?.startsWith('-')) return `n ${serial}`;
  if (type === 'd' && /^\d{4}-\d\d-\d\dT00:00:00$/.test(text)) return `d ${text.slice(0, 10)}`;
  return `${type === 'e' ? 's' : type} ${text}`;
}

/** The cells the authors expect, "Sheet!A1" → "type text". */
function expected(key: string): Map<string, string> {
  const cells = new Map<string, string>();
  for (const sheet of openpyxl[key]?.sheets ?? [])
    for (const [ref, type, text, serial] of sheet.cells) cells.set(`${sheet.name}!${ref}`, normal([type, text, serial]));
  const asDate = expectations.corrections[key]?.asDate;
  if (asDate) {
    const pattern = new RegExp(asDate);
    const matched = [...cells.keys()].filter((ref) => pattern.test(ref) && cells.get(ref)!.startsWith('n '));
    expect(matched.length, `${key}: asDate matches no cell`).toBeGreaterThan(0);
    for (const ref of matched) cells.set(ref, `d ${serialDate(Number(cells.get(ref)!.slice(2)))}`);
  }
  for (const [ref, cell] of Object.entries(expectations.corrections[key]?.cells ?? {})) {
    if (cell === null) cells.delete(ref);
    else cells.set(ref, normal(cell));
  }
  return cells;
}

/**
 * A 1900-system serial as the date-time it is (for numbers openpyxl did not take for dates), by
 * Date arithmetic of its own: day 1 is 1900-01-01 and Excel counts a 1900-02-29 (serial 60).
 */
function serialDate(serial: number): string {
  const days = Math.floor(serial);
  const ms = Date.UTC(1899, 11, 30) + (days < 60 ? days + 1 : days) * 86_400_000 + Math.round((serial - days) * 86_400) * 1000;
  const iso = new Date(ms).toISOString().slice(0, 19);
  return iso.endsWith('T00:00:00') ? iso.slice(0, 10) : iso;
}

function near(a: string, b: string): boolean {
  const [ta, va] = [a.slice(0, 2), Number(a.slice(3))];
  return ta === 'n~' && b.startsWith('n ') && Math.abs(va - Number(b.slice(2))) < 1e-9;
}

const counts = { identical: 0, differences: 0, refused: 0 };

describe('outside workbooks, cell by cell (fixtures/outside/xlsx)', () => {
  it('has every workbook, and an expectation for each', () => {
    expect(workbooks.length).toBeGreaterThan(160);
    for (const key of workbooks) {
      const known = openpyxl[key]?.sheets !== undefined || expectations.corrections[key]?.readable === true || key in expectations.refused;
      expect(known, key).toBe(true);
    }
  });

  it.each(workbooks)('%s', async (key) => {
    const got = await readWorkbookCells(join(ROOT, key)).catch((err: unknown) => {
      if (!(err instanceof InputError)) throw err;
      return err;
    });
    const refusal = expectations.refused[key];
    if (got instanceof InputError) {
      expect(refusal, `refused: ${got.message}`).toBeDefined();
      expect(got.message).toContain(refusal!.message);
      expect(got.message.split('\n')).toHaveLength(1);
      counts.refused++;
      return;
    }
    expect(refusal, `${key} is listed as refused but was read`).toBeUndefined();
    const want = expected(key);
    const difference = expectations.differences[key];
    for (const [ref, cell] of Object.entries(difference?.cells ?? {})) {
      expect(want.has(ref) || cell !== null, `${key}: difference ${ref} names no expected cell`).toBe(true);
      if (cell === null) want.delete(ref);
      else want.set(ref, normal(cell));
    }
    const actual = new Map<string, string>();
    for (const sheet of got.sheets) for (const [ref, type, text] of sheet.cells) actual.set(`${sheet.name}!${ref}`, normal([type, text]));
    const wrong: string[] = [];
    for (const ref of new Set([...want.keys(), ...actual.keys()])) {
      const [w, a] = [want.get(ref), actual.get(ref)];
      if (w !== a && !(w && a && near(w, a))) wrong.push(`${ref}: expected ${JSON.stringify(w)}, read ${JSON.stringify(a)}`);
    }
    expect(wrong.slice(0, 20), `${wrong.length} cells differ`).toEqual([]);
    if (difference) counts.differences++;
    else counts.identical++;
  });

  it('the counts docs/reading-exports.md gives: read identically / read with listed differences / refused rightly', () => {
    console.log(`outside workbooks: ${counts.identical} identical, ${counts.differences} with listed differences, ${counts.refused} refused`);
    expect(counts.identical + counts.differences + counts.refused).toBe(workbooks.length);
    expect(Object.keys(expectations.differences).length).toBe(counts.differences);
  });
});
