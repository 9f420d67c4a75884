// A MySQL `SELECT … INTO OUTFILE` export (vTiger CRM) writes NULL as an unquoted `\N`. init sees it
// in many cells and writes `reader.null` into the profile, so closingdate (83 of 7,966 rows really
// filled on the real export) is mapped from its column instead of becoming a placeholder, and push
// sends those cells as empty: no "\N" reaches the server.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test } from 'vitest';
import { SALES_PROFILES_CSV, spawnCli, tempFiles } from '../helpers/cli.js';
import { allRecords, KEY, sandboxCli } from '../helpers/sandbox.js';

const DEALS = [
  'potential_no,potentialname,amount,currency,closingdate,sales_stage,leadsource,cf_851,cf_853',
  'POT1,Alpha renewal,1200.50,USD,2024-03-01,Closed Won,Web,blue,\\N',
  'POT2,Beta upgrade,100,USD,\\N,Prospecting,\\N,\\N,12',
  'POT3,Gamma deal,300,USD,\\N,Negotiation,Partner,\\N,\\N',
  'POT4,Delta new,450,USD,\\N,Prospecting,\\N,red,\\N',
  'POT5,Epsilon,90,USD,2024-05-12,Closed Lost,\\N,\\N,7',
  'POT6,Zeta,80,USD,\\N,Prospecting,Web,\\N,\\N',
  '',
].join('\n');

/** What a user answers to the placeholders init leaves (the export has no owner or pipeline column). */
const ANSWERS: Record<string, string> = { ownerExternalId: 'ana', agentExternalId: 'ana', 'currentStage.pipelineName': 'Sales' };

test('init on a MySQL export proposes reader.null "\\N"; closeDate is mapped from its column; push sends no "\\N"', async () => {
  const dir = tempFiles({ 'deals.csv': DEALS, 'sales-profiles.csv': SALES_PROFILES_CSV });
  const init = await spawnCli(['init', join(dir, 'deals.csv'), '--resource', 'deal']);
  expect(init.stderr).toBe('');
  expect(init.code).toBe(0);
  expect(init.stdout).toContain('reader.null: "\\N" is MySQL\'s NULL in 4 columns: those cells are read as empty');
  expect(init.stdout).not.toContain('"\\N" is not');
  expect(init.stdout).toContain('checked against all 6 rows: 6 valid');

  const path = join(dir, 'deals.profile.json');
  const profile = JSON.parse(readFileSync(path, 'utf8'));
  expect(profile.reader.null).toBe('\\N');
  expect(profile.fields.closeDate).toEqual({ column: 'closingdate' });
  for (const [field, value] of Object.entries(ANSWERS)) {
    expect(profile.fields[field].const).toMatch(/^<FILL IN/);
    profile.fields[field].const = value;
  }
  writeFileSync(path, JSON.stringify(profile, null, 2));

  const sandbox = await sandboxCli(KEY);
  try {
    const env = { BATCH_SYNC_API_KEY: KEY, BATCH_SYNC_BASE_URL: sandbox.url };
    const sellers = await spawnCli(['push', join(dir, 'sales-profiles.csv')], { env });
    expect(sellers.code).toBe(0);
    const push = await spawnCli(['push', join(dir, 'deals.csv'), '--profile', path], { env });
    expect(push.stderr).not.toContain('\\N');
    expect(push.code).toBe(0);
    expect(push.stdout).toContain('OK: all 6 rows accepted.');

    const deals = (await allRecords({ url: sandbox.url } as never, 'deal')) as Record<string, unknown>[];
    expect(deals).toHaveLength(6);
    // JSON writes the backslash of \N doubled
    expect(JSON.stringify(deals)).not.toContain('\\\\N');
    const byId = new Map(deals.map((d) => [d.externalId, d]));
    expect(byId.get('POT1')).toMatchObject({ closeDate: '2024-03-01' });
    expect(byId.get('POT2')).not.toHaveProperty('closeDate');
  } finally {
    await sandbox.stop();
  }
}, 60_000);

test('one \\N in one column is not taken for NULL by init; --null "\\N" (validate, init) reads it as empty', async () => {
  const csv = [
    'potential_no,potentialname,amount,currency,closingdate,sales_stage',
    'POT1,Alpha renewal,1200.50,USD,2024-03-01,Closed Won',
    'POT2,Beta upgrade,100,USD,\\N,Prospecting',
    'POT3,Gamma deal,300,USD,2024-03-04,Negotiation',
    'POT4,Delta new,450,USD,2024-03-05,Prospecting',
    '',
  ].join('\n');
  const dir = tempFiles({ 'deals.csv': csv });
  const init = await spawnCli(['init', join(dir, 'deals.csv'), '--resource', 'deal']);
  expect(init.code).toBe(0);
  expect(init.stdout).not.toContain('reader.null');
  expect(init.stdout).toContain('closeDate: "\\N" is not a date');
  const path = join(dir, 'deals.profile.json');
  const profile = JSON.parse(readFileSync(path, 'utf8'));
  expect(profile.reader.null).toBeUndefined();
  for (const [field, value] of Object.entries(ANSWERS)) profile.fields[field].const = value;
  writeFileSync(path, JSON.stringify(profile, null, 2));

  const asText = await spawnCli(['validate', join(dir, 'deals.csv'), '--profile', path]);
  expect(asText.code).toBe(1);
  expect(asText.stdout).toContain('"\\N" is not a date');
  const asNull = await spawnCli(['validate', join(dir, 'deals.csv'), '--profile', path, '--null', '\\N']);
  expect(asNull.code).toBe(0);
  expect(asNull.stdout).toContain('OK: all 4 rows valid.');

  // init told so writes it into the profile, and its check reads the cell as empty
  const told = await spawnCli(['init', join(dir, 'deals.csv'), '--resource', 'deal', '--null', '\\N', '--out', join(dir, 'told.profile.json')]);
  expect(told.code).toBe(0);
  expect(told.stdout).toContain('checked against all 4 rows: 4 valid');
  expect(JSON.parse(readFileSync(join(dir, 'told.profile.json'), 'utf8')).reader.null).toBe('\\N');
}, 60_000);

test('"\\N" first seen past the sample (vTiger\'s companies: line 754 of 2,200) is found by init\'s check of the whole file', async () => {
  // 300 accounts; from line 252 on, four columns write MySQL's NULL
  const rows = Array.from({ length: 300 }, (_, k) => {
    const i = k + 1;
    const empty = i > 250 ? '\\N' : '';
    return `"${1000 + i}","Company ${i}","www.c${i}.com",${empty},${empty},${empty},${i > 250 ? '\\N' : `"City ${i}"`}`;
  });
  const dir = tempFiles({ 'companies.csv': ['accountid,accountname,website,email2,fax,bill_code,bill_city', ...rows, ''].join('\n') });
  const init = await spawnCli(['init', join(dir, 'companies.csv'), '--resource', 'account']);
  expect(init.stderr).toBe('');
  expect(init.code).toBe(0);
  expect(init.stdout).toContain('proposed from the first 200 rows');
  expect(init.stdout).toContain(
    'reader.null: "\\N" is MySQL\'s NULL in 4 columns of the rows checked past the sample (first on line 252): those cells are read as empty',
  );
  const profile = JSON.parse(readFileSync(join(dir, 'companies.profile.json'), 'utf8'));
  expect(profile.reader.null).toBe('\\N');
  const emitted = join(dir, 'emitted.ndjson');
  const validate = await spawnCli(['validate', join(dir, 'companies.csv'), '--profile', join(dir, 'companies.profile.json'), '--emit', emitted]);
  expect(validate.code).toBe(0);
  expect(readFileSync(emitted, 'utf8')).not.toContain('\\\\N');
}, 60_000);

test('the owner looked up in a MySQL users file reads it as init did: two deleted users whose user_name is \\N are no repeated key', async () => {
  const users = [
    'id,user_name,first_name,last_name,email1,phone_work,title',
    '1,admin,Ana,Souza,ana@example.com,\\N,\\N',
    '5,bdiaz,Bruno,Díaz,bruno@example.com,555-1234,\\N',
    '7,\\N,Carla,Ruiz,carla@example.com,\\N,Sales',
    '9,\\N,Dario,Lopez,dario@example.com,\\N,\\N',
    '',
  ].join('\n');
  const deals = [
    'potentialid,potentialname,amount,currency,sales_stage,assigned_to',
    '101,Alpha renewal,1200.50,USD,Closed Won,admin',
    '102,Beta upgrade,100,USD,Prospecting,bdiaz',
    '103,Gamma deal,300,USD,Negotiation,admin',
    '104,Delta new,450,USD,Prospecting,bdiaz',
    '',
  ].join('\n');
  const dir = tempFiles({ 'users.csv': users, 'deals.csv': deals });
  const init = await spawnCli(['init', join(dir, 'users.csv'), join(dir, 'deals.csv')], { cwd: dir });
  expect(init.stderr).toBe('');
  expect(init.code).toBe(0);
  expect(init.stdout).toContain('"assigned_to" holds users.csv\'s "user_name"');
  const path = join(dir, 'deals.profile.json');
  const profile = JSON.parse(readFileSync(path, 'utf8'));
  expect(profile.fields.ownerExternalId.lookup.reader.null).toBe('\\N');
  profile.fields['currentStage.pipelineName'] = { const: 'Sales' };
  writeFileSync(path, JSON.stringify(profile, null, 2));
  const validate = await spawnCli(['validate', '--config', 'batch-sync.config.json'], { cwd: dir });
  expect(validate.stderr).toContain('OK exit=0 read=8 valid=8');
  expect(validate.code).toBe(0);
}, 60_000);

test("a users file whose \\N is first past the sample: the owner lookup in it reads \\N as empty too, as init's check found", async () => {
  // 260 users; from line 230 on, deleted users write MySQL's NULL in user_name, phone_work and title
  const users = Array.from({ length: 260 }, (_, k) => {
    const i = k + 1;
    return i >= 229 ? `${i},\\N,First${i},Last${i},u${i}@example.com,\\N,\\N` : `${i},user${i},First${i},Last${i},u${i}@example.com,555-${i},Sales`;
  });
  const deals = Array.from({ length: 20 }, (_, k) => `${100 + k},Deal ${k},${10 + k},USD,Prospecting,user${1 + (k % 5)}`);
  const dir = tempFiles({
    'users.csv': ['id,user_name,first_name,last_name,email1,phone_work,title', ...users, ''].join('\n'),
    'deals.csv': ['potentialid,potentialname,amount,currency,sales_stage,assigned_to', ...deals, ''].join('\n'),
  });
  const init = await spawnCli(['init', join(dir, 'users.csv'), join(dir, 'deals.csv')], { cwd: dir });
  expect(init.stderr).toBe('');
  expect(init.code).toBe(0);
  expect(init.stdout).toContain('"\\N" is MySQL\'s NULL in 3 columns of the rows checked past the sample');
  expect(init.stdout).not.toContain('not looked up in users.csv');
  const profile = JSON.parse(readFileSync(join(dir, 'deals.profile.json'), 'utf8'));
  expect(profile.fields.ownerExternalId.lookup).toMatchObject({ key: 'user_name', value: 'id', reader: { null: '\\N' } });
}, 60_000);
