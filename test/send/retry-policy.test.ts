import { describe, expect, it } from 'vitest';
import { DEFAULT_RETRY, backoffDelay, nextDelay, parseRetryAfter } from '../../src/send/retry-policy.js';

const NOW = Date.parse('2025-01-01T00:00:00Z');

describe('parseRetryAfter', () => {
  it('reads delta-seconds, including 0', () => {
    expect(parseRetryAfter('0', NOW)).toBe(0);
    expect(parseRetryAfter(' 120 ', NOW)).toBe(120_000);
  });
  it('reads an HTTP-date as the time left, a past date as 0', () => {
    expect(parseRetryAfter('Wed, 01 Jan 2025 00:00:05 GMT', NOW)).toBe(5000);
    expect(parseRetryAfter('Tue, 31 Dec 2024 23:00:00 GMT', NOW)).toBe(0);
  });
  it('gives up on garbage rather than guessing', () => {
    for (const v of ['soon', '-5', '1.5', '', '   ', 'NaN', 'Someday 99']) expect(parseRetryAfter(v, NOW), v).toBeUndefined();
    expect(parseRetryAfter(undefined, NOW)).toBeUndefined();
  });
  it('takes the first of repeated headers', () => {
    expect(parseRetryAfter(['3', '9'], NOW)).toBe(3000);
  });
});

describe('backoff', () => {
  it('is full jitter under a doubling cap bounded by maxDelayMs', () => {
    const p = { ...DEFAULT_RETRY, baseDelayMs: 100, maxDelayMs: 1000 };
    expect(backoffDelay(1, p, () => 0.999)).toBe(99);
    expect(backoffDelay(3, p, () => 0.999)).toBe(399);
    expect(backoffDelay(10, p, () => 0.999)).toBe(999);
    expect(backoffDelay(10, p, () => 0)).toBe(0);
  });
  it('never waits less than Retry-After, nor less than the backoff', () => {
    const p = { ...DEFAULT_RETRY, baseDelayMs: 100, maxDelayMs: 1000 };
    expect(nextDelay(1, p, 5000, () => 0.5)).toBe(5000);
    expect(nextDelay(3, p, 0, () => 0.5)).toBe(200);
    expect(nextDelay(3, p, undefined, () => 0.5)).toBe(200);
  });
});
