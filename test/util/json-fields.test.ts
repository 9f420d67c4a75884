// TopLevelFields keeps only the named top-level values of a JSON object streamed in chunks of any
// size, whatever the other values hold (strings with quotes, backslashes, braces; deep nesting).
import fc from 'fast-check';
import { expect, test } from 'vitest';
import { TopLevelFields } from '../../src/util/json-fields.js';

test('the named fields of any object, fed in chunks of any size, come back as JSON.parse reads them', () => {
  fc.assert(
    fc.property(fc.dictionary(fc.string(), fc.jsonValue(), { maxKeys: 8 }), fc.integer({ min: 1, max: 17 }), fc.boolean(), (doc, size, pretty) => {
      const text = Buffer.from(JSON.stringify(doc, null, pretty ? 2 : undefined), 'utf8');
      const keys = Object.keys(doc).filter((_, i) => i % 2 === 0);
      const scan = new TopLevelFields(new Set(keys), 1 << 20);
      for (let at = 0; at < text.length; at += size) scan.feed(text.subarray(at, at + size));
      // JSON.parse, not the object itself: -0 and 1e400 read back as JSON says
      const expected = JSON.parse(text.toString('utf8')) as Record<string, unknown>;
      expect(scan.result()).toEqual(Object.fromEntries(keys.map((k) => [k, expected[k]])));
    }),
    { numRuns: 300 },
  );
});

test('a kept value over the cap, or a document cut short, fails', () => {
  const big = new TopLevelFields(new Set(['a']), 10);
  expect(() => big.feed(Buffer.from('{"a": "0123456789abc", "b": 1}'))).toThrow(/"a" is over 10 bytes/);
  const cut = new TopLevelFields(new Set(['a']), 100);
  cut.feed(Buffer.from('{"a": 1, "rows": [1, 2'));
  expect(() => cut.result()).toThrow(/cut short/);
});
