// Cell values that must never reach the API whatever the profile says: Excel's error values, and
// ids that Excel turned into numbers in scientific notation (the digits are already lost).

const EXCEL_ERRORS = new Set([
  '#N/A',
  '#VALUE!',
  '#REF!',
  '#DIV/0!',
  '#NAME?',
  '#NULL!',
  '#NUM!',
  '#SPILL!',
  '#CALC!',
  '#GETTING_DATA',
  '#N/D',
  '#¡VALOR!',
  '#¡REF!',
  '#¡DIV/0!',
  '#¿NOMBRE?',
  '#¡NULO!',
  '#¡NUM!',
  '#VALOR!',
  '#NOME?',
  '#NULO!',
]);
const SCIENTIFIC = /^[+-]?\d+(?:[.,]\d+)?E[+-]?\d+$/i;

/** The reason a cell is an Excel error value, or undefined. Only cells starting with `#` are looked up. */
export function excelError(cell: string): string | undefined {
  if (cell.charCodeAt(0) !== 35 /* # */) return undefined;
  const v = cell.trim().toUpperCase();
  return EXCEL_ERRORS.has(v) ? `"${cell.trim()}" is an Excel error value, not data; fix the formula in the spreadsheet and export again` : undefined;
}

/** The reason an id cell looks like `1.23E+11`, or undefined. */
export function scientificId(cell: string): string | undefined {
  return SCIENTIFIC.test(cell) ? `"${cell}" looks like Excel turned an id into a number; export the column as text` : undefined;
}

/** The reason a workbook's number cell cannot be an id: past 15 digits Excel has already lost the last ones. */
export function roundedId(cell: string): string | undefined {
  return /^-?\d{16,}$/.test(cell)
    ? `the number ${cell} is longer than the 15 digits Excel keeps (its last digits are lost); format the id column as text`
    : undefined;
}
