// What a user sees from validate: the file named as typed, each invalid row as
// `file:line  externalId  column → field: reason` with nothing said twice, grouped reasons, the exit code.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test } from 'vitest';
import { spawnCli, tempFiles } from '../helpers/cli.js';

test('validate names rows as file:line with the file as typed, and says each field once', async () => {
  const dir = tempFiles({
    'deals.csv': [
      'externalId,title,ownerExternalId,agentExternalId,isWon,amount.value,amount.currency,closeDate',
      'D1,One,ana,ana,true,10.5,USD,2024-02-30',
      'D2,Two,ana,ana,maybe,10,USD,',
      'D3,Three,ana,ana,false,1,USX,',
      'D4,Four,ana,ana,false,1,USY,',
      'D5,Five,ana,ana,false,1,EUR,2024-01-01',
    ].join('\n'),
  });
  const r = await spawnCli(['validate', 'deals.csv'], { cwd: dir });
  expect(r.code).toBe(1);
  expect(r.stdout).toContain('deals.csv:2  D1  closeDate: "2024-02-30" is not an ISO-8601 date or date-time with offset');
  expect(r.stdout).toContain('deals.csv:3  D2  isWon: "maybe" is not true or false');
  expect(r.stdout).not.toMatch(/isWon → isWon|isWon: isWon/);
  // two currencies, one reason: one group of two rows
  expect(r.stdout).toContain('2 rows: INVALID amount.currency: "…" is not an ISO-4217 currency code');
  expect(r.stdout).not.toContain(dir);
  expect(r.stderr).toMatch(/batch-sync validate: run \S+ FAILED exit=1 read=5 valid=1 rejected=0 invalid=4/);
});

test('warnings count under their resource even when the file name does not say which it is', async () => {
  const dir = tempFiles({ 'clientes.csv': 'externalId,name,type\nacme,Acme,GUILD\nbeta,Beta,COMPANY' });
  const r = await spawnCli(['validate', '--resource', 'account', '--format', 'json', 'clientes.csv'], { cwd: dir });
  expect(r.code).toBe(0);
  const report = JSON.parse(r.stdout);
  expect(report.counts.account).toMatchObject({ read: 2, accepted: 2, warnings: 1 });
  expect(report.totals.warnings).toBe(1);
});

test("--emit and --errors are refused over any input, the plan's jobs included, and the input is left intact", async () => {
  const accounts = 'externalId,name,type\nacme,Acme,COMPANY\n';
  const dir = tempFiles({ 'accounts.csv': accounts, 'batch-sync.config.json': JSON.stringify({ jobs: [{ file: 'accounts.csv' }] }) });
  for (const flag of ['--emit', '--errors']) {
    const r = await spawnCli(['validate', flag, 'accounts.csv'], { cwd: dir });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/refusing to write .*over an input/);
    expect(readFileSync(join(dir, 'accounts.csv'), 'utf8')).toBe(accounts);
  }
});

test('init never writes its profile over the export it reads, even with --force', async () => {
  const accounts = 'externalId,name,type\nacme,Acme,COMPANY\n';
  const dir = tempFiles({ 'accounts.csv': accounts });
  const r = await spawnCli(['init', 'accounts.csv', '--resource', 'account', '--out', 'accounts.csv', '--force'], { cwd: dir });
  expect(r.code).toBe(2);
  expect(r.stderr).toMatch(/refusing to write the profile over the export it reads/);
  expect(readFileSync(join(dir, 'accounts.csv'), 'utf8')).toBe(accounts);
});
