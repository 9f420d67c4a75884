// What a push's requests met (send/types.ts Traffic), in each format's words: did the API bound the
// run (429s, waits, a limit that stayed low, slow answers) or did batch-sync? One place, so the human
// line, the JSON and the summary line say the same.
import type { RunReport } from './run-report.js';
import { plural } from './plural.js';
import { fitLine, type LinePart } from './progress-line.js';

export type TrafficReport = NonNullable<RunReport['traffic']>;

const secs = (ms: number) => `${(ms / 1000).toFixed(1)}s`;

/**
 * `requests: 502 (3 answered 429, 5 retries), 2.1s waited for rate limits and retries, up to 14 in
 * flight, p95 latency 104 ms`, fitted to `columns` (the terminal's, else 80) as the progress line
 * is: when the whole does not fit, its short form (`requests: 502 (3 × 429, 5 retries), 2.1s waited,
 * up to 14 in flight, p95 104 ms`), then the latency and the peak left out, then cut.
 */
export function trafficLine(t: TrafficReport, columns = 80): string {
  const latency = t.latencyP95Ms === undefined ? '' : `p95 latency ${t.latencyP95Ms} ms`;
  const retries = plural(t.retries, 'retry', 'retries');
  const whole = [
    `requests: ${t.requests} (${t.throttled} answered 429, ${retries})`,
    `${secs(t.waitMs)} waited for rate limits and retries`,
    `up to ${t.peakConcurrency} in flight`,
    latency,
  ]
    .filter(Boolean)
    .join(', ');
  if (whole.length <= columns) return whole;
  const parts: LinePart[] = [
    { text: `requests: ${t.requests} (${t.throttled} × 429, ${retries})`, drop: 0 },
    { text: `${secs(t.waitMs)} waited`, drop: 0 },
    { text: `up to ${t.peakConcurrency} in flight`, drop: 1 },
    { text: latency.replace('latency ', ''), drop: 2 },
  ];
  return fitLine(parts, columns, ', ');
}

export function trafficJson(t: TrafficReport) {
  return {
    requests: t.requests,
    throttled: t.throttled,
    retries: t.retries,
    waitMs: t.waitMs,
    peakConcurrency: t.peakConcurrency,
    latencyP95Ms: t.latencyP95Ms ?? null,
  };
}

/** key=value pairs for the summary line. */
export function trafficPairs(t: TrafficReport): string[] {
  return [`requests=${t.requests}`, `throttled=${t.throttled}`, `retries=${t.retries}`, `waited=${secs(t.waitMs)}`, `peak-concurrency=${t.peakConcurrency}`];
}
