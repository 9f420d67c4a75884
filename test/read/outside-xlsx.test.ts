// Other readers' public test workbooks (fixtures/outside/xlsx/: calamine and SheetJS test_files),
// every cell of every worksheet read by batch-sync's reader and compared with what their authors
// expect: openpyxl's reading (openpyxl.json, written by make.py), corrected by hand where openpyxl
// is wrong or the project's own tests state the value (expectations.json › corrections, each with
// its source). Where batch-sync reads a cell differently on purpose, or refuses a workbook, the
// reason is in expectations.json › differences and refused, and in docs/reading-exports.md; an entry that no
// longer applies fails the test too. Then each workbook as a user's run reads it, through openSource:
// the sheet chosen, the header found, each record's cells and types against the same expectations;
// and a Transitional and a Strict save of one workbook must read the same.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { InputError } from '../../src/errors.js';
import { openSource } from '../../src/read/open.js';
import type { OpenedSource, ReaderOptions, SourceRecord } from '../../src/read/types.js';
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

/** A source's records, or the one-line InputError it gives. */
async function userRead(file: string, options: ReaderOptions = {}): Promise<{ source: OpenedSource; records: SourceRecord[] } | InputError> {
  try {
    const source = await openSource(file, options);
    const records: SourceRecord[] = [];
    for await (const r of source.records) records.push(r);
    return { source, records };
  } catch (err) {
    if (err instanceof InputError) return err;
    throw err;
  }
}

/** Transitional and Strict saves of one workbook in the suite. */
const PAIRS: [string, string][] = [['sheetjs/sheet_visibility.xlsx', 'sheetjs/sheet_visibility_strict.xlsx']];

const userCounts = { cells: 0, refused: [] as string[] };
const readable = workbooks.filter((key) => !(key in expectations.refused));

describe('outside workbooks as a user reads them (openSource: sheet choice, header, records, types)', () => {
  it.each(readable)('%s', async (key) => {
    const got = await userRead(join(ROOT, key));
    const want = expected(key);
    for (const [ref, cell] of Object.entries(expectations.differences[key]?.cells ?? {})) {
      if (cell === null) want.delete(ref);
      else want.set(ref, normal(cell));
    }
    // the sheet to choose: the first visible one holding a value
    const refs = [...want.keys()];
    const visible = (openpyxl[key]?.sheets ?? []).filter((sh) => sh.state === 'visible' && refs.some((ref) => ref.startsWith(`${sh.name}!`)));
    if (got instanceof InputError) {
      userCounts.refused.push(`${key}: ${got.message}`);
      // a workbook read cell by cell may still be no table: its refusal is one line naming the file
      expect(got.message.split('\n')).toHaveLength(1);
      expect(got.message).toContain(key.split('/')[1]);
      if (got.message.includes('no sheet holds any data')) expect(visible).toEqual([]);
      return;
    }
    const { source, records } = got;
    if (visible.length > 0) expect(source.detected?.sheet).toBe(visible[0]!.name);
    const sheet = source.detected!.sheet!;
    const letters = source.columnLetters!;
    const headerRow = source.detected!.headerRow!;
    (source.header ?? []).forEach((name, i) => {
      const cell = want.get(`${sheet}!${letters[i]}${headerRow}`);
      const text = cell === undefined ? '' : cell.slice(2).trim();
      // an empty name is called column_N; a repeated one Name (2); dates and numbers are their text
      if (text === '') expect(name).toMatch(/^column_\d+/);
      else expect(name === text || name.startsWith(`${text} (`) || name.replace(/\s+/g, ' ') === text.replace(/\s+/g, ' '), `${name} / ${text}`).toBe(true);
    });
    const wrong: string[] = [];
    for (const r of records) {
      if (r.kind !== 'row') continue;
      userCounts.cells += r.cells!.length;
      const types = (r as { types?: string }).types ?? '';
      r.cells!.forEach((text, i) => {
        const ref = `${sheet}!${letters[i]}${r.line}`;
        const [w, a] = [want.get(ref), text === '' ? undefined : normal([types[i]!, text])];
        if (w !== a && !(w && a && near(w, a))) wrong.push(`${ref}: expected ${JSON.stringify(w)}, read ${JSON.stringify(a)}`);
      });
    }
    expect(wrong.slice(0, 20), `${wrong.length} cells differ`).toEqual([]);
  });

  it.each(PAIRS)('%s and its Strict save %s read the same, sheet by sheet', async (transitional, strict) => {
    for (const sheet of openpyxl[transitional]!.sheets!.filter((sh) => sh.cells.length > 0)) {
      const [a, b] = await Promise.all([userRead(join(ROOT, transitional), { sheet: sheet.name }), userRead(join(ROOT, strict), { sheet: sheet.name })]);
      if (a instanceof InputError || b instanceof InputError) throw a instanceof InputError ? a : b;
      expect(b.source.header).toEqual(a.source.header);
      expect(b.source.detected).toEqual(a.source.detected);
      const rows = (x: typeof a) => x.records.map((r) => [r.line, r.kind, ...(r.kind === 'row' ? r.cells! : []), (r as { types?: string }).types]);
      expect(rows(b)).toEqual(rows(a));
      expect(rows(a).length).toBeGreaterThan(0);
    }
  });

  it('reads most of them as tables, every cell of their rows compared', () => {
    console.log(
      `through openSource: ${readable.length - userCounts.refused.length} read, ${userCounts.cells} cells compared; no table in ${userCounts.refused.length}:\n${userCounts.refused.join('\n')}`,
    );
    expect(readable.length - userCounts.refused.length).toBeGreaterThan(140);
    expect(userCounts.cells).toBeGreaterThan(10_000);
  });
});
