// `lookup` end to end (issue 25 item 3): a Salesforce Opportunity.csv names its owner by an
// 18-character user id; User.csv (Id, Email, FirstName, LastName) gives the e-mail the sales
// profiles are keyed by. Pushed by the built CLI, on whichever engine the suite runs (the read
// worker maps with the same shared table), in incremental runs too.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test } from 'vitest';
import type { SandboxHandle } from '../../src/sandbox/index.js';
import { runCli, spawnCli, tempFiles } from '../helpers/cli.js';
import { sandboxPerFile } from '../helpers/sandbox.js';

const USERS = [
  'Id,Email,FirstName,LastName,IsActive',
  '0055g00000AbCdEAAV,ana.souza@acme.com,Ana,Souza,true',
  '0055g00000XyZwVAAV,bruno.diaz@acme.com,Bruno,Díaz,true',
];
const OPPORTUNITIES = [
  'Id,AccountId,Name,StageName,Amount,CloseDate,IsWon,OwnerId',
  '0065g00000QrStUAAV,0015g00000AaAaAAAV,Renewal 2024,Closed Won,1200.50,2024-03-01,1,0055g00000AbCdEAAV',
  '0065g00000QrStVAAV,0015g00000AaAaAAAV,Upsell,Prospecting,300,2024-06-30,,0055g00000XyZwVAAV',
  '0065g00000QrStWAAV,0015g00000BbBbBAAV,New logo,Negotiation,5000,2024-07-15,,0055g00000AbCdEAAV',
  '0065g00000QrStXAAV,0015g00000BbBbBAAV,Lost one,Closed Lost,80,2024-02-01,,0055g00000QqQqQAAV',
];
const USERS_PROFILE = {
  resource: 'sales-profile',
  fields: { externalId: 'Email', email: 'Email', 'profile.firstName': 'FirstName', 'profile.lastName': 'LastName' },
};
const owner = { column: 'OwnerId', lookup: { file: 'User.csv', key: 'Id', value: 'Email' } };
const OPPORTUNITY_PROFILE = {
  resource: 'deal',
  fields: {
    externalId: 'Id',
    title: 'Name',
    ownerExternalId: owner,
    agentExternalId: owner,
    isWon: { column: 'IsWon', map: { '1': true }, default: false },
    'amount.value': 'Amount',
    'amount.currency': { const: 'USD' },
    'currentStage.pipelineName': { const: 'Sales' },
    'currentStage.value': 'StageName',
    closeDate: 'CloseDate',
  },
};

function exportDir(opportunities = OPPORTUNITIES, users = USERS) {
  return tempFiles({
    'User.csv': users.join('\r\n'),
    'Opportunity.csv': opportunities.join('\r\n'),
    'User.profile.json': JSON.stringify(USERS_PROFILE),
    'Opportunity.profile.json': JSON.stringify(OPPORTUNITY_PROFILE),
  });
}

test('owners through User.csv: three deals accepted under their owners’ e-mails, the unknown user one row error naming the column and the key', async () => {
  const dir = exportDir();
  const r = await spawnCli(['push', '--sandbox', 'User.csv:sales-profile', 'Opportunity.csv'], { cwd: dir });
  expect(r.code, r.stdout + r.stderr).toBe(1);
  expect(r.stdout).toContain('Opportunity.csv:5  0065g00000QrStXAAV  OwnerId → ownerExternalId: "0055g00000QqQqQAAV" is not an Id in User.csv');
  expect(r.stdout).toContain('The embedded sandbox now holds: 2 sales-profiles, 0 accounts, 3 deals, 0 activities');
  expect(r.stderr).toMatch(/ FAILED exit=1 read=6 accepted=5 rejected=0 invalid=1 skipped=0 /);
});

test('a lookup file whose key has two values is refused before anything is sent, naming both lines; so is one over the bound', async () => {
  const dir = exportDir(OPPORTUNITIES, [...USERS, '0055g00000AbCdEAAV,ana@acme.com,Ana,Souza,true']);
  const r = await spawnCli(['push', '--sandbox', 'User.csv:sales-profile', 'Opportunity.csv'], { cwd: dir });
  expect(r.code).toBe(2);
  expect(r.stderr).toContain(
    'error: profile Opportunity.profile.json: fields.ownerExternalId.lookup: User.csv has two Email values for the Id "0055g00000AbCdEAAV": "ana.souza@acme.com" (line 2) and "ana@acme.com" (line 4)',
  );
  expect(r.stdout).not.toContain('sandbox now holds');
  expect(r.stderr).not.toMatch(/^\s+at /m);
});

test('a lookup file is an input: --errors never writes over it', async () => {
  const dir = exportDir();
  const r = await spawnCli(['validate', 'Opportunity.csv', '--errors', 'User.csv'], { cwd: dir });
  expect(r.code).toBe(2);
  expect(r.stderr).toContain('refusing to write the errors CSV over an input file');
});

const KEY = 'lookup-e2e-key-0000001';
let sandbox: SandboxHandle;
let env: Record<string, string>;
sandboxPerFile(
  KEY,
  (s, e) => {
    sandbox = s;
    env = e;
  },
  { reset: true },
);

test('incremental: a lookup file that changes makes its rows new to the state (what a lookup returns is part of the row’s fingerprint)', async () => {
  const dir = exportDir(OPPORTUNITIES.slice(0, 4));
  const push = async () => {
    const r = await runCli(
      ['push', '--format', 'json', '--incremental', '--state-dir', join(dir, 'state'), join(dir, 'User.csv:sales-profile'), join(dir, 'Opportunity.csv')],
      env,
    );
    expect(r.code, r.stderr).toBe(0);
    return JSON.parse(r.stdout).counts as Record<string, { accepted: number; skipped: number }>;
  };
  expect((await push()).deal).toMatchObject({ accepted: 3, skipped: 0 });
  expect((await push()).deal).toMatchObject({ accepted: 0, skipped: 3 });
  // bruno's e-mail changes in User.csv alone: his deal now names another owner, Opportunity.csv is untouched
  writeFileSync(join(dir, 'User.csv'), USERS.map((l) => l.replace('bruno.diaz@acme.com', 'bruno@acme.com')).join('\r\n'));
  const third = await push();
  expect(third['sales-profile']).toMatchObject({ accepted: 1, skipped: 1 });
  expect(third.deal).toMatchObject({ accepted: 1, skipped: 2 });
  const deal = sandbox.records('deal').find((d) => (d as { externalId: string }).externalId === '0065g00000QrStVAAV') as unknown as { ownerExternalId: string };
  expect(deal.ownerExternalId).toBe('bruno@acme.com');
});
