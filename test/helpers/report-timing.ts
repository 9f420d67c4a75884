// What differs between two runs of one push that nothing but time decides (issue 18): how far the
// adaptive limit rose, the answers' latency, the time requests waited. Tests that compare two runs'
// JSON reports keep the traffic's counts and drop these.
export function withoutTrafficTimings(report: Record<string, unknown>): void {
  const traffic = report.traffic as Record<string, unknown> | null | undefined;
  if (!traffic) return;
  for (const k of ['waitMs', 'peakConcurrency', 'latencyP95Ms']) delete traffic[k];
}
