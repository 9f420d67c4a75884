// The errors CSV example of docs/reports.md ("The errors CSV, and feeding it back"), run as written through the
// built CLI against a sandbox on a real socket: a push with rows invalid, held back and rejected
// writes --errors, the user fixes the cells, pushes those files back, and exactly the fixed rows are
// applied, each once. The errors CSV says its own kind (its _resource column), so nothing else is named.
import { copyFileSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { afterEach, describe, expect, test } from 'vitest';
import { startSandbox, type SandboxHandle } from '../../src/sandbox/index.js';
import { runCli, spawnCli, tempFiles } from '../helpers/cli.js';
import { docCommands } from '../helpers/readme.js';

const ROOT = resolve(__dirname, '../..');
const KEY = 'errors-readme-key-7f3a';

const SALES_PROFILES = [
  'externalId,email,profile.firstName,profile.lastName',
  'ana,ana@example.com,Ana,Souza',
  'bruno,bruno-at-example.com,Bruno,Díaz',
  '',
].join('\n');
const DEALS = [
  'externalId,title,ownerExternalId,agentExternalId,isWon,amount.value,amount.currency',
  'D-1,First,ana,ana,false,10.00,USD',
  // held back: its owner's sales profile is invalid in this run
  'D-2,Bruno owns it,bruno,bruno,false,20.00,USD',
  'D-3,Bad currency,ana,ana,false,30.00,USX',
  // refused by the server: no such sales profile there
  'D-4,Nobody owns it,nobody,nobody,false,40.00,USD',
  '',
].join('\n');

const started: SandboxHandle[] = [];
afterEach(async () => {
  await Promise.all(started.splice(0).map((s) => s.close()));
});

/** What a user does in a spreadsheet: a few cells changed, the rest of the file as it was. */
function fix(path: string, edits: Array<[string, string]>): void {
  let text = readFileSync(path, 'utf8');
  for (const [from, to] of edits) {
    expect(text, `${path} holds ${from}`).toContain(from);
    text = text.replaceAll(from, to);
  }
  writeFileSync(path, text);
}

// the server must say which rows it refused for "exactly the fixed rows" to hold: named answers, or
// the documented ones one item per batch (docs/pushing.md, "Reading the API's answers")
describe.each([
  { style: 'named' as const, args: ['--answers', 'named'] },
  { style: 'documented' as const, args: ['--batch-size', '1'] },
])('answers $style', ({ style, args }) => {
  test('the example of the reports guide: push with --errors, fix the cells, push the errors CSVs back; every row applied once', async () => {
    const [first, again] = docCommands('docs/reports.md', '## The errors CSV, and feeding it back').map((l) => l.split(/\s+/).slice(1));
    expect(first).toEqual(['push', 'sales-profiles.csv', 'deals.csv', '--errors', 'failed.csv']);
    expect(again).toEqual(['push', 'failed.csv', 'failed.deals.csv']);
    const sb = await startSandbox({ port: 0, apiKey: KEY, answers: style });
    started.push(sb);
    const dir = tempFiles({ 'sales-profiles.csv': SALES_PROFILES, 'deals.csv': DEALS });
    const env = { BATCH_SYNC_API_KEY: KEY, BATCH_SYNC_BASE_URL: sb.url };

    const r1 = await spawnCli([...first!, ...args], { cwd: dir, env });
    expect(r1.code, r1.stderr).toBe(1);
    expect(r1.stderr).toMatch(/ FAILED exit=1 read=6 accepted=2 rejected=1 invalid=2 skipped=1 /);
    const profilesCsv = readFileSync(join(dir, 'failed.csv'), 'utf8');
    expect(profilesCsv.split('\n')[0]).toBe('\uFEFFexternalId,email,profile.firstName,profile.lastName,_line,_outcome,_field,_message,_detail,_resource');
    expect(profilesCsv).toMatch(/\nbruno,.*,sales-profile\n$/);
    expect(
      readFileSync(join(dir, 'failed.deals.csv'), 'utf8')
        .trimEnd()
        .split('\n')
        .slice(1)
        .map((l) => l.split(',')[0]),
    ).toEqual(['D-2', 'D-3', 'D-4']);

    fix(join(dir, 'failed.csv'), [['bruno-at-example.com', 'bruno@example.com']]);
    fix(join(dir, 'failed.deals.csv'), [
      ['USX', 'USD'],
      ['nobody,nobody', 'ana,bruno'],
    ]);
    const r2 = await spawnCli([...again!, ...args], { cwd: dir, env });
    expect(r2.code, r2.stdout + r2.stderr).toBe(0);
    expect(r2.stderr).toMatch(/ OK exit=0 read=4 accepted=4 rejected=0 invalid=0 skipped=0 /);
    // every row applied once over the two runs: 2 the first time, the 4 fixed ones the second
    expect(sb.stats().itemsAccepted).toBe(6);
    expect(sb.records('sales-profile').map((p) => [p.externalId, p.email])).toEqual([
      ['ana', 'ana@example.com'],
      ['bruno', 'bruno@example.com'],
    ]);
    expect(
      sb
        .records('deal')
        .map((d) => `${d.externalId} ${d.ownerExternalId} ${(d.amount as { currency: string }).currency}`)
        .sort(),
    ).toEqual(['D-1 ana USD', 'D-2 bruno USD', 'D-3 ana USD', 'D-4 ana USD']);
  });
});

test("a workbook's errors CSV is pushed back by its name alone", async () => {
  const sb = await startSandbox({ port: 0, apiKey: KEY, answers: 'named' });
  started.push(sb);
  const dir = tempFiles({});
  copyFileSync(join(ROOT, 'fixtures/xlsx/libreoffice/deals.xlsx'), join(dir, 'deals.xlsx'));
  copyFileSync(join(ROOT, 'fixtures/canonical/sales-profiles.csv'), join(dir, 'sales-profiles.csv'));
  const env = { BATCH_SYNC_API_KEY: KEY, BATCH_SYNC_BASE_URL: sb.url };
  // no sales profiles on the server yet: every deal is refused and lands in failed.csv
  const r1 = await spawnCli(['push', '--answers', 'named', 'deals.xlsx', '--errors', 'failed.csv'], { cwd: dir, env });
  expect(r1.code, r1.stderr).toBe(1);
  const refused = Number(/ rejected=(\d+) /.exec(r1.stderr)?.[1]);
  expect(refused).toBeGreaterThan(0);
  expect(existsSync(join(dir, 'failed.csv'))).toBe(true);
  const profiles = await spawnCli(['push', '--answers', 'named', 'sales-profiles.csv'], { cwd: dir, env });
  expect(profiles.code, profiles.stderr).toBe(0);
  // the workbook holds the id 00417 as the number 417 (docs/reading-exports.md, "Workbooks"): the user types it back
  fix(join(dir, 'failed.csv'), [[',417,', ',00417,']]);
  const r2 = await spawnCli(['push', '--answers', 'named', 'failed.csv'], { cwd: dir, env });
  expect(r2.code, r2.stdout + r2.stderr).toBe(0);
  expect(r2.stderr).toContain(` OK exit=0 read=${refused} accepted=${refused} `);
  expect(sb.records('deal')).toHaveLength(refused);
});

describe("an errors CSV's _resource, as a user may have edited it", () => {
  const header = 'externalId,email,profile.firstName,profile.lastName,_line,_outcome,_field,_message,_detail,_resource';
  const row = (id: string, kind: string) => `${id},${id}@example.com,${id},X,2,invalid,email,INVALID,bad,${kind}`;

  test('a row of another kind pasted in is invalid, naming both kinds; the others are read', async () => {
    const dir = tempFiles({ 'failed.csv': [header, row('ana', 'sales-profile'), row('D-9', 'deal'), row('bo', 'sales-profile'), ''].join('\n') });
    const r = await runCli(['validate', '--format', 'json', join(dir, 'failed.csv')]);
    expect(r.code).toBe(1);
    const report = JSON.parse(r.stdout);
    expect(report.counts['sales-profile']).toMatchObject({ read: 3, accepted: 2, invalid: 1 });
    expect(report.notAccepted[0]).toMatchObject({ line: 3, externalId: null });
    expect(report.notAccepted[0].detail).toBe('_resource is "deal", but this errors CSV is read as sales-profile: push each kind\'s rows in their own file');
  });

  test('a first row whose _resource is no kind: exit 2, one line naming the file and line', async () => {
    const dir = tempFiles({ 'failed.csv': [header, row('ana', 'people'), ''].join('\n') });
    const r = await runCli(['validate', join(dir, 'failed.csv')]);
    expect(r.code).toBe(2);
    expect(r.stderr.split('\n')[0]).toBe(
      `error: ${join(dir, 'failed.csv')}:2: _resource "people" is not a resource (sales-profile, account, deal, activity (plural forms and "users" also work))`,
    );
  });

  test('FILE:KIND or --resource against the kind the file carries: exit 2, nothing read', async () => {
    const dir = tempFiles({ 'failed.csv': [header, row('ana', 'sales-profile'), ''].join('\n') });
    for (const args of [[`${join(dir, 'failed.csv')}:deal`], ['--resource', 'deal', join(dir, 'failed.csv')]]) {
      const r = await runCli(['validate', ...args]);
      expect(r.code).toBe(2);
      expect(r.stderr.split('\n')[0]).toBe(
        `error: ${join(dir, 'failed.csv')}: this errors CSV holds sales-profile rows (its _resource column), but the file is to be read as deal`,
      );
      expect(r.stdout).toBe('');
    }
  });

  test('an errors CSV written before _resource came is still read, by its name or FILE:KIND', async () => {
    const old = header.replace(',_resource', '');
    const dir = tempFiles({ 'failed.csv': [old, row('ana', '').replace(/,$/, ''), ''].join('\n') });
    const r = await runCli(['validate', '--format', 'json', `${join(dir, 'failed.csv')}:users`]);
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout).counts['sales-profile']).toMatchObject({ read: 1, accepted: 1 });
  });
});
