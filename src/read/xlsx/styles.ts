// Which cell styles are dates (styles.xml): a cell's `s` is an index into cellXfs, whose numFmtId is
// a built-in format or one of the custom numFmts. Only the numFmts of the style sheet's own list
// count: a differential format (`<dxf>`, what conditional formatting and tables apply on top) may
// carry a numFmt of the same id, which is no cell's format.
import { readXml } from './xml-stream.js';
import type { WorkbookZip } from './workbook-zip.js';

const SMALL_PART_BYTES = 64 * 1024 * 1024;
const SMALL_TEXT = 1024 * 1024;

/** What a cell style makes of a number: nothing, a date (maybe with a time), or a time of day only. */
export const NumberKind = { plain: 0, date: 1, dateTime: 2, time: 3 } as const;
export type NumberKind = (typeof NumberKind)[keyof typeof NumberKind];

// Excel's built-in date and time formats (ECMA-376 part 1, 18.8.30; 50–58 are the East Asian ones);
// 46, `[h]:mm:ss`, is elapsed time: a duration, read as the number as a custom `[h]:mm` is
const BUILT_IN: Record<number, NumberKind> = { 14: 1, 15: 1, 16: 1, 17: 1, 18: 3, 19: 3, 20: 3, 21: 3, 22: 2, 45: 3, 47: 3 };
for (let id = 27; id <= 36; id++) BUILT_IN[id] = NumberKind.date;
for (let id = 50; id <= 58; id++) BUILT_IN[id] = NumberKind.date;
/**
 * Added to a style's NumberKind when its format is one of the East Asian built-ins (50–58) the
 * workbook does not declare: Excel shows a date there only in an East Asian locale (openpyxl reads
 * the number; MiniExcel and excel-streaming-reader a date, as batch-sync does), so the reader says so.
 */
export const UNDECLARED_EAST_ASIAN = 16;

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

/** NumberKind per cell style index (`s` of a cell), from the styles part's cellXfs and numFmts (plus UNDECLARED_EAST_ASIAN). */
export async function readStyles(zip: WorkbookZip, part: string | undefined): Promise<Uint8Array> {
  if (part === undefined) return new Uint8Array(0);
  const custom = new Map<number, NumberKind>();
  const styles: number[] = [];
  let inCellXfs = false;
  let inNumFmts = false;
  await readXml(
    await zip.stream(part, SMALL_PART_BYTES),
    {
      open(name, a) {
        if (name === 'numFmt' && inNumFmts) custom.set(Number(a.numFmtId), formatKind(a.formatCode ?? ''));
        else if (name === 'numFmts') inNumFmts = true;
        else if (name === 'cellXfs') inCellXfs = true;
        else if (name === 'xf' && inCellXfs) styles.push(Number(a.numFmtId ?? 0));
      },
      close(name) {
        if (name === 'cellXfs') inCellXfs = false;
        else if (name === 'numFmts') inNumFmts = false;
      },
    },
    SMALL_TEXT,
  );
  return Uint8Array.from(
    styles,
    (id) => custom.get(id) ?? (id >= 50 && id <= 58 ? NumberKind.date | UNDECLARED_EAST_ASIAN : (BUILT_IN[id] ?? NumberKind.plain)),
  );
}
