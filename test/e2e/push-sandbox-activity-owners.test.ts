// `push --sandbox` and activities whose owner the run does not carry. The embedded sandbox checks an
// activity's owner as `batch-sync sandbox` does (as a deal's: it must exist as a sales profile), and
// push holds such activities back before sending, as it holds such deals: one HELD_BACK outcome a
// row naming the owner, never counted accepted, exit 1.
import { expect, test } from 'vitest';
import { SALES_PROFILES_CSV, spawnCli, tempFiles } from '../helpers/cli.js';

// ana and bruno are in sales-profiles.csv; zoe and yan are in no file of the run
const ACTIVITIES = [
  'externalId,type,ownerExternalId,source.name',
  'A-1,CALL,ana,OUTBOUND',
  'A-2,EMAIL,zoe,INBOUND',
  'A-3,MEET,bruno,OUTBOUND',
  'A-4,CALL,yan,OUTBOUND',
  'A-5,EMAIL,ana,INBOUND',
].join('\n');

const files = () => tempFiles({ 'sales-profiles.csv': SALES_PROFILES_CSV, 'activities.csv': ACTIVITIES });

test('activities whose owner no sales profile of the run carries are held back, the owner named; the others accepted', async () => {
  const r = await spawnCli(['push', '--sandbox', 'sales-profiles.csv', 'activities.csv'], { cwd: files() });
  expect(r.code, r.stdout + r.stderr).toBe(1);
  expect(r.stdout).toContain('activity: 2 rows skipped\n2 rows: HELD_BACK no sales profile for "…" in this run\n');
  expect(r.stdout).toContain('activities.csv:3  A-2  no sales profile for "zoe" in this run\n');
  expect(r.stdout).toContain('activities.csv:5  A-4  no sales profile for "yan" in this run\n');
  expect(r.stdout).not.toContain('UNVERIFIED');
  // what the sandbox holds: the two profiles and the three activities whose owner it has
  expect(r.stdout).toContain('The embedded sandbox now holds: 2 sales-profiles, 0 accounts, 0 deals, 3 activities');
  expect(r.stderr).toMatch(/ FAILED exit=1 read=7 accepted=5 rejected=0 invalid=0 skipped=2 /);
});

test('with --no-hold-dependents the activities are sent, and the embedded sandbox refuses them as batch-sync sandbox does', async () => {
  const r = await spawnCli(['push', '--sandbox', '--no-hold-dependents', '--answers', 'named', 'sales-profiles.csv', 'activities.csv'], {
    cwd: files(),
  });
  expect(r.code, r.stdout + r.stderr).toBe(1);
  expect(r.stdout).not.toContain('HELD_BACK');
  expect(r.stdout).toMatch(/activities\.csv:3 +A-2 +.*ownerExternalId: "zoe" does not exist as a sales profile/);
  expect(r.stdout).toMatch(/activities\.csv:5 +A-4 +.*ownerExternalId: "yan" does not exist as a sales profile/);
  expect(r.stdout).toContain('The embedded sandbox now holds: 2 sales-profiles, 0 accounts, 0 deals, 3 activities');
  expect(r.stderr).toMatch(/ FAILED exit=1 read=7 accepted=5 rejected=2 invalid=0 skipped=0 /);
});
