// What `inspect` says of each column of a sample: the type its values read as and a few examples.
// The same guesses `init` makes (guess.ts: date formats, the file's decimal mark, number or yes/no
// words); a workbook's typed cells say their type themselves. JSON items: their top-level keys.
import type { RowRecord } from '../../read/types.js';
import { guessDateFormat, guessFileDecimal, guessType } from './guess.js';

type ColumnType = 'text' | 'number' | 'boolean' | 'date' | 'object' | 'array' | 'mixed' | 'empty';

export interface ColumnInfo {
  name: string;
  /** A workbook's column letter. */
  letter?: string;
  type: ColumnType;
  /** How the values are written, when it matters: `DD/MM/YYYY`, `decimal comma`, `date cells`. */
  format?: string;
  /** Sampled records with a value in it. */
  filled: number;
  /** The first distinct values, up to EXAMPLES. */
  examples: string[];
}

const EXAMPLES = 3;
const TYPED: Record<string, { type: ColumnType; format?: string }> = {
  n: { type: 'number', format: 'number cells' },
  d: { type: 'date', format: 'date cells' },
  b: { type: 'boolean', format: 'boolean cells' },
};

function firstDistinct(values: readonly string[]): string[] {
  const out: string[] = [];
  for (const v of values) if (!out.includes(v) && out.push(v) === EXAMPLES) break;
  return out;
}

/** What the text of a column's values reads as, with the file's decimal mark. */
function textType(values: readonly string[], decimal: ',' | '.' | undefined): Pick<ColumnInfo, 'type' | 'format'> {
  const date = guessDateFormat(values);
  if (date) {
    const format = 'ambiguous' in date ? 'DD/MM/YYYY or MM/DD/YYYY' : date.format;
    return { type: 'date', format: date.hasTime ? `${format} with a time` : format };
  }
  const type = guessType(values, decimal);
  if (type === 'string') return { type: 'text' };
  if (type === 'number' && decimal) return { type, format: decimal === ',' ? 'decimal comma' : 'decimal point' };
  return { type };
}

/** The columns of a CSV file or a sheet, from the rows of a sample (unreadable records left out). */
export function describeColumns(header: readonly string[], rows: readonly RowRecord[], letters?: readonly string[]): ColumnInfo[] {
  const cell = (r: RowRecord, i: number) => (r.cells ? r.cells[i] : r.row[header[i]!]) ?? '';
  const valuesOf = header.map((_, i) => rows.map((r) => cell(r, i).trim()).filter((v) => v !== ''));
  const decimal = guessFileDecimal(valuesOf.flat());
  return header.map((name, i) => {
    const values = valuesOf[i]!;
    const letter = letters?.[i];
    const base = { name, ...(letter ? { letter } : {}), filled: values.length, examples: firstDistinct(values) };
    if (values.length === 0) return { ...base, type: 'empty' };
    // a workbook's cells typed alike say what they are; text cells (or a mix) are read as a CSV's
    const kinds = new Set(rows.filter((r) => r.types && cell(r, i).trim() !== '').map((r) => r.types![i]));
    const typed = kinds.size === 1 ? TYPED[[...kinds][0]!] : undefined;
    return { ...base, ...(typed ?? textType(values, decimal)) };
  });
}

const jsonType = (v: unknown): ColumnType =>
  v === null || v === undefined
    ? 'empty'
    : Array.isArray(v)
      ? 'array'
      : typeof v === 'object'
        ? 'object'
        : typeof v === 'number'
          ? 'number'
          : typeof v === 'boolean'
            ? 'boolean'
            : 'text';

/** The top-level keys of JSON items, in the order first seen, with the JSON type of their values. */
export function describeItems(items: readonly unknown[]): ColumnInfo[] {
  const byKey = new Map<string, unknown[]>();
  for (const item of items) {
    if (item === null || typeof item !== 'object' || Array.isArray(item)) continue;
    for (const [key, value] of Object.entries(item)) {
      let list = byKey.get(key);
      if (!list) byKey.set(key, (list = []));
      if (value !== null && value !== undefined) list.push(value);
    }
  }
  return [...byKey].map(([name, values]) => {
    const types = new Set(values.map(jsonType));
    const texts = values.map((v) => (typeof v === 'string' ? v : JSON.stringify(v)));
    const base = { name, filled: values.length, examples: firstDistinct(texts) };
    if (types.size === 0) return { ...base, type: 'empty' as const };
    if (types.size > 1) return { ...base, type: 'mixed' as const };
    const type = [...types][0]!;
    // strings that are all dates say so, as a CSV's cells do
    const date = type === 'text' ? guessDateFormat(texts) : undefined;
    if (date && !('ambiguous' in date)) return { ...base, type: 'date' as const, format: date.hasTime ? `${date.format} with a time` : date.format };
    return { ...base, type };
  });
}
