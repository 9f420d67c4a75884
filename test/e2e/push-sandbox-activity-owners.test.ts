// `push --sandbox` and activities whose owner the run does not carry. The embedded sandbox checks an
// activity's owner as `batch-sync sandbox` does (as a deal's: it must exist as a sales profile), and
// push holds such activities back before sending, as it holds such deals: one HELD_BACK outcome a
// row naming the owner, never counted accepted, exit 1.
import { expect, test } from 'vitest';
import { SALES_PROFILES_CSV, spawnCli, tempFiles } from '../helpers/cli.js';
import { sandboxCli } from '../helpers/sandbox.js';

const KEY = 'push-activity-owners-key-7';

/** The report's text with its lines joined: the hint is wrapped to the terminal's ~100 columns. */
const flat = (text: string) => text.replace(/\s+/g, ' ');

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
  // the end-of-run hint counts the activities' owners too, and names the run's sellers file
  expect(flat(r.stdout)).toContain(
    'The embedded sandbox starts empty and refuses a deal or activity whose owner or agent it does not hold: 2 owner/agent ids of this run\'s deals and activities are in none of its sales profiles ("zoe", "yan"), so their rows were held back.',
  );
  expect(flat(r.stdout)).toContain("Add them to sales-profiles.csv, which holds this run's sellers, then push again.");
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
  expect(flat(r.stdout)).toContain('("zoe", "yan"), so it refused their rows.');
  expect(r.stdout).toContain('The embedded sandbox now holds: 2 sales-profiles, 0 accounts, 0 deals, 3 activities');
  expect(r.stderr).toMatch(/ FAILED exit=1 read=7 accepted=5 rejected=2 invalid=0 skipped=0 /);
});

test('against any API, an activity whose owner sales profile failed in this run is held back, as such a deal is', async () => {
  // the server would take the activity (it accepts unknown activity owners): push holds it back itself
  const sandbox = await sandboxCli(KEY, ['--allow-unknown-activity-owners']);
  try {
    const dir = tempFiles({
      'sales-profiles.csv': `${SALES_PROFILES_CSV}\ncarla,not-an-e-mail,Carla,Ruiz`,
      'activities.csv': 'externalId,type,ownerExternalId,source.name\nA-1,CALL,ana,OUTBOUND\nA-2,EMAIL,carla,INBOUND\nA-3,MEET,zoe,INBOUND\n',
    });
    const env = { BATCH_SYNC_API_KEY: KEY, BATCH_SYNC_BASE_URL: sandbox.url };
    const r = await spawnCli(['push', 'sales-profiles.csv', 'activities.csv'], { cwd: dir, env });
    expect(r.code, r.stdout + r.stderr).toBe(1);
    expect(r.stdout).toContain('activities.csv:3  A-2  sales profile carla not accepted in this run\n');
    // an owner the run does not carry may exist on a real server: sent, and this one accepts it
    expect(r.stdout).not.toContain('"zoe" in this run');
    expect(r.stderr).toMatch(/ FAILED exit=1 read=6 accepted=4 rejected=0 invalid=1 skipped=1 /);
  } finally {
    await sandbox.stop();
  }
}, 60_000);
