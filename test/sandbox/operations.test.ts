// The eight operations over a real socket: what POST and PATCH do to records, and the answer shape.
import { afterAll, beforeEach, describe, expect, test } from 'vitest';
import type { SandboxHandle } from '../../src/sandbox/index.js';
import { deal, profile, sandboxWithProfiles, send } from '../helpers/sandbox.js';

let sb: SandboxHandle;
beforeEach(async () => {
  await sb?.close();
  sb = await sandboxWithProfiles();
});
afterAll(() => sb.close());

const ok = (success: number) => ({ data: { code: 200, success, error: [] }, status: 'SUCCESS' });

describe('POST creates or replaces by externalId', () => {
  test('sales-profile', async () => {
    const r = await send(sb, 'POST', 'sales-profile', [{ ...profile('carla'), customFields: null }]);
    expect(r.status).toBe(200);
    expect(r.body).toEqual(ok(1));
    expect(sb.record('sales-profile', 'carla')).toEqual({ ...profile('carla'), customFields: null });
  });
  test('account', async () => {
    const r = await send(sb, 'POST', 'account', [{ externalId: 'A1', name: 'Acme', type: 'COMPANY' }]);
    expect(r.body).toEqual(ok(1));
    expect(sb.record('account', 'A1')).toEqual({ externalId: 'A1', name: 'Acme', type: 'COMPANY' });
  });
  test('deal', async () => {
    const r = await send(sb, 'POST', 'deal', [deal('D1', { closeDate: null })]);
    expect(r.body).toEqual(ok(1));
    expect(sb.record('deals', 'D1')).toEqual(deal('D1', { closeDate: null }));
  });
  test('activity', async () => {
    const activity = { externalId: 'T1', type: 'CALL', ownerExternalId: 'ana', source: { name: 'OUTBOUND' }, associated: { dealExternalId: 'D1' } };
    const r = await send(sb, 'POST', 'activity', [activity]);
    expect(r.body).toEqual(ok(1));
    expect(sb.record('activities', 'T1')).toEqual(activity);
  });
  test('a second POST with the same externalId replaces the whole record', async () => {
    await send(sb, 'POST', 'deal', [deal('D1', { closeDate: '2024-05-01', currentStage: { pipelineName: 'P', value: 'Won' } })]);
    const r = await send(sb, 'POST', 'deal', [deal('D1', { title: 'Renamed' })]);
    expect(r.body).toEqual(ok(1));
    expect(sb.record('deal', 'D1')).toEqual(deal('D1', { title: 'Renamed' }));
    expect(sb.records('deal')).toHaveLength(1);
  });
});

describe('PATCH merges the given top-level fields into an existing record', () => {
  test('sales-profile', async () => {
    const r = await send(sb, 'PATCH', 'sales-profile', [{ externalId: 'ana', profile: { firstName: 'Ana', lastName: 'Souza' } }]);
    expect(r.body).toEqual(ok(1));
    expect(sb.record('sales-profile', 'ana')).toEqual({ ...profile('ana'), profile: { firstName: 'Ana', lastName: 'Souza' } });
  });
  test('account: name changes, type stays', async () => {
    await send(sb, 'POST', 'account', [{ externalId: 'A1', name: 'Acme', type: 'CLIENT' }]);
    const r = await send(sb, 'PATCH', 'account', [{ externalId: 'A1', name: 'Acme Ltd' }]);
    expect(r.body).toEqual(ok(1));
    expect(sb.record('account', 'A1')).toEqual({ externalId: 'A1', name: 'Acme Ltd', type: 'CLIENT' });
  });
  test('deal: the merge is shallow (a nested object is replaced, not merged)', async () => {
    await send(sb, 'POST', 'deal', [deal('D1', { amount: { value: '1', currency: 'USD', exchangeRate: '1.0' } })]);
    const r = await send(sb, 'PATCH', 'deal', [{ externalId: 'D1', isWon: true, amount: { value: '2', currency: 'EUR' } }]);
    expect(r.body).toEqual(ok(1));
    expect(sb.record('deal', 'D1')).toEqual(deal('D1', { isWon: true, amount: { value: '2', currency: 'EUR' } }));
  });
  test('activity: associated from the POST survives a PATCH without it', async () => {
    await send(sb, 'POST', 'activity', [
      { externalId: 'T1', type: 'CALL', ownerExternalId: 'ana', source: { name: 'INBOUND' }, associated: { accountExternalId: 'A1' } },
    ]);
    const r = await send(sb, 'PATCH', 'activity', [{ externalId: 'T1', type: 'MEET' }]);
    expect(r.body).toEqual(ok(1));
    expect(sb.record('activity', 'T1')).toMatchObject({ type: 'MEET', associated: { accountExternalId: 'A1' }, source: { name: 'INBOUND' } });
  });
  test('an unknown externalId is a NOT_FOUND item error and creates nothing', async () => {
    const r = await send(sb, 'PATCH', 'account', [{ externalId: 'nope', name: 'X' }]);
    expect(r.status).toBe(200);
    expect(r.body.data).toEqual({
      code: 200,
      success: 0,
      error: [
        {
          message: 'NOT_FOUND',
          detail: 'items[0] externalId=nope: externalId: no account "nope" exists to update (PATCH changes existing records; POST creates them)',
        },
      ],
    });
    expect(sb.record('account', 'nope')).toBeUndefined();
  });
});

describe('item errors', () => {
  test('detail names index, externalId and field, one element per problem', async () => {
    const items = [deal('D1'), deal('D2'), deal('D3'), deal('DEAL-9', { amount: { value: '1,5', currency: 'USX' } }), { title: 7 }];
    const r = await send(sb, 'POST', 'deal', items);
    expect(r.status).toBe(200);
    expect(r.body.status).toBe('SUCCESS');
    expect(r.body.data.code).toBe(200);
    expect(r.body.data.success).toBe(3);
    const details = r.body.data.error.map((e: { message: string; detail: string }) => `${e.message} ${e.detail}`);
    expect(details).toContain('VALIDATION_ERROR items[3] externalId=DEAL-9: amount.currency: "USX" is not an ISO-4217 currency code');
    expect(details).toContain('VALIDATION_ERROR items[3] externalId=DEAL-9: amount.value: "1,5" is not a decimal string (digits, optional "-" and "." only)');
    expect(details).toContain('VALIDATION_ERROR items[4] externalId=?: externalId: is required');
    expect(details).toContain('VALIDATION_ERROR items[4] externalId=?: title: expected string, received number');
    expect(details.filter((d: string) => d.includes('items[3]'))).toHaveLength(2);
    expect(sb.records('deal').map((d) => d.externalId)).toEqual(['D1', 'D2', 'D3']);
  });
  test('an item that is not an object is reported, not a crash', async () => {
    const r = await send(sb, 'POST', 'account', [null, 'x']);
    expect(r.body.data.code).toBe(200);
    expect(r.body.data.error.map((e: { detail: string }) => e.detail)).toEqual([
      'items[0] externalId=?: expected object, received null',
      'items[1] externalId=?: expected object, received string',
    ]);
  });
  test('a deal whose owner or agent is not a sales profile is refused, naming each field', async () => {
    const r = await send(sb, 'POST', 'deal', [deal('D1', { ownerExternalId: 'ghost', agentExternalId: 'phantom' }), deal('D2', { agentExternalId: 'ghost' })]);
    expect(r.body.data).toEqual({
      code: 200,
      success: 0,
      error: [
        { message: 'VALIDATION_ERROR', detail: 'items[0] externalId=D1: ownerExternalId: "ghost" does not exist as a sales profile' },
        { message: 'VALIDATION_ERROR', detail: 'items[0] externalId=D1: agentExternalId: "phantom" does not exist as a sales profile' },
        { message: 'VALIDATION_ERROR', detail: 'items[1] externalId=D2: agentExternalId: "ghost" does not exist as a sales profile' },
      ],
    });
    expect(sb.records('deal')).toEqual([]);
  });
  test('a PATCH that moves a deal to an unknown owner is refused and leaves the record as it was', async () => {
    await send(sb, 'POST', 'deal', [deal('D1')]);
    const r = await send(sb, 'PATCH', 'deal', [{ externalId: 'D1', ownerExternalId: 'ghost', title: 'changed' }]);
    expect(r.body.data.error[0].detail).toBe('items[0] externalId=D1: ownerExternalId: "ghost" does not exist as a sales profile');
    expect(sb.record('deal', 'D1')).toEqual(deal('D1'));
  });
  test('an activity whose owner is not a sales profile is refused as a deal is, the detail naming the option that accepts it', async () => {
    const activity = (id: string, owner: string) => ({ externalId: id, type: 'CALL', ownerExternalId: owner, source: { name: 'INBOUND' } });
    const r = await send(sb, 'POST', 'activity', [activity('T1', 'ghost'), activity('T2', 'ana')]);
    expect(r.body.data).toEqual({
      code: 200,
      success: 1,
      error: [
        {
          message: 'VALIDATION_ERROR',
          detail:
            'items[0] externalId=T1: ownerExternalId: "ghost" does not exist as a sales profile (an activity\'s owner is checked as a deal\'s is; --allow-unknown-activity-owners accepts it)',
        },
      ],
    });
    expect(sb.records('activity').map((a) => a.externalId)).toEqual(['T2']);
    // a PATCH that moves it to an unknown owner too, and the record stays as it was
    const p = await send(sb, 'PATCH', 'activity', [{ externalId: 'T2', ownerExternalId: 'phantom' }]);
    expect(p.body.data.error[0].detail).toMatch(/^items\[0\] externalId=T2: ownerExternalId: "phantom" does not exist as a sales profile/);
    expect(sb.record('activity', 'T2')?.ownerExternalId).toBe('ana');
  });
  test('allowUnknownActivityOwners: such an activity is accepted, as some APIs do', async () => {
    const lenient = await sandboxWithProfiles({ allowUnknownActivityOwners: true });
    try {
      const r = await send(lenient, 'POST', 'activity', [{ externalId: 'T1', type: 'CALL', ownerExternalId: 'ghost', source: { name: 'INBOUND' } }]);
      expect(r.body).toEqual(ok(1));
      // deals are still checked: that rule is the spec's
      const d = await send(lenient, 'POST', 'deal', [deal('D1', { ownerExternalId: 'ghost' })]);
      expect(d.body.data.success).toBe(0);
    } finally {
      await lenient.close();
    }
  });
  test('a PATCH item with POST-only fields is a validation error (email, type, associated)', async () => {
    const r1 = await send(sb, 'PATCH', 'sales-profile', [{ externalId: 'ana', email: 'new@example.com' }]);
    expect(r1.body.data.error[0].detail).toBe('items[0] externalId=ana: unknown field "email": not a field of this request');
    await send(sb, 'POST', 'account', [{ externalId: 'A1', name: 'Acme', type: 'CLIENT' }]);
    const r2 = await send(sb, 'PATCH', 'account', [{ externalId: 'A1', type: 'COMPANY' }]);
    expect(r2.body.data.error[0].detail).toBe('items[0] externalId=A1: unknown field "type": not a field of this request');
    await send(sb, 'POST', 'activity', [{ externalId: 'T1', type: 'CALL', ownerExternalId: 'ana', source: { name: 'INBOUND' } }]);
    const r3 = await send(sb, 'PATCH', 'activity', [{ externalId: 'T1', associated: {} }]);
    expect(r3.body.data.error[0].detail).toBe('items[0] externalId=T1: unknown field "associated": not a field of this request');
    expect(sb.record('account', 'A1')?.type).toBe('CLIENT');
    // a server's words: nothing about what a client did or did not send
    for (const r of [r1, r2, r3]) expect(r.body.data.error[0].detail).not.toMatch(/not sent|not part of the API/);
  });
});

test('items are applied in order: of two items with one externalId, the later wins', async () => {
  const first = { ...profile('dora'), profile: { firstName: 'First', lastName: '' } };
  const second = { ...profile('dora'), profile: { firstName: 'Second', lastName: '' } };
  const r = await send(sb, 'POST', 'sales-profile', [first, second]);
  expect(r.body).toEqual(ok(2));
  expect(sb.record('sales-profile', 'dora')?.profile).toEqual({ firstName: 'Second', lastName: '' });
  // a deal owned by a profile created by the previous batch is accepted
  const d = await send(sb, 'POST', 'deal', [deal('D1', { ownerExternalId: 'dora', agentExternalId: 'dora' })]);
  expect(d.body).toEqual(ok(1));
});

test('an empty batch is accepted with success 0 and code 200', async () => {
  const r = await send(sb, 'POST', 'deal', []);
  expect(r.body).toEqual(ok(0));
});
