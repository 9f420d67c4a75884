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

  it('after a 429, drops under what got through in the last second, climbs back, holds at it, then probes slowly', () => {
    const rate = new AdaptiveRate();
    succeed(rate, 20, 0, 3000);
    rate.onThrottle(2990, 2890);
    expect(rate.current).toBeCloseTo(18, 0);
    // back at the old ceiling after about K = cbrt(20 × 0.1 / 0.1) ≈ 2.7 s, held there (the pacer keeps the margin)
    succeed(rate, 18, 3000, 6500);
    expect(rate.current!).toBeCloseTo(20, 1);
    succeed(rate, 19.6, 6500, 32_000);
    expect(rate.current!).toBeCloseTo(20, 1);
    // 30 s after the 429, the probe above it starts slowly: +0.02 × t³
    succeed(rate, 19.6, 32_000, 36_000);
    expect(rate.current!).toBeGreaterThan(20.5);
    expect(rate.current!).toBeLessThan(22);
  });

  it('successes of requests sent before the 429 still count in the level it learns', () => {
    const rate = new AdaptiveRate();
    succeed(rate, 40, 0, 300); // 12 answered by the first 429, early in the run
    rate.onThrottle(300, 200);
    expect(rate.current).toBeCloseTo(12 * 0.9, 0);
    succeed(rate, 40, 300, 500); // 8 more arrive: 20 got through
    expect(rate.current).toBeCloseTo(18, 0);
  });

  it('a 429 before anything got through sets no rate: nothing to learn from (429 to every request)', () => {
    const rate = new AdaptiveRate();
    rate.onThrottle(10, 0);
    rate.onThrottle(1500, 1400);
    expect(rate.current).toBeUndefined();
    succeed(rate, 10, 2000, 3000);
    rate.onThrottle(2999, 2900);
    expect(rate.current).toBeCloseTo(10 * 0.9, 1);
  });

  it('refusals of requests sent before the rate was lowered count once', () => {
    const rate = new AdaptiveRate();
    succeed(rate, 20, 0, 2000);
    rate.onThrottle(2000, 1900);
    const once = rate.current;
    rate.onThrottle(2050, 1950);
    expect(rate.current).toBe(once);
    rate.onThrottle(2200, 2100);
    expect(rate.current!).toBeLessThan(once!);
  });

  it('growth never runs ahead of twice the measured rate', () => {
    const rate = new AdaptiveRate();
    succeed(rate, 10, 0, 2000);
    rate.onThrottle(2000, 1900);
    succeed(rate, 2, 2000, 30_000);
    expect(rate.current!).toBeLessThanOrEqual(4.01);
  });
});
