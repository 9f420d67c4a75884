// Every file in fixtures/bad against the outcome expected.json promises for it.

import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { InputError } from '../../src/errors.js';
import { errorOf, readAll } from './helpers.js';

interface Expected {
  file: string;
  expect: 'error' | 'records';
  message?: string;
  line?: number;
  rows?: number;
  unreadable?: number;
  warning?: string;
  reason?: string;
  lines?: number[];
  first?: Record<string, string>;
}

const dir = join(import.meta.dirname, '../../fixtures/bad');
const table = JSON.parse(readFileSync(join(dir, 'expected.json'), 'utf8')) as Expected[];

describe('bad-input corpus', () => {
  it.each(table.map((t) => [t.file, t] as const))('%s', async (_name, t) => {
    const file = join(dir, t.file);
    if (t.expect === 'error') {
      const err = await errorOf(readAll(file));
      expect(err).toBeInstanceOf(InputError);
      expect(err.exitCode).toBe(2);
      expect(err.message).not.toContain('\n');
      expect(err.message.startsWith(t.line === undefined ? file : `${file}:${t.line}:`)).toBe(true);
      expect(err.message).toContain(t.message);
      return;
    }
    const { records, warnings } = await readAll(file);
    const good = records.filter((r) => r.kind !== 'unreadable');
    const bad = records.filter((r) => r.kind === 'unreadable');
    expect(good).toHaveLength(t.rows!);
    expect(bad).toHaveLength(t.unreadable!);
    if (t.warning) expect(warnings.join('\n')).toContain(t.warning);
    if (t.reason) expect(bad[0]?.kind === 'unreadable' && bad[0].reason).toContain(t.reason);
    if (t.lines) expect(records.map((r) => r.line)).toEqual(t.lines);
    if (t.first) {
      const first = good[0]!;
      expect(first.kind).toBe('row');
      if (first.kind === 'row') expect(first.row).toMatchObject(t.first);
    }
  });
});
