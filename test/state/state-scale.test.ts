// A state at the scale of a real export: 1,000,000 deals with their row fingerprints, folded into
// the snapshot, then 100,000 accounts in the journal over it. Reopened, every entry is there and
// answers as it was recorded: the id tables and hash tables grown past a million, the snapshot read
// in place, the journal replayed over it. How long opening takes is the bench's to say (stage (s) in
// test/bench/run.mjs, figures in BENCHMARKS.md): a wall-clock limit here fails on a loaded machine
// and proves nothing on an idle one.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test } from 'vitest';
import { FingerprintSet } from '../../src/state/row-fingerprint.js';
import { openStateStore } from '../../src/state/state-store.js';

const DEALS = 1_000_000;
const ACCOUNTS = 100_000;
const deal = (i: number) => `{"externalId":"DEAL-${i}","title":"Deal ${i}","amount":{"value":"${i}.50","currency":"USD"}}`;
const account = (i: number) => `{"i":${i}}`;
const fp = (i: number) => ({ hi: i, lo: Math.imul(i, 2654435761) >>> 0 || 1 });

test('a 1.1M-entry state (snapshot and journal) reopens with every entry as it was recorded', { timeout: 180_000 }, async () => {
  const d = mkdtempSync(join(tmpdir(), 'batch-sync-scale-'));
  const build = openStateStore(d);
  for (let i = 0; i < DEALS; i++) {
    // with its row's fingerprint, as every run records them
    build.accepted('post', 'deal', `DEAL-${i}`, deal(i), [], fp(i));
    // one journal write per 100 items, as per batch
    if (i % 100 === 99) await Promise.resolve();
  }
  build.compact();
  for (let i = 0; i < ACCOUNTS; i++) build.accepted('post', 'account', `ACC-${i}`, account(i));
  await Promise.resolve();
  build.flush();
  expect(build.stats().journalBytes).toBeGreaterThan(0);

  const store = openStateStore(d, { readOnly: true });
  expect(store.notes).toEqual([]);
  expect(store.stats().entries).toBe(DEALS + ACCOUNTS);
  // every 997th deal (a prime stride: ids all over the tables), and the last
  const sample = [...Array.from({ length: Math.ceil(DEALS / 997) }, (_, k) => k * 997), DEALS - 1];
  const known = new FingerprintSet(store.fingerprints('post', 'deal')!);
  for (const i of sample) {
    const id = `DEAL-${i}`;
    expect(store.unchanged('post', 'deal', id, deal(i)), id).toBe(true);
    expect(store.unchanged('post', 'deal', id, deal(i + 1)), id).toBe(false);
    expect(store.sameRow('post', 'deal', id, fp(i)), id).toBe(true);
    expect(store.sameRow('post', 'deal', id, fp(i + 1)), id).toBe(false);
    // and the set of fingerprints the read worker is given holds its row's
    expect(known.has(fp(i)), id).toBe(true);
  }
  for (let i = 0; i < ACCOUNTS; i += 101) expect(store.unchanged('post', 'account', `ACC-${i}`, account(i)), `ACC-${i}`).toBe(true);
  // what was never recorded is not known, under any method or resource
  expect(store.known('post', 'deal', `DEAL-${DEALS}`)).toBe(false);
  expect(store.known('patch', 'deal', 'DEAL-0')).toBe(false);
  expect(store.known('post', 'account', 'DEAL-0')).toBe(false);
  build.close();
});
