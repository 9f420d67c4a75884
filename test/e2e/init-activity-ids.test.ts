// An activity's own id, as Zoho CRM exports write it (`EVENTID`, `TASKID`: one upper-case word, plain
// numbers), and an id column that is unique in init's 200-row sample but repeats further down (Zoho's
// `Who Id Id`, the contact an event is with): init took the contact for the event's id, and push then
// refused every second event as a DUPLICATE (Zoho's Events.csv: 1,472 of 2,978). The built CLI on
// exports shaped like Zoho's, each placeholder filled as a user would, then push --sandbox.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { spawnCli, tempFiles } from '../helpers/cli.js';

const ROWS = 300;
const USERS = ['USER_ID,First Name,Last Name,Email', ...[1, 2, 3].map((i) => `100${i},Ann${i},Lee${i},ann${i}@example.com`)].join('\n');

/** Zoho's Events.csv: `Who Id Id` differs on the first 200 rows, then names the same contacts again. */
function events(header: string[]): string {
  const cell = (column: string, i: number): string =>
    ({
      EVENTID: String(25842000000262376n + BigInt(i * 23)),
      'Event Owner Id': `100${1 + (i % 3)}`,
      Subject: `Demo ${i}`,
      'Start DateTime': '2021-04-15 21:02:00',
      ACCOUNTID: '',
      'Who Id Id': String(5000 + (i <= 200 ? i : i - 200)),
    })[column] ?? '';
  return [header.join(','), ...Array.from({ length: ROWS }, (_, k) => header.map((c) => cell(c, k + 1)).join(','))].join('\n');
}

/** Zoho's Calls.csv: `TASKID` of 7 digits, the call's own id. */
const CALLS = [
  'TASKID,Call Start Time,Call Owner Id,Subject,Call Type,Who Id Id',
  ...Array.from({ length: ROWS }, (_, k) => `${5000309 + k * 7},2021-04-15 23:03:00,100${1 + (k % 3)},Call ${k},${k % 2 ? 'Inbound' : 'Outbound'},`),
].join('\n');

type Profile = { fields: Record<string, Record<string, unknown>> };
const profileOf = (dir: string, name: string) => JSON.parse(readFileSync(join(dir, name), 'utf8')) as Profile;

/** Each `<FILL IN …>` const answered as a user would: the source of an event. */
function fillIn(dir: string, name: string): void {
  const p = profileOf(dir, name);
  for (const spec of Object.values(p.fields)) if (typeof spec.const === 'string' && spec.const.startsWith('<FILL IN')) spec.const = 'OUTBOUND';
  writeFileSync(join(dir, name), JSON.stringify(p, null, 2));
}

async function initAndPush(dir: string, files: string[]) {
  const init = await spawnCli(['init', ...files.map((f) => join(dir, f))]);
  expect(init.stderr).toBe('');
  expect(init.code).toBe(0);
  for (const f of files) fillIn(dir, f.replace(/\.csv$/, '.profile.json'));
  const push = await spawnCli(['push', '--config', join(dir, 'batch-sync.config.json'), '--sandbox']);
  return { init, push };
}

/** vTiger's opportunities (MySQL's column names, lower case, one word): `potentialid` the deal's own id, a plain number. */
function vtigerDeals(): string {
  const header = 'potentialid,opportunity_name,amount,currency,closingdate,sales_stage,assigned_to,related_to';
  const rows = Array.from({ length: ROWS }, (_, k) => {
    const i = k + 1;
    // closingdate: a date on a few rows only, text elsewhere (an export writing a word for no date)
    const close = i % 50 === 0 ? '2024-03-15' : 'sin fecha';
    // two deals past the sample without a name: a note the check's second round finds again
    const name = i === 250 || i === 260 ? '' : `Proyecto ${i}`;
    return `${99 + i},${name},${1000 + i}.50,USD,${close},${i % 3 ? 'Prospecting' : 'Closed Won'},100${1 + (i % 3)},${7 + (i % 40)}`;
  });
  return [header, ...rows].join('\n');
}

describe("init takes an activity's own id, not a column that repeats past its sample", () => {
  test("vTiger's potentialid is the deal's id; an optional date unreadable in most rows is left out, said once", async () => {
    const dir = tempFiles({ 'Users.csv': USERS, 'opportunities.csv': vtigerDeals() });
    const { init, push } = await initAndPush(dir, ['Users.csv', 'opportunities.csv']);
    const deals = profileOf(dir, 'opportunities.profile.json');
    expect(deals.fields.externalId).toEqual({ column: 'potentialid' });
    expect(deals.fields.closeDate).toBeUndefined();
    expect(init.stdout).not.toContain('fields.closeDate');
    const left = init.stdout.split('\n').filter((l) => l.includes('closeDate: "closingdate" is invalid in'));
    expect(left).toHaveLength(1);
    expect(left[0]).toContain('it is left out (the field is optional)');
    // no check line said twice, however many rounds the check took
    const lines = init.stdout.split('\n').filter((l) => l.startsWith('  - '));
    expect(lines.filter((l, i) => lines.indexOf(l) !== i)).toEqual([]);
    expect(lines.filter((l) => l.includes('title: "opportunity_name" is empty in 2 of 300 rows checked'))).toHaveLength(1);
    expect(push.stdout).toContain(`FAILED: 2 of ${3 + ROWS} rows not accepted`);
    expect(push.code).toBe(1);
  }, 60_000);

  test("Zoho's EVENTID and TASKID are the ids; every event and call is accepted", async () => {
    const header = ['EVENTID', 'Event Owner Id', 'Subject', 'Start DateTime', 'ACCOUNTID', 'Who Id Id'];
    const dir = tempFiles({ 'Users.csv': USERS, 'Events.csv': events(header), 'Calls.csv': CALLS });
    const { init, push } = await initAndPush(dir, ['Users.csv', 'Events.csv', 'Calls.csv']);
    expect(profileOf(dir, 'Events.profile.json').fields.externalId).toEqual({ column: 'EVENTID' });
    expect(profileOf(dir, 'Calls.profile.json').fields.externalId).toEqual({ column: 'TASKID' });
    expect(init.stdout).toContain('Events.profile.json: checked against all 300 rows: 300 valid');
    expect(push.stdout).toContain(`OK: all ${3 + 2 * ROWS} rows accepted.`);
    expect(push.code).toBe(0);
  }, 60_000);

  test('an id column unique in the sample that repeats further down gives way to the next unique one, and init says so', async () => {
    // `Who Id Id` before the event's own id: the sample's first choice
    const header = ['Who Id Id', 'Event Owner Id', 'Subject', 'Start DateTime', 'EVENTID'];
    const dir = tempFiles({ 'Users.csv': USERS, 'Events.csv': events(header) });
    const { init, push } = await initAndPush(dir, ['Users.csv', 'Events.csv']);
    expect(init.stdout).toContain(
      'externalId: "Who Id Id" repeats an earlier row\'s value in 100 of 300 rows checked (the first on line 202, "5001"); "EVENTID" is taken instead',
    );
    expect(profileOf(dir, 'Events.profile.json').fields.externalId).toEqual({ column: 'EVENTID' });
    expect(push.stdout).toContain(`OK: all ${3 + ROWS} rows accepted.`);
    expect(push.code).toBe(0);
  }, 60_000);

  test("with no other id column, the row's content is the id (rowHash), and init says why", async () => {
    const header = ['Who Id Id', 'Event Owner Id', 'Subject', 'Start DateTime'];
    const dir = tempFiles({ 'Users.csv': USERS, 'Events.csv': events(header) });
    const { init, push } = await initAndPush(dir, ['Users.csv', 'Events.csv']);
    expect(init.stdout).toContain(
      'externalId: "Who Id Id" repeats an earlier row\'s value in 100 of 300 rows checked (the first on line 202, "5001"); rowHash (the row\'s content) is taken instead',
    );
    expect(profileOf(dir, 'Events.profile.json').fields.externalId).toEqual({ rowHash: true });
    expect(push.stdout).toContain(`OK: all ${3 + ROWS} rows accepted.`);
    expect(push.code).toBe(0);
  }, 60_000);
});
