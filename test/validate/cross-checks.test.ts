import { describe, expect, test } from 'vitest';
import { STATE_ITEM, createCrossChecks } from '../../src/validate/cross-checks.js';
import { hashItem } from '../../src/util/item-hash.js';

const at = (line: number, file = 'deals.csv') => ({ file, line });
const mark = hashItem('{"externalId":"D-1"}');

describe('cross-record checks of one run', () => {
  test('a duplicate externalId within a resource names the first line, which wins, and its item’s mark', () => {
    const checks = createCrossChecks();
    expect(checks.claim('deal', 'D-1', at(2), mark)).toBeUndefined();
    const other = hashItem('{"externalId":"D-2"}');
    expect(checks.claim('deal', 'D-2', at(3, 'more-deals.csv'), other)).toBeUndefined();
    expect(checks.claim('deal', 'D-2', at(9), mark)).toEqual({ at: 'more-deals.csv:3', mark: other });
    // the same id in another resource is no duplicate
    expect(checks.claim('account', 'D-2', at(2, 'accounts.csv'), mark)).toBeUndefined();
  });

  test('the last id claimed can be marked as the item the state holds (its row was found unchanged)', () => {
    const checks = createCrossChecks();
    checks.claim('deal', 'D-1', at(2), mark);
    checks.claim('deal', 'D-2', at(3), mark);
    checks.heldAsIs('deal');
    expect(checks.claim('deal', 'D-1', at(4), mark)?.mark).toEqual(mark);
    expect(checks.claim('deal', 'D-2', at(5), mark)?.mark).toEqual(STATE_ITEM);
  });

  test('with many ids over several files, a duplicate names the right file and line', () => {
    const checks = createCrossChecks();
    const files = ['a.csv', 'b.csv', 'c.csv'];
    // lines up to 4 billion, files back and forth (a file read again after another)
    const where = (i: number) => at(i % 7 === 0 ? 4_000_000_000 - i : i + 2, files[Math.floor(i / 10_000) % 3]);
    const markOf = (i: number) => hashItem(`{"externalId":"D-${i}"}`);
    for (let i = 0; i < 50_000; i++) expect(checks.claim('deal', `D-${i}`, where(i), markOf(i))).toBeUndefined();
    for (const i of [0, 7, 9_999, 10_000, 29_999, 30_000, 49_999]) {
      const w = where(i);
      expect(checks.claim('deal', `D-${i}`, at(1, 'z.csv'), mark)).toEqual({ at: `${w.file}:${w.line}`, mark: markOf(i) });
    }
  });

  test("a deal whose owner or agent is not among the run's sales profiles is a warning", () => {
    const checks = createCrossChecks();
    checks.claim('sales-profile', 'ana', at(2, 'users.csv'), mark);
    const warnings = checks.references('deal', { ownerExternalId: 'ana', agentExternalId: 'zoe' }, at(5));
    expect(warnings).toEqual([
      {
        severity: 'warning',
        file: 'deals.csv',
        line: 5,
        field: 'agentExternalId',
        reason: 'agent "zoe" is not among this run\'s sales-profiles (it must already exist on the server)',
      },
    ]);
  });

  test('a run without sales profiles says nothing about owners: they may all exist on the server', () => {
    expect(createCrossChecks().references('deal', { ownerExternalId: 'x', agentExternalId: 'y' }, at(2))).toEqual([]);
  });

  test('activities linking accounts or deals absent from the run are warnings', () => {
    const checks = createCrossChecks();
    checks.claim('account', 'acme', at(2, 'accounts.csv'), mark);
    checks.claim('deal', 'D-1', at(2), mark);
    const warnings = checks.references(
      'activity',
      { ownerExternalId: 'ana', associated: { accountExternalId: 'globex', dealExternalId: 'D-1' } },
      at(4, 'activities.csv'),
    );
    expect(warnings.map((w) => [w.field, w.severity])).toEqual([['associated.accountExternalId', 'warning']]);
  });
});

test("the deals' and activities' owners missing from the run are counted once each, the first ten named in reading order", () => {
  const checks = createCrossChecks();
  checks.claim('sales-profile', 'ana', at(2, 'users.csv'), mark);
  for (let i = 0; i < 12; i++) checks.references('deal', { ownerExternalId: `o${i}`, agentExternalId: i % 2 ? 'ana' : `o${i}` }, at(i + 2));
  checks.references('deal', { ownerExternalId: 'o3', agentExternalId: 'o3' }, at(20));
  checks.references('activity', { ownerExternalId: 'zoe' }, at(2, 'activities.csv'));
  checks.references('activity', { ownerExternalId: 'o1' }, at(3, 'activities.csv'));
  expect(checks.namedOwnersNotInRun()).toEqual({ count: 13, ids: ['o0', 'o1', 'o2', 'o3', 'o4', 'o5', 'o6', 'o7', 'o8', 'o9'] });
  expect(checks.ownersNotInRun()).toBe(13);
  expect([checks.carriesProfile('ana'), checks.carriesProfile('o1')]).toEqual([true, false]);
});
