// The read worker opens each file and loads each profile again, after the main thread did. Row
// fingerprints name the context their items were built in, so the worker fingerprints a job only
// when its own context is the main thread's: an export rewritten (or a profile edited) in between
// must not get its new rows recorded, or judged, under the old context.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test } from 'vitest';
import { prepareJobs } from '../../src/rows/prepare.js';
import { JOB_END, readInWorker, readsInWorker } from '../../src/rows/read-in-worker.js';
import { SAME, type RowChunk } from '../../src/rows/row-chunk.js';
import { FingerprintSet, rowFingerprint } from '../../src/state/row-fingerprint.js';
import type { ItemHash } from '../../src/util/item-hash.js';
import { tempFiles } from '../helpers/cli.js';

const HEADER = 'externalId,title,ownerExternalId,agentExternalId,isWon,amount.value,amount.currency';
const rows = (n: number) => Array.from({ length: n }, (_, i) => `D-${i},Deal ${i},ana,ana,false,${i}.50,USD`);

/** The main thread's view of the file now: its context, and a set of every row's fingerprint. */
async function mainView(file: string): Promise<{ context: string; known: SharedArrayBuffer }> {
  const [job] = await prepareJobs([{ file, resource: 'deal' }], 'post');
  const fps: ItemHash[] = [];
  for await (const record of job!.source.records) fps.push(rowFingerprint(job!.fingerprint, record, job!.source.header)!);
  return { context: job!.fingerprint, known: FingerprintSet.build(fps.length, (add) => fps.forEach(add)) };
}

async function workerChunks(file: string, fingerprint: { context: string; known: SharedArrayBuffer }): Promise<RowChunk[]> {
  // every row read by the worker
  const worker = readInWorker([{ file, resource: 'deal', reader: {}, opened: {}, fingerprint }], 'post', { split: 'none', chunkRows: 1024 });
  const chunks: RowChunk[] = [];
  try {
    for await (const c of worker.chunks()) if (c !== JOB_END) chunks.push(c);
  } finally {
    await worker.close();
  }
  return chunks;
}
const sameRows = (chunks: RowChunk[]) => chunks.reduce((n, c) => n + c.itemBytes.filter((b) => b === SAME).length, 0);

test('rows the state knows travel as SAME when the worker reads what the main thread read', async () => {
  expect(readsInWorker([], true, 'fast'), 'build first: npx tsc -p tsconfig.build.json').toBe(true);
  const dir = tempFiles({ 'deals.csv': [HEADER, ...rows(50)].join('\n') });
  const file = join(dir, 'deals.csv');
  const chunks = await workerChunks(file, await mainView(file));
  expect(sameRows(chunks)).toBe(50);
  expect(chunks.every((c) => c.fps.length === 2 * c.count)).toBe(true);
});

test('an export rewritten after the main thread opened it: the worker neither judges nor records fingerprints', async () => {
  const dir = tempFiles({ 'deals.csv': [HEADER, ...rows(50)].join('\n') });
  const file = join(dir, 'deals.csv');
  const view = await mainView(file);
  // the same lines under another header (title and isWon swapped): every item differs, no line does
  writeFileSync(file, [HEADER.replace('title', 'TMP').replace('isWon', 'title').replace('TMP', 'isWon'), ...rows(50)].join('\n'));
  const chunks = await workerChunks(file, view);
  expect(sameRows(chunks)).toBe(0);
  expect(chunks.every((c) => c.fps.length === 0)).toBe(true);
});
