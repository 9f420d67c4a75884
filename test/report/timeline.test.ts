// The run page's timeline (report/timeline.ts): one sample a second, bounded whatever the run's
// length, counters cumulative so dropping samples loses resolution and never a count.
import { afterEach, expect, test, vi } from 'vitest';
import { startTimeline } from '../../src/report/timeline.js';

afterEach(() => {
  vi.useRealTimers();
});

test('a sample a second from the run counts and the sending side; a two-hour run keeps at most 600 samples', () => {
  vi.useFakeTimers();
  const started = Date.now();
  const timeline = startTimeline();
  const counts = { rowsRead: 0, batchesAcked: 0, itemsAcked: 0, retries: 0 };
  timeline.progress(counts);
  let throttled = 0;
  timeline.connected(() => ({ requests: 10, throttled, inFlight: 3, concurrency: 4, latencyP50Ms: 20, latencyP95Ms: 80 }));
  for (let s = 1; s <= 7200; s++) {
    counts.rowsRead += 100;
    counts.itemsAcked += 90;
    if (s === 3) throttled = 2;
    vi.advanceTimersByTime(1000);
  }
  const samples = timeline.stop();
  expect(samples.length).toBeLessThanOrEqual(601);
  expect(samples.length).toBeGreaterThan(300);
  expect(samples[0]).toMatchObject({ t: 0, rowsRead: 0 });
  const last = samples.at(-1)!;
  expect(last).toMatchObject({
    t: (Date.now() - started) / 1000,
    rowsRead: 720_000,
    itemsAcked: 648_000,
    throttled: 2,
    inFlight: 3,
    concurrency: 4,
    p50: 20,
    p95: 80,
  });
  // in time order, the step between samples grown evenly
  for (let i = 1; i < samples.length; i++) expect(samples[i]!.t).toBeGreaterThan(samples[i - 1]!.t);
});

test('stopped, it samples no more', () => {
  vi.useFakeTimers();
  const timeline = startTimeline();
  const first = timeline.stop().length;
  vi.advanceTimersByTime(10_000);
  expect(timeline.stop().length).toBeLessThanOrEqual(first + 1);
});
