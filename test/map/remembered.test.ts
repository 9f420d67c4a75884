// The memo behind fold, slug and date conversions: the same results as the function, each short
// value computed once, long free text never kept, and a bounded size.
import { expect, test } from 'vitest';
import { remembered } from '../../src/map/transforms/remembered.js';

test('remembered gives what the function gives, computing a short value once and a long one every time', () => {
  let calls = 0;
  const upper = remembered((t: string) => {
    calls++;
    return t.toUpperCase();
  }, 100);
  for (let i = 0; i < 50; i++) expect(upper('ana')).toBe('ANA');
  expect(calls).toBe(1);
  const long = 'x'.repeat(300);
  upper(long);
  upper(long);
  expect(calls).toBe(3);
  // past its limit it starts again, and stays right
  for (let i = 0; i < 1000; i++) expect(upper(`v${i}`)).toBe(`V${i}`);
  calls = 0;
  expect(upper('ana')).toBe('ANA');
  expect(calls).toBe(1);
});
