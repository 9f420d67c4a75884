// Every realistic export in fixtures/ maps to valid items with its profile, read by the real reader.
import { describe, expect, test } from 'vitest';
import { openSource } from '../../src/read/index.js';
import { createMapper, loadProfile } from '../../src/map/index.js';
import type { MapResult } from '../../src/map/types.js';
import { contractProblems } from './helpers.js';

async function mapWithProfile(file: string, profilePath: string) {
  const profile = await loadProfile(profilePath);
  const source = await openSource(file, profile.reader ?? {});
  const mapper = createMapper({ resource: profile.resource, header: source.header, profile, file });
  const results: MapResult[] = [];
  for await (const record of source.records) results.push(mapper.map(record));
  const items = results.flatMap((r) => (r.kind === 'item' ? [r.item] : []));
  const invalid = results.filter((r) => r.kind === 'invalid');
  const contract = items.flatMap((i) => contractProblems(profile.resource, profile.method ?? 'post', i));
  return { results, items, invalid, contract };
}

describe('fixtures map cleanly', () => {
  test('Salesforce opportunity report (M/D/YYYY, $1,234.56, 1/0 won)', async () => {
    const r = await mapWithProfile('fixtures/salesforce/opportunities.csv', 'fixtures/salesforce/opportunities.profile.json');
    expect([r.invalid, r.contract]).toEqual([[], []]);
    expect(r.items).toHaveLength(4);
    expect(r.items[0]).toMatchObject({ ownerExternalId: 'ana-souza', isWon: true, amount: { value: '12500.00', currency: 'USD' }, closeDate: '2024-03-15' });
    expect(r.items[2]!.closeDate).toBe('2024-02-29');
    expect(r.items[3]!.amount).toEqual({ value: '0', currency: 'USD' });
  });

  test('HubSpot deals export (local times in São Paulo)', async () => {
    const r = await mapWithProfile('fixtures/hubspot/deals.csv', 'fixtures/hubspot/deals.profile.json');
    expect([r.invalid, r.contract]).toEqual([[], []]);
    expect(r.items.map((d) => d.closeDate)).toEqual(['2024-03-15T14:30:00-03:00', '2024-11-03T00:00:00-03:00', '2024-05-31T23:30:00-03:00', undefined]);
    expect(r.items[3]!.amount).toEqual({ value: '0', currency: 'BRL' });
    expect(r.items[0]!.isWon).toBe(true);
  });

  test('Spanish Excel export (Windows-1252, semicolons, 1.234,56, DD/MM/YYYY)', async () => {
    const r = await mapWithProfile('fixtures/es-excel/oportunidades.csv', 'fixtures/es-excel/oportunidades.profile.json');
    expect([r.invalid, r.contract]).toEqual([[], []]);
    expect(r.results.filter((x) => x.kind === 'skip')).toEqual([{ kind: 'skip', reason: 'skipIf: "Etapa" is "Prospección"' }]);
    expect(r.items[0]).toMatchObject({
      externalId: '00123',
      title: 'Renovación licencias – Comercial Andina',
      ownerExternalId: 'bruno-diaz',
      isWon: true,
      amount: { value: '1234.56', currency: 'CLP' },
      closeDate: '2024-03-15',
      currentStage: { pipelineName: 'Ventas', value: 'Ganado', occurredAt: '2024-03-15T00:00:00-03:00' },
    });
    expect(r.items[2]!.amount).toEqual({ value: '-500.00', currency: 'BRL' });
    expect(r.items[3]).toMatchObject({ isWon: true, amount: { value: '3450.5' }, closeDate: '2024-05-13T17:45:00-04:00' });
  });
});
