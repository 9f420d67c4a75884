import { describe, expect, test } from 'vitest';
import { bar, bytes, duration, etaMs, fitLine, RateWindow } from '../../src/report/progress-line.js';

describe('RateWindow: the rate over the last seconds', () => {
  test('a steady 1,000 rows/s reads 1,000 rows/s', () => {
    const w = new RateWindow(5000);
    for (let t = 0; t <= 10_000; t += 500) w.add(t, t);
    expect(w.perSecond(10_000)).toBeCloseTo(1000);
  });

  test('after a pause it does not decay: once rows flow again the rate is their rate, not the average since the start', () => {
    const w = new RateWindow(5000);
    for (let t = 0; t <= 10_000; t += 500) w.add(t, t); // 10,000 rows in 10 s
    // a 60 s pause (a Ctrl-Z, a server's Retry-After), then 1,000 rows/s again for 6 s
    for (let t = 70_000; t <= 76_000; t += 500) w.add(t, 10_000 + (t - 70_000));
    expect(w.perSecond(76_000)).toBeCloseTo(1000);
    // a cumulative rate would read 16,000 / 76 s = 210 rows/s here
  });

  test('during a stall the rate falls to 0 within the window, instead of showing the last speed forever', () => {
    const w = new RateWindow(5000);
    for (let t = 0; t <= 10_000; t += 500) w.add(t, t);
    expect(w.perSecond(12_500)).toBeCloseTo(500);
    expect(w.perSecond(20_000)).toBe(0);
  });

  test('no rate from a single sample', () => {
    const w = new RateWindow();
    expect(w.perSecond(0)).toBeUndefined();
    w.add(0, 10);
    expect(w.perSecond(1000)).toBeUndefined();
  });
});

describe('the time left and its words', () => {
  test('ETA: what is left at the rate, none when nothing moves', () => {
    expect(etaMs(3000, 1000)).toBe(3000);
    expect(etaMs(3000, 0)).toBeUndefined();
    expect(etaMs(3000, undefined)).toBeUndefined();
  });

  test.each([
    [0, '0s'],
    [9_400, '9s'],
    [245_000, '4m 05s'],
    [7_380_000, '2h 03m'],
  ])('%i ms is %s', (ms, text) => expect(duration(ms)).toBe(text));

  test('sizes', () => {
    expect(bytes(812)).toBe('812 B');
    expect(bytes(1_234_567)).toBe('1.2 MB');
    expect(bytes(45_600_000)).toBe('46 MB');
  });

  test('a bar filled to its fraction, never past its width', () => {
    expect(bar(0.5, 10)).toBe('█████░░░░░');
    expect(bar(1.7, 4)).toBe('████');
    expect(bar(-1, 4)).toBe('░░░░');
  });
});

describe('fitLine: the line fits the terminal', () => {
  const parts = [
    { text: 'deal deals.csv', drop: 0 },
    { text: '██████░░░░░░', drop: 3 },
    { text: '48%', drop: 0 },
    { text: '1.2/2.5 MB', drop: 4 },
    { text: '8,800 rows', drop: 2 },
    { text: '11,800 rows/s', drop: 1 },
    { text: 'ETA 12s', drop: 0 },
  ];

  test('wide enough: every part, in order', () => {
    expect(fitLine(parts, 100)).toBe('deal deals.csv  ██████░░░░░░  48%  1.2/2.5 MB  8,800 rows  11,800 rows/s  ETA 12s');
  });

  test('narrower: the most droppable parts go first, the order stays', () => {
    expect(fitLine(parts, 60)).toBe('deal deals.csv  48%  8,800 rows  11,800 rows/s  ETA 12s');
    expect(fitLine(parts, 40)).toBe('deal deals.csv  48%  ETA 12s');
  });

  test('never wider than the terminal, however narrow', () => {
    for (const columns of [1, 10, 20, 33, 60, 100]) expect(fitLine(parts, columns).length).toBeLessThanOrEqual(columns);
    expect(fitLine(parts, 20)).toBe('deal deals.csv  48%…');
  });

  test('a part with a short text keeps its place in short form once the droppable parts are gone', () => {
    const waiting = [
      { text: 'deal deals.csv', drop: 0 },
      { text: '8,800 rows', drop: 2 },
      { text: 'waiting 4s for the rate limit (429)', short: 'waiting 4s (rate limit)', drop: 0 },
      { text: 'ETA 12s', drop: 0 },
    ];
    expect(fitLine(waiting, 80)).toBe('deal deals.csv  8,800 rows  waiting 4s for the rate limit (429)  ETA 12s');
    expect(fitLine(waiting, 60)).toBe('deal deals.csv  waiting 4s for the rate limit (429)  ETA 12s');
    expect(fitLine(waiting, 50)).toBe('deal deals.csv  waiting 4s (rate limit)  ETA 12s');
  });
});
