// `inspect` on a file of very many columns (issue 36 row 5): 150,000 columns ended with exit 70 and
// a stack trace (a spread into Math.max), and 100,000 trailing delimiters made one warning line
// naming every column. Each line inspect prints is bounded; the column list has one line a column.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test } from 'vitest';
import { spawnCli } from '../helpers/cli.js';

const dir = mkdtempSync(join(tmpdir(), 'inspect-wide-'));

test('150,000 named columns: exit 0, one line a column, the first row cut to a bounded line', async () => {
  const file = join(dir, 'wide.csv');
  const n = 150_000;
  writeFileSync(file, `${Array.from({ length: n }, (_, i) => `c${i}`).join(',')}\n${Array(n).fill('1').join(',')}\n`);
  const r = await spawnCli(['inspect', file], { timeoutMs: 120_000 });
  expect(r.code, r.stderr.slice(0, 2000)).toBe(0);
  expect(r.stderr).toBe('');
  const lines = r.stdout.split('\n');
  expect(lines).toContain('columns (150000):');
  expect(lines.filter((l) => /^ {2}c\d+ +number +1$/.test(l))).toHaveLength(n);
  const row = lines.find((l) => l.startsWith('  line 2  '))!;
  expect(row.length).toBeLessThan(1200);
  expect(row).toMatch(/^ {2}line 2 {2}c0=1 \| c1=1 \| .* \(and 14\d{4} more columns\)$/);
});

test('100,000 trailing delimiters: the warning is one short line', async () => {
  const file = join(dir, 'trailing.csv');
  writeFileSync(file, `id,name${','.repeat(100_000)}\n1,a\n`);
  const r = await spawnCli(['inspect', file], { timeoutMs: 120_000 });
  expect(r.code, r.stderr.slice(0, 2000)).toBe(0);
  const warning = r.stdout.split('\n').find((l) => l.includes('the header ends with'))!;
  expect(warning.length).toBeLessThan(500);
  expect(warning).toContain('the header ends with 100000 empty columns (a trailing delimiter); read as "column_3", "column_4", ');
  expect(r.stdout.split('\n').reduce((m, l) => Math.max(m, l.length), 0)).toBeLessThan(1200);
});
