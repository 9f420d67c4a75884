// engines-identical.test.ts writes a generated bench-like input (tens of MB) and a folder per
// comparison under the temp directory: they must be gone when it ends, or every `npm test` leaves
// them behind on the developer's disk. Two of its cases run here in a vitest of their own, with
// TMPDIR an empty folder, and the folder is looked at afterwards.
import { execFile } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { expect, test } from 'vitest';

const ROOT = resolve(__dirname, '../..');
// the cases compare both engines themselves: the fast pass of npm test skips them, as it does those
const run = process.env.BATCH_SYNC_ENGINE === 'fast' ? test.skip : test;

run('engines-identical leaves none of its temporary folders behind (its bench-like input included)', { timeout: 180_000 }, async () => {
  const tmp = mkdtempSync(join(tmpdir(), 'engines-cleanup-'));
  try {
    const { stdout } = await promisify(execFile)(
      process.execPath,
      [
        join(ROOT, 'node_modules/vitest/vitest.mjs'),
        'run',
        'test/e2e/engines-identical.test.ts',
        // one comparison folder, and the generated bench-like input with one push over it
        '-t',
        '^every fixture.* hubspot \\(validate\\)$|^a generated bench-like input.* canonical deals \\(push --sandbox\\)$',
        '--reporter=json',
      ],
      // a small bench-like input: what is written matters here, not how much
      { cwd: ROOT, env: { ...process.env, TMPDIR: tmp, BATCH_SYNC_ENGINE: 'simple', ENGINES_IDENTICAL_ROWS: '300' }, maxBuffer: 64 * 1024 * 1024 },
    );
    const result = JSON.parse(stdout) as { numPassedTests: number; numFailedTests: number };
    expect(result).toMatchObject({ numPassedTests: 2, numFailedTests: 0 });
    expect(readdirSync(tmp).filter((name) => name.startsWith('batch-sync-'))).toEqual([]);
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
});
