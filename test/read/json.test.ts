// JSON items streamed element by element, and NDJSON line by line.

import { describe, expect, it } from 'vitest';
import { InputError } from '../../src/errors.js';
import { sampleSource } from '../../src/read/sample.js';
import { errorOf, readAll, tempDir } from './helpers.js';

const file = tempDir();
const items = async (path: string) => (await readAll(path)).records.map((r) => (r.kind === 'item' ? r.item : r));

describe('JSON', () => {
  it.each([
    ['array', '[{"id":1},{"id":2}]'],
    ['items object', '{"items": [{"id":1},{"id":2}]}'],
    ['batch envelope', '{"batchId": "b-1", "source": {"name": "crm", "tags": ["a]", "}"]}, "items": [{"id":1},{"id":2}], "extra": null}'],
  ])('reads a top-level %s', async (_name, content) => {
    expect(await items(file(`${_name}.json`, content))).toEqual([{ id: 1 }, { id: 2 }]);
  });

  it('gives each item the line it starts on', async () => {
    const { records } = await readAll(file('lines.json', '[\n  {\n    "id": 1\n  },\n  {"id": 2}, {"id": 3}\n]\n'));
    expect(records.map((r) => r.line)).toEqual([2, 5, 5]);
  });

  it('keeps brackets, quotes and escapes inside strings, across chunk boundaries', async () => {
    const one = { id: 0, title: 'a ] } [ { "quoted" \\ back\nslash é€', nested: { list: [1, [2, { x: '}' }]] } };
    const all = Array.from({ length: 20_000 }, (_, id) => ({ ...one, id }));
    const { records } = await readAll(file('big.json', JSON.stringify(all, null, 1)));
    expect(records).toHaveLength(20_000);
    expect(records.every((r, i) => r.kind === 'item' && JSON.stringify(r.item) === JSON.stringify(all[i]))).toBe(true);
  });

  it('a __proto__ key stays an own property and pollutes nothing', async () => {
    const [item] = (await items(file('proto.json', '[{"id":1,"__proto__":{"polluted":true}}]'))) as object[];
    expect(Object.keys(item!)).toEqual(['id', '__proto__']);
    expect(Object.getPrototypeOf(item)).toBe(Object.prototype);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('an integer beyond 2^53 makes its item unreadable, others go on', async () => {
    const { records } = await readAll(
      file('bigint.json', '[{"id":9007199254740993},{"id":9007199254740991,"amount":1.2345678901234567e30,"ref":"12345678901234567890"}]'),
    );
    expect(records.map((r) => r.kind)).toEqual(['unreadable', 'item']);
    expect(records[0]).toMatchObject({ reason: expect.stringMatching(/^number 9007199254740993 at line 1 is beyond 2\^53/) });
  });

  it.each([
    ['[1,2', 'the file ends before the JSON is complete'],
    ['[{"id":1}}', 'expected "," or "]" between items'],
    ['[{"id":1}] x', 'after the end of the JSON'],
    ['{"items": 5}', '"items" must be an array'],
    ['"text"', 'found a string'],
    ['[{"id": 1,}]', 'not valid JSON'],
  ])('%s → one-line InputError', async (content, message) => {
    const path = file(`e${content.length}${message.length}.json`, content);
    const err = await errorOf(readAll(path));
    expect(err).toBeInstanceOf(InputError);
    expect(err.message).toMatch(new RegExp(`^${path}:\\d+: `));
    expect(err.message).toContain(message);
  });

  it('an unclosed string stops at the record size limit with the item line', async () => {
    const path = file('unclosed.json', '[\n{"id":1},\n{"id":"' + 'x'.repeat(600_000));
    const err = await errorOf(readAll(path, { maxRecordBytes: 256 * 1024 }));
    expect(err.message).toMatch(new RegExp(`^${path}:3: the item starting on this line is over`));
  });
});

describe('NDJSON', () => {
  it('reads .jsonl with CRLF, skips blank lines, keeps going past a broken line', async () => {
    const { records, format } = await readAll(file('x.jsonl', '{"id":1}\r\n\r\nnot json\r\n{"id":2}'));
    expect(format).toBe('ndjson');
    expect(records.map((r) => [r.kind, r.line])).toEqual([
      ['item', 1],
      ['unreadable', 3],
      ['item', 4],
    ]);
    expect(records[1]).toMatchObject({ reason: expect.stringMatching(/^not valid JSON/) });
  });

  it('format option wins over the extension', async () => {
    const { records } = await readAll(file('data.txt', '{"id":1}\n'), { format: 'ndjson' });
    expect(records[0]).toMatchObject({ kind: 'item', item: { id: 1 } });
  });
});

describe('sampleSource', () => {
  it('returns header and first rows without reading everything', async () => {
    const path = file('sample.csv', 'id;nome\n' + Array.from({ length: 1000 }, (_, i) => `${i};n${i}`).join('\n'));
    const sample = await sampleSource(path, 5);
    expect(sample.header).toEqual(['id', 'nome']);
    expect(sample.detected.delimiter).toBe(';');
    expect(sample.records.map((r) => r.line)).toEqual([2, 3, 4, 5, 6]);
    expect(sample.complete).toBe(false);
    expect((await sampleSource(path, 5000)).complete).toBe(true);
  });
});
