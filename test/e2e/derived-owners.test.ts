// Sales profiles derived from an owner column (issue 25 item 3), for exports without a users file:
// the deals file is read by a second job as sales-profile, each deal's row a profile of its owner;
// the owner's later rows repeat that profile exactly and are sent once (item 4). The same file may
// be named by several jobs of a plan, and on the command line as FILE:PROFILE (or FILE:KIND), once per kind.
import { writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { expect, test } from 'vitest';
import { spawnCli, tempFiles } from '../helpers/cli.js';

const ROOT = resolve(__dirname, '../..');
const PIPELINE = join(ROOT, 'fixtures/outside/crm-sales-opportunities/sales_pipeline.csv');

/** Owners derived from `sales_agent`: the same slug the deals profile names them by, and a reserved e-mail domain. */
const OWNERS_FROM_AGENT = {
  resource: 'sales-profile',
  fields: {
    externalId: { column: 'sales_agent', transform: 'slug' },
    email: { template: '{sales_agent|slug}@example.com' },
    'profile.firstName': { column: 'sales_agent', transform: 'firstName' },
    'profile.lastName': { column: 'sales_agent', transform: 'lastName' },
  },
};

test('the public CRM export without its sales_teams.csv: owners derived from the deals file, 8,800 deals accepted, exit 0', async () => {
  const dir = tempFiles({ 'owners.profile.json': JSON.stringify(OWNERS_FROM_AGENT) });
  const plan = {
    jobs: [
      { file: PIPELINE, resource: 'deal', profile: join(ROOT, 'fixtures/crm-sales-opportunities/sales-pipeline.profile.json') },
      { file: PIPELINE, resource: 'sales-profile', profile: 'owners.profile.json' },
    ],
  };
  writeFileSync(join(dir, 'batch-sync.config.json'), JSON.stringify(plan));
  const r = await spawnCli(['push', '--sandbox'], { cwd: dir });
  expect(r.code, r.stdout.slice(0, 3000) + r.stderr).toBe(0);
  expect(r.stdout).toMatch(/^sales-profile +8800 +30 +0 +0 +8770 +0$/m);
  expect(r.stdout).toMatch(/^deal +8800 +8800 +0 +0 +0 +0$/m);
  expect(r.stdout).toContain('sales-profile: 8770 rows skipped\n8770 rows repeat an earlier row exactly (first at ');
  expect(r.stdout).toContain('The embedded sandbox now holds: 30 sales-profiles, 0 accounts, 8800 deals, 0 activities');
  expect(r.stdout).not.toContain('owners not in this run');
});

// The shape of a Brazilian marketplace's closed deals (no users file): the sales rep (sr_id) owns
// the deal, the SDR (sdr_id) is its agent, seller_id is the customer. Ids are 32 hex digits.
const HEADER =
  'mql_id,seller_id,sdr_id,sr_id,won_date,business_segment,lead_type,lead_behaviour_profile,has_company,has_gtin,average_stock,business_type,declared_product_catalog_size,declared_monthly_revenue';
const hex = (n: number, salt: string) => `${salt}${n.toString(16)}`.padStart(32, '0');
const SRS = [hex(1, 'a'), hex(2, 'a'), hex(3, 'a')];
const SDRS = [hex(1, 'b'), hex(2, 'b')];
const closedDeals = (n: number) =>
  [
    HEADER,
    ...Array.from(
      { length: n },
      (_, i) =>
        `${hex(i + 1, 'c')},${hex(i + 1, 'd')},${SDRS[i % 2]},${SRS[i % 3]},2018-02-${String(10 + (i % 18)).padStart(2, '0')} 19:58:54,pet,online_medium,cat,,,,reseller,,0.0`,
    ),
  ].join('\n');

const profileFromId = (column: string) => ({
  resource: 'sales-profile',
  fields: {
    externalId: column,
    email: { template: `{${column}}@example.com` },
    // the export holds no names: the id is the first name (the contract allows an empty last name)
    'profile.firstName': column,
    'profile.lastName': { column, transform: 'lastName' },
  },
});
const DEALS_PROFILE = {
  resource: 'deal',
  timeZone: 'America/Sao_Paulo',
  fields: {
    externalId: 'mql_id',
    title: { template: 'Lead {mql_id}' },
    ownerExternalId: 'sr_id',
    agentExternalId: 'sdr_id',
    isWon: { const: true },
    'amount.value': 'declared_monthly_revenue',
    'amount.currency': { const: 'BRL' },
    closeDate: { column: 'won_date', transform: 'datetime' },
  },
  customFields: [{ key: 'seller', type: 'string', column: 'seller_id' }],
};

test('closed deals with owner and agent columns and no users file: one sales-profile job per column over the deals file, then the deals', async () => {
  const dir = tempFiles({
    'closed_deals.csv': closedDeals(12),
    'reps.profile.json': JSON.stringify(profileFromId('sr_id')),
    'sdrs.profile.json': JSON.stringify(profileFromId('sdr_id')),
    'deals.profile.json': JSON.stringify(DEALS_PROFILE),
  });
  const args = ['push', '--sandbox', 'closed_deals.csv:deals.profile.json', 'closed_deals.csv:reps.profile.json', 'closed_deals.csv:sdrs.profile.json'];
  const r = await spawnCli(args, { cwd: dir });
  expect(r.code, r.stdout + r.stderr).toBe(0);
  expect(r.stdout).toMatch(/^sales-profile +24 +5 +0 +0 +19 +0$/m);
  expect(r.stdout).toContain('The embedded sandbox now holds: 5 sales-profiles, 0 accounts, 12 deals, 0 activities');
});

test('FILE:KIND names the kind a file is read as; its profile is then <name>.<kind>.profile.json beside it', async () => {
  const ventas = ['Código,Oportunidad,Vendedor,Monto', 'V-1,Mesa,José Peña,100', 'V-2,Silla,Ana Souza,50', 'V-3,Lámpara,José Peña,20'].join('\n');
  const deals = {
    resource: 'deal',
    fields: {
      externalId: 'Código',
      title: 'Oportunidad',
      ownerExternalId: { column: 'Vendedor', transform: 'slug' },
      agentExternalId: { column: 'Vendedor', transform: 'slug' },
      isWon: { const: false },
      'amount.value': 'Monto',
      'amount.currency': { const: 'CLP' },
    },
  };
  const owners = { ...OWNERS_FROM_AGENT, fields: { ...OWNERS_FROM_AGENT.fields } };
  const fromVendedor = JSON.parse(JSON.stringify(owners).replaceAll('sales_agent', 'Vendedor'));
  const dir = tempFiles({
    'ventas.csv': ventas,
    'ventas.profile.json': JSON.stringify(deals),
    'ventas.sales-profile.profile.json': JSON.stringify(fromVendedor),
  });
  const r = await spawnCli(['push', '--sandbox', 'ventas.csv:sales-profile', 'ventas.csv:deal'], { cwd: dir });
  expect(r.code, r.stdout + r.stderr).toBe(0);
  expect(r.stderr).toContain('profile ventas.sales-profile.profile.json for ventas.csv (found beside it)');
  expect(r.stderr).toContain('profile ventas.profile.json for ventas.csv (found beside it)');
  expect(r.stdout).toContain('1 row repeats an earlier row exactly (first at ventas.csv:2): sent once');
  expect(r.stdout).toContain('The embedded sandbox now holds: 2 sales-profiles, 0 accounts, 3 deals, 0 activities');
});

test('the same file and kind twice with the same profile is refused; with two profiles it is two jobs', async () => {
  const dir = tempFiles({ 'closed_deals.csv': closedDeals(3), 'reps.profile.json': JSON.stringify(profileFromId('sr_id')) });
  const r = await spawnCli(['validate', 'closed_deals.csv:reps.profile.json', 'closed_deals.csv:reps.profile.json'], { cwd: dir });
  expect(r.code).toBe(2);
  expect(r.stderr).toContain('closed_deals.csv is named twice as sales-profile with the same profile: every row would repeat itself; name it once');
});
