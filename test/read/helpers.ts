// Real files in a temp dir (never a mocked fs), and a drain that keeps records and warnings together.

import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect } from 'vitest';
import { openSource } from '../../src/read/open.js';
import type { ReaderOptions, SourceRecord } from '../../src/read/types.js';
import { liveGrowth } from '../helpers/memory.js';

export function tempDir(): (name: string, content: string | Buffer) => string {
  const dir = mkdtempSync(join(tmpdir(), 'batch-sync-read-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  return (name, content) => {
    const path = join(dir, name);
    writeFileSync(path, content);
    return path;
  };
}

export async function readAll(file: string, options?: ReaderOptions) {
  const source = await openSource(file, options);
  const records: SourceRecord[] = [];
  for await (const record of source.records) records.push(record);
  return { ...source, records, warnings: source.warnings.map((w) => w.message) };
}

export async function errorOf(promise: Promise<unknown>): Promise<Error & { suggestion?: string; exitCode?: number }> {
  try {
    await promise;
  } catch (err) {
    return err as Error;
  }
  throw new Error('expected an error');
}

/**
 * A streaming test's control: the live growth of holding the first `rows` rows of `file`, what a
 * reader that kept its rows would hold by then (with `external`, Buffers outside the heap count too).
 */
export function holdingRows(file: string, rows: number, external = false): Promise<number> {
  return liveGrowth(async (checkpoint) => {
    const held: SourceRecord[] = [];
    for await (const record of (await openSource(file)).records) {
      if (record.kind === 'row') held.push(record);
      if (held.length === rows) break;
    }
    await checkpoint();
    expect(held).toHaveLength(rows); // alive until after the checkpoint
  }, external);
}
