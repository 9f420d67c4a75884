// admit without I/O: a row and what the run knows, in, one verdict out.
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { admit, jsonOf, type Candidate, type RunKnowledge } from '../../src/plan/admit.js';

function row(over: Partial<Candidate<string>> = {}): Candidate<string> {
  const item = { externalId: 'D1', title: 'Deal', ownerExternalId: 'SP1' };
  return {
    externalId: 'D1',
    ownerExternalId: 'SP1',
    agentExternalId: undefined,
    encoded: undefined,
    written: undefined,
    item,
    same: false,
    json: undefined,
    bytes: 0,
    detail: '',
    prior: undefined,
    ...over,
  };
}

/** A run that knows nothing yet: every id new, nothing resent, nothing failed, nothing in the state. */
function knowledge(over: Partial<RunKnowledge<string>> = {}): RunKnowledge<string> & { claimed: string[] } {
  const claimed: string[] = [];
  return {
    claimed,
    claim: (id) => (claimed.includes(id) ? 'deals.csv:2' : void claimed.push(id)),
    resent: () => undefined,
    holdsDependents: true,
    failedProfiles: new Set(),
    unchanged: () => false,
    maxItemBytes: 1000,
    ...over,
  };
}

describe('admit', () => {
  test('a new valid row goes into a batch with its JSON and size', () => {
    const r = row();
    expect(admit(r, knowledge())).toBe('batch');
    expect(r.json).toBe('{"externalId":"D1","title":"Deal","ownerExternalId":"SP1"}');
    expect(r.bytes).toBe(Buffer.byteLength(r.json!));
  });

  test('the JSON the mapper wrote, or the worker encoded, is taken as it is', () => {
    const written = row({ written: '{"externalId":"D1","x":"é"}' });
    expect(admit(written, knowledge())).toBe('batch');
    expect([written.json, written.bytes]).toEqual(['{"externalId":"D1","x":"é"}', 28]);
    const encoded = row({ encoded: Buffer.from('{"externalId":"D1"}'), item: undefined });
    expect(admit(encoded, knowledge())).toBe('batch');
    expect([encoded.json, encoded.bytes]).toEqual([undefined, 19]);
  });

  test('an id seen before is a duplicate, naming where it was first', () => {
    const run = knowledge();
    expect(admit(row(), run)).toBe('batch');
    const second = row();
    expect(admit(second, run)).toBe('duplicate');
    expect(second.detail).toBe('deals.csv:2');
  });

  test('a row without an externalId claims nothing and can be no duplicate', () => {
    const run = knowledge();
    expect(admit(row({ externalId: undefined }), run)).toBe('batch');
    expect(admit(row({ externalId: undefined }), run)).toBe('batch');
    expect(run.claimed).toEqual([]);
  });

  test("a batch resent first that carried this item gives its outcome, asked with the row's JSON", () => {
    const asked: unknown[] = [];
    const r = row();
    const run = knowledge({ resent: (_, c) => (asked.push(jsonOf(c)), 'accepted earlier') });
    expect(admit(r, run)).toBe('resent');
    expect(r.prior).toBe('accepted earlier');
    expect(asked).toEqual(['{"externalId":"D1","title":"Deal","ownerExternalId":"SP1"}']);
  });

  test('a deal whose owner or agent failed is held back, unless dependents are not held', () => {
    const failed = new Set(['SP9']);
    const byOwner = row({ ownerExternalId: 'SP9' });
    expect(admit(byOwner, knowledge({ failedProfiles: failed }))).toBe('held-back');
    expect(byOwner.detail).toBe('SP9');
    const byAgent = row({ agentExternalId: 'SP9' });
    expect(admit(byAgent, knowledge({ failedProfiles: failed }))).toBe('held-back');
    expect(admit(row({ ownerExternalId: 'SP9' }), knowledge({ failedProfiles: failed, holdsDependents: false }))).toBe('batch');
  });

  test('unchanged: by its fingerprint without serialising, or by the state holding its JSON', () => {
    const same = row({ same: true, item: { toJSON: () => expect.unreachable('serialised') } });
    expect(admit(same, knowledge())).toBe('unchanged');
    expect(jsonOf(same)).toBeUndefined();
    const seen: unknown[] = [];
    expect(admit(row(), knowledge({ unchanged: (id, json) => (seen.push(id, json), true) }))).toBe('unchanged');
    expect(seen).toEqual(['D1', '{"externalId":"D1","title":"Deal","ownerExternalId":"SP1"}']);
  });

  test('an item larger than fits one request is too large, with its size', () => {
    const r = row({ written: JSON.stringify({ externalId: 'D1', pad: 'x'.repeat(2000) }) });
    expect(admit(r, knowledge())).toBe('too-large');
    expect(r.bytes).toBe(r.written!.length);
  });

  test('one verdict, checked in order: duplicate before resent before held back before unchanged before size', () => {
    const kinds = ['duplicate', 'resent', 'held-back', 'unchanged', 'too-large'] as const;
    fc.assert(
      fc.property(
        fc.record({ duplicate: fc.boolean(), resent: fc.boolean(), 'held-back': fc.boolean(), unchanged: fc.boolean(), 'too-large': fc.boolean() }),
        (is) => {
          const run = knowledge({
            claim: () => (is.duplicate ? 'a.csv:1' : undefined),
            resent: () => (is.resent ? 'prior' : undefined),
            failedProfiles: new Set(is['held-back'] ? ['SP1'] : []),
            unchanged: () => is.unchanged,
            maxItemBytes: is['too-large'] ? 5 : 1000,
          });
          expect(admit(row(), run)).toBe(kinds.find((k) => is[k]) ?? 'batch');
        },
      ),
    );
  });
});
