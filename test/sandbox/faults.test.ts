// Limits and faults the sandbox plays so clients can be tested against them: 500s by chance or on
// demand, 429 with Retry-After, too many items, too large a body, latency.
import { request } from 'node:http';
import { afterEach, describe, expect, test } from 'vitest';
import type { SandboxHandle } from '../../src/sandbox/index.js';
import { call, deal, KEY, sandbox, sandboxWithProfiles, send } from '../helpers/sandbox.js';

const started: SandboxHandle[] = [];
async function start(options: Parameters<typeof sandbox>[0]) {
  const sb = await sandboxWithProfiles(options);
  started.push(sb);
  return sb;
}
afterEach(async () => {
  await Promise.all(started.splice(0).map((sb) => sb.close()));
});

describe('500', () => {
  test('fail rate 1 answers every batch 500, applies nothing, and logs the batchId', async () => {
    const sb = await start({});
    sb.setFaults({ failRate: 1 });
    const r = await send(sb, 'POST', 'deal', [deal('D1')], 'batch-x');
    expect(r.status).toBe(500);
    expect(r.body.data.error[0].message).toBe('INTERNAL_ERROR');
    expect(sb.records('deal')).toEqual([]);
    expect(sb.batches().at(-1)).toMatchObject({ batchId: 'batch-x', status: 500, items: 1, accepted: 0 });
  });
  test('failRate 1 from the options, too', async () => {
    const sb = await sandbox({ failRate: 1 });
    started.push(sb);
    const r = await send(sb, 'POST', 'sales-profile', []);
    expect(r.status).toBe(500);
  });
  test('with a seed, the same batches fail on every run', async () => {
    const pattern = async () => {
      const sb = await start({ seed: 42 });
      sb.setFaults({ failRate: 0.5 });
      const statuses: number[] = [];
      for (let i = 0; i < 20; i++) statuses.push((await send(sb, 'POST', 'deal', [deal(`D${i}`)])).status);
      return statuses;
    };
    const first = await pattern();
    expect(first).toContain(500);
    expect(first).toContain(200);
    expect(await pattern()).toEqual(first);
  });
  test('failNext answers the next batches 500, then a retry with the same batchId is applied once', async () => {
    const sb = await start({});
    sb.failNext(2);
    const statuses = [];
    for (let attempt = 0; attempt < 3; attempt++) statuses.push((await send(sb, 'POST', 'deal', [deal('D1')], 'same-batch')).status);
    expect(statuses).toEqual([500, 500, 200]);
    const log = sb.batches().filter((b) => b.batchId === 'same-batch');
    expect(log.map((b) => b.status)).toEqual([500, 500, 200]);
    expect(sb.records('deal')).toHaveLength(1);
  });
});

describe('429', () => {
  test('above the rate limit, with Retry-After; the next window admits again', async () => {
    let now = 1_000_000;
    const sb = await start({ rateLimit: 2, now: () => now });
    // the seeding batch of sandboxWithProfiles used one request of this window
    expect((await send(sb, 'POST', 'deal', [deal('D1')])).status).toBe(200);
    const refused = await send(sb, 'POST', 'deal', [deal('D2')], 'limited');
    expect(refused.status).toBe(429);
    expect(refused.headers.get('retry-after')).toBe('1');
    expect(refused.body.data.error[0].message).toBe('RATE_LIMITED');
    expect(sb.record('deal', 'D2')).toBeUndefined();
    expect(sb.batches().at(-1)).toMatchObject({ batchId: 'limited', status: 429 });
    now += 1000;
    expect((await send(sb, 'POST', 'deal', [deal('D2')], 'limited')).status).toBe(200);
  });
  test('with the real clock', async () => {
    const sb = await start({ rateLimit: 1 });
    await new Promise((r) => setTimeout(r, 1100));
    const statuses = [(await send(sb, 'POST', 'deal', [])).status, (await send(sb, 'POST', 'deal', [])).status];
    expect(statuses).toEqual([200, 429]);
  });
  test('failNext can play a 429 too', async () => {
    const sb = await start({});
    sb.failNext(1, 429);
    const r = await send(sb, 'PATCH', 'deal', []);
    expect(r.status).toBe(429);
    expect(r.headers.get('retry-after')).toBe('1');
  });
});

describe('limits', () => {
  test('more items than maxItems is a 400 for the whole batch', async () => {
    const sb = await start({ maxItems: 2 });
    const r = await send(sb, 'POST', 'deal', [deal('D1'), deal('D2'), deal('D3')]);
    expect(r.status).toBe(400);
    expect(r.body.data.error[0]).toEqual({ message: 'TOO_MANY_ITEMS', detail: 'the batch has 3 items; the sandbox accepts at most 2' });
    expect(sb.records('deal')).toEqual([]);
    expect((await send(sb, 'POST', 'deal', [deal('D1'), deal('D2')])).status).toBe(200);
  });
  test('a body over maxBodyBytes is a 413 (declared length), and the connection stays usable', async () => {
    const sb = await start({ maxBodyBytes: 300 });
    const r = await send(sb, 'POST', 'deal', [deal('D1'), deal('D2')]);
    expect(r.status).toBe(413);
    expect(r.body.data.error[0].message).toBe('PAYLOAD_TOO_LARGE');
    expect((await send(sb, 'POST', 'deal', [deal('D1')])).status).toBe(200);
  });
  test('a chunked body is cut off at the limit, not buffered whole', async () => {
    const sb = await start({ maxBodyBytes: 1000 });
    const status = await new Promise<number>((resolve, reject) => {
      const req = request(`${sb.url}/v2/integration/deals`, { method: 'POST', headers: { 'content-type': 'application/json', 'x-api-key': KEY } }, (res) => {
        res.resume();
        resolve(res.statusCode ?? 0);
      });
      req.on('error', reject);
      req.write('{"batchId":"big","source":"t","items":[');
      for (let i = 0; i < 50; i++) req.write(`${JSON.stringify(deal(`D${i}`))},`);
      req.end(`${JSON.stringify(deal('last'))}]}`);
    });
    expect(status).toBe(413);
    expect(sb.records('deal')).toEqual([]);
  });
  test('latency delays every answer', async () => {
    const sb = await start({ latencyMs: 150 });
    const t0 = performance.now();
    const r = await call(sb, 'POST', '/v2/integration/deals', { batchId: 'b', source: 's', items: [] });
    expect(r.status).toBe(200);
    expect(performance.now() - t0).toBeGreaterThanOrEqual(140);
  });
});
