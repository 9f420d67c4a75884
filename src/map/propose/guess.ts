// What a sample of a column's cells says about it: a date format (or that DD/MM and MM/DD both fit),
// the decimal mark, and a custom-field type. Pure functions over strings.
import type { DateFormat } from '../transforms/dates.js';
import { parseDecimal, type DecimalMark } from '../transforms/numbers.js';
import { parseBoolean } from '../transforms/text.js';

const ISO = /^\d{4}-\d{1,2}-\d{1,2}(?:[T ]\d{1,2}:\d{2}(?::\d{2}(?:\.\d+)?)?\s*(?:Z|[+-]\d{2}:?\d{2})?)?$/i;
const NUMERIC = /^(\d{1,2})([/.-])(\d{1,2})\2(\d{4})(?:[ T,]+\d{1,2}:\d{2}(?::\d{2})?\s*(?:[AaPp][Mm])?)?$/;

export type DateGuess = { format: DateFormat; hasTime: boolean } | { ambiguous: true; hasTime: boolean } | undefined;

/** undefined when the cells are not all dates. */
export function guessDateFormat(values: readonly string[]): DateGuess {
  if (!values.length) return undefined;
  const hasTime = values.some((v) => /\d:\d{2}/.test(v));
  if (values.every((v) => ISO.test(v))) return { format: 'YYYY-MM-DD', hasTime };
  const numeric: RegExpExecArray[] = [];
  for (const v of values) {
    const m = NUMERIC.exec(v);
    if (m) numeric.push(m);
    else if (!ISO.test(v)) return undefined;
  }
  if (!numeric.length) return undefined;
  const firstOver12 = numeric.some((p) => Number(p[1]) > 12);
  const secondOver12 = numeric.some((p) => Number(p[3]) > 12);
  const sep = numeric[0]![2];
  if (firstOver12 && secondOver12) return undefined; // not one consistent format
  if (secondOver12) return { format: 'MM/DD/YYYY', hasTime };
  const dayFirst: DateFormat = sep === '.' ? 'DD.MM.YYYY' : sep === '-' ? 'DD-MM-YYYY' : 'DD/MM/YYYY';
  if (firstOver12) return { format: dayFirst, hasTime };
  // dotted dates are day-first wherever they are written
  return sep === '.' ? { format: dayFirst, hasTime } : { ambiguous: true, hasTime };
}

/** The decimal mark of a file's numbers: from the values that read as numbers either way and are not dates. */
export function guessFileDecimal(values: readonly string[]): DecimalMark | undefined {
  return guessDecimal(values.filter((v) => !guessDateFormat([v]) && (parseDecimal(v, ',').ok || parseDecimal(v, '.').ok)));
}

/** The decimal mark the sample shows, when any value tells. */
function guessDecimal(values: readonly string[]): DecimalMark | undefined {
  let comma = 0;
  let dot = 0;
  for (const v of values) {
    const lastComma = v.lastIndexOf(',');
    const lastDot = v.lastIndexOf('.');
    if (lastComma >= 0 && lastDot >= 0) lastComma > lastDot ? comma++ : dot++;
    else if (lastComma >= 0 || lastDot >= 0) {
      const mark = lastComma >= 0 ? ',' : '.';
      const repeated = v.indexOf(mark) !== v.lastIndexOf(mark);
      const after = v.length - v.lastIndexOf(mark) - 1 - (v.match(/[^\d]*$/)?.[0].length ?? 0);
      if (repeated) mark === ',' ? dot++ : comma++;
      else if (after !== 3) mark === ',' ? comma++ : dot++;
    }
  }
  if (comma && !dot) return ',';
  if (dot && !comma) return '.';
  return undefined;
}

export type CellType = 'string' | 'number' | 'boolean';

/** Boolean when every cell is a yes/no word, number when every cell parses (and none looks like an id with leading zeros). */
export function guessType(values: readonly string[], decimal: DecimalMark | undefined): CellType {
  if (!values.length) return 'string';
  if (values.every((v) => parseBoolean(v) !== undefined) && values.some((v) => !/^\d$/.test(v.trim()))) return 'boolean';
  const numeric = values.every((v) => !/^0\d/.test(v.trim()) && parseDecimal(v, decimal ?? 'auto').ok);
  return numeric ? 'number' : 'string';
}
