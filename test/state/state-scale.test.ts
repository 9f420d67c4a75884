// "The state store opens fast with a million entries": a 1,000,000-entry state (snapshot plus a
// journal of 100,000 more; the deals with their row fingerprints) opens well inside the bound, with
// its heap cost printed for the record.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test } from 'vitest';
import { openStateStore } from '../../src/state/state-store.js';

const N = 1_000_000;

test('opens a 1M-entry state in under 5 s', { timeout: 120_000 }, async () => {
  const d = mkdtempSync(join(tmpdir(), 'batch-sync-scale-'));
  const build = openStateStore(d);
  const item = (i: number) => `{"externalId":"DEAL-${i}","title":"Deal ${i}","amount":{"value":"${i}.50","currency":"USD"}}`;
  for (let i = 0; i < N; i++) {
    // with its row's fingerprint, as every run records them
    build.accepted('post', 'deal', `DEAL-${i}`, item(i), [], { hi: i, lo: Math.imul(i, 2654435761) >>> 0 || 1 });
    // one journal write per 100 items, as per batch
    if (i % 100 === 99) await Promise.resolve();
  }
  const perBatchMs = build.stats().flushMs / build.stats().flushes;
  build.compact();
  for (let i = 0; i < 100_000; i++) build.accepted('post', 'account', `ACC-${i}`, `{"i":${i}}`);
  await Promise.resolve();
  build.flush();

  globalThis.gc?.();
  const before = process.memoryUsage().heapUsed;
  const started = performance.now();
  const store = openStateStore(d, { readOnly: true });
  const openMs = performance.now() - started;
  globalThis.gc?.();
  const heapMb = (process.memoryUsage().heapUsed - before) / 1024 / 1024;
  expect(store.stats().entries).toBe(N + 100_000);
  expect(store.unchanged('post', 'deal', 'DEAL-123456', item(123456))).toBe(true);
  expect(store.unchanged('post', 'deal', 'DEAL-123456', item(7))).toBe(false);
  expect(store.sameRow('post', 'deal', 'DEAL-123456', { hi: 123456, lo: Math.imul(123456, 2654435761) >>> 0 })).toBe(true);
  console.info(
    `state scale: open ${N + 100_000} entries in ${openMs.toFixed(0)} ms, heap +${heapMb.toFixed(0)} MB; journal write+fsync per 100-item batch ${perBatchMs.toFixed(2)} ms`,
  );
  expect(openMs).toBeLessThan(5000);
  build.close();
});
