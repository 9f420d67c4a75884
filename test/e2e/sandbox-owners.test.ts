// `push --sandbox` and owners the run does not carry (issue 25 item 7, issue 27 item 8). The
// embedded sandbox starts empty and refuses a deal whose owner or agent it does not hold; under the
// documented answers that refusal names no row, so one such deal left its whole batch UNVERIFIED.
// Such deals are held back locally instead, with one line naming the missing ids, and the
// end-of-run hint names them and never suggests a file the run already has.
import { expect, test } from 'vitest';
import { SALES_PROFILES_CSV, cliFrom, dealsCsv, spawnCli, tempFiles } from '../helpers/cli.js';

/** The report's text with its lines joined: the hint is wrapped to the terminal's ~100 columns. */
const flat = (text: string) => text.replace(/\s+/g, ' ');

// 40 deals: ana and bruno are in sales-profiles.csv, carla and dario in no file of the run
const owners = ['ana', 'bruno', 'carla', 'ana', 'dario'];
const DEALS = dealsCsv(40, { owner: (i) => owners[i % 5]! });
// an activity whose owner is in no sales profile either: held back as those deals are
const ACTIVITIES = ['externalId,type,ownerExternalId,source.name', 'ACT-1,CALL,zoe,OUTBOUND'].join('\n');

test('deals whose owner no sales profile of the run carries are held back, not sent: one line, the ids named, no batch left UNVERIFIED', async () => {
  const dir = tempFiles({ 'sales-profiles.csv': SALES_PROFILES_CSV, 'deals.csv': DEALS, 'activities.csv': ACTIVITIES });
  const r = await spawnCli(['push', '--sandbox', 'sales-profiles.csv', 'deals.csv', 'activities.csv'], { cwd: dir });
  expect(r.code, r.stdout + r.stderr).toBe(1);
  expect(r.stdout).not.toContain('UNVERIFIED');
  expect(r.stdout).toContain('deal: 16 rows skipped\n16 rows: HELD_BACK no sales profile for "…" in this run\n');
  expect(r.stdout).toContain('deals.csv:3  D-2  no sales profile for "carla" in this run\n');
  expect(r.stdout).toContain('(--no-hold-dependents sends them anyway)');
  expect(r.stdout).toContain('activities.csv:2  ACT-1  no sales profile for "zoe" in this run\n');
  expect(r.stdout).toContain('The embedded sandbox now holds: 2 sales-profiles, 0 accounts, 24 deals, 0 activities');
  // the hint counts the deals' and the activity's owners, names them, and
  // suggests no file: the run's only sales-profiles file is already in it
  expect(flat(r.stdout)).toContain(
    'The embedded sandbox starts empty and refuses a deal or activity whose owner or agent it does not hold: 3 owner/agent ids of this run\'s deals and activities are in none of its sales profiles ("carla", "dario", "zoe"), so their rows were held back.',
  );
  expect(flat(r.stdout)).toContain("Add them to sales-profiles.csv, which holds this run's sellers, then push again.");
  expect(r.stdout).not.toMatch(/batch-sync push --sandbox/);
  expect(r.stderr).toMatch(/ FAILED exit=1 read=43 accepted=26 rejected=0 invalid=0 skipped=17 /);
});

test('with --no-hold-dependents the deals are sent and refused, and the hint still names the missing ids', async () => {
  const dir = tempFiles({ 'sales-profiles.csv': SALES_PROFILES_CSV, 'deals.csv': DEALS });
  const r = await spawnCli(['push', '--sandbox', '--no-hold-dependents', '--answers', 'named', 'sales-profiles.csv', 'deals.csv'], { cwd: dir });
  expect(r.code).toBe(1);
  expect(r.stdout).not.toContain('HELD_BACK');
  expect(r.stdout).toMatch(/16 rows: VALIDATION_ERROR/);
  expect(flat(r.stdout)).toContain(
    '2 owner/agent ids of this run\'s deals and activities are in none of its sales profiles ("carla", "dario"), so it refused their rows.',
  );
});

test('the hint never suggests a file the run already has (issue 27 item 8), even when that file is beside the deals', async () => {
  // sales-profiles.csv is beside deals.csv and in the run: the old hint printed it twice
  const dir = tempFiles({ 'sales-profiles.csv': SALES_PROFILES_CSV, 'deals.csv': DEALS });
  const r = await spawnCli(['push', '--sandbox', 'sales-profiles.csv', 'deals.csv'], { cwd: dir });
  expect(r.code).toBe(1);
  expect(r.stdout).not.toContain('sales-profiles.csv sales-profiles.csv');
  expect(r.stdout).not.toMatch(/batch-sync push --sandbox/);
  // a sales-profiles file beside the deals that the run does not have is still suggested, and works as printed
  const alone = await spawnCli(['push', '--sandbox', 'deals.csv'], { cwd: dir });
  expect(alone.code).toBe(1);
  expect(flat(alone.stdout)).toContain(
    '4 owner/agent ids of this run\'s deals and activities are in none of its sales profiles ("bruno", "carla", "ana" and 1 more)',
  );
  expect(alone.stdout).toContain(
    `Push the sellers in the same run (they are sent first, whatever the order):\n  ${cliFrom(dir)} push --sandbox sales-profiles.csv deals.csv\n`,
  );
});

test('every owner present: nothing held back, no hint', async () => {
  const dir = tempFiles({ 'sales-profiles.csv': SALES_PROFILES_CSV, 'deals.csv': dealsCsv(6) });
  const r = await spawnCli(['push', '--sandbox', 'sales-profiles.csv', 'deals.csv'], { cwd: dir });
  expect(r.code, r.stdout).toBe(0);
  expect(r.stdout).not.toContain('starts empty');
});
