// `reader.null` (`--null`): a CSV cell whose whole text is the file's NULL marker (MySQL's `\N`)
// reads as empty, quoted or not, on the reader of either engine; without the option it is text.
import { describe, expect, it } from 'vitest';
import { openSource } from '../../src/read/open.js';
import type { ReaderOptions, RowRecord, SourceRecord } from '../../src/read/types.js';
import { tempDir } from './helpers.js';

const file = tempDir();
const CSV = ['id,closingdate,note,cf_851', 'P1,\\N,"\\N",\\N', 'P2,2024-03-01,x\\N,\\\\N', 'P3,\\N , \\N,\\n', 'P4,\\N,\\N,\\N', ''].join('\n');

async function rows(fast: boolean, options: ReaderOptions): Promise<RowRecord[]> {
  const source = await openSource(file(`nulls-${fast}.csv`, CSV), options, fast);
  const records: SourceRecord[] = [];
  for await (const record of source.records) records.push(record);
  return records.filter((r): r is RowRecord => r.kind === 'row');
}

describe.each([true, false])('the NULL marker (fast parser: %s)', (fast) => {
  it('with null "\\N": a cell that is exactly \\N, quoted or not, is empty; any other text stays', async () => {
    const read = await rows(fast, { null: '\\N' });
    expect(read.map((r) => r.row)).toEqual([
      { id: 'P1', closingdate: '', note: '', cf_851: '' },
      { id: 'P2', closingdate: '2024-03-01', note: 'x\\N', cf_851: '\\\\N' },
      { id: 'P3', closingdate: '\\N ', note: ' \\N', cf_851: '\\n' },
      { id: 'P4', closingdate: '', note: '', cf_851: '' },
    ]);
    // the cells the mapper reads by index say the same, and a line whose cells changed is not shipped as its text
    expect(read[3]!.cells).toEqual(['P4', '', '', '']);
    expect(read[3]!.plain).toBeUndefined();
  });

  it('without the option, \\N is text as it stands', async () => {
    const read = await rows(fast, {});
    expect(read[0]!.row).toEqual({ id: 'P1', closingdate: '\\N', note: '\\N', cf_851: '\\N' });
  });
});
