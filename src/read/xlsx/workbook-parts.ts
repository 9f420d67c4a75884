// The small parts that say how to read a sheet: the sheets in workbook order and where each is
// stored (workbook.xml and its relationships), the date system, and which cell styles are dates
// (styles.xml).
import { posix } from 'node:path';
import { readXml } from './xml-stream.js';
import type { WorkbookZip } from './workbook-zip.js';

export interface SheetEntry {
  name: string;
  /** The part that holds it, e.g. `xl/worksheets/sheet1.xml`; undefined for a chart sheet. */
  part: string | undefined;
  /** Hidden in Excel (`hidden` or `veryHidden`): never read unless --sheet names it. */
  hidden: boolean;
}

export interface WorkbookInfo {
  sheets: SheetEntry[];
  /** The 1904 date system (Excel for Mac before 2011): serial 0 is 1904-01-01. */
  date1904: boolean;
}

const SMALL_PART_BYTES = 64 * 1024 * 1024;
const SMALL_TEXT = 1024 * 1024;

export async function readWorkbookInfo(zip: WorkbookZip): Promise<WorkbookInfo> {
  const listed: { name: string; rid: string; hidden: boolean }[] = [];
  let date1904 = false;
  await readXml(
    await zip.stream('xl/workbook.xml', SMALL_PART_BYTES),
    {
      open(name, a) {
        if (name === 'sheet') listed.push({ name: a.name ?? '', rid: a['r:id'] ?? relId(a) ?? '', hidden: a.state === 'hidden' || a.state === 'veryHidden' });
        else if (name === 'workbookPr') date1904 = a.date1904 === '1' || a.date1904 === 'true';
      },
    },
    SMALL_TEXT,
  );
  const targets = new Map<string, { target: string; type: string }>();
  if (zip.has('xl/_rels/workbook.xml.rels')) {
    await readXml(
      await zip.stream('xl/_rels/workbook.xml.rels', SMALL_PART_BYTES),
      {
        open(name, a) {
          if (name === 'Relationship' && a.Id && a.Target) targets.set(a.Id, { target: a.Target, type: a.Type ?? '' });
        },
      },
      SMALL_TEXT,
    );
  }
  const sheets = listed.map(({ name, rid, hidden }): SheetEntry => {
    const rel = targets.get(rid);
    if (!rel?.type.endsWith('/worksheet')) return { name, part: undefined, hidden };
    // targets are relative to xl/, or absolute from the archive's root
    const part = rel.target.startsWith('/') ? rel.target.slice(1) : posix.normalize(posix.join('xl', rel.target));
    return { name, part, hidden };
  });
  return { sheets, date1904 };
}

/** The relationship id attribute under whatever prefix the writer bound the namespace to. */
function relId(a: Record<string, string>): string | undefined {
  for (const [k, v] of Object.entries(a)) if (k.endsWith(':id')) return v;
  return undefined;
}

/** What a cell style makes of a number: nothing, a date (maybe with a time), or a time of day only. */
export const NumberKind = { plain: 0, date: 1, dateTime: 2, time: 3 } as const;
export type NumberKind = (typeof NumberKind)[keyof typeof NumberKind];

// Excel's built-in date and time formats (ECMA-376 part 1, 18.8.30; 50–58 are the East Asian ones)
const BUILT_IN: Record<number, NumberKind> = { 14: 1, 15: 1, 16: 1, 17: 1, 18: 3, 19: 3, 20: 3, 21: 3, 22: 2, 45: 3, 46: 3, 47: 3 };
for (let id = 27; id <= 36; id++) BUILT_IN[id] = NumberKind.date;
for (let id = 50; id <= 58; id++) BUILT_IN[id] = NumberKind.date;

/** A format code's kind: its first section without quoted text, escapes, fill and colour brackets. */
export function formatKind(code: string): NumberKind {
  const section = code.split(';')[0] ?? '';
  const bare = section
    .replace(/"[^"]*"/g, '')
    .replace(/\\./g, '')
    .replace(/[_*]./g, '')
    .replace(/\[(?![hms]+\])[^\]]*\]/gi, '');
  // elapsed time ([h]:mm) is a duration, not a moment: it stays a number
  if (/\[[hms]+\]/i.test(bare)) return NumberKind.plain;
  const time = /[hs]/i.test(bare) || /AM\/PM|A\/P/i.test(bare);
  const date = /[yd]/i.test(bare) || (!time && /m/i.test(bare));
  if (date) return time ? NumberKind.dateTime : NumberKind.date;
  return time ? NumberKind.time : NumberKind.plain;
}

/** NumberKind per cell style index (`s` of a cell), from styles.xml's cellXfs and numFmts. */
export async function readStyles(zip: WorkbookZip): Promise<Uint8Array> {
  if (!zip.has('xl/styles.xml')) return new Uint8Array(0);
  const custom = new Map<number, NumberKind>();
  const styles: number[] = [];
  let inCellXfs = false;
  await readXml(
    await zip.stream('xl/styles.xml', SMALL_PART_BYTES),
    {
      open(name, a) {
        if (name === 'numFmt') custom.set(Number(a.numFmtId), formatKind(a.formatCode ?? ''));
        else if (name === 'cellXfs') inCellXfs = true;
        else if (name === 'xf' && inCellXfs) styles.push(Number(a.numFmtId ?? 0));
      },
      close(name) {
        if (name === 'cellXfs') inCellXfs = false;
      },
    },
    SMALL_TEXT,
  );
  return Uint8Array.from(styles, (id) => custom.get(id) ?? BUILT_IN[id] ?? NumberKind.plain);
}
