// The /_sandbox/ endpoints and the handle's own view: what tests and push --sandbox read back.
import { afterAll, beforeEach, describe, expect, test } from 'vitest';
import type { SandboxHandle } from '../../src/sandbox/index.js';
import { call, deal, profile, sandbox, send } from '../helpers/sandbox.js';

let sb: SandboxHandle;
beforeEach(async () => {
  await sb?.close();
  sb = await sandbox();
});
afterAll(() => sb.close());

const get = async (path: string) => {
  const res = await fetch(`${sb.url}${path}`); // no x-api-key: inspection needs none
  return { status: res.status, body: (await res.json()) as any };
};

async function fillAllKinds() {
  await send(sb, 'POST', 'sales-profile', [profile('ana'), profile('bruno')], 'p1');
  await send(sb, 'POST', 'account', [{ externalId: 'A1', name: 'Acme', type: 'CLIENT' }], 'a1');
  await send(sb, 'POST', 'deal', [deal('D1'), deal('bad', { ownerExternalId: 'ghost' })], 'd1');
  await send(sb, 'PATCH', 'activity', [{ externalId: 'T-missing' }], 't1');
}

describe('GET /_sandbox/records/<resource>', () => {
  test('by the path names and by our names, equal to handle.records()', async () => {
    await fillAllKinds();
    for (const [name, resource] of [
      ['deals', 'deal'],
      ['deal', 'deal'],
      ['account', 'account'],
      ['accounts', 'account'],
      ['sales-profile', 'sales-profile'],
      ['activities', 'activity'],
    ] as const) {
      const r = await get(`/_sandbox/records/${name}`);
      expect(r.status, name).toBe(200);
      expect(r.body).toEqual({ resource, count: sb.records(resource).length, records: sb.records(resource) });
    }
    expect((await get('/_sandbox/records/deals')).body.records).toEqual([deal('D1')]);
  });
  test('an unknown resource is a 404', async () => {
    const r = await get('/_sandbox/records/widgets');
    expect(r.status).toBe(404);
    expect(r.body.data.error[0].message).toBe('NOT_FOUND');
    expect((await get('/_sandbox/nothing')).status).toBe(404);
  });
  test('the handle refuses an unknown resource name', () => {
    expect(() => sb.records('widgets')).toThrow(/unknown resource/);
  });
});

describe('GET /_sandbox/batches', () => {
  test('the order of kinds, each batch counted, no items kept', async () => {
    await fillAllKinds();
    const { body } = await get('/_sandbox/batches');
    expect(body.batches).toEqual(sb.batches());
    expect(body.batches).toEqual([
      { seq: 1, method: 'POST', resource: 'sales-profile', batchId: 'p1', source: 'tests', items: 2, accepted: 2, errors: 0, status: 200, code: 200 },
      { seq: 2, method: 'POST', resource: 'account', batchId: 'a1', source: 'tests', items: 1, accepted: 1, errors: 0, status: 200, code: 200 },
      { seq: 3, method: 'POST', resource: 'deal', batchId: 'd1', source: 'tests', items: 2, accepted: 1, errors: 1, status: 200, code: 200 },
      { seq: 4, method: 'PATCH', resource: 'activity', batchId: 't1', source: 'tests', items: 1, accepted: 0, errors: 1, status: 200, code: 200 },
    ]);
  });
  test('the log is bounded: only the newest entries are kept', async () => {
    await sb.close();
    sb = await sandbox({ historyLimit: 3 });
    for (let i = 1; i <= 8; i++) await send(sb, 'POST', 'account', [], `b${i}`);
    expect(sb.batches().map((b) => b.batchId)).toEqual(['b6', 'b7', 'b8']);
    expect(sb.batches().map((b) => b.seq)).toEqual([6, 7, 8]);
    expect(sb.stats().batches).toBe(8);
  });
});

describe('GET /_sandbox/stats and POST /_sandbox/reset', () => {
  test('counts of requests, statuses, items and records', async () => {
    await fillAllKinds();
    await call(sb, 'POST', '/v2/integration/deals', '{', {});
    await call(sb, 'POST', '/v2/integration/deals', {}, { 'x-api-key': 'wrong' });
    const { body } = await get('/_sandbox/stats');
    expect(body).toEqual(sb.stats());
    expect(body).toEqual({
      requests: 6,
      byStatus: { 200: 4, 400: 1, 401: 1 },
      batches: 4,
      itemsReceived: 6,
      itemsAccepted: 4,
      itemsRejected: 2,
      records: { 'sales-profile': 2, account: 1, deal: 1, activity: 0 },
    });
  });
  test('reset empties records, the log and the counts; the sequence keeps counting', async () => {
    await fillAllKinds();
    const res = await fetch(`${sb.url}/_sandbox/reset`, { method: 'POST' });
    expect(await res.json()).toEqual({ reset: true });
    expect(sb.records('deal')).toEqual([]);
    expect(sb.batches()).toEqual([]);
    expect(sb.stats()).toMatchObject({ requests: 0, batches: 0, records: { deal: 0, 'sales-profile': 0 } });
    await send(sb, 'POST', 'account', [], 'after');
    expect(sb.batches()[0]).toMatchObject({ batchId: 'after', seq: 5 });
  });
  test('GET /_sandbox/reset is not a reset', async () => {
    await fillAllKinds();
    expect((await get('/_sandbox/reset')).status).toBe(404);
    expect(sb.records('deal')).toHaveLength(1);
  });
});
