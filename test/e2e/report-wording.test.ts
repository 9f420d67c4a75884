// Report wording a user reads: the row's externalId, the field of a server rejection in JSON,
// singular counts, and init's help.
import { join, resolve } from 'node:path';
import { afterEach, expect, test } from 'vitest';
import { startServer, type MisbehavingServer } from '../helpers/misbehaving-server.js';
import { dealsCsv, runCli, spawnCli, tempFiles } from '../helpers/cli.js';

const ROOT = resolve(__dirname, '../..');
let server: MisbehavingServer | undefined;
afterEach(() => server?.close());

test('validate names the externalId of an invalid row: deals.csv:3  D-2  amount.currency: …', async () => {
  const dir = tempFiles({ 'deals.csv': dealsCsv(3, { currency: (i) => (i === 2 ? 'USX' : 'USD') }) });
  const r = await runCli(['validate', 'deals.csv'].map((a, i) => (i === 1 ? join(dir, a) : a)));
  expect(r.code).toBe(1);
  expect(r.stdout).toContain(`${join(dir, 'deals.csv')}:3  D-2  amount.currency: "USX" is not an ISO-4217 currency code`);
});

test('push --sandbox --format json: a server rejection carries the field its detail names, and two errors group as one reason', async () => {
  // in the named answer style every error names its item, so rows are rejected one by one (the
  // owners are in no sales profile of the run: sent only with --no-hold-dependents)
  const r = await spawnCli(['push', '--sandbox', '--no-hold-dependents', '--answers', 'named', '--format', 'json', 'fixtures/hubspot/deals.csv'], {
    cwd: ROOT,
  });
  expect(r.code).toBe(1);
  const doc = JSON.parse(r.stdout);
  expect(doc.notAccepted.map((o: { field: string }) => o.field)).toEqual(['ownerExternalId', 'ownerExternalId', 'ownerExternalId', 'ownerExternalId']);
  expect(doc.groups).toHaveLength(1);
  expect(doc.groups[0].reason).toBe(
    'VALIDATION_ERROR ownerExternalId: "…" does not exist as a sales profile; agentExternalId: "…" does not exist as a sales profile',
  );
  expect(r.stderr).toContain('(1 batch received)');
  expect(r.stderr.trimEnd().split('\n').at(-1)).toMatch(/^batch-sync push: run \S+ FAILED exit=1 read=4 /);
});

test('a batch given up after one attempt says "1 attempt"', async () => {
  server = await startServer([], { status: 503 });
  const dir = tempFiles({ 'deals.csv': dealsCsv(2) });
  const r = await runCli(['push', '--retries', '0', join(dir, 'deals.csv')], { BATCH_SYNC_API_KEY: 'fault-key-0123456789', BATCH_SYNC_BASE_URL: server.url });
  expect(r.code).toBe(3);
  expect(r.stdout + r.stderr).toContain('gave up after 1 attempt;');
  expect(r.stdout + r.stderr).not.toContain('1 attempts');
});

test('init --help says --resource is required (with one file; several have their kinds guessed)', async () => {
  const r = await spawnCli(['init', '--help']);
  expect(r.code).toBe(0);
  expect(r.stdout.replace(/\s+/g, ' ')).toMatch(/--resource <kind> .*?required with one file/);
});

test.each(['simple', 'auto', 'fast'])('a row whose cells fail to map still names its externalId (%s engine)', async (engine) => {
  const dir = tempFiles({
    'deals.csv': ['externalId,title,ownerExternalId,agentExternalId,isWon,amount.value,amount.currency', 'D-7,Seven,ana,ana,maybe,1,USD'].join('\n'),
  });
  const r = await spawnCli(['validate', '--format', 'json', 'deals.csv'], { cwd: dir, env: { BATCH_SYNC_ENGINE: engine } });
  expect(r.code).toBe(1);
  expect(JSON.parse(r.stdout).notAccepted[0]).toMatchObject({ line: 2, externalId: 'D-7', field: 'isWon', outcome: 'invalid' });
});

// issue 27 item 13: plurals and agreement, and the help and next steps a new user reads
test('a row of one cell: "has 1 cell, the header has 3"', async () => {
  const dir = tempFiles({ 'a.csv': 'externalId,name,type\nacme\n' });
  const r = await runCli(['validate', '--resource', 'account', join(dir, 'a.csv')]);
  expect(r.code).toBe(1);
  expect(r.stdout).toContain('a.csv:2  has 1 cell, the header has 3');
  expect(r.stdout).not.toContain('1 cells');
});

test('init of one file with a placeholder still says what to run next, after filling in', async () => {
  // a deals export with a title alone: the required fields are placeholders
  const dir = tempFiles({ 'deals.csv': 'title\nOne\n' });
  const r = await runCli(['init', '--resource', 'deal', join(dir, 'deals.csv')]);
  expect(r.code).toBe(0);
  expect(r.stdout).toContain('fill in before use');
  expect(r.stdout).toContain(`next (after filling in): ./bin/batch-sync.js validate ${join(dir, 'deals.csv')} --profile ${join(dir, 'deals.profile.json')}`);
});

test('init\'s owners line agrees with one id: "the 1 distinct owner/agent id … is", "1 of 1 … is not"', async () => {
  const profiles = 'externalId,email,profile.firstName,profile.lastName\nana,ana@example.com,Ana,Souza\n';
  const deals = (owner: string) =>
    `externalId,title,ownerExternalId,agentExternalId,isWon,amount.value,amount.currency\nD-1,One,${owner},${owner},true,1,USD\n`;
  const among = tempFiles({ 'sales-profiles.csv': profiles, 'deals.csv': deals('ana') });
  const r = await runCli(['init', join(among, 'sales-profiles.csv'), join(among, 'deals.csv')]);
  expect(r.code, r.stderr).toBe(0);
  expect(r.stdout).toContain('owners: the 1 distinct owner/agent id of deals.csv is among the ids of');
  const missing = tempFiles({ 'sales-profiles.csv': profiles, 'deals.csv': deals('bruno') });
  const m = await runCli(['init', join(missing, 'sales-profiles.csv'), join(missing, 'deals.csv')]);
  expect(m.stdout).toContain('owners: 1 of 1 distinct owner/agent id of deals.csv is not among the ids of');
});

test('validate and push --help say every format they read, .xlsx included', async () => {
  for (const command of ['validate', 'push']) {
    const r = await runCli([command, '--help']);
    expect(r.stdout.replace(/\s+/g, ' ')).toContain('CSV, JSON, NDJSON or .xlsx files');
  }
});
