// The JSON behind the sandbox's page stays bounded whatever the sandbox holds: 100 entries a page,
// the externalId search done on the server, a record's text cut at 1 MB, the refused items kept to
// the last 1,000 with each item's text capped; and the page's server is read-only and goes with close().
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { SandboxHandle } from '../../src/sandbox/index.js';
import { deal, profile, sandbox, sandboxWithProfiles, send } from '../helpers/sandbox.js';

let sb: SandboxHandle;
beforeAll(async () => {
  sb = await sandboxWithProfiles({ pagePort: 0, maxBodyBytes: 50 * 1024 * 1024 });
});
afterAll(() => sb.close());

const get = async (path: string) => {
  const res = await fetch(new URL(path, sb.pageUrl));
  return { status: res.status, body: (await res.json()) as any };
};

describe('the page data', () => {
  test('records: 100 a page, a search by externalId prefix counted over them all', async () => {
    await send(
      sb,
      'POST',
      'deal',
      Array.from({ length: 250 }, (_, i) => deal(`D-${i}`)),
    );
    const first = (await get('data/records?resource=deals&page=0')).body;
    expect(first).toMatchObject({ resource: 'deal', total: 250, matched: 250, page: 0, pageSize: 100 });
    expect(first.records).toHaveLength(100);
    expect(first.records[0]).toEqual({ externalId: 'D-0', label: 'Deal D-0' });
    expect((await get('data/records?resource=deal&page=2')).body.records).toHaveLength(50);
    const search = (await get('data/records?resource=deal&q=D-1&page=1')).body;
    // D-1, D-10..D-19, D-100..D-199
    expect(search).toMatchObject({ total: 250, matched: 111, page: 1 });
    expect(search.records).toHaveLength(11);
    expect((await get('data/records?resource=deal&page=-3')).body.page).toBe(0);
    expect((await get('data/records?resource=nope')).status).toBe(404);
  });

  test("a record's JSON, cut at 1 MB when longer", async () => {
    await send(sb, 'POST', 'deal', [deal('BIG', { title: 'y'.repeat(2 * 1024 * 1024) })]);
    const big = (await get('data/record?resource=deal&id=BIG')).body;
    expect(big.truncated).toBe(true);
    expect(big.json).toHaveLength(1024 * 1024);
    expect(big.length).toBeGreaterThan(2 * 1024 * 1024);
    const small = (await get('data/record?resource=deal&id=D-7')).body;
    expect(JSON.parse(small.json)).toEqual(sb.record('deal', 'D-7'));
    expect((await get('data/record?resource=deal&id=none')).status).toBe(404);
  });

  test('refused items: each with its problems and item, the last 1,000 kept, each item capped', async () => {
    const bad = (n: number) => Array.from({ length: 1000 }, (_, i) => deal(`R-${n}-${i}`, { ownerExternalId: 'ghost' }));
    for (const n of [1, 2, 3]) await send(sb, 'POST', 'deal', bad(n));
    await send(sb, 'POST', 'deal', [deal('LONG', { ownerExternalId: 'ghost', title: 'z'.repeat(50_000) })]);
    const page = (await get('data/refusals?page=0')).body;
    expect(page).toMatchObject({ total: 3001, kept: 1000, page: 0, pageSize: 100 });
    expect(page.refusals).toHaveLength(100);
    const [long, last] = page.refusals;
    expect(long).toMatchObject({ externalId: 'LONG', index: 0, itemTruncated: true, method: 'POST', resource: 'deal' });
    expect(long.item).toHaveLength(20_000);
    expect(last).toMatchObject({ externalId: 'R-3-999', index: 999, itemTruncated: false });
    expect(last.problems).toEqual([
      { message: 'VALIDATION_ERROR', detail: 'items[999] externalId=R-3-999: ownerExternalId: "ghost" does not exist as a sales profile' },
    ]);
    expect(JSON.parse(last.item)).toEqual(deal('R-3-999', { ownerExternalId: 'ghost' }));
    expect((await get('data/summary')).body).toMatchObject({ refusals: 3001, records: { deal: 251 } });
  });

  test('in the documented answer style, whose details name no item, the page still names it', async () => {
    const documented = await sandbox({ pagePort: 0, answers: 'documented' });
    try {
      await send(documented, 'POST', 'sales-profile', [profile('ana'), profile('bruno')]);
      await send(documented, 'POST', 'deal', [deal('OK-1'), deal('GHOST-1', { ownerExternalId: 'ghost' })]);
      const res = await fetch(new URL('data/refusals', documented.pageUrl));
      const { refusals } = (await res.json()) as any;
      expect(refusals).toMatchObject([
        { index: 1, externalId: 'GHOST-1', problems: [{ detail: 'ownerExternalId: "ghost" does not exist as a sales profile' }] },
      ]);
    } finally {
      await documented.close();
    }
  });

  test('batches newest first, a batch refused whole with its reason', async () => {
    sb.failNext(1, 429);
    await send(sb, 'POST', 'deal', [deal('D-0')], 'throttled');
    const { batches } = (await get('data/batches?page=0')).body;
    expect(batches[0]).toMatchObject({ batchId: 'throttled', status: 429, refusal: { message: 'RATE_LIMITED' } });
    expect(batches[1]).toMatchObject({ status: 200, code: 200, errors: 1 });
  });

  test('read-only; reset empties the refusals; close() stops the page too; no page unless asked', async () => {
    expect((await fetch(new URL('data/summary', sb.pageUrl), { method: 'POST' })).status).toBe(404);
    sb.reset();
    expect((await get('data/summary')).body).toMatchObject({ refusals: 0, batches: 0 });
    expect((await get('data/refusals')).body.refusals).toEqual([]);
    const other = await sandbox({ pagePort: 0 });
    const url = other.pageUrl!;
    expect((await fetch(url)).status).toBe(200);
    await other.close();
    await expect(fetch(url)).rejects.toThrow();
    const none = await sandbox();
    expect(none.pageUrl).toBeUndefined();
    await none.close();
  });
});
