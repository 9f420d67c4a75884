// Issue 36 rows 3, 7 and 9: the file a profile's lookup names is opened as the state's files are:
// a regular file only (a FIFO nobody writes refused at once, never a hang with the lock held), its
// "columns" echoed only when it reads as a table (never the line of a key file), and a missing one
// named as the profile wrote it, with the profile's field.
import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test } from 'vitest';
import { spawnCli, tempFiles } from '../helpers/cli.js';

const KEY = 'CANARYkey-9b8a7c6d5e4f30211203';
const DEALS = ['Id,Name,Owner,Amount', 'D-1,One,u1,10', 'D-2,Two,u2,20'].join('\n');

function profile(file: string) {
  const owner = { column: 'Owner', lookup: { file, key: 'Id', value: 'Email' } };
  return JSON.stringify({
    resource: 'deal',
    fields: {
      externalId: 'Id',
      title: 'Name',
      ownerExternalId: owner,
      agentExternalId: owner,
      isWon: { const: false },
      'amount.value': 'Amount',
      'amount.currency': { const: 'USD' },
      'currentStage.pipelineName': { const: 'Sales' },
      'currentStage.value': { const: 'Open' },
    },
  });
}

test('a lookup naming the API key file: refused without a word of the key', async () => {
  const dir = tempFiles({ 'deals.csv': DEALS, 'api.key': `${KEY}\n`, 'deals.profile.json': profile('api.key') });
  const r = await spawnCli(['validate', '--profile', 'deals.profile.json', 'deals.csv'], { cwd: dir });
  expect(r.code).toBe(2);
  expect(r.stdout + r.stderr).not.toMatch(/canary|9b8a7c6d/i);
  expect(r.stderr).toMatch(/^error: profile .*ownerExternalId\.lookup: api\.key is not a table/m);
});

test('a lookup file that is a FIFO nobody writes: refused at once, exit 2', async () => {
  const dir = tempFiles({ 'deals.csv': DEALS, 'deals.profile.json': profile('users.csv') });
  execFileSync('mkfifo', [join(dir, 'users.csv')]);
  const started = Date.now();
  const r = await spawnCli(['push', '--sandbox', '--profile', 'deals.profile.json', 'deals.csv'], { cwd: dir, timeoutMs: 20_000 });
  expect(r.code, r.stderr).toBe(2);
  expect(r.stderr).toMatch(/ownerExternalId\.lookup: users\.csv is a FIFO, not a regular file/);
  // bounded by the spawn's 20 s kill: a hang would end as a signal, not exit 2
  expect(Date.now() - started).toBeLessThan(20_000);
});

test('a missing lookup file is named as the profile wrote it, with the field', async () => {
  const dir = tempFiles({ 'deals.csv': DEALS, 'deals.profile.json': profile('users.csv') });
  const r = await spawnCli(['validate', '--profile', 'deals.profile.json', 'deals.csv'], { cwd: dir });
  expect(r.code).toBe(2);
  expect(r.stderr).toMatch(/^error: profile deals\.profile\.json: fields\.ownerExternalId\.lookup: users\.csv does not exist/m);
  expect(r.stderr).not.toContain(dir);
});

test('a lookup file that is a table still lists its columns when the key column is missing', async () => {
  const dir = tempFiles({ 'deals.csv': DEALS, 'users.csv': 'UserId,Email\nu1,a@x.com\n', 'deals.profile.json': profile('users.csv') });
  const r = await spawnCli(['validate', '--profile', 'deals.profile.json', 'deals.csv'], { cwd: dir });
  expect(r.code).toBe(2);
  expect(r.stderr).toMatch(/"UserId", "Email"/);
});

// Issue 36 row 9: a key cell that is filled but finds nothing was reported as "column Owner is
// empty", the reason of an empty cell. Each case has its own reason, naming the file, the value
// (shortened when long) and the profile's field.
test('a filled key cell the lookup file does not hold, or holds with an empty value, is never "column … is empty"', async () => {
  const long = `u${'9'.repeat(400)}`;
  const deals = ['Id,Name,Owner,Amount', 'D-1,One,u1,10', 'D-2,Two,u9,20', 'D-3,Three,u7,30', `D-4,Four,${long},40`, 'D-5,Five,,50'].join('\n');
  const dir = tempFiles({ 'deals.csv': deals, 'users.csv': 'Id,Email\nu1,a@x.com\nu7,\n', 'deals.profile.json': profile('users.csv') });
  const r = await spawnCli(['validate', '--profile', 'deals.profile.json', 'deals.csv'], { cwd: dir });
  expect(r.code, r.stderr).toBe(1);
  const rowLine = (line: number) => r.stdout.split('\n').find((l) => l.startsWith(`  deals.csv:${line} `)) ?? '';
  expect(rowLine(3)).toContain('Owner → ownerExternalId: "u9" is not an Id in users.csv (fields.ownerExternalId.lookup);');
  expect(rowLine(4)).toContain(
    'Owner → ownerExternalId: is required — "u7" is an Id in users.csv whose Email is empty (fields.ownerExternalId.lookup): add a default to fields.ownerExternalId;',
  );
  expect(rowLine(5)).toMatch(/Owner → ownerExternalId: "u9{20,60}…" \(401 characters\) is not an Id in users\.csv \(fields\.ownerExternalId\.lookup\);/);
  expect(r.stdout).not.toContain(long);
  // an empty cell keeps its own reason
  expect(rowLine(6)).toContain('Owner → ownerExternalId: is required — column Owner is empty: add a default to fields.ownerExternalId;');
});

// A profile in another folder than the one the user runs from: its lookup's file is named as the
// user can open it from there (relative to the working folder), with the profile's field.
/** A folder holding exports/ (the deals and their profile, whose lookup reads ../people/users.csv) and, unless left out, people/. */
function foldersDir(users?: string): string {
  const dir = tempFiles({});
  mkdirSync(join(dir, 'exports'));
  writeFileSync(join(dir, 'exports/deals.csv'), DEALS);
  writeFileSync(join(dir, 'exports/deals.profile.json'), profile('../people/users.csv'));
  if (users !== undefined) {
    mkdirSync(join(dir, 'people'));
    writeFileSync(join(dir, 'people/users.csv'), users);
  }
  return dir;
}

test('a lookup file beside a profile in another folder is named relative to where the user runs, not to the profile', async () => {
  const r = await spawnCli(['validate', 'exports/deals.csv'], { cwd: foldersDir('Id,Email\nu1,a@x.com\n') });
  expect(r.code, r.stderr).toBe(1);
  expect(r.stdout).toContain('exports/deals.csv:3  D-2  Owner → ownerExternalId: "u2" is not an Id in people/users.csv (fields.ownerExternalId.lookup);');
  expect(r.stdout).not.toContain('../people/users.csv');

  const m = await spawnCli(['validate', 'exports/deals.csv'], { cwd: foldersDir() });
  expect(m.code).toBe(2);
  expect(m.stderr).toMatch(
    /^error: profile deals\.profile\.json: fields\.ownerExternalId\.lookup: people\/users\.csv does not exist \(the profile's "\.\.\/people\/users\.csv" is relative to the profile's folder\)/m,
  );
});

// A row with two problems: its group's line showed the first without its column (`INVALID
// ownerExternalId: …; Owner → agentExternalId: …`) and the second with it. Each now reads as in the
// row's own line: column → field: reason.
test('a grouped line names the column of each of its row’s problems, the first as the others', async () => {
  const r = await spawnCli(['validate', 'exports/deals.csv'], { cwd: foldersDir('Id,Email\nu1,a@x.com\n') });
  expect(r.code, r.stderr).toBe(1);
  expect(r.stdout).toContain(
    '1 row: INVALID Owner → ownerExternalId: "…" is not an Id in people/users.csv (fields.ownerExternalId.lookup); Owner → agentExternalId: "…" is not an Id in people/users.csv (fields.agentExternalId.lookup)\n',
  );
});
