// Every rule of the zod contract (src/contract), as the one-line problems users and the sandbox see.
import { describe, expect, test } from 'vitest';
import { itemSchema } from '../src/contract/items.js';
import { contractWarnings, formatProblem, toFieldProblems } from '../src/contract/issues.js';
import type { Method, Resource } from '../src/contract/resources.js';

const deal = {
  externalId: 'D1',
  title: 'Big deal',
  ownerExternalId: 'ana',
  agentExternalId: 'bruno',
  isWon: true,
  amount: { value: '1234.56', currency: 'BRL' },
};
const activity = { externalId: 'T1', type: 'CALL', ownerExternalId: 'ana', source: { name: 'OUTBOUND' } };
const account = { externalId: 'A1', name: 'Acme', type: 'COMPANY' };
const salesProfile = { externalId: 'ana', email: 'ana@example.com', profile: { firstName: 'Ana', lastName: 'Souza' } };
const VALID: Record<Resource, Record<string, unknown>> = { deal, activity, account, 'sales-profile': salesProfile };
const cf = (extra: Record<string, unknown> = {}) => ({ key: 'region', type: 'string', value: 'south', name: 'Region', ...extra });

function problems(resource: Resource, method: Method, item: unknown): string[] {
  const r = itemSchema(resource, method).safeParse(item);
  return r.success ? [] : toFieldProblems(r.error.issues).map(formatProblem);
}
const without = (item: Record<string, unknown>, field: string) => Object.fromEntries(Object.entries(item).filter(([k]) => k !== field));
const warnings = (resource: Resource, item: Record<string, unknown>, method: Method = 'post') => contractWarnings(resource, method, item).map(formatProblem);

describe('required fields per kind and method', () => {
  test.each([
    ['deal', ['externalId', 'title', 'ownerExternalId', 'agentExternalId', 'isWon', 'amount']],
    ['activity', ['externalId', 'type', 'ownerExternalId', 'source']],
    ['account', ['externalId', 'name', 'type']],
    ['sales-profile', ['externalId', 'email', 'profile']],
  ] as const)('POST %s requires %j', (resource, required) => {
    expect(problems(resource, 'post', VALID[resource])).toEqual([]);
    for (const field of required) expect(problems(resource, 'post', without(VALID[resource], field)), field).toEqual([`${field}: is required`]);
  });
  test('POST deal: amount needs value and currency; exchangeRate, stages, closeDate, customFields are optional', () => {
    expect(problems('deal', 'post', { ...deal, amount: {} })).toEqual(['amount.value: is required', 'amount.currency: is required']);
    expect(problems('deal', 'post', { ...deal, amount: { ...deal.amount, exchangeRate: '5.1' } })).toEqual([]);
    expect(problems('deal', 'post', { ...deal, currentStage: { pipelineName: 'P', value: 'Won' }, stages: [], closeDate: null, customFields: [] })).toEqual([]);
    expect(problems('deal', 'post', { ...deal, currentStage: { value: 'Won' } })).toEqual(['currentStage.pipelineName: is required']);
  });
  test('POST sales-profile: profile needs firstName; lastName may be empty', () => {
    expect(problems('sales-profile', 'post', { ...salesProfile, profile: { firstName: 'Cher', lastName: '' } })).toEqual([]);
    expect(problems('sales-profile', 'post', { ...salesProfile, profile: { lastName: 'X' } })).toEqual(['profile.firstName: is required']);
  });
  test.each(['deal', 'activity', 'account', 'sales-profile'] as const)('PATCH %s requires only externalId', (resource) => {
    expect(problems(resource, 'patch', { externalId: 'X1' })).toEqual([]);
    expect(problems(resource, 'patch', {})).toEqual(['externalId: is required']);
  });
  test('items must be objects', () => {
    expect(problems('deal', 'post', null)).toEqual(['expected object, received null']);
    expect(problems('account', 'patch', [])).toEqual(['expected object, received array']);
  });
});

describe('the PATCH differences the spec documents', () => {
  test('deal: the same shape as POST (a full deal is a valid PATCH)', () => {
    expect(problems('deal', 'patch', { ...deal, currentStage: { pipelineName: 'P', value: 'Won' }, closeDate: '2024-05-01', customFields: [cf()] })).toEqual(
      [],
    );
    expect(problems('deal', 'patch', { externalId: 'D1', amount: { value: '1', currency: 'USX' } })).toEqual([
      'amount.currency: "USX" is not an ISO-4217 currency code',
    ]);
  });
  test('activity: associated in POST only', () => {
    const associated = { accountExternalId: 'A1', dealExternalId: 'D1' };
    expect(problems('activity', 'post', { ...activity, associated })).toEqual([]);
    expect(problems('activity', 'post', { ...activity, associated: {} })).toEqual([]);
    expect(problems('activity', 'post', { ...activity, associated: { contactExternalId: 'C' } })).toEqual([
      'associated: unknown field "contactExternalId" (not part of the API; not sent)',
    ]);
    expect(problems('activity', 'patch', { externalId: 'T1', associated })).toEqual(['unknown field "associated" (not part of the API; not sent)']);
    expect(problems('activity', 'patch', { ...activity, type: 'EMAIL' })).toEqual([]);
  });
  test('account: type in POST only', () => {
    expect(problems('account', 'patch', { externalId: 'A1', name: 'Acme 2' })).toEqual([]);
    expect(problems('account', 'patch', account)).toEqual(['unknown field "type" (not part of the API; not sent)']);
  });
  test('sales-profile: email in POST only', () => {
    expect(problems('sales-profile', 'patch', { externalId: 'ana', profile: { firstName: 'Ana', lastName: 'S' } })).toEqual([]);
    expect(problems('sales-profile', 'patch', salesProfile)).toEqual(['unknown field "email" (not part of the API; not sent)']);
  });
});

describe('custom fields', () => {
  test.each(['deal', 'activity', 'account'] as const)('%s: name is required, and customFields cannot be null', (resource) => {
    expect(problems(resource, 'post', { ...VALID[resource], customFields: [cf()] })).toEqual([]);
    expect(problems(resource, 'post', { ...VALID[resource], customFields: [without(cf(), 'name')] })).toEqual(['customFields[0].name: is required']);
    expect(problems(resource, 'post', { ...VALID[resource], customFields: null })).toEqual(['customFields: expected array, received null']);
    expect(problems(resource, 'patch', { externalId: 'X', customFields: null })).toEqual(['customFields: expected array, received null']);
  });
  test('sales-profile: no name, and customFields may be null (POST and PATCH)', () => {
    expect(problems('sales-profile', 'post', { ...salesProfile, customFields: [without(cf(), 'name')] })).toEqual([]);
    expect(problems('sales-profile', 'post', { ...salesProfile, customFields: [cf()] })).toEqual([
      'customFields[0]: unknown field "name" (not part of the API; not sent)',
    ]);
    expect(problems('sales-profile', 'post', { ...salesProfile, customFields: null })).toEqual([]);
    expect(problems('sales-profile', 'patch', { externalId: 'ana', customFields: null })).toEqual([]);
  });
  test('the value matches the type', () => {
    const check = (type: string, value: unknown) => problems('deal', 'post', { ...deal, customFields: [cf({ type, value })] });
    expect(check('string', 'x')).toEqual([]);
    expect(check('number', 3.5)).toEqual([]);
    expect(check('boolean', false)).toEqual([]);
    expect(check('number', '1')).toEqual(['customFields[0].value: "1" is a string but type is "number"']);
    expect(check('boolean', 'true')).toEqual(['customFields[0].value: "true" is a string but type is "boolean"']);
    expect(check('string', 7)).toEqual(['customFields[0].value: 7 is a number but type is "string"']);
    expect(check('string', null)).toHaveLength(1);
  });
  test('key and type must not be empty; unknown fields in an element are reported', () => {
    expect(problems('deal', 'post', { ...deal, customFields: [cf({ key: '' })] })).toEqual(['customFields[0].key: must not be empty']);
    expect(problems('deal', 'post', { ...deal, customFields: [cf({ type: ' ' })] })).toEqual(['customFields[0].type: must not be empty']);
    expect(problems('deal', 'post', { ...deal, customFields: [cf(), cf({ label: 'x' })] })).toEqual([
      'customFields[1]: unknown field "label" (not part of the API; not sent)',
    ]);
  });
});

describe('field formats', () => {
  const amount = (a: Record<string, unknown>) => problems('deal', 'post', { ...deal, amount: { value: '1', currency: 'USD', ...a } });
  test('currency: ISO-4217 codes as the runtime knows them, upper case', () => {
    for (const currency of ['USD', 'EUR', 'BRL', 'MXN', 'JPY']) expect(amount({ currency }), currency).toEqual([]);
    for (const currency of ['USX', 'usd', 'US', 'DOLLAR', ''])
      expect(amount({ currency }), currency).toEqual([`amount.currency: ${JSON.stringify(currency)} is not an ISO-4217 currency code`]);
  });
  test('decimal strings for value and exchangeRate', () => {
    for (const value of ['0', '1234.56', '-1', '0.0001', '100000000000000000000.5']) expect(amount({ value }), value).toEqual([]);
    for (const value of ['1,5', '1e3', '', ' 1', '1.', '.5', '+1', '1 000', 'NaN']) {
      expect(amount({ value }), value).toEqual([`amount.value: ${JSON.stringify(value)} is not a decimal string (digits, optional "-" and "." only)`]);
    }
    expect(amount({ value: 12 })).toEqual(['amount.value: expected string, received number']);
    expect(amount({ exchangeRate: '5,2' })).toEqual(['amount.exchangeRate: "5,2" is not a decimal string (digits, optional "-" and "." only)']);
  });
  test('closeDate: date, date-time with offset, or null', () => {
    const close = (closeDate: unknown) => problems('deal', 'post', { ...deal, closeDate });
    for (const ok of ['2024-05-01', '2024-02-29', '2024-05-01T10:00:00Z', '2024-05-01T10:00:00.123-03:00', '2024-05-01T10:00:00+05:30', null])
      expect(close(ok), String(ok)).toEqual([]);
    for (const bad of ['2024-02-30', '2023-02-29', '2024-13-01', '2024-05-01T10:00:00', '01/05/2024', '2024-5-1', '']) {
      expect(close(bad), bad).toEqual([`closeDate: ${JSON.stringify(bad)} is not an ISO-8601 date or date-time with offset`]);
    }
    expect(close(1714557600)).toEqual(['closeDate: 1714557600 is not an ISO-8601 date or date-time with offset']);
  });
  test('occurredAt: a date-time with offset, in currentStage and in every element of stages', () => {
    const stage = (occurredAt: unknown) => ({ pipelineName: 'P', value: 'Won', occurredAt });
    expect(problems('deal', 'post', { ...deal, currentStage: stage('2024-05-01T10:00:00Z'), stages: [stage('2024-05-01T09:00:00-03:00')] })).toEqual([]);
    expect(problems('deal', 'post', { ...deal, currentStage: stage('2024-05-01') })).toEqual([
      'currentStage.occurredAt: "2024-05-01" is not an ISO-8601 date-time with offset (YYYY-MM-DDThh:mm:ssZ)',
    ]);
    expect(problems('deal', 'post', { ...deal, stages: [stage('2024-05-01T10:00:00Z'), stage('2024-05-01T10:00:00')] })).toEqual([
      'stages[1].occurredAt: "2024-05-01T10:00:00" is not an ISO-8601 date-time with offset (YYYY-MM-DDThh:mm:ssZ)',
    ]);
  });
  test('email', () => {
    for (const email of ['a@b.co', 'first.last+tag@example.com.br']) expect(problems('sales-profile', 'post', { ...salesProfile, email }), email).toEqual([]);
    for (const email of ['nope', 'a@', '@b.com', 'a b@c.com', ''])
      expect(problems('sales-profile', 'post', { ...salesProfile, email }), email).toEqual([`email: ${JSON.stringify(email)} is not a valid e-mail address`]);
  });
  test('other JSON types are named', () => {
    expect(problems('deal', 'post', { ...deal, isWon: 'yes' })).toEqual(['isWon: expected boolean, received string']);
    expect(problems('deal', 'post', { ...deal, stages: {} })).toEqual(['stages: expected array, received object']);
  });
});

describe('identifiers and unknown fields', () => {
  test.each(['deal', 'activity', 'account', 'sales-profile'] as const)('%s: empty or blank externalId is rejected, POST and PATCH', (resource) => {
    for (const externalId of ['', '   ']) {
      expect(problems(resource, 'post', { ...VALID[resource], externalId })).toEqual(['externalId: must not be empty']);
      expect(problems(resource, 'patch', { externalId })).toEqual(['externalId: must not be empty']);
    }
    expect(problems(resource, 'post', { ...VALID[resource], externalId: 42 })).toEqual(['externalId: expected string, received number']);
  });
  test('owner and agent ids must not be empty either', () => {
    expect(problems('deal', 'post', { ...deal, ownerExternalId: '', agentExternalId: ' ' })).toEqual([
      'ownerExternalId: must not be empty',
      'agentExternalId: must not be empty',
    ]);
  });
  test('extra fields are reported at every level, all at once', () => {
    expect(problems('deal', 'post', { ...deal, id: 1, stage: 'x', amount: { ...deal.amount, cents: 1 } })).toEqual([
      'amount: unknown field "cents" (not part of the API; not sent)',
      'unknown fields "id", "stage" (not part of the API; not sent)',
    ]);
    expect(problems('activity', 'post', { ...activity, source: { name: 'INBOUND', channel: 'web' } })).toEqual([
      'source: unknown field "channel" (not part of the API; not sent)',
    ]);
    expect(problems('sales-profile', 'post', { ...salesProfile, profile: { firstName: 'A', lastName: 'B', middleName: 'C' } })).toEqual([
      'profile: unknown field "middleName" (not part of the API; not sent)',
    ]);
  });
});

describe('"values seen" enumerations: other values pass with a warning', () => {
  test('the documented values give no warning', () => {
    for (const type of ['CALL', 'EMAIL', 'MEET'])
      for (const name of ['OUTBOUND', 'INBOUND']) expect(warnings('activity', { ...activity, type, source: { name } })).toEqual([]);
    for (const type of ['COMPANY', 'CONTACT', 'CLIENT']) expect(warnings('account', { ...account, type })).toEqual([]);
    for (const type of ['string', 'number', 'boolean']) expect(warnings('deal', { ...deal, customFields: [cf({ type })] })).toEqual([]);
  });
  test('activity type and source.name', () => {
    const item = { ...activity, type: 'VISIT', source: { name: 'PARTNER' } };
    expect(problems('activity', 'post', item)).toEqual([]);
    expect(warnings('activity', item)).toEqual([
      'type: "VISIT" is not among the values the API documents (CALL, EMAIL, MEET); sent as is',
      'source.name: "PARTNER" is not among the values the API documents (OUTBOUND, INBOUND); sent as is',
    ]);
    expect(warnings('activity', { externalId: 'T1', type: 'call' }, 'patch')).toEqual([
      'type: "call" is not among the values the API documents (CALL, EMAIL, MEET); sent as is',
    ]);
  });
  test('account type', () => {
    const item = { ...account, type: 'PARTNER' };
    expect(problems('account', 'post', item)).toEqual([]);
    expect(warnings('account', item)).toEqual(['type: "PARTNER" is not among the values the API documents (COMPANY, CONTACT, CLIENT); sent as is']);
  });
  test('custom-field type: any value is accepted for an unknown type', () => {
    const item = { ...deal, customFields: [cf(), cf({ type: 'date', value: '2024-05-01' }), cf({ type: 'currency', value: 12 })] };
    expect(problems('deal', 'post', item)).toEqual([]);
    expect(warnings('deal', item)).toEqual([
      'customFields[1].type: "date" is not among the values the API documents (string, number, boolean); sent as is',
      'customFields[2].type: "currency" is not among the values the API documents (string, number, boolean); sent as is',
    ]);
    const profileItem = { ...salesProfile, customFields: [{ key: 'k', type: 'list', value: 'a' }] };
    expect(problems('sales-profile', 'post', profileItem)).toEqual([]);
    expect(warnings('sales-profile', profileItem)).toEqual([
      'customFields[0].type: "list" is not among the values the API documents (string, number, boolean); sent as is',
    ]);
  });
  test('an empty value is an error, not a warning', () => {
    expect(problems('activity', 'post', { ...activity, type: '' })).toEqual(['type: must not be empty']);
    expect(problems('account', 'post', { ...account, type: ' ' })).toEqual(['type: must not be empty']);
  });
});
