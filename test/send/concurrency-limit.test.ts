import { describe, expect, it } from 'vitest';
import { ConcurrencyLimit } from '../../src/send/concurrency-limit.js';

/** n successful answers at `latencyMs`, each arriving with the limit used up, one round trip apart per `current` answers. */
function answers(limit: ConcurrencyLimit, n: number, latencyMs: number, start = 0): number {
  let t = start;
  for (let i = 0; i < n; i++) {
    t += latencyMs / limit.current;
    limit.onAnswer('ok', latencyMs, limit.current, t);
  }
  return t;
}

describe('ConcurrencyLimit', () => {
  it('starts at the initial limit and grows ×1.5 per round trip while answers are fast (slow start), up to the cap', () => {
    const limit = new ConcurrencyLimit({ initial: 4, max: 32 });
    expect(limit.current).toBe(4);
    answers(limit, 4, 100);
    expect(limit.current).toBe(6);
    answers(limit, 6, 100);
    expect(limit.current).toBe(9);
    answers(limit, 100, 100);
    expect(limit.current).toBe(32);
    expect(limit.peak).toBe(32);
  });

  it('does not grow a limit that was not used up', () => {
    const limit = new ConcurrencyLimit({ initial: 4, max: 32 });
    for (let i = 0; i < 50; i++) limit.onAnswer('ok', 100, 2, i * 10);
    expect(limit.current).toBe(4);
  });

  it('cuts on 429 (×0.7) and on 503 or a timeout (×0.5), once per round trip', () => {
    const limit = new ConcurrencyLimit({ initial: 20, max: 32 });
    let t = answers(limit, 5, 100);
    limit.onAnswer('throttled', 100, 20, t);
    expect(limit.current).toBe(Math.floor(limit.peak * 0.7));
    const afterOne = limit.current;
    // more refusals of the same burst, within one round trip: no further cut
    limit.onAnswer('throttled', 100, 10, t + 10);
    limit.onAnswer('overloaded', 100, 10, t + 50);
    expect(limit.current).toBe(afterOne);
    t += 200;
    limit.onAnswer('overloaded', 100, 10, t);
    expect(limit.current).toBe(Math.floor(afterOne * 0.5));
  });

  it('after a cut it grows by about one per round trip (additive increase)', () => {
    const limit = new ConcurrencyLimit({ initial: 16, max: 32 });
    limit.onAnswer('ok', 100, 16, 0);
    limit.onAnswer('overloaded', 100, 16, 1000);
    expect(limit.current).toBe(8);
    answers(limit, 8, 100, 2000);
    expect(limit.current).toBe(9);
    answers(limit, 9, 100, 3000);
    expect(limit.current).toBe(10);
  });

  it('cuts when answers grow slower than the unloaded latency allows (a queue building on the server)', () => {
    const limit = new ConcurrencyLimit({ initial: 10, max: 32 });
    let t = answers(limit, 3, 100);
    const before = limit.current;
    for (let i = 0; i < 10; i++) limit.onAnswer('ok', 300, limit.current, (t += 400));
    expect(limit.current).toBeLessThan(before);
  });

  it('a latency cut is in proportion to the rise, aiming at 1.2 × the unloaded latency (×0.5 to ×0.9)', () => {
    const limit = new ConcurrencyLimit({ initial: 20, max: 32 });
    for (let t = 0; t < 5; t++) limit.onAnswer('ok', 100, 1, t);
    limit.onAnswer('ok', 400, 1, 1000); // smoothed 160 ms against 100: × 120/160
    expect(limit.current).toBe(15);
    const steep = new ConcurrencyLimit({ initial: 20, max: 32 });
    steep.onAnswer('ok', 100, 1, 0);
    steep.onAnswer('ok', 2000, 1, 1000); // smoothed 480 ms: at most halved
    expect(steep.current).toBe(10);
  });

  it('ignores small jitter on a fast local server (the rise must also exceed 25 ms)', () => {
    const limit = new ConcurrencyLimit({ initial: 4, max: 32 });
    let t = 0;
    for (let i = 0; i < 200; i++) limit.onAnswer('ok', i % 2 ? 1 : 6, limit.current, (t += 1));
    expect(limit.current).toBe(32);
  });

  it('pinned (--concurrency) never moves, and neutral answers (400, 500) change nothing', () => {
    const pinned = new ConcurrencyLimit({ initial: 6, max: 6, pinned: true });
    answers(pinned, 50, 100);
    pinned.onAnswer('throttled', 100, 6, 10_000);
    expect(pinned.current).toBe(6);
    const limit = new ConcurrencyLimit({ initial: 4, max: 32 });
    limit.onAnswer('neutral', 100, 4, 0);
    expect(limit.current).toBe(4);
  });

  it('never goes below one', () => {
    const limit = new ConcurrencyLimit({ initial: 2, max: 32 });
    for (let i = 0; i < 20; i++) limit.onAnswer('overloaded', 10, 1, i * 1000);
    expect(limit.current).toBe(1);
  });
});
