// Test helpers: RowRecords from CSV text or files without depending on src/read (written in parallel).
import { readFileSync } from 'node:fs';
import { parse } from 'csv-parse/sync';
import iconv from 'iconv-lite';
import { itemSchema } from '../../src/contract/items.js';
import type { Method, Resource } from '../../src/contract/resources.js';
import { toFieldProblems } from '../../src/contract/issues.js';
import type { RowRecord } from '../../src/read/types.js';

export function rowsFromCsv(text: string, file = 'test.csv', delimiter = ','): { header: string[]; records: RowRecord[] } {
  const lines = parse(text.replace(/^\uFEFF/, ''), { delimiter, relax_column_count: false, skip_empty_lines: true, bom: true }) as string[][];
  const [header = [], ...body] = lines;
  const records = body.map((cells, i) => {
    const row = Object.create(null) as Record<string, string>;
    header.forEach((h, j) => {
      row[h] = cells[j] ?? '';
    });
    return { kind: 'row' as const, file, line: i + 2, row };
  });
  return { header, records };
}

export function rowsFromFile(path: string, opts: { delimiter?: string; encoding?: string } = {}) {
  const buf = readFileSync(path);
  const text = iconv.decode(buf, opts.encoding ?? 'utf-8');
  return rowsFromCsv(text, path.split('/').pop(), opts.delimiter ?? ',');
}

export function row(cells: Record<string, string>, line = 2, file = 'test.csv'): RowRecord {
  const r = Object.create(null) as Record<string, string>;
  Object.assign(r, cells);
  return { kind: 'row', file, line, row: r };
}

export function contractProblems(resource: Resource, method: Method, item: unknown): string[] {
  const r = itemSchema(resource, method).safeParse(item);
  return r.success ? [] : toFieldProblems(r.error.issues).map((p) => `${p.field}: ${p.reason}`);
}
