// Issue 25, item 5: init's inference never changes data silently, on the real CRM exports
// (fixtures/outside/): date-times stay date-times, `2024 4` and phone numbers stay text, a column
// empty in every sampled row feeds no required field, `1`/empty checkboxes and currency names get
// their maps, an owner is a column of few distinct values, a unique id column is the externalId.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { sampleFor } from '../../src/commands/init-sample.js';
import type { Resource } from '../../src/contract/resources.js';
import { proposeProfile } from '../../src/map/index.js';
import { rowsFromCsv } from './helpers.js';

const OUTSIDE = join(import.meta.dirname, '../../fixtures/outside');
async function propose(path: string, resource: Resource) {
  const s = await sampleFor({ file: join(OUTSIDE, path), resource }, 200, undefined);
  const p = proposeProfile({ resource, header: s.header, rows: s.rows, reader: s.reader, file: path.split('/').pop() });
  const custom = (p.profile.customFields ?? []) as { column: string; type: string; transform?: string }[];
  return { ...p, fields: p.profile.fields as Record<string, Record<string, unknown>>, custom };
}

/** A CSV text: its header line, then `count` rows made by `row`. */
const csvOf = (header: string, count: number, row: (i: number) => string) => [header, ...Array.from({ length: count }, (_, i) => row(i))].join('\n');

/** init's proposal for a deals CSV's text, with its fields and custom fields typed for the checks. */
function proposeDeals(csv: string) {
  const { header, records } = rowsFromCsv(csv);
  const p = proposeProfile({ resource: 'deal', header, rows: records.map((r) => r.row) });
  const custom = (p.profile.customFields ?? []) as { column: string }[];
  return { ...p, fields: p.profile.fields as Record<string, Record<string, unknown>>, custom };
}

describe('init on a Salesforce Data Loader export', () => {
  test('Opportunity.csv: date-times kept, "2024 4" text, IsWon 1/empty gets its map and default, empty columns left out', async () => {
    const p = await propose('salesforce-data-loader/Opportunity.csv', 'deal');
    expect(p.fields.externalId).toEqual({ column: 'Id' });
    expect(p.fields.isWon).toEqual({ column: 'IsWon', map: { '1': true }, default: false });
    expect(p.notes).toContain('isWon: "IsWon" holds "1" or is empty (empty in 38 of 50 sampled rows): "1" is true, empty is false');
    const created = p.custom.find((c) => c.column === 'CreatedDate');
    expect(created).toMatchObject({ type: 'string', transform: 'datetime' });
    expect(p.custom.find((c) => c.column === 'Fiscal')).toMatchObject({ type: 'string' });
    expect(p.custom.find((c) => c.column === 'Fiscal')).not.toHaveProperty('transform');
    // columns empty in every sampled row are no custom field, and a note counts them
    expect(p.custom.map((c) => c.column)).not.toContain('Description');
    expect(p.notes.find((n) => n.startsWith('left out:'))).toMatch(/^left out: 11 columns empty in every sampled row \("IsDeleted", "Description", "Type", /);
  });

  test('Account.csv: a phone number is text; the empty Type column is not the required type: COMPANY, with a check line', async () => {
    const p = await propose('salesforce-data-loader/Account.csv', 'account');
    expect(p.custom.find((c) => c.column === 'Phone')).toMatchObject({ type: 'string' });
    expect(p.fields.type).toEqual({ const: 'COMPANY' });
    expect(p.notes).toContain('type: "Type" is empty in every sampled row; every account is sent as COMPANY (CONTACT and CLIENT are the other values seen)');
  });
});

describe('init on a Salesforce tree export (JSON)', () => {
  test('Opportunities.json: the unique attributes.referenceId is the id, closedate keeps its time', async () => {
    const p = await propose('salesforce-tree-json/Opportunities.json', 'deal');
    expect(p.fields.externalId).toEqual({ column: 'attributes.referenceId' });
    expect(p.fields.closeDate).toEqual({ column: 'closedate' });
    expect(p.profile.reader).toEqual({ encoding: 'utf-8', root: '/records' });
  });
});

describe('init on Dynamics 365 views', () => {
  test('Opportunity.csv: currency names mapped to ISO codes, Topic the title, Est. revenue the amount, no unique column → rowHash', async () => {
    const p = await propose('dynamics365-sales/Opportunity.csv', 'deal');
    expect(p.fields['amount.currency']).toEqual({ column: 'Currency', map: { 'US Dollar': 'USD' } });
    expect(p.notes).toContain('amount.currency: "Currency" holds currency names; they are mapped to ISO-4217 codes: "US Dollar" → USD');
    expect(p.fields.title).toEqual({ column: 'Topic' });
    expect(p.fields['amount.value']).toEqual({ column: 'Est. revenue' });
    expect(p.fields['currentStage.value']).toEqual({ column: 'Sales Stage' });
    // issue 33: a status column's whole map (a status the sample did not show is a row error, never a guess)
    expect(p.fields.isWon).toEqual({ column: 'Status', map: { Lost: false, Won: true, Open: false } });
    expect(p.fields.externalId).toEqual({ rowHash: true });
    expect(p.notes.find((n) => n.startsWith('externalId:'))).toMatch(
      /no column is filled and unique in every sampled row: the id is made from the row's content \(rowHash\)/,
    );
  });

  test('Emails.csv: Activity Type and Direction mapped to the API words; a mostly-empty id column is never the id', async () => {
    const p = await propose('dynamics365-sales/Emails.csv', 'activity');
    expect(p.fields.type).toEqual({ column: 'Activity Type', map: { Email: 'EMAIL' } });
    expect(p.fields['source.name']).toEqual({ column: 'Direction', map: { Incoming: 'INBOUND', Outgoing: 'OUTBOUND' } });
    expect(p.fields.externalId).toEqual({ rowHash: true });
  });

  test('Appointments.csv: the kind its name tells is the type (MEET)', async () => {
    const p = await propose('dynamics365-sales/Appointments.csv', 'activity');
    expect(p.fields.type).toEqual({ const: 'MEET' });
    expect(p.notes).toContain('type: MEET, from the file name "Appointments.csv"');
  });
});

describe('an owner is a column of few distinct values', () => {
  // the shape of the Brazilian marketplace's closed deals (Olist): hex ids, the seller is the customer
  const hex = (n: number, salt: string) => `${salt}${n.toString(16).padStart(8, '0')}`.padEnd(32, 'a');
  const csv = csvOf(
    'mql_id,seller_id,sdr_id,sr_id,won_date,business_segment',
    40,
    (i) => `${hex(i, 'm')},${hex(i, 's')},${hex(i % 5, 'd')},${hex(i % 3, 'r')},26-02-2018 19:${String(i).padStart(2, '0')},pet`,
  );

  test('seller_id is distinct in every row: not the owner; sr_id is; mql_id the id; won_date the close date and isWon', () => {
    const p = proposeDeals(csv);
    const f = p.fields;
    expect(f.externalId).toEqual({ column: 'mql_id' });
    expect(f.ownerExternalId).toEqual({ column: 'sr_id' });
    expect(p.notes).toContain('ownerExternalId: "seller_id" is distinct in every sampled row (40 of 40): not an owner; "sr_id" is (3 distinct values)');
    expect(f.closeDate).toEqual({ column: 'won_date', format: 'DD-MM-YYYY' });
    expect(f.isWon).toEqual({ column: 'won_date', map: {}, otherwise: true, default: false });
  });
});

describe('init on the Maven CRM sample (crm-sales-opportunities)', () => {
  test('sales_pipeline.csv: close_value empty on open deals gets default 0, with a check line saying how to refuse them instead', async () => {
    const p = await propose('crm-sales-opportunities/sales_pipeline.csv', 'deal');
    expect(p.fields['amount.value']).toEqual({ column: 'close_value', default: '0' });
    expect(p.notes).toContain(
      'amount.value: "close_value" is empty in 23 of 200 sampled rows (open deals, usually): those are sent as 0; remove "default" to have them refused instead',
    );
  });
});

describe('init on a Bitrix24 deal export (its field codes as headers)', () => {
  // the shape of a real Bitrix24 export (STAGE_ID, ASSIGNED_BY_ID holding names, OPPORTUNITY as 0.00)
  const csv = csvOf(
    'ID,STAGE_ID,ASSIGNED_BY_ID,OPPORTUNITY,BEGINDATE,CLOSEDATE,CLOSED,TITLE',
    30,
    (i) =>
      `${11200 + i},${i % 4 ? 'Сделка провалена' : 'C6:WON'},${['Ломодиги', 'Потхыфедё', 'Йезэф'][i % 3]},${i % 5 ? `${i * 1000}.00` : ''},2021-05-08T03:00:00+03:00,2021-05-13T03:00:00+03:00,Y,Сделка ${i}`,
  );

  test('ASSIGNED_BY_ID is the owner and OPPORTUNITY the amount, not custom fields', () => {
    const p = proposeDeals(csv);
    const f = p.fields;
    expect(f.ownerExternalId).toEqual({ column: 'ASSIGNED_BY_ID' });
    expect(f['amount.value']).toMatchObject({ column: 'OPPORTUNITY' });
    expect(f.title).toEqual({ column: 'TITLE' });
    expect(f.isWon).toEqual({ column: 'STAGE_ID', map: { 'C6:WON': true }, otherwise: false });
    expect(p.custom.map((c) => c.column)).not.toContain('OPPORTUNITY');
  });
});

describe('init on HubSpot deals whose stage is a family of date columns (date_entered_<stage>)', () => {
  const csv = readFileSync(join(import.meta.dirname, '../../fixtures/hubspot-stages/deals.csv'), 'utf8');

  test('the current stage is the latest of the family, isWon its won stage; without a pipeline the history waits for it', () => {
    const p = proposeDeals(csv);
    const f = p.fields;
    expect(f['currentStage.value']).toEqual({ latestOf: 'date_entered_*' });
    expect(f['currentStage.occurredAt']).toEqual({ latestOf: 'date_entered_*', take: 'date' });
    expect(f.isWon).toEqual({ latestOf: 'date_entered_*', map: { closedwon: true }, otherwise: false });
    expect(Object.keys(f).filter((k) => k.startsWith('stages['))).toEqual([]);
    expect(p.fillIn.map((x) => x.path)).toEqual(['fields.currentStage.pipelineName.const']);
    expect(p.mapped).toContainEqual({ field: 'currentStage.value', source: 'the latest of "date_entered_*"' });
    expect(p.notes).toContain('timeZone: times without an offset are read as UTC; set "timeZone" (e.g. America/Sao_Paulo) if they are local times');
    expect(p.custom.filter((c) => c.column.startsWith('date_entered_'))).toEqual([]);
  });

  test('with a pipeline column, the history too: one stage per column, left out where its date is empty', () => {
    const withPipeline = csv.replace(/^hs_object_id,/, 'pipeline,hs_object_id,').replace(/\n(?=\d)/g, '\nSales Pipeline,');
    const p = proposeDeals(withPipeline);
    const f = p.fields;
    expect(f['currentStage.pipelineName']).toEqual({ column: 'pipeline' });
    expect(f['stages[4].value']).toEqual({ const: 'closedlost' });
    expect(f['stages[4].pipelineName']).toEqual({ column: 'pipeline' });
    expect(f['stages[4].occurredAt']).toEqual({ column: 'date_entered_closedlost', dropElementIfEmpty: true });
    expect(p.fillIn).toEqual([]);
  });
});

// The Bitrix-shaped export's activities say call, email and task: the map of the words init knows
// was dropped because one word (task) is not an API type, so "call" and "email" went as written, a
// warning a row. The words it knows are mapped; the others are mapped to themselves, and said.
test('activity types: the known words mapped (call → CALL), an unknown one kept as written and said; none known: no map', () => {
  const { header, records } = rowsFromCsv(csvOf('activity_id,activity_type,subject', 4, (i) => `A${i},${['call', 'email', 'task', 'call'][i]},s${i}`));
  const p = proposeProfile({ resource: 'activity', header, rows: records.map((r) => r.row) });
  expect((p.profile.fields as Record<string, unknown>).type).toEqual({ column: 'activity_type', map: { call: 'CALL', email: 'EMAIL', task: 'task' } });
  expect(p.notes).toContain(
    'type: "activity_type": "task" is none of the types the API shows (CALL, EMAIL, MEET): sent as written; map it to one of them if it is one',
  );
  const none = rowsFromCsv(csvOf('activity_id,activity_type,subject', 2, (i) => `A${i},${['visit', 'chat'][i]},s${i}`));
  const q = proposeProfile({ resource: 'activity', header: none.header, rows: none.records.map((r) => r.row) });
  expect((q.profile.fields as Record<string, Record<string, unknown>>).type?.map).toBeUndefined();
});
