// The /_sandbox/ endpoints and the handle's own view: what tests and push --sandbox read back. They
// are safe on an API port that may face a network (--host 0.0.0.0): the API's key, a Host check
// against DNS rebinding, and records in bounded pages.
import { lookup } from 'node:dns/promises';
import { hostname } from 'node:os';
import { afterAll, beforeEach, describe, expect, test } from 'vitest';
import type { SandboxHandle } from '../../src/sandbox/index.js';
import { KEY, allRecords, call, deal, profile, rawRequest, sandbox, send } from '../helpers/sandbox.js';

let sb: SandboxHandle;
beforeEach(async () => {
  await sb?.close();
  sb = await sandbox();
});
afterAll(() => sb.close());

const raw = async (path: string, options: { method?: string; headers?: Record<string, string> } = {}) => {
  const { status, body } = await rawRequest(`${sb.url}${path}`, options);
  return { status, body };
};

const get = (path: string) => raw(path, { headers: { 'x-api-key': KEY } });

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
      const total = sb.records(resource).length;
      expect(r.body).toEqual({ resource, total, offset: 0, limit: 100, nextOffset: null, records: sb.records(resource) });
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
    const res = await raw('/_sandbox/reset', { method: 'POST', headers: { 'x-api-key': KEY } });
    expect(res).toEqual({ status: 200, body: { reset: true } });
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

describe('records come in bounded pages', () => {
  const accounts = (from: number, count: number) =>
    Array.from({ length: count }, (_, i) => ({ externalId: `A${String(from + i).padStart(4, '0')}`, name: `Account ${from + i}`, type: 'CLIENT' }));

  test('100 a page by default, at most 1,000; the total counted; nextOffset until the last page', async () => {
    for (let i = 0; i < 3; i++) await send(sb, 'POST', 'account', accounts(i * 100 + 1, i === 2 ? 50 : 100));
    const first = await get('/_sandbox/records/account');
    expect(first.body).toMatchObject({ resource: 'account', total: 250, offset: 0, limit: 100, nextOffset: 100 });
    expect(first.body.records.map((r: any) => r.externalId)).toEqual(accounts(1, 100).map((a) => a.externalId));
    const last = await get('/_sandbox/records/account?offset=200');
    expect(last.body).toMatchObject({ total: 250, offset: 200, limit: 100, nextOffset: null });
    expect(last.body.records).toHaveLength(50);
    const big = await get('/_sandbox/records/account?limit=1000');
    expect(big.body).toMatchObject({ total: 250, limit: 1000, nextOffset: null });
    expect(big.body.records).toHaveLength(250);
    const small = await get('/_sandbox/records/account?limit=7&offset=240');
    expect(small.body).toMatchObject({ offset: 240, limit: 7, nextOffset: 247 });
    expect(await allRecords(sb, 'account')).toEqual(sb.records('account'));
  });

  test.each([
    ['limit=1001', /limit: at most 1000/],
    ['limit=0', /limit: a whole number from 1 to 1000/],
    ['limit=ten', /limit: a whole number from 1 to 1000/],
    ['offset=-1', /offset: a whole number from 0/],
    ['offset=1.5', /offset: a whole number from 0/],
  ])('%s is a 400 naming the parameter, never a silent clamp', async (query, detail) => {
    const r = await get(`/_sandbox/records/account?${query}`);
    expect(r.status).toBe(400);
    expect(r.body.data.error[0]).toMatchObject({ message: 'BAD_REQUEST', detail: expect.stringMatching(detail) });
  });

  test('a page also stops at 10 MiB of records (the first record always comes): big records take several pages', async () => {
    const big = (id: string) => ({ externalId: id, name: 'x'.repeat(4 * 1024 * 1024), type: 'CLIENT' });
    for (const id of ['B1', 'B2', 'B3']) expect((await send(sb, 'POST', 'account', [big(id)])).status).toBe(200);
    const first = await get('/_sandbox/records/account');
    expect(first.body).toMatchObject({ total: 3, offset: 0, nextOffset: 2 });
    expect(first.body.records.map((r: any) => r.externalId)).toEqual(['B1', 'B2']);
    const second = await get('/_sandbox/records/account?offset=2');
    expect(second.body).toMatchObject({ nextOffset: null });
    expect(second.body.records.map((r: any) => r.externalId)).toEqual(['B3']);
  });
});

describe('the API key and the Host, on every /_sandbox/ endpoint', () => {
  const ENDPOINTS = [
    ['GET', '/_sandbox/records/deals'],
    ['GET', '/_sandbox/batches'],
    ['GET', '/_sandbox/stats'],
    ['POST', '/_sandbox/reset'],
  ] as const;

  test.each(ENDPOINTS)("%s %s without the key, or with a wrong one: the API's own 401, nothing read or reset", async (method, path) => {
    await fillAllKinds();
    const api401 = await call(sb, 'POST', '/v2/integration/deals', { batchId: 'x', source: 's', items: [] }, { 'x-api-key': 'wrong' });
    expect(api401.status).toBe(401);
    for (const headers of [{}, { 'x-api-key': 'wrong' }, { 'x-api-key': KEY.slice(0, -1) }] as Record<string, string>[]) {
      const r = await raw(path, { method, headers });
      expect(r).toEqual({ status: 401, body: api401.body });
    }
    expect(sb.records('deal')).toHaveLength(1);
  });

  test.each(ENDPOINTS)("%s %s under a name that is not this machine's (DNS rebinding): 403, even with the key", async (method, path) => {
    await fillAllKinds();
    const r = await raw(path, { method, headers: { 'x-api-key': KEY, host: `evil.example:${sb.port}` } });
    expect(r.status).toBe(403);
    expect(r.body.data.error[0]).toMatchObject({ message: 'FORBIDDEN', detail: expect.stringContaining('localhost') });
    expect(sb.records('deal')).toHaveLength(1);
  });

  test('an IP address, localhost or the --host name in Host is answered', async () => {
    for (const host of [`127.0.0.1:${sb.port}`, `localhost:${sb.port}`, `LOCALHOST:${sb.port}`, `10.1.2.3:8080`, `[::1]:${sb.port}`, '127.0.0.1']) {
      expect((await raw('/_sandbox/stats', { headers: { 'x-api-key': KEY, host } })).status, host).toBe(200);
    }
    // the name the sandbox was told to listen on, where this machine resolves it
    const name = hostname();
    if (
      !(await lookup(name).then(
        () => true,
        () => false,
      ))
    )
      return;
    const named = await sandbox({ host: name });
    try {
      const r = await rawRequest(`http://127.0.0.1:${named.port}/_sandbox/stats`, { headers: { 'x-api-key': KEY, host: `${name}:${named.port}` } });
      expect(r.status).toBe(200);
    } finally {
      await named.close();
    }
  });

  test('the API routes themselves take any Host, as a real API behind a name does', async () => {
    const r = await raw('/v2/integration/account', {
      method: 'POST',
      headers: { 'x-api-key': KEY, host: 'sandbox.internal:4010', 'content-type': 'application/json' },
    });
    expect(r.status).not.toBe(403);
  });
});
