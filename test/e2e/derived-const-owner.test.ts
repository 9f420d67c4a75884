// Issue 33 item 7: an export without an owner column gets one owner id the user fills in, and init
// derives the sales profile from the deals file with every field a constant. Such a job has one
// item whatever the row: it reads the file's first row, not all of it, and the report counts that
// one row, not the deals file a second time (`read` was 2 × the deals before).
import { expect, test } from 'vitest';
import { spawnCli, tempFiles } from '../helpers/cli.js';

const DEALS = {
  resource: 'deal',
  fields: {
    externalId: 'id',
    title: 'title',
    ownerExternalId: { const: 'ana' },
    agentExternalId: { const: 'ana' },
    isWon: { const: false },
    'amount.value': 'amount',
    'amount.currency': { const: 'USD' },
  },
};
const OWNER = {
  resource: 'sales-profile',
  fields: {
    externalId: { const: 'ana' },
    email: { const: 'ana@example.com' },
    'profile.firstName': { const: 'Ana Souza', transform: 'firstName' },
    'profile.lastName': { const: 'Ana Souza', transform: 'lastName' },
  },
};

const deals = (n: number) => ['id,title,amount', ...Array.from({ length: n }, (_, i) => `D${i + 1},Deal ${i + 1},${i + 1}0`)].join('\n');

test.each(['simple', 'fast'])('a sales profile of constants over a deals file reads one row of it (%s engine)', async (engine) => {
  const dir = tempFiles({ 'deals.csv': deals(2000), 'deals.profile.json': JSON.stringify(DEALS), 'deals.sales-profile.profile.json': JSON.stringify(OWNER) });
  const r = await spawnCli(['push', '--sandbox', '--engine', engine, 'deals.csv:sales-profile', 'deals.csv:deal'], { cwd: dir });
  expect(r.code, r.stdout + r.stderr).toBe(0);
  expect(r.stdout).toMatch(/^sales-profile +1 +1 +0 +0 +0 +0$/m);
  expect(r.stdout).toMatch(/^deal +2000 +2000 +0 +0 +0 +0$/m);
  expect(r.stderr).toContain('read=2001 accepted=2001');
  expect(r.stdout).toContain('The embedded sandbox now holds: 1 sales-profile, 0 accounts, 2000 deals, 0 activities');
});

test('a profile that reads a column, or skips rows by one, still reads every row', async () => {
  const skipping = { ...OWNER, skipIf: { column: 'amount', equals: '10' } };
  const dir = tempFiles({ 'deals.csv': deals(3), 'deals.profile.json': JSON.stringify(DEALS), 'deals.sales-profile.profile.json': JSON.stringify(skipping) });
  const r = await spawnCli(['push', '--sandbox', 'deals.csv:sales-profile', 'deals.csv:deal'], { cwd: dir });
  expect(r.code, r.stdout + r.stderr).toBe(0);
  expect(r.stdout).toMatch(/^sales-profile +3 +1 +0 +0 +2 +0$/m);
});
