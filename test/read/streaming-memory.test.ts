// The reader streams: a file many times what holding a tenth of its rows costs goes through, and it
// holds nothing it has passed on (live heap and Buffers, measured after full collections).

import { createWriteStream } from 'node:fs';
import { once } from 'node:events';
import { describe, expect, it } from 'vitest';
import { openSource } from '../../src/read/open.js';
import { liveGrowth, mb } from '../helpers/memory.js';
import { holdingRows, tempDir } from './helpers.js';

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
  const N = 200_000;
  it(`reads a ~65 MB CSV of ${N.toLocaleString('en')} rows keeping nothing: live heap and Buffers against holding a fifth of the rows`, async () => {
    const path = file('big.csv', '');
    const bytes = await writeBig(path, N);
    expect(bytes).toBeGreaterThan(60 * 1024 * 1024);
    // the control: what a reader that kept its rows would hold after a fifth of them
    const control = await holdingRows(path, N / 5, true);
    let rows = 0;
    let lastLine = 0;
    const streaming = await liveGrowth(async (checkpoint) => {
      for await (const record of (await openSource(path)).records) {
        lastLine = record.line;
        if (record.kind === 'row' && ++rows % (N / 10) === 0) await checkpoint();
      }
    }, true);
    expect(rows).toBe(N);
    expect(lastLine).toBe(N + 1);
    console.log(`streaming ${mb(bytes)}: live heap and Buffers +${mb(streaming)} at most; holding ${N / 5} rows +${mb(control)}`);
    // a reader holding its rows would hold five times the control by the end, one holding the file's
    // bytes in Buffers about twice it; this one holds 1.6-1.9 MB at a checkpoint (its read-ahead of
    // 256 KiB reads, decoded and parsed), a twentieth of the control, on Node 20, 22 and 24 alike
    expect(streaming).toBeLessThan(control / 4);
  }, 60_000);
});
