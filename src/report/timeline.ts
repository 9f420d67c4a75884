// The run's timeline for the HTML report: once a second, the run's cumulative counters as they stand
// (rows read, items acknowledged, requests, 429s, retries, time waited) and what is true now (requests
// in flight, the limit, the paced rate) or of that second alone (the latency percentiles of the answers
// it got, when the client counts them by latency; else the percentiles so far). Made only for `--html`: a run
// without it starts no timer and reads nothing. Bounded: past MAX_SAMPLES, every other sample is
// dropped and the step doubles, so an eight-hour run keeps what a ten-minute one does.
import type { FlowCounts } from '../send/types.js';
import type { ProgressCounts } from './progress.js';

/** What the sending side can say at a moment (send/api-client.ts traffic()). */
export type FlowView = FlowCounts & {
  inFlight?: number;
  concurrency?: number;
  rate?: number;
  /**
   * Successful answers so far by latency in 1 ms buckets, the last holding the rest (as
   * send/flow-control.ts counts them): a sample's percentiles are then of its own answers.
   */
  latencyCounts?: ArrayLike<number>;
};

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
  /** Latency percentiles (ms): of the sample's own answers when `latencyPerSample`, else of the run's so far. */
  p50: number | null;
  p95: number | null;
  latencyPerSample: boolean;
}

/** A percentile (0..1) of the answers counted in `now` and not in `before`; null when there are none. */
function percentileSince(now: ArrayLike<number>, before: Uint32Array | undefined, q: number): number | null {
  let total = 0;
  for (let ms = 0; ms < now.length; ms++) total += now[ms]! - (before?.[ms] ?? 0);
  if (total === 0) return null;
  const rank = Math.ceil(total * q);
  let seen = 0;
  for (let ms = 0; ms < now.length; ms++) {
    seen += now[ms]! - (before?.[ms] ?? 0);
    if (seen >= rank) return ms;
  }
  return now.length - 1;
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
  /** The latency counts at the last sample taken, and at the one before (the stop's may take its place). */
  let counted: Uint32Array | undefined;
  let countedBefore: Uint32Array | undefined;
  const sample = (since = counted): TimelineSample => {
    const f = flow?.() ?? {};
    const latencies = f.latencyCounts;
    if (latencies !== undefined) {
      countedBefore = since;
      counted = Uint32Array.from(latencies);
    }
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
      p50: latencies === undefined ? (f.latencyP50Ms ?? null) : percentileSince(latencies, since, 0.5),
      p95: latencies === undefined ? (f.latencyP95Ms ?? null) : percentileSince(latencies, since, 0.95),
      latencyPerSample: latencies !== undefined,
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
      const joins = samples.length > 1 && Math.round((now() - started) / 100) / 10 - samples.at(-1)!.t < 0.5;
      // joined, its latency is of both intervals' answers
      const last = joins ? sample(countedBefore) : sample();
      if (joins) samples[samples.length - 1] = last;
      else samples.push(last);
      return samples;
    },
  };
}
