// The reader streams: memory stays flat while a file many times the allowance goes through.

import { createWriteStream } from 'node:fs';
import { once } from 'node:events';
import { describe, expect, it } from 'vitest';
import { openSource } from '../../src/read/open.js';
import { tempDir } from './helpers.js';

const file = tempDir();

async function writeBig(path: string, rows: number): Promise<number> {
  const out = createWriteStream(path);
  let bytes = 0;
  const line = (i: number) =>
    `${i};EXT-${i};"Negócio ${i}, fase ""proposta""";${(i * 13.37).toFixed(2).replace('.', ',')};BRL;ana.souza${i % 97}@example.com;ACC-${i % 1000};${(i % 28) + 1}/11/2024;${'Observação longa '.repeat(12)}\n`;
  out.write('id;external_id;title;amount;currency;owner_email;account_id;created_at;notes\n');
  for (let i = 0; i < rows; i += 1000) {
    let chunk = '';
    for (let k = i; k < i + 1000; k++) chunk += line(k);
    bytes += Buffer.byteLength(chunk);
    if (!out.write(chunk)) await once(out, 'drain');
  }
  out.end();
  await once(out, 'finish');
  return bytes;
}

describe('streaming', () => {
  it('reads a ~65 MB CSV of 200,000 rows with bounded heap', async () => {
    const path = file('big.csv', '');
    const bytes = await writeBig(path, 200_000);
    expect(bytes).toBeGreaterThan(60 * 1024 * 1024);
    const start = process.memoryUsage();
    let peakHeap = start.heapUsed;
    let peakRss = start.rss;
    let rows = 0;
    let lastLine = 0;
    const source = await openSource(path);
    for await (const record of source.records) {
      if (record.kind === 'row') rows++;
      lastLine = record.line;
      if (rows % 5000 === 0) {
        const now = process.memoryUsage();
        peakHeap = Math.max(peakHeap, now.heapUsed);
        peakRss = Math.max(peakRss, now.rss);
      }
    }
    expect(rows).toBe(200_000);
    expect(lastLine).toBe(200_001);
    const heapGrowthMb = (peakHeap - start.heapUsed) / 2 ** 20;
    const rssGrowthMb = (peakRss - start.rss) / 2 ** 20;
    console.log(`streaming ${(bytes / 2 ** 20).toFixed(0)} MB: heap +${heapGrowthMb.toFixed(1)} MB, rss +${rssGrowthMb.toFixed(1)} MB`);
    // a reader holding the file would grow by several times its size; young-generation garbage is
    // all a streaming one accumulates between collections
    expect(heapGrowthMb).toBeLessThan(40);
    expect(rssGrowthMb).toBeLessThan(120);
  });
});
