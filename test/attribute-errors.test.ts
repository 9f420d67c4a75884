import { describe, expect, test } from 'vitest';
import { attributeErrors } from '../src/send/attribute-errors.js';

const ids = ['D-1', 'D-2', 'D-3', 'D-4'];
const err = (detail: string, message = 'VALIDATION_ERROR') => ({ message, detail });

describe('attributeErrors', () => {
  test('by index', () => {
    const a = attributeErrors([err('items[2] externalId=D-3: amount.currency: "USX" is not an ISO-4217 currency code')], ids, { success: 3 });
    expect([...a.perItem.keys()]).toEqual([2]);
    expect(a.batchLevel).toEqual([]);
    expect(a.unverifiable).toBeUndefined();
  });
  test('by externalId alone, anywhere in message or detail', () => {
    const a = attributeErrors([err('deal D-4 has no owner'), err('', 'DUPLICATE D-1')], ids, { success: 2 });
    expect([...a.perItem.keys()].sort()).toEqual([0, 3]);
  });
  test('the id wins over an index that disagrees with it', () => {
    const a = attributeErrors([err('items[0] externalId=D-2: title: is required')], ids, { success: 3 });
    expect([...a.perItem.keys()]).toEqual([1]);
  });
  test('an element naming no item falls on the whole batch', () => {
    const a = attributeErrors([err('quota exceeded', 'LIMIT')], ids, { success: 0 });
    expect(a.perItem.size).toBe(0);
    expect(a.batchLevel).toHaveLength(1);
  });
  test('an index past the batch makes it unverifiable', () => {
    expect(attributeErrors([err('items[9]: x')], ids).unverifiable).toMatch(/points past the batch/);
  });
  test('an element of unexpected shape makes it unverifiable', () => {
    expect(attributeErrors([{ code: 3 }], ids).unverifiable).toMatch(/unexpected shape/);
    expect(attributeErrors(['boom'], ids).unverifiable).toMatch(/unexpected shape/);
  });
  test('a success count that disagrees makes it unverifiable, unless told not to check', () => {
    expect(attributeErrors([], ids, { success: 3 }).unverifiable).toMatch(/data.success is 3 but 4 of 4/);
    expect(attributeErrors([], ids, { success: 1, checkSuccessCount: false }).unverifiable).toBeUndefined();
  });
});
