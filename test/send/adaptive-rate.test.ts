import { describe, expect, it } from 'vitest';
import { AdaptiveRate } from '../../src/send/adaptive-rate.js';

/** Successes at `perSecond` from `from` to `to` (ms). */
function succeed(rate: AdaptiveRate, perSecond: number, from: number, to: number): void {
  for (let t = from; t < to; t += 1000 / perSecond) rate.onSuccess(t);
}

describe('AdaptiveRate (CUBIC-shaped, as the AWS SDKs’ adaptive retry mode)', () => {
  it('sets no rate before the first 429', () => {
    const rate = new AdaptiveRate();
    succeed(rate, 100, 0, 5000);
    expect(rate.current).toBeUndefined();
  });

  it('after a 429, drops just under what got through in the last second, climbs back and lingers near it', () => {
    const rate = new AdaptiveRate();
    succeed(rate, 20, 0, 3000);
    rate.onThrottle(2990, 100);
    expect(rate.current).toBeCloseTo(18, 0);
    succeed(rate, 18, 3000, 4700);
    // near the old ceiling after about K = cbrt(20 × 0.1 / 0.4) ≈ 1.7 s, and not far above it for a while
    expect(rate.current!).toBeGreaterThan(19.5);
    expect(rate.current!).toBeLessThanOrEqual(20.5);
    succeed(rate, 20, 4700, 6000);
    expect(rate.current!).toBeLessThan(22);
    expect(rate.current!).toBeGreaterThan(20);
  });

  it('refusals within one round trip count once', () => {
    const rate = new AdaptiveRate();
    succeed(rate, 20, 0, 2000);
    rate.onThrottle(2000, 100);
    const once = rate.current;
    rate.onThrottle(2050, 100);
    expect(rate.current).toBe(once);
    rate.onThrottle(2200, 100);
    expect(rate.current!).toBeLessThan(once!);
  });

  it('growth never runs ahead of twice the measured rate', () => {
    const rate = new AdaptiveRate();
    succeed(rate, 10, 0, 2000);
    rate.onThrottle(2000, 100);
    succeed(rate, 2, 2000, 30_000);
    expect(rate.current!).toBeLessThanOrEqual(4.01);
  });
});
