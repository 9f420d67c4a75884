// Spreadsheets run a cell as a formula when it starts with = + - @ (and some with tab, CR, LF or the
// full-width forms). The errors CSV is opened in a spreadsheet by design, and its cells come from
// exports and server messages we do not control, so such cells get a leading apostrophe (OWASP's
// advice). Pure numbers are left as they are: `-12.5` is an amount, not a formula, and prefixing it
// would make the row invalid when the file is fed back. The change is reversible with restoreCell.

const TRIGGER = /^[=+\-@\t\r\n\uFF1D\uFF0B\uFF0D\uFF20]/;
/** `-12.5`, `+3`, `-1,5`, `1e-3`: numbers a spreadsheet reads as numbers, never as formulas. */
const PURE_NUMBER = /^[+-]?(?:\d+(?:[.,]\d+)?|[.,]\d+)(?:[eE][+-]?\d+)?$/;

/** True when a spreadsheet could run the cell. */
export function isFormulaLike(cell: string): boolean {
  return TRIGGER.test(cell) && !PURE_NUMBER.test(cell);
}

/**
 * `=SUM(A1)` → `'=SUM(A1)`. A cell that already starts with apostrophes before a trigger gets one more,
 * so restoreCell can tell our prefix from the user's own text.
 */
export function neutraliseCell(cell: string): string {
  const body = cell.replace(/^'+/, '');
  return isFormulaLike(body) ? `'${cell}` : cell;
}

/** The inverse of neutraliseCell, for readers of an errors CSV fed back to push. */
export function restoreCell(cell: string): string {
  const body = cell.replace(/^'+/, '');
  return cell.startsWith("'") && isFormulaLike(body) ? cell.slice(1) : cell;
}
