// The bisection decisions without a server: how a refused batch is split, the circuit breaker,
// the isolation budget, and how a read answer becomes each row's verdict.
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { itemBytes } from '../../src/plan/batcher.js';
import {
  claimIsolation,
  errorText,
  halves,
  newIsolation,
  onRefusal,
  refusedAlike,
  refusedItem,
  refusedWhole,
  rejectionOf,
  unclaim,
  type Batch,
} from '../../src/plan/bisect.js';

function batchOf(count: number, batchId = 'crm-deal-RUN-00001'): Batch {
  const items = Array.from({ length: count }, (_, i) => {
    const json = JSON.stringify({ externalId: `D${i}` });
    return { json, bytes: itemBytes(json), meta: { file: 'deals.csv', line: i + 2, externalId: `D${i}` } };
  });
  return { batchId, items, body: Buffer.alloc(0) };
}

describe('halves', () => {
  test('split a batch in two envelopes whose ids derive from the parent, the first taking the odd item', () => {
    const [first, second] = halves(batchOf(5), 'crm');
    expect(first.batchId).toBe('crm-deal-RUN-00001.1');
    expect(second.batchId).toBe('crm-deal-RUN-00001.2');
    expect(first.items.map((i) => i.meta.line)).toEqual([2, 3, 4]);
    expect(second.items.map((i) => i.meta.line)).toEqual([5, 6]);
    const body = JSON.parse(first.body.toString('utf8'));
    expect(body).toEqual({ batchId: 'crm-deal-RUN-00001.1', source: 'crm', items: [{ externalId: 'D0' }, { externalId: 'D1' }, { externalId: 'D2' }] });
  });
  test('keep every item exactly once, in order, for any size', () => {
    fc.assert(
      fc.property(fc.integer({ min: 2, max: 300 }), (n) => {
        const batch = batchOf(n);
        const [a, b] = halves(batch, 'crm');
        expect([...a.items, ...b.items]).toEqual(batch.items);
        expect(a.items.length - b.items.length).toBeGreaterThanOrEqual(0);
        expect(a.items.length - b.items.length).toBeLessThanOrEqual(1);
      }),
    );
  });
});

describe('a refused batch', () => {
  test('of one item is rejected with the server text; a larger one is split, a 400 under the circuit breaker', () => {
    expect(onRefusal('bad-request', 1)).toBe('reject');
    expect(onRefusal('too-large', 1)).toBe('reject');
    expect(onRefusal('bad-request', 2)).toBe('split-guarded');
    expect(onRefusal('too-large', 7)).toBe('split');
  });
  test('the single item verdict names the status, the reason and the batch', () => {
    const body = JSON.stringify({ data: { error: [{ message: 'VALIDATION_ERROR', detail: 'name is required' }] } });
    expect(refusedItem('bad-request', { status: 400, body }, 'b-1.2')).toEqual({
      message: 'HTTP_400',
      detail: 'the server refused this item: VALIDATION_ERROR: name is required (batch b-1.2)',
    });
    expect(refusedItem('too-large', { status: 413, body: '' }, 'b-1')).toEqual({
      message: 'HTTP_413',
      detail: 'the server found this single item too large: (no body) (batch b-1)',
    });
  });
  test('the circuit breaker: halves refused alike are the same status and text, numbers and batch ids aside', () => {
    const parent = { status: 400, body: '{"message":"unknown field source in batch crm-deal-RUN-00001"}' };
    expect(refusedAlike({ status: 400, body: '{"message":"unknown field source in batch crm-deal-RUN-00001.1"}' }, parent)).toBe(true);
    expect(refusedAlike({ status: 422, body: parent.body }, parent)).toBe(false);
    expect(refusedAlike({ status: 400, body: '{"message":"name is required"}' }, parent)).toBe(false);
  });
  test('a refusal naming an item is about that item, never the whole batch', () => {
    for (const body of ['items[3]: name is required', 'externalId=D4: name is required']) {
      expect(refusedAlike({ status: 400, body }, { status: 400, body })).toBe(false);
    }
  });
  test('every row of a batch refused whole gets the same verdict', () => {
    expect(refusedWhole({ status: 400, body: 'bad envelope' }, 'b-1')).toEqual({
      message: 'HTTP_400',
      detail: 'the server refused every part of batch b-1 with the same error, so no item is singled out: bad envelope',
    });
  });
  test('errorText reads the messages of a JSON error body, else the body as it came', () => {
    expect(errorText('  ')).toBe('(no body)');
    expect(errorText('{"error":[{"message":"A","detail":"x"},{"message":"B"}]}')).toBe('A: x; B');
    expect(errorText('{"message":"plain"}')).toBe('plain');
    expect(errorText('<html>502</html>')).toBe('<html>502</html>');
  });
});

describe('the isolation budget', () => {
  test('is off unless asked for', () => {
    expect(newIsolation({ isolateUnattributed: false, isolationBudget: 10 })).toBeUndefined();
    expect(claimIsolation(undefined, 10)).toBe('off');
  });
  test('takes two requests per split, refuses a split it cannot pay for, and counts the refusals', () => {
    const iso = newIsolation({ isolateUnattributed: true, isolationBudget: 5 })!;
    expect(claimIsolation(iso, 1)).toBe('single');
    expect(claimIsolation(iso, 4)).toBe('split');
    expect(claimIsolation(iso, 2)).toBe('split');
    expect(iso.sent).toBe(4);
    expect(claimIsolation(iso, 2)).toBe('over-budget');
    expect(iso).toEqual({ budget: 5, sent: 4, overBudget: 1 });
    unclaim(iso, 1);
    expect(claimIsolation(iso, 2)).toBe('split');
    expect(iso.sent).toBe(5);
  });
  test('never lets the requests sent exceed the budget', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 50 }), fc.array(fc.integer({ min: 1, max: 20 }), { maxLength: 60 }), (budget, sizes) => {
        const iso = newIsolation({ isolateUnattributed: true, isolationBudget: budget })!;
        for (const n of sizes) claimIsolation(iso, n);
        expect(iso.sent).toBeLessThanOrEqual(budget);
      }),
    );
  });
});

describe('a read answer', () => {
  test('rejects a row with its own errors, joined, and accepts a row without', () => {
    const perItem = new Map([
      [
        1,
        [
          { message: 'VALIDATION_ERROR', detail: 'name is required' },
          { message: 'VALIDATION_ERROR', detail: 'amount < 0' },
          { message: 'DUPLICATE', detail: 'same as D0' },
        ],
      ],
    ]);
    expect(rejectionOf(perItem, 0)).toBeUndefined();
    expect(rejectionOf(perItem, 1)).toEqual({ message: 'VALIDATION_ERROR, DUPLICATE', detail: 'name is required; amount < 0; same as D0' });
  });
});
