// The real public export: every row of the three files maps to a valid item with the shipped profiles.
import { resolve } from 'node:path';
import { describe, expect, test } from 'vitest';
import { createMapper, loadProfile } from '../../src/map/index.js';
import type { Resource } from '../../src/contract/resources.js';
import { contractProblems, rowsFromFile } from './helpers.js';

const DATA = resolve(__dirname, '../../fixtures/outside/crm-sales-opportunities');
const PROFILES = 'fixtures/crm-sales-opportunities';

async function mapAll(csv: string, profileFile: string, resource: Resource) {
  const profile = await loadProfile(`${PROFILES}/${profileFile}`);
  const { header, records } = rowsFromFile(`${DATA}/${csv}`);
  const mapper = createMapper({ resource, header, profile, file: csv });
  const items: Record<string, unknown>[] = [];
  const bad: unknown[] = [];
  for (const r of records) {
    const res = mapper.map(r);
    if (res.kind !== 'item') bad.push(res);
    else {
      const problems = contractProblems(resource, 'post', res.item);
      if (problems.length) bad.push({ line: r.line, problems });
      else items.push(res.item);
    }
  }
  return { items, bad, rows: records.length };
}

describe('crm-sales-opportunities', () => {
  test('sales_teams.csv → 35 valid sales profiles', async () => {
    const { items, bad } = await mapAll('sales_teams.csv', 'sales-teams.profile.json', 'sales-profile');
    expect(bad).toEqual([]);
    expect(items).toHaveLength(35);
    expect(items[0]).toEqual({
      externalId: 'anna-snelling',
      email: 'anna-snelling@crm-sample.example.com',
      profile: { firstName: 'Anna', lastName: 'Snelling' },
      customFields: [
        { key: 'manager', type: 'string', value: 'Dustin Brinkmann' },
        { key: 'regional_office', type: 'string', value: 'Central' },
      ],
    });
    expect(items.find((i) => i.externalId === 'mei-mei-johns')?.profile).toEqual({ firstName: 'Mei-Mei', lastName: 'Johns' });
  });

  test('accounts.csv → 85 valid accounts, empty parent omitted, numbers typed', async () => {
    const { items, bad } = await mapAll('accounts.csv', 'accounts.profile.json', 'account');
    expect(bad).toEqual([]);
    expect(items).toHaveLength(85);
    const acme = items[0]!;
    expect(acme).toMatchObject({ externalId: 'acme-corporation', name: 'Acme Corporation', type: 'COMPANY' });
    const cf = acme.customFields as { key: string; value: unknown }[];
    expect(cf.map((f) => f.key)).not.toContain('subsidiary_of');
    expect(cf.find((f) => f.key === 'revenue_musd')?.value).toBe(1100.04);
    expect(cf.find((f) => f.key === 'year_established')?.value).toBe(1996);
    expect(items.some((i) => (i.customFields as { key: string }[]).some((f) => f.key === 'subsidiary_of'))).toBe(true);
  });

  test('sales_pipeline.csv → 8,800 valid deals whose owners are all sales profiles', async () => {
    const { items, bad, rows } = await mapAll('sales_pipeline.csv', 'sales-pipeline.profile.json', 'deal');
    expect(rows).toBe(8800);
    expect(bad).toEqual([]);
    expect(items).toHaveLength(8800);
    const team = await mapAll('sales_teams.csv', 'sales-teams.profile.json', 'sales-profile');
    const ids = new Set(team.items.map((i) => i.externalId));
    expect(items.filter((d) => !ids.has(d.ownerExternalId) || !ids.has(d.agentExternalId))).toEqual([]);
    expect(items[0]).toMatchObject({
      externalId: '1C1I7A6R',
      title: 'GTX Plus Basic – 1C1I7A6R',
      ownerExternalId: 'moses-frase',
      isWon: true,
      amount: { value: '1054', currency: 'USD' },
      currentStage: { pipelineName: 'Sales pipeline', value: 'Won', occurredAt: '2017-03-01T00:00:00Z' },
      closeDate: '2017-03-01',
    });
    const open = items.find((d) => (d.currentStage as { value: string }).value === 'Prospecting')!;
    expect(open.amount).toEqual({ value: '0', currency: 'USD' });
    expect(open.closeDate).toBeUndefined();
    expect((open.currentStage as { occurredAt?: string }).occurredAt).toBeUndefined();
  });
});
