import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { TokenBucket } from '../../src/util/token-bucket.js';

describe('TokenBucket', () => {
  it('paces requests at the rate, in order, with no burst beyond one', () => {
    const bucket = new TokenBucket(10);
    expect([0, 0, 0, 0].map(() => bucket.reserve(0))).toEqual([0, 100, 200, 300]);
    expect(bucket.reserve(1000)).toBe(0);
  });

  it('saves up at most `burst` tokens', () => {
    const bucket = new TokenBucket(10, 3);
    expect([0, 0, 0, 0].map(() => bucket.reserve(10_000))).toEqual([0, 0, 0, 100]);
  });

  it('a new rate takes effect from now', () => {
    const bucket = new TokenBucket(10);
    bucket.reserve(0);
    bucket.setRate(1, 0);
    expect(bucket.reserve(0)).toBe(1000);
  });

  it('property: no interval sees more requests than rate × its length + burst', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 50 }),
        fc.integer({ min: 1, max: 5 }),
        fc.array(fc.integer({ min: 0, max: 300 }), { minLength: 1, maxLength: 200 }),
        (rate, burst, gaps) => {
          const bucket = new TokenBucket(rate, burst);
          let now = 0;
          const sent: number[] = [];
          for (const gap of gaps) {
            now += gap;
            sent.push(now + bucket.reserve(now));
          }
          sent.sort((a, b) => a - b);
          for (let i = 0; i < sent.length; i++) {
            for (let j = i; j < sent.length; j++) {
              const span = sent[j]! - sent[i]!;
              // waits are whole milliseconds, rounded up each on its own: a span may read 1 ms short
              expect(j - i + 1).toBeLessThanOrEqual(Math.floor(((span + 1) / 1000) * rate + 1e-9) + burst);
            }
          }
        },
      ),
      { numRuns: 200 },
    );
  });
});
