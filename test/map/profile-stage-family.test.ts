// Issue 33 item 6: HubSpot keeps a deal's stage in a family of date columns, one per stage
// (`date_entered_appointmentscheduled`, `date_entered_closedwon`). The profile language says the
// current stage is the latest-filled of the family (`latestOf`, the stage's name from the column's
// name, mapped like any text; `take: "date"` for its date), and that an element of an array field
// is left out when its deciding field is empty (`dropElementIfEmpty`): stage history only where a
// date is filled. `stageDateFamilies` recognises such families in a header, for init.
import { describe, expect, test } from 'vitest';
import { ConfigError } from '../../src/errors.js';
import { createMapper, parseProfile } from '../../src/map/index.js';
import { stageDateFamilies, stageFamilyFields } from '../../src/map/profile-family.js';
import type { MapResult } from '../../src/map/types.js';
import { row } from './helpers.js';

const HEADER = [
  'Deal ID',
  'Deal Name',
  'date_entered_appointmentscheduled',
  'date_entered_qualifiedtobuy',
  'date_entered_closedwon',
  'date_entered_closedlost',
];
const BASE = {
  externalId: 'Deal ID',
  title: 'Deal Name',
  ownerExternalId: { const: 'ana' },
  agentExternalId: { const: 'ana' },
  isWon: { const: false },
  'amount.value': { const: '0' },
  'amount.currency': { const: 'USD' },
};
const STAGES = ['appointmentscheduled', 'qualifiedtobuy', 'closedwon', 'closedlost'];
/** One stage-history element per column of the family, each left out when its date is empty. */
const history = Object.fromEntries(
  STAGES.flatMap((stage, i) => [
    [`stages[${i}].pipelineName`, { const: 'Sales Pipeline' }],
    [`stages[${i}].value`, { const: stage }],
    [`stages[${i}].occurredAt`, { column: `date_entered_${stage}`, dropElementIfEmpty: true }],
  ]),
);
const PROFILE = {
  resource: 'deal',
  fields: {
    ...BASE,
    'currentStage.pipelineName': { const: 'Sales Pipeline' },
    'currentStage.value': { latestOf: 'date_entered_*', map: { closedwon: 'Closed won', closedlost: 'Closed lost' }, otherwise: 'Open' },
    'currentStage.occurredAt': { latestOf: 'date_entered_*', take: 'date' },
    ...history,
  },
};

function mapper(profile: unknown, header: string[] | 'json' = HEADER) {
  return createMapper({ resource: 'deal', header: header === 'json' ? undefined : header, profile: parseProfile(profile, 'p.json'), file: 'deals.csv' });
}
const item = (r: MapResult) => {
  if (r.kind !== 'item') throw new Error(JSON.stringify(r));
  return r.item;
};
const deal = (dates: Partial<Record<string, string>>, id = 'D1') =>
  row({ 'Deal ID': id, 'Deal Name': 'Mesa', ...Object.fromEntries(STAGES.map((s) => [`date_entered_${s}`, dates[s] ?? ''])) });

describe('latestOf: the current stage from a family of date columns', () => {
  test("the stage of the latest date, by the column's name, mapped; its date with take: date", () => {
    const m = mapper(PROFILE);
    const won = item(m.map(deal({ appointmentscheduled: '2024-01-10 09:00', qualifiedtobuy: '2024-02-01 10:30', closedwon: '2024-03-05 16:00' })));
    expect(won.currentStage).toEqual({ pipelineName: 'Sales Pipeline', value: 'Closed won', occurredAt: '2024-03-05T16:00:00Z' });
    // not the last column filled: the latest date (a deal moved back to an earlier stage)
    const back = item(m.map(deal({ appointmentscheduled: '2024-04-01', qualifiedtobuy: '2024-02-01' })));
    expect(back.currentStage).toEqual({ pipelineName: 'Sales Pipeline', value: 'Open', occurredAt: '2024-04-01T00:00:00Z' });
  });

  test('without a map, the name as the column holds it; ties go to the later column', () => {
    const m = mapper({
      resource: 'deal',
      fields: { ...BASE, 'currentStage.pipelineName': { const: 'P' }, 'currentStage.value': { latestOf: 'date_entered_*' } },
    });
    expect(item(m.map(deal({ appointmentscheduled: '2024-01-10', qualifiedtobuy: '2024-01-10' }))).currentStage).toEqual({
      pipelineName: 'P',
      value: 'qualifiedtobuy',
    });
  });

  test('no date filled: an empty value, so the default applies', () => {
    const m = mapper({
      resource: 'deal',
      fields: { ...BASE, 'currentStage.pipelineName': { const: 'P' }, 'currentStage.value': { latestOf: 'date_entered_*', default: 'New' } },
    });
    expect(item(m.map(deal({}))).currentStage).toEqual({ pipelineName: 'P', value: 'New' });
  });

  test('a filled cell that is not a date makes the row invalid, naming that column', () => {
    const r = mapper(PROFILE).map(deal({ appointmentscheduled: '2024-01-10', closedwon: 'soon' }));
    expect(r.kind).toBe('invalid');
    // each field that reads the cell says so: the current stage's name and date here
    expect(r.kind === 'invalid' && r.problems.map((p) => `${p.column} → ${p.field}: ${p.reason}`)).toEqual([
      expect.stringMatching(/^date_entered_closedwon → currentStage\.value: "soon" is not a date/),
      expect.stringMatching(/^date_entered_closedwon → currentStage\.occurredAt: "soon" is not a date/),
      expect.stringMatching(/^date_entered_closedwon → stages\[2\]\.occurredAt: "soon" is not a date/),
    ]);
  });

  test('labels with the stage in quotes; JSON records (keys known per record); a family no column matches is a profile error', () => {
    const header = ['Record ID', 'Deal Name', 'Date entered "Appointment Scheduled (Sales Pipeline)"', 'Date entered "Closed Won (Sales Pipeline)"'];
    const fields = { ...BASE, externalId: 'Record ID', 'currentStage.pipelineName': { const: 'P' }, 'currentStage.value': { latestOf: 'Date entered "*"' } };
    const labelled = row({ 'Record ID': '1', 'Deal Name': 'x', [header[2]!]: '2024-01-01', [header[3]!]: '2024-02-01' });
    expect(item(mapper({ resource: 'deal', fields }, header).map(labelled)).currentStage).toEqual({ pipelineName: 'P', value: 'Closed Won (Sales Pipeline)' });
    expect(item(mapper({ resource: 'deal', fields }, 'json').map(labelled)).currentStage).toEqual({ pipelineName: 'P', value: 'Closed Won (Sales Pipeline)' });
    expect(() => mapper({ resource: 'deal', fields: { ...fields, 'currentStage.value': { latestOf: 'Entered * date' } } }, header)).toThrow(
      /fields\.currentStage\.value\.latestOf: no column of deals\.csv matches "Entered \* date"/,
    );
  });
});

describe('dropElementIfEmpty: stage history only where its date is filled', () => {
  test('the elements whose date is empty are left out, the others close up in order', () => {
    const m = mapper(PROFILE);
    expect(item(m.map(deal({ appointmentscheduled: '2024-01-10', closedlost: '2024-02-01' }))).stages).toEqual([
      { pipelineName: 'Sales Pipeline', value: 'appointmentscheduled', occurredAt: '2024-01-10T00:00:00Z' },
      { pipelineName: 'Sales Pipeline', value: 'closedlost', occurredAt: '2024-02-01T00:00:00Z' },
    ]);
    expect(item(m.map(deal({}))).stages).toBeUndefined();
  });

  test('without it, the element stays with its constants (the old behaviour); a bad date is still said', () => {
    const kept = { ...PROFILE, fields: { ...PROFILE.fields, 'stages[1].occurredAt': { column: 'date_entered_qualifiedtobuy' } } };
    expect(item(mapper(kept).map(deal({}))).stages).toEqual([{ pipelineName: 'Sales Pipeline', value: 'qualifiedtobuy' }]);
    const r = mapper(PROFILE).map(deal({ qualifiedtobuy: '31/02/2024' }));
    expect(r.kind === 'invalid' && r.problems.map((p) => `${p.field}: ${p.reason}`)).toContain('stages[1].occurredAt: "31/02/2024" is not a date that exists');
  });

  test('only a field of an array element can leave its element out', () => {
    try {
      parseProfile({ resource: 'deal', fields: { ...BASE, closeDate: { column: 'x', dropElementIfEmpty: true } } }, 'p.json');
      throw new Error('accepted');
    } catch (error) {
      expect(error).toBeInstanceOf(ConfigError);
      expect((error as Error).message).toContain(
        'fields.closeDate.dropElementIfEmpty: only a field of an array element (stages[0].occurredAt) leaves its element out; closeDate is in none',
      );
    }
  });

  test('take goes with latestOf', () => {
    expect(() => parseProfile({ resource: 'deal', fields: { ...BASE, closeDate: { column: 'x', take: 'date' } } }, 'p.json')).toThrow(
      /fields\.closeDate\.take: goes with "latestOf"/,
    );
  });
});

describe("stageDateFamilies: a header's families of stage-date columns, for init", () => {
  test.each([
    [HEADER, [{ pattern: 'date_entered_*', names: STAGES }]],
    [
      ['Record ID', 'hs_v2_date_entered_closedwon', 'hs_v2_date_entered_123456', 'hs_v2_date_exited_closedwon', 'date_entered_x'],
      [{ pattern: 'hs_v2_date_entered_*', names: ['closedwon', '123456'] }],
    ],
    [
      [
        'Deal Name',
        'Date entered "Appointment Scheduled (Sales Pipeline)"',
        'Date entered “Closed Won (Sales Pipeline)”',
        'Date entered "Closed Won (Sales Pipeline)"',
      ],
      [{ pattern: 'Date entered "*"', names: ['Appointment Scheduled (Sales Pipeline)', 'Closed Won (Sales Pipeline)'] }],
    ],
    [
      ['Entered Appointment Scheduled date', 'Entered Closed Won date', 'Close Date'],
      [{ pattern: 'Entered * date', names: ['Appointment Scheduled', 'Closed Won'] }],
    ],
    [['Deal Stage', 'Close Date', 'Create Date', 'date_entered_closedwon'], []],
    // shapes seen in public code that reads HubSpot: a warehouse's flattened properties, legacy and v2 side by side
    [
      [
        'properties_hs_v2_date_entered_closedwon',
        'properties_hs_v2_date_entered_1066193534',
        'hs_date_entered_closedwon',
        'hs_date_entered_closedlost',
        'hs_date_entered_contractsent',
      ],
      [
        { pattern: 'hs_date_entered_*', names: ['closedwon', 'closedlost', 'contractsent'] },
        { pattern: 'properties_hs_v2_date_entered_*', names: ['closedwon', '1066193534'] },
      ],
    ],
    [
      [
        'Date entered "Meeting Scheduled (Placements — Inbound Sales Stage)"',
        'Date entered "Closed Won (Placements — Inbound Sales Stage)"',
        'Date exited "Closed Won (Placements — Inbound Sales Stage)"',
      ],
      [{ pattern: 'Date entered "*"', names: ['Meeting Scheduled (Placements — Inbound Sales Stage)', 'Closed Won (Placements — Inbound Sales Stage)'] }],
    ],
  ])('%j', (header, expected) => {
    expect(stageDateFamilies(header).map((f) => ({ pattern: f.pattern, names: f.columns.map((c) => c.name) }))).toEqual(expected);
  });
});

describe('stageFamilyFields: the fields init may propose for a family', () => {
  test('property names: the pipeline as given; the profile maps as written by hand', () => {
    const [family] = stageDateFamilies(HEADER);
    const fields = stageFamilyFields(family!, { const: 'Sales Pipeline' });
    expect(fields['currentStage.value']).toEqual({ latestOf: 'date_entered_*' });
    expect(fields['stages[2].occurredAt']).toEqual({ column: 'date_entered_closedwon', dropElementIfEmpty: true });
    const m = mapper({ resource: 'deal', fields: { ...BASE, ...fields } });
    expect(item(m.map(deal({ appointmentscheduled: '2024-01-10', closedwon: '2024-02-01' })))).toMatchObject({
      currentStage: { pipelineName: 'Sales Pipeline', value: 'closedwon', occurredAt: '2024-02-01T00:00:00Z' },
      stages: [
        { pipelineName: 'Sales Pipeline', value: 'appointmentscheduled' },
        { pipelineName: 'Sales Pipeline', value: 'closedwon' },
      ],
    });
  });

  test("labels that name the pipeline in brackets: stage and pipeline read from the column's name", () => {
    const header = ['Record ID', 'Deal Name', 'Date entered "Appointment Scheduled (Sales Pipeline)"', 'Date entered "Closed Won (Renewals)"'];
    const [family] = stageDateFamilies(header);
    const fields = stageFamilyFields(family!, { const: '<FILL IN: pipeline>' });
    const m = mapper({ resource: 'deal', fields: { ...BASE, externalId: 'Record ID', ...fields } }, header);
    const r = row({ 'Record ID': '1', 'Deal Name': 'x', [header[2]!]: '2024-01-01 10:00', [header[3]!]: '2024-02-01 11:00' });
    expect(item(m.map(r))).toMatchObject({
      currentStage: { pipelineName: 'Renewals', value: 'Closed Won', occurredAt: '2024-02-01T11:00:00Z' },
      stages: [
        { pipelineName: 'Sales Pipeline', value: 'Appointment Scheduled', occurredAt: '2024-01-01T10:00:00Z' },
        { pipelineName: 'Renewals', value: 'Closed Won', occurredAt: '2024-02-01T11:00:00Z' },
      ],
    });
  });
});
