// The run's timeline for the HTML report: once a second, the run's cumulative counters as they stand
// (rows read, items acknowledged, requests, 429s, retries, time waited) and what is true now (requests
// in flight, the limit, the paced rate, the latency percentiles so far). Made only for `--html`: a run
// without it starts no timer and reads nothing. Bounded: past MAX_SAMPLES, every other sample is
// dropped and the step doubles, so an eight-hour run keeps what a ten-minute one does.
import type { FlowCounts } from '../send/types.js';
import type { ProgressCounts } from './progress.js';

/** What the sending side can say at a moment (send/api-client.ts traffic()). */
export type FlowView = FlowCounts & { inFlight?: number; concurrency?: number; rate?: number };

/** One sample: `t` seconds since the start; counters are cumulative, the rest as they stood. */
export interface TimelineSample {
  t: number;
  rowsRead: number;
  itemsAcked: number;
  requests: number;
  throttled: number;
  retries: number;
  waitMs: number;
  inFlight: number;
  concurrency: number | null;
  rate: number | null;
  p50: number | null;
  p95: number | null;
}

export interface Timeline {
  /** The run's progress counts (one object the run keeps updating). */
  progress(counts: ProgressCounts): void;
  /** The sending side, once the run has one. */
  connected(flow: () => FlowView | undefined): void;
  /** The last sample, and the timer stopped. */
  stop(): TimelineSample[];
}

const MAX_SAMPLES = 600;

export function startTimeline(now: () => number = Date.now, everyMs = 1000): Timeline {
  const started = now();
  const samples: TimelineSample[] = [];
  let step = 1;
  let tick = 0;
  let counts: ProgressCounts | undefined;
  let flow: (() => FlowView | undefined) | undefined;
  const sample = (): TimelineSample => {
    const f = flow?.() ?? {};
    return {
      t: Math.round((now() - started) / 100) / 10,
      rowsRead: counts?.rowsRead ?? 0,
      itemsAcked: counts?.itemsAcked ?? 0,
      requests: f.requests ?? 0,
      throttled: f.throttled ?? 0,
      retries: f.retries ?? counts?.retries ?? 0,
      waitMs: f.waitMs ?? 0,
      inFlight: f.inFlight ?? counts?.inFlight ?? 0,
      concurrency: f.concurrency ?? null,
      rate: f.rate ?? null,
      p50: f.latencyP50Ms ?? null,
      p95: f.latencyP95Ms ?? null,
    };
  };
  const take = () => {
    if (tick++ % step !== 0) return;
    samples.push(sample());
    if (samples.length < MAX_SAMPLES) return;
    // the counters are cumulative: dropping a sample loses resolution, never a count
    for (let i = 0; i < samples.length / 2; i++) samples[i] = samples[i * 2]!;
    samples.length = Math.ceil(samples.length / 2);
    step *= 2;
  };
  samples.push(sample());
  const timer = setInterval(take, everyMs);
  timer.unref();
  return {
    progress(c) {
      counts = c;
    },
    connected(f) {
      flow = f;
    },
    stop() {
      clearInterval(timer);
      // a last interval of a few milliseconds would show as a spike: it joins the one before
      const last = sample();
      if (samples.length > 1 && last.t - samples.at(-1)!.t < 0.5) samples[samples.length - 1] = last;
      else samples.push(last);
      return samples;
    },
  };
}
