// The in-flight records (src/state/in-flight.ts): what is written comes back byte for byte, each
// item's JSON sliced from the body exactly; a record cut anywhere is never taken for a batch; the
// records of batches that leave together are written together, and one that cannot be written fails
// alone, leaving no file.
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, statSync, unlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { expect, test } from 'vitest';
import { envelopeBody } from '../../src/plan/batcher.js';
import { ensureInFlightDir, loadInFlight, type InFlightRecord } from '../../src/state/in-flight.js';
import { inFlightWriter } from '../../src/state/in-flight-writer.js';

const item = fc.dictionary(fc.string({ minLength: 1, maxLength: 8 }), fc.oneof(fc.string(), fc.integer(), fc.boolean()), { maxKeys: 4 });

test('a record comes back with its exact body, and each item as the bytes it was sent as', async () => {
  await fc.assert(
    fc.asyncProperty(
      fc.string({ minLength: 1, maxLength: 30 }),
      fc.string({ minLength: 1, maxLength: 20 }),
      fc.array(item, { maxLength: 6 }),
      async (batchId, source, objects) => {
        const state = mkdtempSync(join(tmpdir(), 'in-flight-'));
        const dir = ensureInFlightDir(state);
        const items = objects.map((o, i) => {
          const json = JSON.stringify({ externalId: `X-${i}`, ...o });
          return { json, bytes: Buffer.byteLength(json), meta: { externalId: `X-${i}`, file: 'a.csv', line: i + 2 } };
        });
        const body = envelopeBody(batchId, source, items);
        await inFlightWriter(dir).write(
          { scope: 'post@http://x', resource: 'deal', source, batchId, items: items.map((i) => ({ ...i.meta, bytes: i.bytes })) },
          body,
        );
        const notes: string[] = [];
        const [loaded, ...rest] = loadInFlight(state, notes);
        expect(rest).toEqual([]);
        expect(notes).toEqual([]);
        expect(loaded!.batchId).toBe(batchId);
        expect(loaded!.body.equals(body)).toBe(true);
        expect(loaded!.itemJson.map((b) => b.toString('utf8'))).toEqual(items.map((i) => i.json));
        expect(loaded!.items.map((i) => [i.externalId, i.line])).toEqual(items.map((i) => [i.meta.externalId, i.meta.line]));
      },
    ),
    { numRuns: 40 },
  );
});

test('a record cut at any byte is removed with a note, never resent', async () => {
  const state = mkdtempSync(join(tmpdir(), 'in-flight-'));
  const dir = ensureInFlightDir(state);
  const items = ['{"externalId":"A"}', '{"externalId":"Ç"}'].map((json, i) => ({
    json,
    bytes: Buffer.byteLength(json),
    meta: { externalId: String(i), file: 'a.csv', line: i + 2 },
  }));
  const body = envelopeBody('b-1', 'src', items);
  const path = await inFlightWriter(dir).write(
    { scope: 's', resource: 'deal', source: 'src', batchId: 'b-1', items: items.map((i) => ({ ...i.meta, bytes: i.bytes })) },
    body,
  );
  const whole = readFileSync(path);
  for (let cut = 0; cut < whole.length; cut++) {
    writeFileSync(path, whole.subarray(0, cut));
    const notes: string[] = [];
    expect(loadInFlight(state, notes)).toEqual([]);
    expect(notes).toHaveLength(1);
    expect(readdirSync(dir)).toEqual([]);
  }
});

test('a record of the release before (version 1, no body digest) is still resent; one whose body was edited is set aside', async () => {
  const state = mkdtempSync(join(tmpdir(), 'in-flight-'));
  const dir = ensureInFlightDir(state);
  const items = [{ json: '{"externalId":"A"}', bytes: 18, meta: { externalId: 'A', file: 'a.csv', line: 2 } }];
  const body = envelopeBody('b-1', 'src', items);
  const path = await inFlightWriter(dir).write(
    { scope: 's', resource: 'deal', source: 'src', batchId: 'b-1', items: items.map((i) => ({ ...i.meta, bytes: i.bytes })) },
    body,
  );
  const whole = readFileSync(path, 'utf8');
  writeFileSync(path, whole.replace('batch-sync-in-flight 2', 'batch-sync-in-flight 1').replace(/,"bodySha256":"[0-9a-f]+"/, ''));
  expect(loadInFlight(state, []).map((r) => r.batchId)).toEqual(['b-1']);
  writeFileSync(path, whole.replace('{"externalId":"A"}', '{"externalId":"B"}'));
  const notes: string[] = [];
  expect(loadInFlight(state, notes)).toEqual([]);
  expect(notes).toEqual([expect.stringMatching(/does not match its digest .* set aside as .*\.batch\.edited/)]);
  expect(readdirSync(dir)).toEqual([`${path.split('/').pop()}.edited`]);
  // its batchId edited in the record alone: the body's envelope no longer says it, never resent either
  writeFileSync(path, whole.replace(/"batchId":"b-1"/, '"batchId":"b-2"'));
  expect(loadInFlight(state, [])).toEqual([]);
});

/** A one-item record of `batchId` and its body. */
function oneItem(batchId: string): [InFlightRecord, Buffer] {
  const items = [
    { json: `{"externalId":"${batchId}"}`, bytes: Buffer.byteLength(`{"externalId":"${batchId}"}`), meta: { externalId: batchId, file: 'a.csv', line: 2 } },
  ];
  return [
    { scope: 's', resource: 'deal', source: 'src', batchId, items: items.map((i) => ({ ...i.meta, bytes: i.bytes })) },
    envelopeBody(batchId, 'src', items),
  ];
}

test('the records of batches that leave together are written in one go: each whole on disk when its promise resolves, each read back as written', async () => {
  const state = mkdtempSync(join(tmpdir(), 'in-flight-'));
  const writer = inFlightWriter(ensureInFlightDir(state));
  const ids = ['b-1', 'b-2', 'b-3', 'b-4'];
  // written in the same turn, as the batches that take their places together
  const paths = await Promise.all(ids.map((id) => writer.write(...oneItem(id))));
  expect(new Set(paths).size).toBe(4);
  // and one written after the group finished: a group of its own
  paths.push(await writer.write(...oneItem('b-5')));
  const loaded = loadInFlight(state, []);
  expect(loaded.map((r) => r.batchId)).toEqual([...ids, 'b-5']);
  expect(loaded.map((r) => r.path)).toEqual(paths);
  for (const r of loaded) expect(r.body.equals(oneItem(r.batchId)[1])).toBe(true);
});

test('a record that cannot be written fails alone, leaving nothing of its own; the others of its group are written', async () => {
  const state = mkdtempSync(join(tmpdir(), 'in-flight-'));
  const dir = ensureInFlightDir(state);
  const writer = inFlightWriter(dir);
  // a directory where b-2's record goes: its open fails (EISDIR)
  const taken = await writer.write(...oneItem('b-2'));
  unlinkSync(taken);
  mkdirSync(taken);
  const results = await Promise.allSettled(['b-1', 'b-2', 'b-3'].map((id) => writer.write(...oneItem(id))));
  expect(results.map((r) => r.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
  expect(String((results[1] as PromiseRejectedResult).reason)).toMatch(/EISDIR/);
  expect(statSync(taken).isDirectory()).toBe(true);
  expect(readdirSync(dir).sort()).toEqual(
    [(results[0] as PromiseFulfilledResult<string>).value, taken, (results[2] as PromiseFulfilledResult<string>).value].map((p) => p.split('/').pop()).sort(),
  );
});
