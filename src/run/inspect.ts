// `batch-sync inspect`'s core: a file read as every command reads it (read/sample.ts, the same
// reader, header choice and warnings), its columns described as init would guess them
// (map/propose/describe-columns.ts). Reads the first `sample` records only; never sends anything.
import { describeColumns, describeItems } from '../map/propose/describe-columns.js';
import { sampleSource } from '../read/sample.js';
import type { ReaderOptions, RowRecord } from '../read/types.js';
import type { Inspection } from '../report/render-inspect.js';

export async function inspectFile(file: string, reader: ReaderOptions | undefined, limits: { sample: number; rows: number }): Promise<Inspection> {
  const source = await sampleSource(file, limits.sample, reader);
  const rows = source.records.filter((r): r is RowRecord => r.kind === 'row');
  const items = source.records.flatMap((r) => (r.kind === 'item' ? [r.item] : []));
  const { detected } = source;
  return {
    file,
    format: source.format,
    encoding: detected.encoding,
    delimiter: detected.delimiter,
    sheet: detected.sheet,
    sheets: source.sheets,
    sheetAsked: reader?.sheet !== undefined,
    root: detected.root,
    header: source.headerChoice,
    columns: source.header ? describeColumns(source.header, rows, source.columnLetters) : describeItems(items),
    sample: {
      records: source.records.length,
      rows: rows.length,
      unreadable: source.records.filter((r) => r.kind === 'unreadable').length,
      items: items.length,
      complete: source.complete,
    },
    first: source.records.slice(0, limits.rows),
    names: source.header,
    warnings: source.warnings,
  };
}
