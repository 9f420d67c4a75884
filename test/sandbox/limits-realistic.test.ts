// The sandbox as a realistic API (issue 18.4): a token bucket with burst, the IETF RateLimit fields,
// a capacity past which answers queue, an outage of 503s. Headers are read back with
// structured-headers, a parser nobody here wrote.
import { parseList } from 'structured-headers';
import { afterEach, describe, expect, test } from 'vitest';
import type { SandboxHandle } from '../../src/sandbox/index.js';
import { sandboxOptionsSchema } from '../../src/sandbox/options.js';
import { SandboxState } from '../../src/sandbox/sandbox-state.js';
import { deal, type sandbox, sandboxWithProfiles, send } from '../helpers/sandbox.js';

const started: SandboxHandle[] = [];
async function start(options: Parameters<typeof sandbox>[0]) {
  const sb = await sandboxWithProfiles(options);
  started.push(sb);
  return sb;
}
afterEach(async () => {
  await Promise.all(started.splice(0).map((sb) => sb.close()));
});

const statuses = async (sb: SandboxHandle, n: number) => {
  const out: number[] = [];
  for (let i = 0; i < n; i++) out.push((await send(sb, 'POST', 'deal', [])).status);
  return out;
};

describe('--rate-burst: a token bucket instead of the fixed window', () => {
  test('a quiet client may send the burst at once, then only the rate', async () => {
    let now = 1_000_000;
    const sb = await start({ rateLimit: 2, rateBurst: 4, now: () => now });
    now += 10_000; // the seeding batch's token is back
    expect(await statuses(sb, 5)).toEqual([200, 200, 200, 200, 429]);
    now += 500; // one token at 2 a second
    expect(await statuses(sb, 2)).toEqual([200, 429]);
  });

  test('goes with --rate-limit', () => {
    const r = sandboxOptionsSchema.safeParse({ apiKey: 'k', rateBurst: 3 });
    expect(r.success).toBe(false);
    expect(r.error?.issues[0]).toMatchObject({ path: ['rateBurst'], message: 'goes with --rate-limit' });
  });
});

describe('--rate-limit-headers: RateLimit and RateLimit-Policy on every answer to a batch', () => {
  test('what is left of the window, and the policy, as Structured Field lists', async () => {
    let now = 1_000_000;
    const sb = await start({ rateLimit: 3, rateLimitHeaders: true, now: () => now });
    now += 1000;
    const ok = await send(sb, 'POST', 'deal', [deal('D1')]);
    expect(ok.status).toBe(200);
    expect(parseList(ok.headers.get('ratelimit')!)).toEqual([
      [
        'default',
        new Map([
          ['r', 2],
          ['t', 1],
        ]),
      ],
    ]);
    expect(parseList(ok.headers.get('ratelimit-policy')!)).toEqual([
      [
        'default',
        new Map([
          ['q', 3],
          ['w', 1],
        ]),
      ],
    ]);
    await statuses(sb, 2);
    const refused = await send(sb, 'POST', 'deal', []);
    expect(refused.status).toBe(429);
    expect(refused.headers.get('ratelimit')).toBe('"default";r=0;t=1');
  });

  test('off by default, and absent without a rate limit', async () => {
    const plain = await start({ rateLimit: 3 });
    expect((await send(plain, 'POST', 'deal', [])).headers.get('ratelimit')).toBeNull();
    const unlimited = await start({ rateLimitHeaders: true });
    expect((await send(unlimited, 'POST', 'deal', [])).headers.get('ratelimit')).toBeNull();
  });
});

describe('--capacity: past it, answers queue', () => {
  test('each batch waits for the work accepted before it, at the capacity in items per second', () => {
    let now = 0;
    const state = new SandboxState(sandboxOptionsSchema.parse({ apiKey: 'k', capacity: 1000 }), () => now);
    expect(state.serviceDelayMs(100)).toBe(100);
    expect(state.serviceDelayMs(100)).toBe(200);
    now = 150;
    expect(state.serviceDelayMs(100)).toBe(150);
    now = 10_000; // idle long enough: the queue is empty again
    expect(state.serviceDelayMs(500)).toBe(500);
    expect(new SandboxState(sandboxOptionsSchema.parse({ apiKey: 'k' }), () => now).serviceDelayMs(100)).toBe(0);
  });
});

describe('an outage', () => {
  test('setFaults({ unavailable: true }) answers every batch 503 and applies nothing, until set back', async () => {
    const sb = await start({});
    sb.setFaults({ unavailable: true });
    const r = await send(sb, 'POST', 'deal', [deal('D1')], 'down');
    expect(r.status).toBe(503);
    expect(r.body.data.error[0].message).toBe('UNAVAILABLE');
    expect(sb.record('deal', 'D1')).toBeUndefined();
    sb.setFaults({ unavailable: false });
    expect((await send(sb, 'POST', 'deal', [deal('D1')], 'down')).status).toBe(200);
    expect(sb.batches().map((b) => b.status)).toEqual([200, 503, 200]);
  });
});
