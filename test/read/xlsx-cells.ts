// Every worksheet of a workbook as batch-sync's reader reads its cells, before any header or
// mapping: for comparing with other readers cell by cell (outside-xlsx.test.ts).
import { DEFAULT_MAX_RECORD_BYTES } from '../../src/read/types.js';
import { columnLetter } from '../../src/read/xlsx/cell-value.js';
import { readMergedRanges } from '../../src/read/xlsx/merged-ranges.js';
import { readError, readWorkbook } from '../../src/read/xlsx/read-xlsx.js';
import { sheetRows } from '../../src/read/xlsx/sheet-rows.js';
import { openWorkbookZip } from '../../src/read/xlsx/workbook-zip.js';

const TYPE: Record<string, string> = { s: 's', n: 'n', d: 'd', b: 'b' };

export interface WorkbookCells {
  /** Each worksheet: its cells as [A1, type letter, text]; a row's problem as [`row N`, 'problem', text]. */
  sheets: { name: string; cells: [string, string, string][] }[];
}

export async function readWorkbookCells(file: string): Promise<WorkbookCells> {
  const zip = await openWorkbookZip(file);
  try {
    const { sheets: entries, ctx } = await readWorkbook(file, zip, DEFAULT_MAX_RECORD_BYTES);
    const sheets: WorkbookCells['sheets'] = [];
    for (const sheet of entries) {
      if (!sheet.part) continue;
      const cells: [string, string, string][] = [];
      // a value under a merged range (not its top-left cell) is empty, as Excel shows it and openpyxl reads it
      const merges = await readMergedRanges(await zip.stream(sheet.part));
      for await (const row of sheetRows(await zip.stream(sheet.part), ctx, merges)) {
        row.cells.forEach((text, i) => {
          if (text !== '') cells.push([`${columnLetter(i)}${row.line}`, TYPE[row.types[i]!] ?? '?', text]);
        });
        // a formula without its stored value is absent in every reader; any other problem is compared
        if (row.problem && !row.problem.includes('a formula without a stored value')) cells.push([`row ${row.line}`, 'problem', row.problem]);
        if (row.beyond) cells.push([`row ${row.line}`, 'problem', `beyond ${row.beyond}`]);
      }
      sheets.push({ name: sheet.name, cells });
    }
    return { sheets };
  } catch (err) {
    // as openXlsx says it: broken XML, a part too long, a damaged archive
    throw readError(file, err);
  } finally {
    zip.close();
  }
}
