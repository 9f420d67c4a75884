// Every realistic export we ship passes `validate` with its profile, through the CLI a user runs.
import { resolve } from 'node:path';
import { expect, test } from 'vitest';
import { runCli, spawnCli } from '../helpers/cli.js';

const F = (p: string) => resolve(__dirname, '../../fixtures', p);

test.each([
  ['a Salesforce opportunity report', ['salesforce/opportunities.csv', '--profile', F('salesforce/opportunities.profile.json')], 4],
  ['a HubSpot deals export', ['hubspot/deals.csv', '--profile', F('hubspot/deals.profile.json')], 4],
  [
    'a Spanish Excel export (Windows-1252, semicolons, decimal commas, DD/MM/YYYY)',
    ['es-excel/oportunidades.csv', '--profile', F('es-excel/oportunidades.profile.json')],
    4,
  ],
  ["the Spanish export's sellers, with the profile beside them", ['es-excel/vendedores.csv'], 4],
  [
    'the four canonical CSVs, no profile',
    ['canonical/sales-profiles.csv', F('canonical/accounts.csv'), F('canonical/deals.csv'), F('canonical/activities.csv')],
    16,
  ],
])('%s passes validate', async (_name, [file, ...rest], valid) => {
  const r = await runCli(['validate', '--format', 'json', F(file as string), ...(rest as string[])]);
  expect(r.code, r.stderr).toBe(0);
  const report = JSON.parse(r.stdout);
  expect(report.totals).toMatchObject({ accepted: valid, invalid: 0, rejected: 0 });
});

test('the public CRM export validates through its plan: 8,920 rows, none invalid', async () => {
  const r = await runCli(['validate', '--format', 'json', '--config', F('crm-sales-opportunities/batch-sync.config.json')]);
  expect(r.code, r.stderr).toBe(0);
  expect(JSON.parse(r.stdout).counts).toMatchObject({
    'sales-profile': { read: 35, accepted: 35 },
    account: { read: 85, accepted: 85 },
    deal: { read: 8800, accepted: 8800 },
  });
});

test("the README's main job: push --sandbox of the public CRM export, every row accepted", async () => {
  const r = await spawnCli(['push', '--sandbox', '--config', 'fixtures/crm-sales-opportunities/batch-sync.config.json'], { cwd: resolve(__dirname, '../..') });
  expect(r.code, r.stderr).toBe(0);
  expect(r.stdout).toMatch(/^total\s+8920\s+8920\s+0\s+0\s+0\s+0$/m);
  expect(r.stdout).toContain('The embedded sandbox now holds: 35 sales-profiles, 85 accounts, 8800 deals, 0 activities');
  expect(r.stderr).toMatch(/OK exit=0 read=8920 accepted=8920/);
});
