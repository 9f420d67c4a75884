// Issue 33 item 1: `init` tries its proposal on the whole file before writing it (the built CLI, on
// exports made here whose trouble lies past the 200 rows init samples, or in a first choice the data
// refuses): what it then proposes, what it says, and that the profile it writes is pushed whole.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { checkedLines } from '../../src/commands/init-checked.js';
import { checkProfile } from '../../src/rows/check-profile.js';
import { spawnCli, tempFiles } from '../helpers/cli.js';

const USERS = ['Id,First Name,Last Name,Email', ...[1, 2, 3, 4, 5].map((i) => `U${i},Ann${i},Lee${i},ann${i}@example.com`)].join('\n');

/** 300 deals, HubSpot-like; `cell(i, line)` may override a column's value on a row. */
function deals(header: string[], cell: (column: string, i: number, line: number) => string | undefined): string {
  const base = (column: string, i: number): string =>
    ({
      'Deal ID': `D${i}`,
      'Deal Name': `Deal ${i}`,
      Owner: `U${1 + (i % 5)}`,
      Amount: String(1000 + i),
      Currency: 'USD',
      'Close Date': `2024-0${1 + (i % 9)}-15`,
      'Deal Stage': ['Qualified', 'Proposal', 'Negotiation'][i % 3]!,
      Pipeline: 'Sales',
      'Is Won': String(i % 3 === 0),
    })[column] ?? '';
  const rows = Array.from({ length: 300 }, (_, k) => header.map((c) => cell(c, k + 1, k + 2) ?? base(c, k + 1)).join(','));
  return [header.join(','), ...rows].join('\n');
}

const profileOf = (dir: string, name: string) => JSON.parse(readFileSync(join(dir, name), 'utf8')) as { fields: Record<string, Record<string, unknown>> };

describe('init checks its proposal against every row before writing it', () => {
  test('an Amount first empty on line 220 (past the sample) gets its default and a check line; push --sandbox then accepts every row', async () => {
    const header = ['Deal ID', 'Deal Name', 'Owner', 'Amount', 'Currency', 'Close Date', 'Deal Stage', 'Pipeline', 'Is Won'];
    const dir = tempFiles({
      'users.csv': USERS,
      'deals.csv': deals(header, (c, _i, line) => (c === 'Amount' && (line === 220 || line === 260) ? '' : undefined)),
    });
    const init = await spawnCli(['init', join(dir, 'users.csv'), join(dir, 'deals.csv')]);
    expect(init.stderr).toBe('');
    expect(init.code).toBe(0);
    expect(init.stdout).toContain('proposed from the first 200 rows of');
    expect(init.stdout).not.toContain('sample rows');
    expect(init.stdout).toContain(
      'amount.value: "Amount" is empty in 2 of 300 rows checked (the first on line 220): those are sent as "0"; remove "default" to have them refused instead',
    );
    expect(init.stdout).toContain('deals.profile.json: checked against all 300 rows: 300 valid');
    expect(profileOf(dir, 'deals.profile.json').fields['amount.value']).toEqual({ column: 'Amount', default: '0' });

    const push = await spawnCli(['push', '--config', join(dir, 'batch-sync.config.json'), '--sandbox']);
    expect(push.code).toBe(0);
    expect(push.stdout).toContain('OK: all 305 rows accepted.');
  }, 60_000);

  test('a won stage first seen past the sample (Bitrix24: C6:WON on line 250) joins the won map; push then counts those deals won', async () => {
    const header = ['Deal ID', 'Deal Name', 'Owner', 'Amount', 'Currency', 'Close Date', 'Deal Stage', 'Pipeline'];
    const dir = tempFiles({
      'users.csv': USERS,
      'deals.csv': deals(header, (c, _i, line) => (c === 'Deal Stage' && (line === 250 || line === 280) ? 'C6:WON' : undefined)),
    });
    const init = await spawnCli(['init', join(dir, 'users.csv'), join(dir, 'deals.csv')]);
    expect(init.code).toBe(0);
    expect(init.stdout).toContain(
      'isWon: from "Deal Stage": "C6:WON" found beyond the sample means won; the other 3 value(s) of the column are read as not won',
    );
    // what the sample said is superseded, not said beside it
    expect(init.stdout).not.toContain('no value in the sample means won');
    expect(profileOf(dir, 'deals.profile.json').fields.isWon).toEqual({ column: 'Deal Stage', map: { 'C6:WON': true }, otherwise: false });
  }, 60_000);

  test('a first-choice column invalid in most rows gives way to the next column that matched the field', async () => {
    const header = ['Deal ID', 'Deal Name', 'Owner', 'Amount', 'Deal amount', 'Currency', 'Close Date', 'Deal Stage', 'Pipeline', 'Is Won'];
    const csv = deals(header, (c, i) => (c === 'Amount' ? (i % 5 === 0 ? String(1000 + i) : 'ask Ana') : c === 'Deal amount' ? String(2000 + i) : undefined));
    const dir = tempFiles({ 'users.csv': USERS, 'deals.csv': csv });
    const init = await spawnCli(['init', join(dir, 'users.csv'), join(dir, 'deals.csv')]);
    expect(init.code).toBe(0);
    expect(init.stdout).toContain(
      'amount.value: "Amount" is invalid in 240 of 300 rows checked where it is filled ("ask Ana" is not a number); "Deal amount" is taken instead',
    );
    expect(init.stdout).toMatch(/amount\.value\s+← "Deal amount"\n/);
    expect(init.stdout).not.toContain('deal_amount');
    expect(init.stdout).toContain('deals.profile.json: checked against all 300 rows: 300 valid');
    const profile = profileOf(dir, 'deals.profile.json') as { fields: Record<string, unknown>; customFields?: unknown[] };
    expect(profile.fields['amount.value']).toEqual({ column: 'Deal amount' });
    expect(JSON.stringify(profile.customFields ?? [])).not.toContain('Deal amount');
  }, 60_000);

  test('a lookup whose key repeats past the sample is not proposed, and owners that then do not meet are said once with the fix', async () => {
    const users = ['Id,First Name,Last Name,Email,Alias'];
    for (let i = 1; i <= 250; i++) users.push(`U${i},Ann${i},Lee${i},ann${i}@example.com,${i === 240 ? 'a3' : `a${i}`}`);
    const header = ['Deal ID', 'Deal Name', 'Owner Alias', 'Amount', 'Currency', 'Close Date', 'Deal Stage', 'Pipeline', 'Is Won'];
    const dir = tempFiles({ 'users.csv': users.join('\n'), 'deals.csv': deals(header, (c, i) => (c === 'Owner Alias' ? `a${1 + (i % 10)}` : undefined)) });
    const init = await spawnCli(['init', join(dir, 'users.csv'), join(dir, 'deals.csv')]);
    expect(init.code).toBe(0);
    expect(init.stdout).toContain(
      'ownerExternalId: not looked up in users.csv: users.csv has two Id values for the Alias "a3": "U3" (line 4) and "U240" (line 241); the column is sent as it is',
    );
    expect(init.stdout).not.toContain('is looked up there');
    expect(init.stdout).toContain('owners: 10 of 10 distinct owner/agent ids of deals.csv are not among the ids of users.csv: "a2", "a3", "a4", "a5", "a6", …');
    expect(init.stdout.match(/ {2}fix: /g)).toHaveLength(1);
    expect(JSON.stringify(profileOf(dir, 'deals.profile.json'))).not.toContain('lookup');
  }, 60_000);

  test('init ends with what the proposal would do: the invalid rows counted by field and reason', async () => {
    const header = ['Deal ID', 'Deal Name', 'Owner', 'Amount', 'Currency', 'Close Date', 'Deal Stage', 'Pipeline', 'Is Won'];
    const bad = new Set([50, 150, 250]);
    const dir = tempFiles({ 'deals.csv': deals(header, (c, i) => (c === 'Close Date' && bad.has(i) ? 'soon' : undefined)) });
    const init = await spawnCli(['init', join(dir, 'deals.csv'), '--resource', 'deal']);
    expect(init.code).toBe(0);
    const lines = init.stdout.split('\n');
    const end = lines.slice(lines.findIndex((l) => l.startsWith('checked against')));
    expect(end[0]).toBe('checked against all 300 rows: 297 valid, 3 invalid, by reason:');
    expect(end[1]).toMatch(/^ {8}3 {2}closeDate: "soon" is not a date .* \(e\.g\. line 51\)$/);
    expect(end[2]).toBe('');
    expect(end.filter((l) => l.startsWith('checked against') || /^ {8}\d/.test(l))).toHaveLength(2);
  }, 60_000);
});

describe('the pass over a file longer than its time budget', () => {
  const header = ['Deal ID', 'Deal Name', 'Owner', 'Amount', 'Currency', 'Close Date', 'Deal Stage', 'Pipeline', 'Is Won'];
  const lines = [header.join(',')];
  for (let i = 1; i <= 5000; i++) lines.push(`D${i},Deal ${i},U1,${i},USD,2024-01-15,Proposal,Sales,false`);
  const dir = tempFiles({ 'deals.csv': lines.join('\n') });
  const profile = {
    resource: 'deal',
    fields: Object.fromEntries(
      [
        ['externalId', 'Deal ID'],
        ['title', 'Deal Name'],
        ['ownerExternalId', 'Owner'],
        ['agentExternalId', 'Owner'],
        ['amount.value', 'Amount'],
        ['amount.currency', 'Currency'],
        ['closeDate', 'Close Date'],
        ['currentStage.value', 'Deal Stage'],
        ['currentStage.pipelineName', 'Pipeline'],
        ['isWon', 'Is Won'],
      ].map(([field, column]) => [field, { column }]),
    ),
  };
  // a clock that moves 10 ms each time the pass looks at it (every 1,024 rows)
  const clock = () => {
    let t = 0;
    return () => (t += 10) - 10;
  };
  const pass = (budgetMs: number) =>
    checkProfile({ file: join(dir, 'deals.csv'), resource: 'deal', method: 'post', profile, dir, budgetMs, estimatedRows: 5000, now: clock() });

  test('at a pace that would outlast the budget it checks rows spread over the whole file, and says so', async () => {
    const check = await pass(45);
    expect(check).toMatchObject({ read: 5000, whole: true, valid: check.checked, invalid: 0 });
    expect(check.stride).toBeGreaterThan(1);
    expect(check.checked).toBeLessThan(2500);
    expect(checkedLines(check)).toEqual([
      `checked against ${check.checked.toLocaleString('en-US')} rows spread over all 5,000 (checking each would outlast --check-time): ${check.checked.toLocaleString('en-US')} valid`,
    ]);
  });

  test('past the budget itself it stops, and says how far it read', async () => {
    const check = await pass(25);
    expect(check).toMatchObject({ read: 3072, whole: false });
    expect(checkedLines(check)[0]).toMatch(/^checked against [\d,]+ rows spread over the first 3,072 \(--check-time ran out there\): [\d,]+ valid$/);
  });

  test('within its budget, every row', async () => {
    const check = await pass(10_000);
    expect(check).toMatchObject({ read: 5000, checked: 5000, stride: 1, whole: true, valid: 5000 });
    expect(checkedLines(check)).toEqual(['checked against all 5,000 rows: 5,000 valid']);
  });
});

test('an owner the export lacks is asked once, in one row of owner.csv, and read once (not the deals file again)', async () => {
  const header = ['Deal ID', 'Deal Name', 'Amount', 'Currency', 'Close Date', 'Deal Stage', 'Pipeline', 'Is Won'];
  const activities = ['Activity ID,Type,Direction,Date,Deal ID', ...[1, 2, 3].map((i) => `A${i},call,Outgoing,2024-01-0${i}T10:00:00Z,D${i}`)].join('\n');
  const dir = tempFiles({ 'deals.csv': deals(header, () => undefined), 'activities.csv': activities });
  const init = await spawnCli(['init', join(dir, 'deals.csv'), join(dir, 'activities.csv')]);
  expect(init.code).toBe(0);
  const asked = init.stdout.split('fill in before use')[1]!.split('\n\n')[0]!.split('\n').slice(1);
  expect(asked).toEqual([
    `  ${join(dir, 'owner.csv')}: line 2: the owner's id (empty until then: every deal and activity is refused), e-mail and full name, written once: deals.profile.json, activities.profile.json, owner.profile.json read them there`,
  ]);
  writeFileSync(join(dir, 'owner.csv'), 'Role,Owner ID,E-mail,Full name\ndeal owner,ana,ana@example.com,Ana Souza\n');
  const push = await spawnCli(['push', '--config', join(dir, 'batch-sync.config.json'), '--sandbox']);
  expect(push.stdout).toMatch(/sales-profile\s+1\s+1\s+0\s+0\s+0\s+0/);
  expect(push.stdout).toContain('OK: all 304 rows accepted.');
  expect(push.code).toBe(0);
}, 60_000);

test('JSON items: an amount null past the sample gets its default too (keys read as the profile names them)', async () => {
  const items = Array.from({ length: 300 }, (_, k) => ({
    id: `D${k + 1}`,
    name: `Deal ${k + 1}`,
    owner: 'U1',
    amount: k === 219 ? null : 1000 + k,
    currency: 'USD',
    closeDate: '2024-01-15',
    stage: 'Proposal',
    pipeline: 'Sales',
    isWon: false,
  }));
  const dir = tempFiles({ 'deals.json': JSON.stringify(items, null, 1) });
  const init = await spawnCli(['init', join(dir, 'deals.json'), '--resource', 'deal']);
  expect(init.code).toBe(0);
  expect(init.stdout).toMatch(/amount\.value: "amount" is empty in 1 of 300 rows checked \(the first on line \d+\): those are sent as "0"/);
  expect(init.stdout).toContain('checked against all 300 rows: 300 valid');
}, 60_000);
