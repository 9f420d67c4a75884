// The read worker's wire format without a worker: what the writer puts in a chunk, the reader takes
// out, every buffer is transferred, and a chunk of another format version is refused.
import { describe, expect, test } from 'vitest';
import { CsvRow } from '../../src/read/csv/row-builder.js';
import { ChunkReader, decodeRow } from '../../src/rows/chunk-reader.js';
import { ChunkWriter } from '../../src/rows/chunk-writer.js';
import { ARRAYS, SAME, TEXTS, VERSION, chunkBuffers, type RowChunk } from '../../src/rows/row-chunk.js';

const header = ['externalId', 'title'];

function chunk(): RowChunk {
  const w = new ChunkWriter(0, 8, { header, delimiter: ',' }, true);
  w.row(new CsvRow('deals.csv', 2, ['D1', 'Deal one'], header, 'D1,Deal one'));
  w.fingerprint({ hi: 7, lo: 9 });
  w.item('{"externalId":"D1","title":"Deal one"}', ['D1', 'SP1', undefined, 'A1', undefined]);
  w.row(new CsvRow('deals.csv', 3, ['D2', 'a "quoted" title'], header, undefined));
  w.verdict({ kind: 'invalid', externalId: 'D2', field: 'title', detail: 'too long' });
  w.row(new CsvRow('deals.csv', 4, ['D3', 'Deal é'], header, 'D3,Deal é'));
  w.fingerprint({ hi: 1, lo: 2 });
  w.same(['D3', undefined, undefined, undefined, undefined]);
  return w.finish().chunk;
}

describe('row chunks', () => {
  test('what the writer puts in, the reader takes out, row by row', () => {
    const r = new ChunkReader(chunk(), header);
    expect(r.next()).toBe(true);
    expect([r.line, r.fingerprint()]).toEqual([2, { hi: 7, lo: 9 }]);
    expect(r.takeItem().toString('utf8')).toBe('{"externalId":"D1","title":"Deal one"}');
    expect(r.ids).toEqual(['D1', 'SP1', undefined, 'A1', undefined]);
    expect(decodeRow(r.rowSource()!)).toEqual({ externalId: 'D1', title: 'Deal one' });
    expect(r.next()).toBe(true);
    expect([r.line, r.extra?.verdict, r.fingerprint()]).toEqual([3, { kind: 'invalid', externalId: 'D2', field: 'title', detail: 'too long' }, undefined]);
    expect(decodeRow(r.rowSource()!)).toEqual({ externalId: 'D2', title: 'a "quoted" title' });
    expect(r.next()).toBe(true);
    expect([r.line, r.itemBytes, r.takeIds()]).toEqual([4, SAME, 'D3']);
    expect(decodeRow(r.rowSource()!)).toEqual({ externalId: 'D3', title: 'Deal é' });
    expect(r.next()).toBe(false);
  });

  test('every array and text of the field list is transferred, each once', () => {
    const c = chunk();
    const buffers = chunkBuffers(c);
    expect(buffers).toHaveLength(Object.keys(ARRAYS).length + TEXTS.length);
    expect(new Set(buffers).size).toBe(buffers.length);
    const moved = structuredClone(c, { transfer: buffers.filter((b) => b.byteLength > 0) });
    expect(new ChunkReader(moved, header).next()).toBe(true);
    for (const name of [...Object.keys(ARRAYS), ...TEXTS] as const) expect(c[name as keyof RowChunk]).toHaveProperty('byteLength', 0);
  });

  test('a chunk of another format version (a worker of another build) is refused, not misread', () => {
    expect(() => new ChunkReader({ ...chunk(), version: VERSION + 1 }, header)).toThrow(/chunk format .* rebuild/);
  });
});
