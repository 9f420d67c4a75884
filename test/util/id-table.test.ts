import fc from 'fast-check';
import { expect, test } from 'vitest';
import { IdTable } from '../../src/util/id-table.js';

test('behaves exactly like a Map from id to the order it was first added in, whatever the ids', () => {
  fc.assert(
    fc.property(
      fc.array(
        fc.oneof(
          fc.string(),
          fc.string({ unit: 'binary' }),
          fc.constantFrom('\ud800', '\udfff', '\ud800\udfff'),
          fc.constantFrom('', 'a', 'ä', 'D-1', '00123', '😀'),
        ),
        { maxLength: 3000 },
      ),
      (ids) => {
        const table = new IdTable();
        const map = new Map<string, number>();
        ids.forEach((id, _i) => {
          const expected = map.get(id);
          if (expected === undefined) map.set(id, map.size);
          expect(table.claim(id)).toBe(expected ?? -1);
        });
        expect(table.size).toBe(map.size);
        for (const [id, v] of map) expect(table.indexOf(id)).toBe(v);
        expect(table.has('never-added-\u0000')).toBe(false);
      },
    ),
    { numRuns: 60 },
  );
});

test('grows past its first sizes and keeps every entry number', () => {
  const table = new IdTable();
  for (let i = 0; i < 200_000; i++) expect(table.claim(`id-${i}`)).toBe(-1);
  expect(table.claim('id-199999')).toBe(199_999);
  expect(table.indexOf('id-0')).toBe(0);
  expect(table.indexOf('id-200000')).toBe(-1);
  expect(table.size).toBe(200_000);
});

test('forEach gives back every id exactly, Latin-1 and UTF-16 alike, in the order added', () => {
  fc.assert(
    fc.property(
      fc.uniqueArray(fc.oneof(fc.string(), fc.string({ unit: 'binary' }), fc.constantFrom('\ud800', 'ÿ', 'Ā', 'ä-1', '😀')), { maxLength: 500 }),
      (ids) => {
        const table = new IdTable();
        for (const id of ids) table.claim(id);
        const back: [string, number][] = [];
        table.forEach((id, v) => {
          back.push([id, v]);
        });
        expect(back).toEqual(ids.map((id, i) => [id, i]));
      },
    ),
    { numRuns: 60 },
  );
});

test('claimAscii is claim for ids given as ASCII bytes, mixed freely with strings', () => {
  fc.assert(
    fc.property(
      fc.array(
        fc.tuple(
          fc.oneof(fc.string({ unit: fc.integer({ min: 0, max: 0x7f }).map((c) => String.fromCharCode(c)) }), fc.constantFrom('D-1', 'D-10', 'a', '')),
          fc.boolean(),
        ),
        { maxLength: 2000 },
      ),
      (steps) => {
        const table = new IdTable();
        const map = new Map<string, number>();
        for (const [id, asBytes] of steps) {
          const expected = map.get(id);
          if (expected === undefined) map.set(id, map.size);
          const line = Buffer.from(`x\t${id}\ty`, 'latin1');
          expect(asBytes ? table.claimAscii(line, 2, 2 + id.length) : table.claim(id)).toBe(expected ?? -1);
        }
        for (const [id, v] of map) expect(table.indexOf(id)).toBe(v);
        const back: string[] = [];
        table.forEach((id) => {
          back.push(id);
        });
        expect(back).toEqual([...map.keys()]);
      },
    ),
    { numRuns: 60 },
  );
});

test('claimAscii grows the table past its first sizes like claim does', () => {
  const table = new IdTable();
  const line = Buffer.from(Array.from({ length: 30_000 }, (_, i) => `deal-${i}-${'x'.repeat(i % 40)}`).join('\n'), 'latin1');
  let start = 0;
  let n = 0;
  for (let end = line.indexOf(10); start < line.length; end = line.indexOf(10, start)) {
    const stop = end < 0 ? line.length : end;
    expect(table.claimAscii(line, start, stop)).toBe(-1);
    start = stop + 1;
    n++;
  }
  expect(table.size).toBe(30_000);
  expect(table.indexOf(`deal-29999-${'x'.repeat(29_999 % 40)}`)).toBe(29_999);
  expect(table.claim(`deal-123-${'x'.repeat(123 % 40)}`)).toBe(123);
  expect(n).toBe(30_000);
});
