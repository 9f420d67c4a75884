// The human verdict line never contradicts the exit code: rows left UNVERIFIED by an answer that names
// no item are not accepted, so a run where that is all that happened is FAILED, not "OK: all 0 rows
// accepted" over an exit code of 1. The built CLI, against the embedded sandbox in the documented style.
import { resolve } from 'node:path';
import { expect, test } from 'vitest';
import { runCli } from '../helpers/cli.js';

const DEALS = resolve(__dirname, '../../fixtures/canonical/deals.csv');

test('rows left UNVERIFIED (and nothing else) make the verdict FAILED, as the exit code says', { timeout: 30_000 }, async () => {
  // deals alone: the embedded sandbox holds no owners, refuses every deal, and names no item
  const r = await runCli(['push', '--sandbox', '--answers', 'documented', DEALS], { FORCE_COLOR: '0' });
  expect(r.code).toBe(1);
  expect(r.stdout).toMatch(/^FAILED: 4 of 4 rows not accepted \(0 rejected, 0 invalid, 4 skipped\)\.$/m);
  expect(r.stdout).not.toMatch(/^OK:/m);
  expect(r.stderr.trim().split('\n').at(-1)).toMatch(/ FAILED exit=1 .* skipped=4 /);
});
