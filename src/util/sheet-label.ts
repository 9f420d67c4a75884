// A workbook's rows are positioned by sheet as well as row: `cartera.xlsx[Ventas 2026]:45`. The
// reader gives a workbook of several worksheets' records this file label (a one-sheet workbook's
// rows keep the plain path), so every format that prints a row's file prints its sheet; what needs
// the file itself (an annotation's path, the errors file's name) takes the label apart here.

const LABEL = /^(.*\.(?:xlsx|xlsm|xlsb|xls|ods))\[([^[\]]*)\]$/i;

/** `cartera.xlsx` + `Ventas 2026` → `cartera.xlsx[Ventas 2026]`. */
export const sheetLabel = (file: string, sheet: string): string => `${file}[${sheet}]`;

/** A row's file label as the path and the sheet it names (none for a plain path). */
export function splitSheetLabel(file: string): { path: string; sheet?: string } {
  const m = LABEL.exec(file);
  return m ? { path: m[1]!, sheet: m[2]! } : { path: file };
}
