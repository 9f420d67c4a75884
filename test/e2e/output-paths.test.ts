// Output files (--emit, --errors) must never be written over a file the run reads.
import { linkSync, readFileSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test } from 'vitest';
import type { SandboxHandle } from '../../src/sandbox/index.js';
import { SALES_PROFILES_CSV, dealsCsv, runCli, tempFiles } from '../helpers/cli.js';
import { sandboxPerFile } from '../helpers/sandbox.js';

const KEY = 'paths-key-0123456789';
let sandbox: SandboxHandle;
let env: Record<string, string>;
sandboxPerFile(KEY, (s, e) => {
  sandbox = s;
  env = e;
});

const PROFILE = JSON.stringify({
  resource: 'deal',
  fields: {
    externalId: 'externalId',
    title: 'title',
    ownerExternalId: 'ownerExternalId',
    agentExternalId: 'agentExternalId',
    isWon: 'isWon',
    'amount.value': 'amount.value',
    'amount.currency': 'amount.currency',
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

test("push: --errors failed.csv beside an input failed.deals.csv (yesterday's, fed back) is refused before anything is sent", async () => {
  const header = 'externalId,title,ownerExternalId,agentExternalId,isWon,amount.value,amount.currency';
  const dir = tempFiles({
    'sales-profiles.csv': SALES_PROFILES_CSV,
    // failed.deals.csv fails first and takes failed.csv, so deals.csv's failures would be failed.deals.csv
    'failed.deals.csv': `${header}\nE-1,t,ana,ana,false,1,USX\n`,
    'deals.csv': `${header}\nD-1,t,ana,ana,false,1,USD\nD-2,t,ana,ana,false,1,USX\n`,
  });
  expect((await runCli(['push', join(dir, 'sales-profiles.csv')], env)).code).toBe(0);
  const before = sandbox.batches().length;
  const r = await runCli(
    ['push', '--resource', 'deal', '--batch-size', '1', '--errors', join(dir, 'failed.csv'), join(dir, 'failed.deals.csv'), join(dir, 'deals.csv')],
    env,
  );
  expect(r.code).toBe(2);
  expect(r.stderr).toMatch(/refusing to write the errors CSV over an input file: .*failed\.deals\.csv/);
  // exit 2 promises that nothing was sent
  expect(sandbox.batches().length - before).toBe(0);
});

test('--emit onto a hard link of an input is refused before anything is written, the input left whole (issue 16 item 6)', async () => {
  const csv = dealsCsv(3);
  const dir = tempFiles({ 'in.csv': csv });
  // another name for the same file: realpath cannot tell, only device and inode can
  linkSync(join(dir, 'in.csv'), join(dir, 'out.ndjson'));
  const r = await runCli(['validate', '--resource', 'deal', '--emit', join(dir, 'out.ndjson'), join(dir, 'in.csv')]);
  expect(readFileSync(join(dir, 'in.csv'), 'utf8')).toBe(csv);
  expect(r.code).toBe(2);
  expect(r.stderr).toMatch(
    /^error: refusing to write --emit over an input of this run \(data, profile or plan file\): .*out\.ndjson \(the same file as .*in\.csv\)$/m,
  );
  expect(r.stderr).not.toMatch(/\n\s+at /);
});

test('an errors CSV that is a hard link of an input is refused before anything is sent', async () => {
  const header = 'externalId,title,ownerExternalId,agentExternalId,isWon,amount.value,amount.currency';
  const csv = `${header}\nD-1,t,ana,ana,false,1,USX\n`;
  const dir = tempFiles({ 'deals.csv': csv });
  linkSync(join(dir, 'deals.csv'), join(dir, 'failed.csv'));
  const before = sandbox.batches().length;
  const r = await runCli(['push', '--resource', 'deal', '--errors', join(dir, 'failed.csv'), join(dir, 'deals.csv')], env);
  expect(r.code).toBe(2);
  expect(r.stderr).toMatch(/refusing to write the errors CSV over an input file: .*failed\.csv/);
  expect(readFileSync(join(dir, 'deals.csv'), 'utf8')).toBe(csv);
  expect(sandbox.batches().length - before).toBe(0);
});
