// The tests run the read worker and the CLI from dist/: test/global-setup.ts rebuilds it when a source
// is newer than its build, so a green run never tested yesterday's worker.
import { mkdirSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test } from 'vitest';
import { staleSource } from '../global-setup.js';
import { tempFiles } from '../helpers/cli.js';

test('a source newer than its build, or without one, makes dist/ stale', () => {
  const root = tempFiles({});
  mkdirSync(join(root, 'src/rows'), { recursive: true });
  mkdirSync(join(root, 'dist/rows'), { recursive: true });
  writeFileSync(join(root, 'src/rows/read-worker.ts'), '');
  writeFileSync(join(root, 'dist/rows/read-worker.js'), '');
  const past = new Date(Date.now() - 60_000);
  utimesSync(join(root, 'src/rows/read-worker.ts'), past, past);
  expect(staleSource(root)).toBeUndefined();
  utimesSync(join(root, 'dist/rows/read-worker.js'), new Date(past.getTime() - 1000), new Date(past.getTime() - 1000));
  expect(staleSource(root)).toBe(join('src', 'rows', 'read-worker.ts'));
  utimesSync(join(root, 'dist/rows/read-worker.js'), new Date(), new Date());
  writeFileSync(join(root, 'src/rows/row-chunk.ts'), '');
  expect(staleSource(root)).toBe(join('src', 'rows', 'row-chunk.ts'));
});

test('the dist/ these tests run is as new as the sources', () => {
  expect(staleSource()).toBeUndefined();
});
