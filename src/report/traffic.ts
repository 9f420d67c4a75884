// What a push's requests met (send/types.ts Traffic), in each format's words: did the API bound the
// run (429s, waits, a limit that stayed low, slow answers) or did batch-sync? One place, so the human
// line, the JSON and the summary line say the same.
import type { RunReport } from './run-report.js';
import { plural } from './plural.js';

export type TrafficReport = NonNullable<RunReport['traffic']>;

const secs = (ms: number) => `${(ms / 1000).toFixed(1)}s`;

/** `requests: 502 (3 answered 429, 5 retries), 2.1s waited for rate limits and retries, up to 14 in flight, p95 latency 104 ms` */
export function trafficLine(t: TrafficReport): string {
  const latency = t.latencyP95Ms === undefined ? '' : `, p95 latency ${t.latencyP95Ms} ms`;
  return (
    `requests: ${t.requests} (${t.throttled} answered 429, ${plural(t.retries, 'retry', 'retries')}), ` +
    `${secs(t.waitMs)} waited for rate limits and retries, up to ${t.peakConcurrency} in flight${latency}`
  );
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
