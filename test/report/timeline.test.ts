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

// The latency chart showed p50/p95 of every answer so far: a slow minute late in a run barely moved
// it. Given the answers' latencies as the client counts them (a cumulative histogram, 1 ms
// buckets), each sample's percentiles are of the answers of its own second.
test('latency percentiles per sample: each second’s own answers, not the run’s so far; none when a second had none', () => {
  vi.useFakeTimers();
  const counts = new Uint32Array(10_001);
  const answer = (ms: number, n: number) => {
    counts[ms]! += n;
  };
  const timeline = startTimeline();
  timeline.connected(() => ({ requests: 0, latencyCounts: counts, latencyP50Ms: 999, latencyP95Ms: 999 }));
  answer(20, 100); // second 1: fast answers
  vi.advanceTimersByTime(1000);
  answer(500, 18); // second 2: slow ones, and two slower
  answer(900, 2);
  vi.advanceTimersByTime(1000);
  vi.advanceTimersByTime(1000); // second 3: nothing answered
  answer(30, 10); // second 4
  vi.advanceTimersByTime(1000);
  const samples = timeline.stop();
  expect(samples.slice(1, 5).map((s) => [s.p50, s.p95])).toEqual([
    [20, 20],
    [500, 900],
    [null, null],
    [30, 30],
  ]);
  expect(samples.slice(1).every((s) => s.latencyPerSample)).toBe(true);
});

test('a client that gives only its percentiles so far: they are shown as such', () => {
  vi.useFakeTimers();
  const timeline = startTimeline();
  timeline.connected(() => ({ requests: 1, latencyP50Ms: 20, latencyP95Ms: 80 }));
  vi.advanceTimersByTime(1000);
  const samples = timeline.stop();
  expect(samples[1]).toMatchObject({ p50: 20, p95: 80, latencyPerSample: false });
});
