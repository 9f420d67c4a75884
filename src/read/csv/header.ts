// The header row becomes column names once per file, so rows only have to be zipped onto it.

import { InputError } from '../../errors.js';
import { at } from '../file-errors.js';
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

export function buildHeader(file: string, line: number, raw: string[], warnings: SourceWarning[]): Header {
  const names = raw.map(normalizeHeaderName);
  let unnamedAtEnd = 0;
  while (unnamedAtEnd < names.length - 1 && names[names.length - 1 - unnamedAtEnd] === '') unnamedAtEnd++;
  if (unnamedAtEnd > 0) {
    const first = names.length - unnamedAtEnd;
    const called = names
      .slice(first)
      .map((_, k) => `"column_${first + k + 1}"`)
      .join(', ');
    warnings.push({
      file,
      line,
      message: `the header ends with ${unnamedAtEnd === 1 ? 'an empty column' : `${unnamedAtEnd} empty columns`} (a trailing delimiter); read as ${called}, ignored while empty`,
    });
  }
  for (let i = 0; i < names.length; i++) {
    if (names[i] === '') {
      names[i] = `column_${i + 1}`;
      if (i >= names.length - unnamedAtEnd) continue;
      warnings.push({ file, line, message: `column ${i + 1} has no name in the header; called it "column_${i + 1}"` });
    }
  }
  const exact = new Map<string, number>();
  const loose = new Map<string, number>();
  for (let i = 0; i < names.length; i++) {
    const name = names[i]!;
    const same = exact.get(name);
    if (same !== undefined) {
      const asWritten = raw[same] === raw[i] ? '' : ` (written ${JSON.stringify(raw[same])} and ${JSON.stringify(raw[i])})`;
      throw new InputError(`${at(file, line)}: duplicate column "${name}" at positions ${same + 1} and ${i + 1}${asWritten}`, {
        suggestion: 'Rename or remove one of them: each column must have its own name.',
      });
    }
    exact.set(name, i);
    const key = folded(name);
    const similar = loose.get(key);
    if (similar !== undefined) {
      warnings.push({
        file,
        line,
        message: `columns "${names[similar]}" (${similar + 1}) and "${name}" (${i + 1}) differ only by case or accents; kept as two columns`,
      });
    } else loose.set(key, i);
  }
  return { names, unnamedAtEnd };
}
