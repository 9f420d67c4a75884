import { describe, expect, test } from 'vitest';
import { RESOURCES, type Resource } from '../../src/contract/resources.js';
import { createMapper } from '../../src/map/index.js';
import { postOnlyFields } from '../../src/map/target-fields.js';
import { contractProblems, row, rowsFromCsv, rowsFromFile } from './helpers.js';

function mapFile(name: string, resource: Resource) {
  const { header, records } = rowsFromFile(`fixtures/canonical/${name}`);
  const mapper = createMapper({ resource, header, file: name });
  return records.map((r) => mapper.map(r));
}
const items = (results: ReturnType<typeof mapFile>) =>
  results.map((r) => {
    if (r.kind !== 'item') throw new Error(JSON.stringify(r));
    return r.item;
  });

describe('canonical CSV fixtures map without a profile', () => {
  test.each([
    ['sales-profiles.csv', 'sales-profile'],
    ['accounts.csv', 'account'],
    ['deals.csv', 'deal'],
    ['activities.csv', 'activity'],
  ] as const)('%s: every row is a valid %s', (file, resource) => {
    for (const item of items(mapFile(file, resource))) expect(contractProblems(resource, 'post', item)).toEqual([]);
  });

  test('deals: types from the contract, stages history, null, custom fields', () => {
    const [d1, d2, d3] = items(mapFile('deals.csv', 'deal'));
    expect(d1).toMatchObject({
      isWon: true,
      amount: { value: '125000.00', currency: 'BRL' },
      stages: [
        { pipelineName: 'Ventas', value: 'Propuesta', occurredAt: '2024-02-01T09:00:00-03:00' },
        { pipelineName: 'Ventas', value: 'Ganado', occurredAt: '2024-03-15T14:30:00-03:00' },
      ],
      customFields: [
        { key: 'accountExternalId', type: 'string', value: 'acc-002', name: 'Account' },
        { key: 'probability', type: 'number', value: 100, name: 'Probability %' },
      ],
    });
    expect(d2!.closeDate).toBeNull();
    expect(d2!.stages).toHaveLength(1);
    expect(d2!.amount).toEqual({ value: '8450.5', currency: 'CLP', exchangeRate: '0.0011' });
    expect(d3).not.toHaveProperty('closeDate');
    expect(d3).not.toHaveProperty('currentStage');
    expect(d3).not.toHaveProperty('stages');
    expect(d3!.isWon).toBe(false);
    expect(d3!.agentExternalId).toBe('00417');
  });

  test("deals' owners and agents are sales profiles; activities link to existing accounts and deals", () => {
    const profiles = new Set(items(mapFile('sales-profiles.csv', 'sales-profile')).map((p) => p.externalId));
    const deals = items(mapFile('deals.csv', 'deal'));
    for (const d of deals) expect([profiles.has(d.ownerExternalId), profiles.has(d.agentExternalId)]).toEqual([true, true]);
    const accounts = new Set(items(mapFile('accounts.csv', 'account')).map((a) => a.externalId));
    const dealIds = new Set(deals.map((d) => d.externalId));
    for (const a of items(mapFile('activities.csv', 'activity'))) {
      const links = (a.associated ?? {}) as { accountExternalId?: string; dealExternalId?: string };
      if (links.accountExternalId) expect(accounts.has(links.accountExternalId)).toBe(true);
      if (links.dealExternalId) expect(dealIds.has(links.dealExternalId)).toBe(true);
      expect(profiles.has(a.ownerExternalId)).toBe(true);
    }
  });

  test('sales-profile custom fields carry no display name', () => {
    const [ana, , , diego] = items(mapFile('sales-profiles.csv', 'sales-profile'));
    expect(ana!.customFields).toEqual([
      { key: 'region', type: 'string', value: 'Sul' },
      { key: 'quota', type: 'number', value: 150000.5 },
      { key: 'active', type: 'boolean', value: true },
    ]);
    expect(diego!.externalId).toBe('00417');
  });
});

describe('canonical cells', () => {
  const header = ['externalId', 'title', 'ownerExternalId', 'agentExternalId', 'isWon', 'amount.value', 'amount.currency', 'closeDate'];
  const mapper = createMapper({ resource: 'deal', header, file: 'd.csv' });
  const cells = {
    externalId: 'D1',
    title: 'T',
    ownerExternalId: 'a',
    agentExternalId: 'b',
    isWon: 'true',
    'amount.value': '10',
    'amount.currency': 'USD',
    closeDate: '',
  };
  test('a bad boolean, an Excel error, a scientific id: diagnostics with column and field', () => {
    const r = mapper.map(row({ ...cells, isWon: 'yes', title: '#VALUE!', externalId: '4.5E+12' }, 3, 'd.csv'));
    expect(r.kind === 'invalid' && r.problems.map((p) => `${p.file}:${p.line} ${p.column} → ${p.field}: ${p.reason}`)).toEqual([
      'd.csv:3 externalId → externalId: "4.5E+12" looks like Excel turned an id into a number; export the column as text',
      'd.csv:3 title → title: "#VALUE!" is an Excel error value, not data; fix the formula in the spreadsheet and export again',
      'd.csv:3 isWon → isWon: "yes" is not true or false',
    ]);
  });
  test('amount.value stays the string written', () => {
    const r = mapper.map(row({ ...cells, 'amount.value': '0010.50' }));
    expect(r.kind === 'item' && r.item.amount).toEqual({ value: '0010.50', currency: 'USD' });
  });
  test('a field named twice (read as "externalId (2)"): said as a repeat, not "did you mean externalId"', () => {
    const make = () => createMapper({ resource: 'deal', header: [...header, 'externalId (2)'], file: 'd.csv' });
    expect(make).toThrow('d.csv: column "externalId" is named 2 times (the second read as "externalId (2)"): a CSV without a profile names each field once');
    expect(make).not.toThrow(/did you mean/);
  });
  test('unknown header: ConfigError naming the column, suggesting a profile', () => {
    expect(() => createMapper({ resource: 'deal', header: [...header, 'Monto'], file: 'd.csv' })).toThrow(/column "Monto" is not a field of a deal item/);
    try {
      createMapper({ resource: 'deal', header: [...header, 'amount.valu'], file: 'd.csv' });
    } catch (e) {
      expect((e as Error).message).toMatch(/did you mean "amount\.value"/);
      expect((e as { suggestion: string }).suggestion).toMatch(/batch-sync init d\.csv --resource deal.*customFields\.<key>/);
    }
  });
  test('missing required column, unknown custom type', () => {
    expect(() => createMapper({ resource: 'deal', header: header.filter((h) => h !== 'title'), file: 'd.csv' })).toThrow(/no column for "title"/);
    expect(() => createMapper({ resource: 'deal', method: 'patch', header: ['externalId', 'title'], file: 'd.csv' })).not.toThrow();
    expect(() => createMapper({ resource: 'deal', header: [...header, 'customFields.x:date'], file: 'd.csv' })).toThrow(/unknown custom field type "date"/);
  });
  test('a stage object is required whole once any of its cells is mapped', () => {
    expect(() => createMapper({ resource: 'deal', header: [...header, 'currentStage.value'], file: 'd.csv' })).toThrow(
      /no column for "currentStage\.pipelineName"/,
    );
    expect(() => createMapper({ resource: 'deal', header: [...header, 'stages[1].value'], file: 'd.csv' })).toThrow(/"stages\[1\]\.pipelineName"/);
  });
  test('JSON items pass through as they are', () => {
    const json = createMapper({ resource: 'deal', file: 'd.json' });
    const item = { externalId: 'D1', anything: { kept: true } };
    expect(json.map({ kind: 'item', file: 'd.json', line: 1, item })).toEqual({ kind: 'item', item, warnings: [] });
    expect(json.map({ kind: 'item', file: 'd.json', line: 2, item: [1] }).kind).toBe('invalid');
    expect(json.map({ kind: 'unreadable', file: 'd.json', line: 3, reason: 'broken line' })).toEqual({
      kind: 'invalid',
      problems: [{ severity: 'error', file: 'd.json', line: 3, reason: 'broken line' }],
    });
  });
  test('a __proto__ column is just a column', () => {
    const { header: h, records } = rowsFromCsv('externalId,name,type,customFields.__proto__\nA1,Acme,COMPANY,x\n');
    const r = createMapper({ resource: 'account', header: h, file: 'a.csv' }).map(records[0]!);
    expect(r.kind === 'item' && r.item.customFields).toEqual([{ key: '__proto__', type: 'string', value: 'x', name: '__proto__' }]);
  });
});

test('the fields only POST sends are read off the contract: what PATCH lacks of each kind', () => {
  expect(Object.fromEntries(RESOURCES.map((r) => [r, [...postOnlyFields(r)]]))).toEqual({
    'sales-profile': ['email'],
    account: ['type'],
    deal: [],
    activity: ['associated.accountExternalId', 'associated.dealExternalId'],
  });
});
