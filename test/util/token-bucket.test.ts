import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { TokenBucket } from '../../src/util/token-bucket.js';

describe('TokenBucket (the sandbox’s --rate-burst)', () => {
  it('a token a tenth of a second at 10 a second, never two at once with a burst of one', () => {
    const bucket = new TokenBucket(10);
    expect([bucket.tryTake(0), bucket.tryTake(0), bucket.tryTake(50), bucket.tryTake(100)]).toEqual([true, false, false, true]);
    expect(bucket.tryTake(1000)).toBe(true);
  });

  it('saves up at most `burst` tokens', () => {
    const bucket = new TokenBucket(10, 3);
    expect([0, 0, 0, 0].map(() => bucket.tryTake(10_000))).toEqual([true, true, true, false]);
    expect(bucket.available(10_100)).toBeCloseTo(1, 6);
  });

  it('property: no interval sees more takers than rate × its length + burst', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 50 }),
        fc.integer({ min: 1, max: 5 }),
        fc.array(fc.integer({ min: 0, max: 300 }), { minLength: 1, maxLength: 200 }),
        (rate, burst, gaps) => {
          const bucket = new TokenBucket(rate, burst);
          let now = 0;
          const taken: number[] = [];
          for (const gap of gaps) {
            now += gap;
            if (bucket.tryTake(now)) taken.push(now);
          }
          for (let i = 0; i < taken.length; i++) {
            for (let j = i; j < taken.length; j++) {
              expect(j - i + 1).toBeLessThanOrEqual(Math.floor(((taken[j]! - taken[i]!) / 1000) * rate + 1e-9) + burst);
            }
          }
        },
      ),
      { numRuns: 200 },
    );
  });
});
