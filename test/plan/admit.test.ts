// admit without I/O: a row and what the run knows, in, one verdict out.
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { admit, jsonOf, type Candidate, type RunKnowledge } from '../../src/plan/admit.js';
import { hashItem, type ItemHash } from '../../src/util/item-hash.js';
import { STATE_ITEM } from '../../src/validate/cross-checks.js';

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
    absent: false,
    prior: undefined,
    ...over,
  };
}

/** A run that knows nothing yet: every id new, nothing resent, nothing failed, nothing in the state. */
function knowledge(over: Partial<RunKnowledge<string>> = {}): RunKnowledge<string> & { claimed: string[] } {
  const claimed: string[] = [];
  const marks: ItemHash[] = [];
  return {
    claimed,
    claim: (id, mark) => {
      const i = claimed.indexOf(id);
      if (i >= 0) return { at: 'deals.csv:2', mark: marks[i]! };
      claimed.push(id);
      marks.push(mark);
      return undefined;
    },
    holds: () => false,
    resent: () => undefined,
    holdsDependents: true,
    failedProfiles: new Set(),
    ownersFromRunOnly: false,
    carriesProfile: () => true,
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

  test('an id seen before with another item is a duplicate, naming where it was first', () => {
    const run = knowledge();
    expect(admit(row(), run)).toBe('batch');
    const second = row({ item: { externalId: 'D1', title: 'Deal, renamed', ownerExternalId: 'SP1' } });
    expect(admit(second, run)).toBe('duplicate');
    expect(second.detail).toBe('deals.csv:2');
  });

  test('an id seen before with the very same item (its JSON byte for byte) is an identical repeat, whatever form its JSON came in', () => {
    const run = knowledge();
    expect(admit(row(), run)).toBe('batch');
    const json = '{"externalId":"D1","title":"Deal","ownerExternalId":"SP1"}';
    for (const again of [row(), row({ written: json, item: undefined }), row({ encoded: Buffer.from(json), item: undefined })]) {
      expect(admit(again, run)).toBe('identical');
      expect(again.detail).toBe('deals.csv:2');
    }
    // one byte apart (key order, spacing) is another item
    expect(admit(row({ written: '{"title":"Deal","externalId":"D1","ownerExternalId":"SP1"}', item: undefined }), run)).toBe('duplicate');
  });

  test('an identical repeat comes before held back: it is never held back itself, its first row was judged', () => {
    const run = knowledge({ failedProfiles: new Set(['SP1']) });
    expect(admit(row(), run)).toBe('held-back');
    expect(admit(row(), run)).toBe('identical');
  });

  test('incremental: a row the state holds as it is (no JSON made) repeats a first row the state held, or an item the state holds', () => {
    const json = '{"externalId":"D1","title":"Deal","ownerExternalId":"SP1"}';
    // first row found by its fingerprint: a later one is identical when it is too, or when the state holds its item
    const held = knowledge({ holds: (_id, j) => j === json });
    expect(admit(row({ same: true }), held)).toBe('unchanged');
    expect(admit(row({ same: true }), held)).toBe('identical');
    expect(admit(row(), held)).toBe('identical');
    expect(admit(row({ written: '{"externalId":"D1"}', item: undefined }), held)).toBe('duplicate');
    // a first row with JSON, then one found by its fingerprint: identical only when the first was the state's item
    const firstHashed = knowledge({ claim: () => ({ at: 'deals.csv:2', mark: hashItem(json) }) });
    expect(admit(row({ same: true }), firstHashed)).toBe('duplicate');
    const firstHeld = knowledge({ claim: () => ({ at: 'deals.csv:2', mark: STATE_ITEM }) });
    expect(admit(row({ same: true }), firstHeld)).toBe('identical');
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

  test('against a target that holds only the run’s profiles (the embedded sandbox), a deal whose owner or agent the run does not carry is held back, naming them', () => {
    const run = (carried: string[], over: Partial<RunKnowledge<string>> = {}) =>
      knowledge({ ownersFromRunOnly: true, carriesProfile: (id) => carried.includes(id), ...over });
    const both = row({ ownerExternalId: 'carla', agentExternalId: 'dario' });
    expect(admit(both, run(['ana']))).toBe('held-back');
    expect([both.absent, both.detail]).toEqual([true, '"carla", "dario"']);
    const same = row({ ownerExternalId: 'carla', agentExternalId: 'carla' });
    expect(admit(same, run([]))).toBe('held-back');
    expect(same.detail).toBe('"carla"');
    expect(admit(row({ ownerExternalId: 'ana', agentExternalId: 'ana' }), run(['ana']))).toBe('batch');
    // a failed profile is said as such; --no-hold-dependents, or another target, sends it
    const failedOne = row({ ownerExternalId: 'SP9' });
    expect(admit(failedOne, run([], { failedProfiles: new Set(['SP9']) }))).toBe('held-back');
    expect([failedOne.absent, failedOne.detail]).toEqual([false, 'SP9']);
    expect(admit(row({ ownerExternalId: 'carla' }), run([], { holdsDependents: false }))).toBe('batch');
    expect(admit(row({ ownerExternalId: 'carla' }), knowledge({ carriesProfile: () => false }))).toBe('batch');
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
            claim: () => (is.duplicate ? { at: 'a.csv:1', mark: STATE_ITEM } : undefined),
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
