// One export for both methods (issue 27.15): a column (or a profile's field) the contract sends on
// create only — account `type`, sales-profile `email`, activity `associated.*` — is left out of a
// PATCH run with one notice per file, instead of refusing the file; a column no item has is still
// refused, in words that fit the resource.
import { readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { afterEach, describe, expect, test } from 'vitest';
import { startSandbox, type SandboxHandle } from '../../src/sandbox/index.js';
import { runCli, spawnCli, tempFiles } from '../helpers/cli.js';

const F = (p: string) => resolve(__dirname, '../../fixtures', p);
const KEY = 'patch-post-only-key-91e0';

interface Report {
  totals: Record<string, number>;
  warnings: Array<{ file: string; line: number | null; reason: string }>;
}

/** validate --method patch: exit code, JSON report and the items it would send. */
async function validatePatch(...args: string[]) {
  const dir = tempFiles({});
  const emit = join(dir, 'emitted.ndjson');
  const r = await runCli(['validate', '--method', 'patch', '--format', 'json', '--emit', emit, ...args]);
  const items =
    r.code === 2
      ? []
      : readFileSync(emit, 'utf8')
          .split('\n')
          .filter(Boolean)
          .flatMap((l) => JSON.parse(l).items as Record<string, unknown>[]);
  return { code: r.code, stderr: r.stderr, report: r.code === 2 ? undefined : (JSON.parse(r.stdout) as Report), items };
}

describe('canonical CSVs in PATCH mode', () => {
  test.each([
    ['canonical/accounts.csv', 'column "type" left out: type is sent on create (POST) only, and this run updates (PATCH)', ['type']],
    ['canonical/sales-profiles.csv', 'column "email" left out: email is sent on create (POST) only, and this run updates (PATCH)', ['email']],
    [
      'canonical/activities.csv',
      'columns "associated.accountExternalId", "associated.dealExternalId" left out: they are sent on create (POST) only, and this run updates (PATCH)',
      ['associated'],
    ],
  ])('%s: every row valid, the POST-only columns left out with one notice', async (file, notice, absent) => {
    const { code, report, items } = await validatePatch(F(file));
    expect(code).toBe(0);
    expect(report!.warnings).toEqual([expect.objectContaining({ file: F(file), line: null, reason: notice })]);
    expect(items.length).toBe(report!.totals.read);
    for (const item of items) for (const key of absent) expect(item).not.toHaveProperty(key);
  });

  test('the human report shows the notice once, and the run is OK', async () => {
    const r = await runCli(['validate', '--method', 'patch', F('canonical/accounts.csv')]);
    expect(r.code).toBe(0);
    expect(r.stdout.split('column "type" left out').length - 1).toBe(1);
    expect(r.stderr).toMatch(/ OK exit=0 /);
  });

  test('a column that is no field of the item, in either method, is still refused, with the right article', async () => {
    const cases: Array<[string, string, string]> = [
      ['accounts.csv', 'externalId,name,tipo\nA-1,Acme,COMPANY\n', 'an account item'],
      ['deals.csv', 'externalId,tittle\nD-1,x\n', 'a deal item'],
      ['activities.csv', 'externalId,kind\nA-1,CALL\n', 'an activity item'],
      ['sales-profiles.csv', 'externalId,mail\nS-1,x@example.com\n', 'a sales profile item'],
    ];
    for (const [name, csv, item] of cases) {
      const dir = tempFiles({ [name]: csv });
      for (const method of ['post', 'patch']) {
        const r = await runCli(['validate', '--method', method, join(dir, name)]);
        expect(r.code).toBe(2);
        expect(r.stderr.split('\n')[0]).toContain(`is not a field of ${item}`);
      }
    }
  });
});

describe('profiles in PATCH mode', () => {
  test('the CRM export through its plan (POST profiles): the POST-only fields left out, one notice per profile', async () => {
    const { code, report, items } = await validatePatch('--config', F('crm-sales-opportunities/batch-sync.config.json'));
    expect(code).toBe(0);
    expect(report!.totals).toMatchObject({ read: 8920, accepted: 8920, invalid: 0 });
    expect(report!.warnings.map((w) => w.reason).sort()).toEqual([
      'profile accounts.profile.json: fields.type left out: type is sent on create (POST) only, and this run updates (PATCH)',
      'profile sales-teams.profile.json: fields.email left out: email is sent on create (POST) only, and this run updates (PATCH)',
    ]);
    expect(items.some((i) => 'type' in i || 'email' in i)).toBe(false);
  });

  test('a profile written for PATCH that maps a POST-only field is refused: exit 2, saying why', async () => {
    const profile = JSON.parse(readFileSync(F('crm-sales-opportunities/accounts.profile.json'), 'utf8'));
    const dir = tempFiles({ 'accounts.profile.json': JSON.stringify({ ...profile, method: 'patch' }) });
    const r = await runCli(['validate', '--method', 'patch', `${F('outside/crm-sales-opportunities/accounts.csv')}:${join(dir, 'accounts.profile.json')}`]);
    expect(r.code).toBe(2);
    expect(r.stderr.split('\n')[0]).toBe(
      'error: profile accounts.profile.json: fields.type: type is sent on create (POST) only, and this profile is for PATCH ("method": "patch"): remove it',
    );
  });
});

describe('one export, both methods, into the sandbox', () => {
  const started: SandboxHandle[] = [];
  afterEach(async () => {
    await Promise.all(started.splice(0).map((s) => s.close()));
  });

  test('push creates the accounts, then the same file with a new name updates them; type stays as created', async () => {
    const sb = await startSandbox({ port: 0, apiKey: KEY, answers: 'named' });
    started.push(sb);
    const env = { env: { BATCH_SYNC_API_KEY: KEY, BATCH_SYNC_BASE_URL: sb.url } };
    const dir = tempFiles({ 'accounts.csv': 'externalId,name,type\nA-1,Acme,COMPANY\nA-2,Bolt,COMPANY\n' });
    const file = join(dir, 'accounts.csv');
    expect((await spawnCli(['push', '--answers', 'named', file], env)).code).toBe(0);
    writeFileSync(file, 'externalId,name,type\nA-1,Acme Ltda,COMPANY\nA-2,Bolt SpA,COMPANY\n');
    const patch = await spawnCli(['push', '--answers', 'named', '--method', 'patch', file], env);
    expect(patch.code, patch.stdout + patch.stderr).toBe(0);
    expect(patch.stdout).toContain('column "type" left out: type is sent on create (POST) only, and this run updates (PATCH)');
    expect(sb.records('account').map((a) => [a.externalId, a.name, a.type])).toEqual([
      ['A-1', 'Acme Ltda', 'COMPANY'],
      ['A-2', 'Bolt SpA', 'COMPANY'],
    ]);
    expect(sb.batches().map((b) => [b.method, b.items, b.accepted])).toEqual([
      ['POST', 2, 2],
      ['PATCH', 2, 2],
    ]);
  });
});
