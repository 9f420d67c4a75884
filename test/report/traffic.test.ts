// The run's traffic (issue 18.5) in every format: a user sees whether the API or batch-sync bounded the run.
import { describe, expect, test } from 'vitest';
import { createCollector } from '../../src/report/collector.js';
import { memoryOutput } from '../../src/report/output.js';
import { progressText } from '../../src/report/progress.js';
import { renderHuman } from '../../src/report/render-human.js';
import { renderJson } from '../../src/report/render-json.js';
import { buildRunReport, type RunMeta } from '../../src/report/run-report.js';
import { summaryLine } from '../../src/report/summary-line.js';
import { accepted } from './fixtures.js';

const meta: RunMeta = {
  runId: '20261121-0544-ab12',
  mode: 'push',
  startedAt: new Date('2026-11-21T05:44:00.000Z'),
  endedAt: new Date('2026-11-21T05:44:26.300Z'),
  traffic: { requests: 517, throttled: 12, retries: 15, waitMs: 14_250, peakConcurrency: 6, latencyP95Ms: 104 },
};

function run() {
  const c = createCollector();
  for (let i = 2; i < 12; i++) c.record(accepted('deal', i));
  return buildRunReport(meta, c);
}

describe('traffic', () => {
  test('human: one line with requests, 429s, retries, the time waited, the concurrency reached and the latency', () => {
    const out = { ...memoryOutput(), stdoutColumns: 200 };
    renderHuman(run(), out);
    expect(out.stdout).toContain(
      'requests: 517 (12 answered 429, 15 retries), 14.3s waited for rate limits and retries, up to 6 in flight, p95 latency 104 ms',
    );
  });

  test('human: fitted to the width (80 when stdout is no terminal), the short form first, then the least needed parts left out', () => {
    const at = (stdoutColumns?: number) => {
      const out = { ...memoryOutput(), stdoutColumns };
      renderHuman(run(), out);
      return out.stdout.find((l) => l.startsWith('requests: '));
    };
    expect(at(100)).toBe('requests: 517 (12 × 429, 15 retries), 14.3s waited, up to 6 in flight, p95 104 ms');
    expect(at()).toBe('requests: 517 (12 × 429, 15 retries), 14.3s waited, up to 6 in flight');
    expect(at(60)).toBe('requests: 517 (12 × 429, 15 retries), 14.3s waited');
    expect(at(30)).toHaveLength(30);
  });

  test('json: a traffic object; null when nothing was sent', () => {
    const out = memoryOutput();
    renderJson(run(), out);
    expect(JSON.parse(out.stdout.join('')).traffic).toEqual({
      requests: 517,
      throttled: 12,
      retries: 15,
      waitMs: 14_250,
      peakConcurrency: 6,
      latencyP95Ms: 104,
    });
    const none = memoryOutput();
    renderJson(buildRunReport({ ...meta, mode: 'validate', traffic: undefined }, createCollector()), none);
    expect(JSON.parse(none.stdout.join('')).traffic).toBeNull();
  });

  test('summary line: key=value pairs after the counts', () => {
    expect(summaryLine(run(), 0)).toBe(
      'batch-sync push: run 20261121-0544-ab12 OK exit=0 read=10 accepted=10 rejected=0 invalid=0 skipped=0 warnings=0 duration=26.3s requests=517 throttled=12 retries=15 waited=14.3s peak-concurrency=6',
    );
  });

  test('progress shows the requests in flight (not the limit) and the paced rate', () => {
    const counts = { rowsRead: 800, batchesAcked: 8, itemsAcked: 800, retries: 0, concurrency: 12, inFlight: 3, resource: 'deal' };
    expect(progressText(counts, { rowsPerSecond: 800 })).toBe('deal: 800 rows read, 8 batches acknowledged, 800 rows/s, 3 in flight');
    // nothing in flight: nothing said, whatever the limit
    expect(progressText({ ...counts, inFlight: 0 })).toBe('deal: 800 rows read, 8 batches acknowledged');
    expect(progressText({ ...counts, pacedRate: 19 }, { rowsPerSecond: 800 })).toBe(
      'deal: 800 rows read, 8 batches acknowledged, 800 rows/s, 3 in flight, paced at 19.0 requests/s',
    );
  });
});
