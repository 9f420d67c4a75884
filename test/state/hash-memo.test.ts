// The memo that lets `accepted` reuse the hash `unchanged` took: a hit is the remembered hash, once;
// it forgets what was never accepted after two generations.
import { expect, test } from 'vitest';
import { HashMemo } from '../../src/state/hash-memo.js';
import { hashItem } from '../../src/util/item-hash.js';

test('returns a remembered hash once, and nothing for JSON it never saw', () => {
  const memo = new HashMemo();
  const json = '{"externalId":"D-1","v":2}';
  memo.remember(json, hashItem(json));
  expect(memo.take('{"externalId":"D-1","v":1}')).toBeUndefined();
  // an equal string built apart is the same key: the JSON decides the hash
  expect(memo.take(`{"externalId":"D-1","v":${1 + 1}}`)).toEqual(hashItem(json));
  expect(memo.take(json)).toBeUndefined();
});

test('keeps at most two generations: an item never accepted is forgotten', () => {
  const memo = new HashMemo(2);
  for (const v of [1, 2, 3, 4, 5]) memo.remember(`{"v":${v}}`, { hi: v, lo: v });
  expect(memo.take('{"v":1}')).toBeUndefined();
  expect(memo.take('{"v":2}')).toBeUndefined();
  expect(memo.take('{"v":3}')).toEqual({ hi: 3, lo: 3 });
  expect(memo.take('{"v":5}')).toEqual({ hi: 5, lo: 5 });
});
