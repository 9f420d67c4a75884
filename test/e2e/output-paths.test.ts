// Output files (--emit, --errors) must never be written over a file the run reads.
import { readFileSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test } from 'vitest';
import { dealsCsv, runCli, tempFiles } from '../helpers/cli.js';

const PROFILE = JSON.stringify({
  resource: 'deal',
  fields: {
    externalId: 'externalId', title: 'title', ownerExternalId: 'ownerExternalId', agentExternalId: 'agentExternalId',
    isWon: 'isWon', 'amount.value': 'amount.value', 'amount.currency': 'amount.currency',
  },
});

test('--emit over the profile the run reads is refused, the profile left as it was', async () => {
  const dir = tempFiles({ 'deals.csv': dealsCsv(3), 'deals.profile.json': PROFILE });
  const profile = join(dir, 'deals.profile.json');
  const r = await runCli(['validate', '--profile', profile, '--emit', profile, join(dir, 'deals.csv')]);
  expect(readFileSync(profile, 'utf8')).toBe(PROFILE);
  expect(r.code).toBe(2);
  expect(r.stderr).toMatch(/refusing to write --emit over an input of this run/);
});

test('--emit through a symlink to an input is refused, the input left as it was', async () => {
  const csv = dealsCsv(3);
  const dir = tempFiles({ 'deals.csv': csv });
  symlinkSync(join(dir, 'deals.csv'), join(dir, 'out.ndjson'));
  const r = await runCli(['push', '--dry-run', '--emit', join(dir, 'out.ndjson'), join(dir, 'deals.csv')]);
  expect(readFileSync(join(dir, 'deals.csv'), 'utf8')).toBe(csv);
  expect(r.code).toBe(2);
});
