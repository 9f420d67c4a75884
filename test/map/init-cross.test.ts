// Issue 25, item 3 (init's side): what init proposes across the files of one run — sales profiles
// derived from the deals' owner column when no file holds them, the users' id made the way the deals
// name their owners, and a lookup when the owner column holds another column of the users file.
import { copyFileSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test } from 'vitest';
import { main } from '../../src/main.js';
import { memoryOutput } from '../../src/report/output.js';

const OUTSIDE = join(import.meta.dirname, '../../fixtures/outside');
const copy = (from: string, files: string[]) => {
  const dir = mkdtempSync(join(tmpdir(), 'init-cross-'));
  for (const f of files) copyFileSync(join(OUTSIDE, from, f), join(dir, f));
  return dir;
};
const json = (path: string) => JSON.parse(readFileSync(path, 'utf8'));
async function init(args: string[]) {
  const o = memoryOutput();
  const code = await main(['node', 'batch-sync', 'init', ...args], o);
  return { code, out: o.stdout.join('\n'), err: o.stderr.join('\n') };
}

test("no users file (Salesforce Data Loader): a sales-profile job derived from the deals' OwnerId, first in the plan, and init says so", async () => {
  const dir = copy('salesforce-data-loader', ['Account.csv', 'Opportunity.csv', 'Task.csv']);
  const r = await init(['Account.csv', 'Opportunity.csv', 'Task.csv'].map((f) => join(dir, f)));
  expect(r.err).toBe('');
  expect(r.code).toBe(0);
  expect(json(join(dir, 'Opportunity.sales-profile.profile.json'))).toEqual({
    resource: 'sales-profile',
    reader: { delimiter: ',', encoding: 'utf-8', headerRow: 1 },
    timeZone: 'UTC',
    fields: {
      externalId: { column: 'OwnerId' },
      email: { template: '<FILL IN: e-mail, e.g. {OwnerId|slug}@yourcompany.com>' },
      // OwnerId holds ids (`005Dn000003xyz`): nobody's name, so the names are the user's to give
      'profile.firstName': { const: '<FILL IN: first name of each owner (OwnerId holds ids, not names): a value, or a lookup in your users file>' },
      'profile.lastName': { const: '<FILL IN: last name of each owner (OwnerId holds ids, not names): a value, or a lookup in your users file>' },
    },
  });
  expect(json(join(dir, 'batch-sync.config.json')).jobs).toEqual([
    { file: 'Opportunity.csv', resource: 'sales-profile', profile: 'Opportunity.sales-profile.profile.json' },
    { file: 'Account.csv', resource: 'account', profile: 'Account.profile.json' },
    { file: 'Opportunity.csv', resource: 'deal', profile: 'Opportunity.profile.json' },
    { file: 'Task.csv', resource: 'activity', profile: 'Task.profile.json' },
  ]);
  expect(r.out).toContain(`${join(dir, 'Opportunity.csv')}: sales-profile (derived from its owner column "OwnerId": no file of the run holds sales profiles)`);
  expect(r.out).toContain('owners: the 1 distinct owner/agent id of Opportunity.csv is among the ids of Opportunity.csv');
});

test('no owner column at all (Salesforce tree JSON): the owner asked once, in one row of owner.csv that the sales profile reads and the deals look up', async () => {
  const dir = copy('salesforce-tree-json', ['Accounts.json', 'Opportunities.json']);
  const r = await init([join(dir, 'Accounts.json'), join(dir, 'Opportunities.json')]);
  expect(r.code).toBe(0);
  expect(readFileSync(join(dir, 'owner.csv'), 'utf8')).toBe(
    "Role,Owner ID,E-mail,Full name\ndeal owner,,<FILL IN: e-mail of the deals' owner>,<FILL IN: full name of the deals' owner>\n",
  );
  expect(json(join(dir, 'owner.profile.json')).fields.externalId).toEqual({ column: 'Owner ID' });
  const lookup = { const: 'deal owner', lookup: { file: 'owner.csv', key: 'Role', value: 'Owner ID' } };
  expect(json(join(dir, 'Opportunities.profile.json')).fields.ownerExternalId).toEqual(lookup);
  expect(json(join(dir, 'batch-sync.config.json')).jobs[0]).toEqual({ file: 'owner.csv', resource: 'sales-profile', profile: 'owner.profile.json' });
  // asked once: no placeholder for the owner in any profile, one line for owner.csv
  const asked = r.out.split('fill in before use')[1]!.split('\n\n')[0]!;
  expect(asked).not.toContain('who owns these deals');
  expect(asked.match(/owner\.csv: line 2: the owner's id/g)).toHaveLength(1);
});

test("owners named by full name (Dynamics 365): the users' id is the slug of first and last name, and the check counts the one missing", async () => {
  const dir = copy('dynamics365-sales', ['User.csv', 'Opportunity.csv']);
  const r = await init([join(dir, 'User.csv'), join(dir, 'Opportunity.csv')]);
  expect(r.code).toBe(0);
  expect(json(join(dir, 'User.profile.json')).fields.externalId).toEqual({ template: '{First Name|slug}-{Last Name|slug}' });
  expect(r.out).toContain('owners: 1 of 12 distinct owner/agent ids of Opportunity.csv is not among the ids of User.csv: "matisha-ladiwala"');
});

test('an owner column holding another column of the users file: the owner is looked up there', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'init-lookup-'));
  writeFileSync(join(dir, 'users.csv'), 'User Code,Username,Email\nU-001,jperez,jp@x.example\nU-002,amaria,am@x.example\n');
  writeFileSync(join(dir, 'deals.csv'), 'Deal Id,Deal Name,Owner Username,Amount,Currency,Stage\nD-1,One,jperez,10,USD,Won\nD-2,Two,amaria,20,USD,Lost\n');
  const r = await init([join(dir, 'users.csv'), join(dir, 'deals.csv')]);
  expect(r.code).toBe(0);
  // read as users.profile.json reads the file
  const lookup = { file: 'users.csv', key: 'Username', value: 'User Code', reader: json(join(dir, 'users.profile.json')).reader };
  expect(lookup.reader).toMatchObject({ delimiter: ',' });
  expect(json(join(dir, 'deals.profile.json')).fields.ownerExternalId).toEqual({ column: 'Owner Username', lookup });
  expect(r.out).toContain('deals.csv: "Owner Username" holds users.csv\'s "Username": the owner is looked up there and its "User Code" sent');
});

// Zoho's export: the deals name their owner by full name ("Potential Owner"), proposed as its slug, and
// the users file keeps that name in "Last Name" beside its "USER_ID": 0 of 3,632 deals met an owner
test("an owner column of people's names that the users file holds beside its ids: looked up there, not slugged", async () => {
  const dir = mkdtempSync(join(tmpdir(), 'init-lookup-'));
  writeFileSync(join(dir, 'Users.csv'), 'USER_ID,First Name,Last Name,Email\n1001,,Dibumye Reygu,d@x.example\n1002,,Bulke Mrot Kpodi,b@x.example\n');
  writeFileSync(
    join(dir, 'Potentials.csv'),
    'Potential Id,Potential Name,Potential Owner,Amount\nP-1,One,Dibumye Reygu,10\nP-2,Two,Bulke Mrot Kpodi,20\nP-3,Three,Dibumye Reygu,5\n',
  );
  const r = await init([join(dir, 'Users.csv'), join(dir, 'Potentials.csv')]);
  expect(r.code, r.err).toBe(0);
  const lookup = { file: 'Users.csv', key: 'Last Name', value: 'USER_ID', reader: json(join(dir, 'Users.profile.json')).reader };
  expect(json(join(dir, 'Potentials.profile.json')).fields.ownerExternalId).toEqual({ column: 'Potential Owner', lookup });
  expect(r.out).not.toMatch(/owners: \d+ of \d+ distinct/);
});

// Pipedrive's "Deal closed on" and Dynamics' "Actual Close Date" hold when a closed deal closed; the
// expected date beside them was sent instead (a won deal of a real Pipedrive export had no close date)
test('a closed deal closes on its actual close date, an open one on its expected date', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'init-close-'));
  writeFileSync(
    join(dir, 'deals.csv'),
    'ID,Title,Owner,Value,Status,Deal closed on,Expected close date\n1,A,Ana Ruiz,10,Won,2024-03-02,\n2,B,Ana Ruiz,20,Open,,2024-09-30\n3,C,Ana Ruiz,5,Lost,2024-04-01,2024-03-15\n',
  );
  const r = await init([join(dir, 'deals.csv')]);
  expect(r.code, r.err).toBe(0);
  expect(json(join(dir, 'deals.profile.json')).fields.closeDate).toEqual({ column: ['Deal closed on', 'Expected close date'] });
  expect(r.out).toContain('closeDate: "Deal closed on" where it is filled (a closed deal), else "Expected close date"');
});

// Zoho calls a deal a "potential": its name column titled 3,632 deals of a real export until a user
// filled the placeholder "no column looks like title" with a constant
test("Zoho's Potential Name is the deal's title", async () => {
  const dir = mkdtempSync(join(tmpdir(), 'init-zoho-'));
  writeFileSync(
    join(dir, 'Potentials.csv'),
    'Potential Id,Potential Name,Potential Owner,Amount,Stage\nP-1,Renewal 2021,Ana Ruiz,10,Closed Won\nP-2,New site,Ana Ruiz,20,Needs Analysis\n',
  );
  const r = await init([join(dir, 'Potentials.csv')]);
  expect(r.code, r.err).toBe(0);
  expect(json(join(dir, 'Potentials.profile.json')).fields.title).toEqual({ column: 'Potential Name' });
});

test('a users column whose values repeat in the sample is no lookup key: the owner is not looked up through it', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'init-lookup-'));
  writeFileSync(join(dir, 'users.csv'), 'User Code,Username,Email\nU-001,jperez,jp@x.example\nU-002,amaria,am@x.example\nU-003,jperez,jp2@x.example\n');
  writeFileSync(join(dir, 'deals.csv'), 'Deal Id,Title,Owner Username,Amount\nD-1,A,jperez,10\nD-2,B,amaria,20\n');
  const r = await init([join(dir, 'users.csv'), join(dir, 'deals.csv')]);
  expect(r.code).toBe(0);
  expect(json(join(dir, 'deals.profile.json')).fields.ownerExternalId).toEqual({ column: 'Owner Username' });
  expect(r.out).not.toContain('looked up');
});

// An account's type is COMPANY, CONTACT or CLIENT in the API's docs; CRMs write the relationship
// (Zoho's "Prospect"/"Customer", Salesforce's "Competitor", "Press", "Investor"), which was sent as
// the type with a warning a row
test("an account type column of the CRM's own words: mapped when each has the API's word, else COMPANY with the column kept as a custom field", async () => {
  const dir = mkdtempSync(join(tmpdir(), 'init-type-'));
  writeFileSync(join(dir, 'Accounts.csv'), 'Account Id,Account Name,Account Type\nA1,Acme,Prospect\nA2,Beta,Customer\nA3,Gamma,Competitor\n');
  writeFileSync(join(dir, 'Empresas.csv'), 'ID,Nombre,Tipo\nE1,Acme,Cliente\nE2,Beta,Empresa\nE3,Gamma,Contacto\n');
  const r = await init([join(dir, 'Accounts.csv'), join(dir, 'Empresas.csv')]);
  expect(r.code, r.err).toBe(0);
  const zoho = json(join(dir, 'Accounts.profile.json'));
  expect(zoho.fields.type).toEqual({ const: 'COMPANY' });
  expect(zoho.customFields).toContainEqual(expect.objectContaining({ column: 'Account Type', type: 'string' }));
  expect(r.out).toContain('type: "Account Type" holds words the API does not show ("Prospect", "Customer", "Competitor")');
  const es = json(join(dir, 'Empresas.profile.json'));
  expect(es.fields.type).toEqual({ column: 'Tipo', map: { Cliente: 'CLIENT', Empresa: 'COMPANY', Contacto: 'CONTACT' } });
});

// Bitrix24's deals name their owner by a number (ASSIGNED_BY_ID 17): the derived sales profiles were
// sent with "17" as the first name; the names are now placeholders, and user names (one word, no
// digit) and people's names are still taken from the column
test('derived sales profiles: owner codes give name placeholders; owner names give the names', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'init-derived-'));
  writeFileSync(join(dir, 'deals.csv'), 'ID,TITLE,ASSIGNED_BY_ID,OPPORTUNITY,CURRENCY_ID,STAGE_ID\n1,One,17,100,USD,WON\n2,Two,23,200,USD,NEW\n');
  const r = await init([join(dir, 'deals.csv')]);
  expect(r.code, r.err).toBe(0);
  const fields = json(join(dir, 'deals.sales-profile.profile.json')).fields;
  expect(fields['profile.firstName'].const).toMatch(/^<FILL IN: first name of each owner \(ASSIGNED_BY_ID holds ids, not names\)/);
  expect(fields['profile.lastName'].const).toMatch(/^<FILL IN: last name of each owner/);
  expect(r.out).toContain('deals.sales-profile.profile.json: fields.profile.firstName.const: first name of each owner');

  const named = mkdtempSync(join(tmpdir(), 'init-derived-'));
  writeFileSync(join(named, 'deals.csv'), 'ID,TITLE,Owner,Amount,Currency,Stage\nD1,One,Ana Souza,100,USD,Won\nD2,Two,jperez,200,USD,Open\n');
  expect((await init([join(named, 'deals.csv')])).code).toBe(0);
  expect(json(join(named, 'deals.sales-profile.profile.json')).fields['profile.firstName']).toEqual({ column: 'Owner', transform: 'firstName' });
});

// A Bitrix-shaped export (maxpoll-dev/bitrix-stats, measured only) lists deal D1008 twice with other
// content: init gave up "deal_id" for rowHash, under which every edit of a deal makes a new record
// on the next run. The record's own id is kept; the repeat is said, and push refuses it as DUPLICATE.
test("a deals file whose own id repeats once with other content: the id is kept, never rowHash; a line-item file's repeating deal id is no id", async () => {
  const dir = mkdtempSync(join(tmpdir(), 'init-own-id-'));
  const rows = Array.from({ length: 11 }, (_, i) => `D${1001 + i},Deal ${i},${100 + i},RUB,NEW,U10`);
  rows.splice(8, 0, 'D1008,Deal 7 again,69000,RUB,NEW,U10');
  writeFileSync(join(dir, 'deals.csv'), ['deal_id,title,expected_amount,currency,stage_id,owner_id', ...rows, ''].join('\n'));
  const items = Array.from({ length: 10 }, (_, i) => `D${1001 + (i % 4)},PR00${i % 3},${i + 1},100`);
  writeFileSync(join(dir, 'deal_items.csv'), ['deal_id,product_id,quantity,unit_price', ...items, ''].join('\n'));
  const r = await init([join(dir, 'deals.csv')]);
  expect(r.code, r.err).toBe(0);
  expect(json(join(dir, 'deals.profile.json')).fields.externalId).toEqual({ column: 'deal_id' });
  expect(r.out).toContain(
    'externalId: "deal_id" repeats an earlier row\'s value in 1 of 12 rows checked (the first on line 10, "D1008"): push sends the first row of each id and refuses the others as DUPLICATE',
  );
  expect(r.out).not.toContain('rowHash');
  const items2 = await init([join(dir, 'deal_items.csv'), '--resource', 'deal', '--out', join(dir, 'items.profile.json')]);
  expect(items2.code, items2.err).toBe(0);
  expect(json(join(dir, 'items.profile.json')).fields.externalId).toEqual({ rowHash: true });
});

// The same Bitrix-shaped export names each deal's owner in "manager_id" (U10, U11), the users' own
// ids, under a name no owner synonym knows: init asked for the owner as a constant, with the column
// beside it. A column whose values are the users file's ids is the owner.
test("a deals column holding the users file's ids, under a name init does not know (manager_id): it is the owner, not a placeholder", async () => {
  const dir = mkdtempSync(join(tmpdir(), 'init-owner-ids-'));
  writeFileSync(
    join(dir, 'users.csv'),
    'user_id,name,email\nU10,Иван Петров,ivan@example.local\nU11,Анна Соколова,anna@example.local\nU12,Олег Ли,oleg@example.local\n',
  );
  const deals = ['deal_id,title,expected_amount,currency,stage_id,company_id,manager_id'];
  for (let i = 0; i < 8; i++) deals.push(`D${1001 + i},Сделка ${i},${1000 + i},RUB,NEW,C20${i % 3},U1${i % 2}`);
  writeFileSync(join(dir, 'deals.csv'), `${deals.join('\n')}\n`);
  const r = await init([join(dir, 'users.csv'), join(dir, 'deals.csv')]);
  expect(r.code, r.err).toBe(0);
  const fields = json(join(dir, 'deals.profile.json')).fields;
  expect(fields.ownerExternalId).toEqual({ column: 'manager_id' });
  expect(fields.agentExternalId).toEqual({ column: 'manager_id' });
  expect(r.out).toContain('deals.csv: "manager_id" holds users.csv\'s ids (2 of 2 distinct sampled values): it is the owner (and agent)');
  expect(r.out).not.toContain('fields.ownerExternalId.const');
  expect(json(join(dir, 'deals.profile.json')).customFields ?? []).not.toContainEqual(expect.objectContaining({ column: 'manager_id' }));
});
