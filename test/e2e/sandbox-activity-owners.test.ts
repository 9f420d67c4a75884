// An activity whose owner is no sales profile, pushed into `batch-sync sandbox`. The spec states the
// owner's existence for deals only; the sandbox gives activities the same check, so a push that
// passes it does not meet a refusal the real API may have, and says so in the detail the report
// quotes, with the flag for an API known to accept them.
import { expect, test } from 'vitest';
import { spawnCli, tempFiles } from '../helpers/cli.js';
import { sandboxCli } from '../helpers/sandbox.js';

const KEY = 'activity-owners-key-9';
const files = () =>
  tempFiles({
    'sales-profiles.csv': 'externalId,email,profile.firstName,profile.lastName\nana,ana@example.com,Ana,Souza\n',
    'activities.csv': 'externalId,type,ownerExternalId,source.name\nT-1,CALL,ana,OUTBOUND\nT-2,EMAIL,zoe,INBOUND\n',
  });

test.each([
  ['named', []],
  ['documented', ['--answers', 'documented']],
])(
  '%s answers: the unknown owner refused, the report naming the check and --allow-unknown-activity-owners',
  async (_style, args) => {
    const sandbox = await sandboxCli(KEY, args);
    try {
      const env = { BATCH_SYNC_API_KEY: KEY, BATCH_SYNC_BASE_URL: sandbox.url };
      const r = await spawnCli(['push', 'sales-profiles.csv', 'activities.csv', '--isolate-unattributed'], { cwd: files(), env });
      expect(r.code, r.stdout + r.stderr).toBe(1);
      expect(r.stdout).toMatch(/activities\.csv:3 +T-2 +.*ownerExternalId: "zoe" does not exist as a sales profile/);
      expect(r.stdout.replace(/\s+/g, ' ')).toContain("(an activity's owner is checked as a deal's is; --allow-unknown-activity-owners accepts it)");
      expect(r.stderr).toMatch(/ accepted=2 rejected=1 /);
    } finally {
      await sandbox.stop();
    }
  },
  60_000,
);

test('batch-sync sandbox --allow-unknown-activity-owners: accepted', async () => {
  const sandbox = await sandboxCli(KEY, ['--allow-unknown-activity-owners']);
  try {
    const env = { BATCH_SYNC_API_KEY: KEY, BATCH_SYNC_BASE_URL: sandbox.url };
    const r = await spawnCli(['push', 'sales-profiles.csv', 'activities.csv'], { cwd: files(), env });
    expect(r.code, r.stdout + r.stderr).toBe(0);
  } finally {
    await sandbox.stop();
  }
}, 60_000);
