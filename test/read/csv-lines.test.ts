// Each record's line is where it STARTS, whatever the line ends, blank lines and quoted newlines.

import { describe, expect, it } from 'vitest';
import { readAll, tempDir } from './helpers.js';

const file = tempDir();

describe('CSV record lines', () => {
  it('counts a quoted field spanning lines once, and the next record still lands right', async () => {
    const path = file('multi.csv', 'id,notes\n1,"first\nsecond\nthird"\n2,plain\n3,"crlf\r\ninside"\r\n4,x\n');
    const { records } = await readAll(path);
    expect(records.map((r) => r.line)).toEqual([2, 5, 6, 8]);
    expect(records[0]!.kind === 'row' && records[0]!.row.notes).toBe('first\nsecond\nthird');
  });

  it('skips blank lines (LF, CRLF, CR) and blank trailing lines, counting them', async () => {
    const path = file('blank.csv', 'a,b\n\n1,2\r\n\r\n\r\n3,4\r\r5,6\n\n\n\n');
    const { records } = await readAll(path);
    expect(records.map((r) => r.line)).toEqual([3, 6, 8]);
  });

  it('skips delimiter-only rows Excel leaves below the data', async () => {
    const path = file('semis.csv', 'a;b;c\n1;2;3\n;;\n  ;;\n4;5;6\n;;\n');
    const { records } = await readAll(path);
    expect(records.map((r) => [r.kind, r.line])).toEqual([
      ['row', 2],
      ['row', 5],
    ]);
  });

  it('keeps lines right across chunk boundaries with quoted newlines everywhere', async () => {
    const rows: string[] = ['id,text'];
    const expected: number[] = [];
    let line = 2;
    for (let i = 0; i < 40_000; i++) {
      const breaks = i % 7;
      const text = Array.from({ length: breaks + 1 }, (_, k) => `part ${k} of row ${i}`).join(i % 2 ? '\r\n' : '\n');
      rows.push(`${i},"${text}"`);
      expected.push(line);
      line += breaks + 1;
    }
    const content = rows.join('\n') + '\n';
    const { records } = await readAll(file('long-multi.csv', content));
    expect(records).toHaveLength(40_000);
    const wrong = records.findIndex((r, i) => r.line !== expected[i]);
    expect(wrong).toBe(-1);
  });

  it('gives the line of a ragged row after a multi-line record', async () => {
    const path = file('ragged.csv', 'a,b\n1,"x\ny"\n1,2,3\n4,5\n');
    const { records } = await readAll(path);
    expect(records.map((r) => [r.kind, r.line])).toEqual([
      ['row', 2],
      ['unreadable', 4],
      ['row', 5],
    ]);
    expect(records[1]).toMatchObject({ reason: 'has 3 cells, the header has 2' });
    expect(records[1]!.kind === 'unreadable' && records[1]!.row).toEqual(Object.assign(Object.create(null), { a: '1', b: '2', column_3: '3' }));
  });
});
