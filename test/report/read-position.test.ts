import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test } from 'vitest';
import { positionAt } from '../../src/report/read-position.js';

const dir = mkdtempSync(join(tmpdir(), 'read-position-'));

test('the line read, times the bytes a line takes, against the size; never 100% before the end', () => {
  const file = join(dir, 'deals.csv');
  writeFileSync(file, 'id,title\n'.padEnd(10, ' ').repeat(100)); // 100 lines of 10 bytes
  const at = positionAt();
  expect(at(file, 50)).toEqual({ file, bytes: 500, size: 1000 });
  expect(at(file, 100)).toEqual({ file, bytes: 990, size: 1000 });
});

test('no position for a workbook (its rows are not its bytes) or a file that cannot be read', () => {
  const at = positionAt();
  expect(at(join(dir, 'cartera.xlsx[Ventas 2026]'), 10)).toBeUndefined();
  expect(at(join(dir, 'gone.csv'), 10)).toBeUndefined();
});
