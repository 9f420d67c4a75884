import { describe, expect, test } from 'vitest';
import { batchId, newRunId } from '../../src/plan/batch-id.js';
import { createBatcher, itemBytes, type PlannedBatch } from '../../src/plan/batcher.js';
import { inSendOrder } from '../../src/plan/order.js';

function run(count: number, maxItems: number, maxBytes: number, size = 20) {
  const batcher = createBatcher<number>({ maxItems, maxBytes, source: 'crm', batchIdOf: (seq) => batchId('crm', 'deal', 'RUN', seq) });
  const batches: PlannedBatch<number>[] = [];
  for (let i = 0; i < count; i++) {
    const json = JSON.stringify({ externalId: `D${i}`, pad: 'x'.repeat(size) });
    const done = batcher.add({ json, bytes: itemBytes(json), meta: i });
    if (done) batches.push(done);
  }
  const last = batcher.flush();
  if (last) batches.push(last);
  return batches;
}

describe('batcher', () => {
  test('cuts by item count and keeps every item once, in order', () => {
    const batches = run(250, 100, 1_000_000);
    expect(batches.map((b) => b.items.length)).toEqual([100, 100, 50]);
    expect(batches.flatMap((b) => b.items.map((i) => i.meta))).toEqual([...Array(250).keys()]);
  });
  test('no body exceeds the byte limit, and bodies are the exact envelope', () => {
    const batches = run(300, 1000, 2_000, 50);
    expect(batches.length).toBeGreaterThan(10);
    for (const b of batches) {
      expect(Buffer.byteLength(b.body)).toBeLessThanOrEqual(2_000);
      const parsed = JSON.parse(b.body.toString('utf8'));
      expect(parsed).toMatchObject({ batchId: b.batchId, source: 'crm' });
      expect(parsed.items).toHaveLength(b.items.length);
    }
  });
  test('batch ids are deterministic: source-resource-run-seq', () => {
    expect(run(3, 2, 1_000_000).map((b) => b.batchId)).toEqual(['crm-deal-RUN-00001', 'crm-deal-RUN-00002']);
    expect(newRunId(new Date('2026-11-21T05:44:56.123Z'), () => 0.5)).toBe('20261121T054456Z-8000');
  });
});

test('send order: sales profiles, accounts, deals, activities, whatever order files come in', () => {
  const jobs = [
    { resource: 'activity' as const },
    { resource: 'deal' as const, n: 1 },
    { resource: 'sales-profile' as const },
    { resource: 'deal' as const, n: 2 },
    { resource: 'account' as const },
  ];
  expect(inSendOrder(jobs)).toEqual([jobs[2], jobs[4], jobs[1], jobs[3], jobs[0]]);
});
