// Real files in a temp dir (never a mocked fs), and a drain that keeps records and warnings together.

import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll } from 'vitest';
import { openSource } from '../../src/read/open.js';
import type { ReaderOptions, SourceRecord } from '../../src/read/types.js';

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
