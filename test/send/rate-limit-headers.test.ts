import { describe, expect, it } from 'vitest';
import { readRateLimit, resetFromValue } from '../../src/send/rate-limit-headers.js';

const NOW = Date.parse('2026-11-24T12:00:00Z');

describe('readRateLimit', () => {
  it('reads the current IETF draft: RateLimit and RateLimit-Policy (Structured Field lists)', () => {
    expect(readRateLimit({ ratelimit: '"default";r=50;t=30', 'ratelimit-policy': '"default";q=100;w=60' }, NOW)).toEqual({
      remaining: 50,
      resetAt: NOW + 30_000,
      header: 'RateLimit',
      policyRate: 100 / 60,
    });
  });

  it('several policies: the one with the fewest requests left binds, and the slowest quota paces', () => {
    expect(readRateLimit({ ratelimit: '"burst";r=40;t=5, "daily";r=3;t=600', 'ratelimit-policy': '"burst";q=100;w=10, "daily";q=1000;w=86400' }, NOW)).toEqual({
      remaining: 3,
      resetAt: NOW + 600_000,
      header: 'RateLimit',
      policyRate: 1000 / 86400,
    });
  });

  it('reads the older draft forms: RateLimit-Limit/-Remaining/-Reset, and `limit=, remaining=, reset=`', () => {
    expect(readRateLimit({ 'ratelimit-limit': '100', 'ratelimit-remaining': '7', 'ratelimit-reset': '12' }, NOW)).toEqual({
      remaining: 7,
      resetAt: NOW + 12_000,
      header: 'RateLimit-Reset',
    });
    expect(readRateLimit({ ratelimit: 'limit=100, remaining=50, reset=30' }, NOW)).toEqual({ remaining: 50, resetAt: NOW + 30_000, header: 'RateLimit' });
  });

  it('reads X-RateLimit-*: Reset in seconds from now, or as a Unix time (GitHub)', () => {
    expect(readRateLimit({ 'x-ratelimit-limit': '60', 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': '20' }, NOW)).toEqual({
      remaining: 0,
      resetAt: NOW + 20_000,
      header: 'X-RateLimit-Reset',
    });
    const epoch = String(NOW / 1000 + 45);
    expect(readRateLimit({ 'x-ratelimit-remaining': '4', 'x-ratelimit-reset': epoch }, NOW)).toEqual({
      remaining: 4,
      resetAt: NOW + 45_000,
      header: 'X-RateLimit-Reset',
    });
    expect(readRateLimit({ 'x-ratelimit-remaining': '4' }, NOW)).toEqual({ remaining: 4, header: 'X-RateLimit-Remaining' });
  });

  it('reads a number as written, never its leading digits: 1e15 is 10^15, 12abc and 2.5 requests are no number (issue 28.6)', () => {
    // 10^15 ms since 1970: the year 33658, not one second from now
    expect(readRateLimit({ 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': '1e15' }, NOW)?.resetAt).toBe(1e15);
    expect(readRateLimit({ 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': '1.5' }, NOW)?.resetAt).toBe(NOW + 1500);
    expect(readRateLimit({ 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': '12abc' }, NOW)).toEqual({ remaining: 0, header: 'X-RateLimit-Remaining' });
    expect(readRateLimit({ 'x-ratelimit-remaining': '2.5' }, NOW)).toBeUndefined();
    expect(readRateLimit({ 'ratelimit-remaining': '5, 5;w=60', 'ratelimit-reset': '30' }, NOW)).toEqual({
      remaining: 5,
      resetAt: NOW + 30_000,
      header: 'RateLimit-Reset',
    });
  });

  it('says nothing about headers that say nothing, or that it cannot read', () => {
    expect(readRateLimit({}, NOW)).toBeUndefined();
    expect(readRateLimit({ ratelimit: 'garbage;;;', 'ratelimit-policy': '"x";q=abc' }, NOW)).toBeUndefined();
    expect(readRateLimit({ 'x-ratelimit-remaining': 'lots' }, NOW)).toBeUndefined();
  });
});

describe('resetFromValue', () => {
  it('below 10^9: seconds from now; from 10^9: a Unix time in seconds; from 10^12: in milliseconds; never in the past', () => {
    expect(resetFromValue(60, NOW)).toBe(NOW + 60_000);
    expect(resetFromValue(NOW / 1000 + 5, NOW)).toBe(NOW + 5000);
    expect(resetFromValue(NOW + 5000, NOW)).toBe(NOW + 5000);
    expect(resetFromValue(1_000_000_000, NOW)).toBe(NOW);
  });
});
