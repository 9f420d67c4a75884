// The header row becomes column names once per file, so rows only have to be zipped onto it.

import { listFirst, renamedList, uniqueNames } from '../repeated-names.js';
import type { SourceWarning } from '../types.js';

export interface Header {
  /** Column names, in order; rows are zipped onto these. */
  names: string[];
  /**
   * How many of the last columns have no name (a trailing delimiter): they are read as `column_N`
   * like a middle one, and a row may lack their cells (read as empty). Only a streamed read can
   * tell whether any row holds data there, so the reader warns at the first that does.
   */
  unnamedAtEnd: number;
}

// NBSP, narrow NBSP and figure space arrive from spreadsheets pasted out of web pages
const SPACES = /[\u00a0\u202f\u2007]/g;

export function normalizeHeaderName(raw: string): string {
  return raw.replace(SPACES, ' ').trim();
}

/** Case and accents folded, for the "differ only by case or accents" warning. */
function folded(name: string): string {
  return name.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase();
}

/**
 * `column(i)`: how a message names the i-th column (a workbook's by its letter). Repeated names are
 * read as `Name (2)`, `Name (3)` (read/repeated-names.ts), with one warning listing them.
 */
export function buildHeader(file: string, line: number, raw: string[], warnings: SourceWarning[], column = (i: number) => String(i + 1)): Header {
  const written = raw.map(normalizeHeaderName);
  let unnamedAtEnd = 0;
  while (unnamedAtEnd < written.length - 1 && written[written.length - 1 - unnamedAtEnd] === '') unnamedAtEnd++;
  const unnamed = (i: number) => written[i] === '';
  const { names, renamed } = uniqueNames(
    written.map((name, i) => name || `column_${i + 1}`),
    unnamed,
  );
  if (unnamedAtEnd > 0) {
    const first = names.length - unnamedAtEnd;
    // bounded: 100,000 trailing delimiters make one short line, not one naming each column
    const called = listFirst(unnamedAtEnd, (k) => `"${names[first + k]}"`);
    warnings.push({
      file,
      line,
      message: `the header ends with ${unnamedAtEnd === 1 ? 'an empty column' : `${unnamedAtEnd} empty columns`} (a trailing delimiter); read as ${called}, ignored while empty`,
    });
  }
  for (let i = 0; i < names.length - unnamedAtEnd; i++) {
    if (unnamed(i)) warnings.push({ file, line, message: `column ${column(i)} has no name in the header; called it "${names[i]}"` });
  }
  const repeats = renamed.filter((r) => !unnamed(r.index));
  if (repeats.length > 0) {
    const distinct = new Set(repeats.map((r) => r.from)).size;
    const list = renamedList(repeats, (r) => ` (column ${column(r.index)})`);
    warnings.push({
      file,
      line,
      message: `${distinct === 1 ? '1 column name repeats' : `${distinct} column names repeat`}; the later copies are read as ${list}: a profile names them so`,
    });
  }
  const loose = new Map<string, number>();
  for (let i = 0; i < names.length; i++) {
    if (unnamed(i) || names[i] !== written[i]) continue;
    const name = names[i]!;
    const key = folded(name);
    const similar = loose.get(key);
    if (similar !== undefined) {
      warnings.push({
        file,
        line,
        message: `columns "${names[similar]}" (${column(similar)}) and "${name}" (${column(i)}) differ only by case or accents; kept as two columns`,
      });
    } else loose.set(key, i);
  }
  return { names, unnamedAtEnd };
}
